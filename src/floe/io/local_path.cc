#include "floe/io/local_path.h"

#include "floe/base/strings.h"
#include "floe/io/file_io.h"

namespace floe {

Result<LocalPath> ParseLocalPath(std::string_view location) {
  if (location.empty()) return Status::InvalidArgument("empty location");
  if (!StartsWith(location, "file:")) {
    // Taken as a relative path, "s3://b/k" would quietly become a local
    // folder "s3:" — the object would be written where nobody looks for it.
    if (const std::string_view scheme = LocationScheme(location); !scheme.empty()) {
      return Status::InvalidArgument(StrCat("location ", Quote(location), " is not on the local disk (scheme '",
                                            scheme, "'); it needs a FileIO for '", scheme, "'"));
    }
    return LocalPath{std::string(location), ""};
  }
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
