#include "floe/io/local_path.h"

#include "floe/base/strings.h"

namespace floe {

Result<LocalPath> ParseLocalPath(std::string_view location) {
  if (location.empty()) return Status::InvalidArgument("empty location");
  if (!StartsWith(location, "file:")) return LocalPath{std::string(location), ""};
  std::string_view rest = location.substr(5);
  if (StartsWith(rest, "//")) {
    rest.remove_prefix(2);
    const size_t slash = rest.find('/');
    const std::string_view host = rest.substr(0, slash);
    if (slash == std::string_view::npos || (!host.empty() && host != "localhost")) {
      return Status::InvalidArgument(StrCat("file location ", Quote(location), " names host ", Quote(host),
                                            "; only local paths are supported"));
    }
    return LocalPath{std::string(rest.substr(slash)), StrCat("file://", host)};
  }
  if (!StartsWith(rest, "/")) {
    return Status::InvalidArgument(StrCat("file location ", Quote(location), " is not an absolute path"));
  }
  return LocalPath{std::string(rest), "file:"};
}

}  // namespace floe
