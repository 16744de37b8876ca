// The floe command line: global options, subcommands, error reporting.

#pragma once

namespace floe::cli {

// Runs the floe command line; returns the process exit code (0 ok, 1 user
// error, 2 internal error). Errors are printed as one line on stderr.
int Main(int argc, char** argv);

}  // namespace floe::cli
