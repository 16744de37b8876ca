#include "floe/server/location_policy.h"

#include <algorithm>

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

LocationPolicy::LocationPolicy(std::string warehouse, std::vector<std::string> allowed)
    : warehouse_(std::move(warehouse)) {
  allowed.insert(allowed.begin(), warehouse_);
  for (const std::string& root : allowed) {
    SplitLocation split = SplitOf(root);
    roots_.push_back(Root{std::move(split.scheme), std::move(split.segments)});
  }
}

Status LocationPolicy::Check(std::string_view location, std::string_view what) const {
  if (location.empty()) return Status::InvalidArgument(StrCat(what, " is empty"));
  SplitLocation split = SplitOf(location);
  if (split.has_dot_segment) {
    return Status::InvalidArgument(StrCat(what, " ", Quote(location), " has a '.' or '..' segment"));
  }
  auto inside = [&](const Root& root) {
    if (split.scheme != root.scheme || split.segments.size() < root.segments.size()) return false;
    return std::equal(root.segments.begin(), root.segments.end(), split.segments.begin());
  };
  if (std::none_of(roots_.begin(), roots_.end(), inside)) {
    return Status::PermissionDenied(
        StrCat(what, " ", Quote(location), " is outside the warehouse ", Quote(warehouse_)));
  }
  return Status::OK();
}

}  // namespace floe::server
