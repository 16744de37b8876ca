#include "floe/server/location_policy.h"

#include "floe/base/strings.h"

namespace floe::server {

namespace {

struct SplitLocation {
  std::string scheme;  // "file" for local paths
  std::vector<std::string> segments;
  bool has_dot_segment = false;
};

SplitLocation SplitOf(std::string_view location) {
  SplitLocation out;
  std::string_view rest = location;
  const size_t colon = location.find(':');
  const size_t slash = location.find('/');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
    out.scheme = std::string(location.substr(0, colon));
    rest = location.substr(colon + 1);
    if (StartsWith(rest, "//")) rest = rest.substr(2);
  } else {
    out.scheme = "file";
  }
  if (out.scheme == "file" && StartsWith(rest, "localhost/")) rest = rest.substr(9);
  for (std::string_view segment : Split(rest, '/')) {
    if (segment.empty()) continue;
    if (segment == "." || segment == "..") out.has_dot_segment = true;
    out.segments.emplace_back(segment);
  }
  return out;
}

}  // namespace

LocationPolicy::LocationPolicy(std::string warehouse) : warehouse_(std::move(warehouse)) {
  SplitLocation split = SplitOf(warehouse_);
  scheme_ = std::move(split.scheme);
  segments_ = std::move(split.segments);
}

Status LocationPolicy::Check(std::string_view location, std::string_view what) const {
  if (location.empty()) return Status::InvalidArgument(StrCat(what, " is empty"));
  SplitLocation split = SplitOf(location);
  if (split.has_dot_segment) {
    return Status::InvalidArgument(StrCat(what, " ", Quote(location), " has a '.' or '..' segment"));
  }
  bool inside = split.scheme == scheme_ && split.segments.size() >= segments_.size();
  for (size_t i = 0; inside && i < segments_.size(); ++i) inside = split.segments[i] == segments_[i];
  if (!inside) {
    return Status::PermissionDenied(
        StrCat(what, " ", Quote(location), " is outside the warehouse ", Quote(warehouse_)));
  }
  return Status::OK();
}

}  // namespace floe::server
