// Turning a local location (plain path or file: URI) into an OS path.

#pragma once

#include <string>
#include <string_view>

#include "floe/base/result.h"

namespace floe {

struct LocalPath {
  std::string os_path;      // what open(2) takes
  std::string prefix_form;  // what was in front of it ("", "file:", "file://"), to give paths back in kind
};

// Accepts "rel/path", "/abs/path", "file:/abs", "file:///abs" and
// "file://localhost/abs". InvalidArgument for an empty location, another
// host, or a relative file: URI.
Result<LocalPath> ParseLocalPath(std::string_view location);

}  // namespace floe
