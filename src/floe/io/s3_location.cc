#include "floe/io/s3_location.h"

#include "floe/base/strings.h"

namespace floe {
namespace {

bool IsIpAddress(std::string_view name) {
  if (!name.empty() && name.front() == '[') return true;  // IPv6 literal
  for (char c : name) {
    if (!((c >= '0' && c <= '9') || c == '.')) return false;
  }
  return !name.empty();
}

}  // namespace

std::string S3Location::ToString() const { return StrCat(scheme, "://", bucket, key.empty() ? "" : "/", key); }

Result<S3Location> ParseS3Location(std::string_view location) {
  S3Location out;
  std::string_view rest;
  if (StartsWith(location, "s3://")) {
    out.scheme = "s3";
    rest = location.substr(5);
  } else if (StartsWith(location, "s3a://")) {
    out.scheme = "s3a";
    rest = location.substr(6);
  } else {
    return Status::InvalidArgument(StrCat("location ", Quote(location), " is not an s3:// or s3a:// location"));
  }
  const size_t slash = rest.find('/');
  out.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
  const std::string& b = out.bucket;
  bool ok = b.size() >= 3 && b.size() <= 63;
  for (char c : b) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && c != '.' && c != '-' && c != '_') ok = false;
  }
  if (ok) {
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
    ok = alnum(b.front()) && alnum(b.back());
  }
  if (!ok) {
    return Status::InvalidArgument(StrCat("location ", Quote(location), ": ", Quote(b),
                                          " is not a valid S3 bucket name (3-63 letters, digits, '.', '-')"));
  }
  return out;
}

Result<S3Endpoint> S3Endpoint::Make(std::string_view endpoint_url, std::string_view region, const bool* path_style) {
  S3Endpoint e;
  if (endpoint_url.empty()) {
    e.scheme = "https";
    e.host = StrCat("s3.", region, ".amazonaws.com");
    e.path_style = path_style ? *path_style : false;
    return e;
  }
  std::string_view rest;
  if (StartsWith(endpoint_url, "http://")) {
    e.scheme = "http";
    rest = endpoint_url.substr(7);
  } else if (StartsWith(endpoint_url, "https://")) {
    e.scheme = "https";
    rest = endpoint_url.substr(8);
  } else {
    return Status::InvalidArgument(StrCat("S3 endpoint ", Quote(endpoint_url), " must start with http:// or https://"));
  }
  const size_t slash = rest.find('/');
  e.host = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) {
    e.base_path = std::string(rest.substr(slash));
    while (!e.base_path.empty() && e.base_path.back() == '/') e.base_path.pop_back();
  }
  if (e.host.empty() || e.host.find_first_of("?#@ ") != std::string::npos) {
    return Status::InvalidArgument(StrCat("S3 endpoint ", Quote(endpoint_url), " has no usable host"));
  }
  // A bucket cannot be a subdomain of an IP address. Elsewhere the setting
  // rules; unset, localhost is path-style (what local test servers expect)
  // and every other host virtual-hosted, as the AWS SDKs do.
  std::string_view name = e.host;
  if (const size_t colon = name.rfind(':'); colon != std::string_view::npos && name.front() != '[') {
    name = name.substr(0, colon);
  }
  if (IsIpAddress(name)) {
    e.path_style = true;
  } else if (path_style != nullptr) {
    e.path_style = *path_style;
  } else {
    e.path_style = name == "localhost";
  }
  return e;
}

bool S3Endpoint::BucketInPath(std::string_view bucket) const {
  if (path_style) return true;
  for (char c : bucket) {
    if (c == '.' || c == '_' || (c >= 'A' && c <= 'Z')) return true;
  }
  return false;
}

std::string S3Endpoint::HostFor(std::string_view bucket) const {
  return BucketInPath(bucket) ? host : StrCat(bucket, ".", host);
}

std::string S3Endpoint::PathFor(std::string_view bucket, std::string_view key) const {
  std::string path = base_path;
  if (BucketInPath(bucket)) path += StrCat("/", UriEncode(bucket));
  path += "/";
  path += UriEncode(key, /*encode_slash=*/false);
  return path;
}

std::string S3Endpoint::Url(std::string_view bucket, std::string_view key, const QueryParams& query) const {
  std::string url = StrCat(scheme, "://", HostFor(bucket), PathFor(bucket, key));
  const std::string q = CanonicalQueryString(query);
  if (!q.empty()) url += "?" + q;
  return url;
}

}  // namespace floe
