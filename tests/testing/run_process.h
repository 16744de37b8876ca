// Runs a program to completion and captures what it printed, for tests that
// exercise the floe binary as a user would.

#pragma once

#include <string>
#include <utility>
#include <vector>

namespace floe::testing {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  std::string out;
  std::string err;
};

// Runs `argv` (argv[0] is the program path) in `cwd` (empty: the current
// folder) with `env` added to the environment (NAME=value strings; an entry
// "NAME=" removes NAME). stdin is empty. Aborts the test on spawn failure.
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {},
                         const std::string& cwd = "", const std::string& stdin_data = "");

// RunProcess of the floe binary built with these tests.
ProcessResult RunFloe(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                      const std::string& cwd = "", const std::string& stdin_data = "");

// An environment for RunFloe that removes the variables floe reads its
// defaults from, so the user's own settings cannot change a test.
inline const std::vector<std::string> kCleanEnv = {"FLOE_WAREHOUSE=", "FLOE_CATALOG=", "FLOE_LOG="};

}  // namespace floe::testing
