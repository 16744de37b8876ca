// S3Location: an s3:// or s3a:// location split into bucket and key, and the
// URL a request for it goes to under path-style or virtual-hosted addressing.
//
// Thread safety: values and pure functions.

#pragma once

#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/io/sigv4.h"

namespace floe {

struct S3Location {
  std::string scheme{};  // "s3" or "s3a", as written
  std::string bucket{};
  std::string key{};     // may be empty (a bucket or a listing prefix)
  // scheme://bucket/key, the form FileInfo paths take.
  std::string ToString() const;
};

// Splits "s3://bucket/a/b". InvalidArgument for another scheme, an empty or
// malformed bucket name (S3 rules: 3-63 of [a-z0-9.-_], letters and digits
// at the ends; upper case is accepted for legacy buckets).
Result<S3Location> ParseS3Location(std::string_view location);

// Where requests for a bucket go. Built once per client from S3Config.
struct S3Endpoint {
  std::string scheme = "https";  // "http" or "https"
  std::string host{};            // "s3.us-east-1.amazonaws.com" or "127.0.0.1:9000"
  std::string base_path{};       // a path prefix of the endpoint URL, "" usually
  bool path_style = false;

  // Parses an endpoint URL ("" = AWS in `region`); path_style as resolved
  // by the caller. InvalidArgument on a malformed URL.
  static Result<S3Endpoint> Make(std::string_view endpoint_url, std::string_view region,
                                 const bool* path_style);

  // Whether `bucket` goes in the path for this endpoint: always with
  // path_style, and for names that cannot be a DNS label (with '.' or '_' or
  // upper case).
  bool BucketInPath(std::string_view bucket) const;
  // The Host header value for a request to `bucket`.
  std::string HostFor(std::string_view bucket) const;
  // The encoded canonical URI path ("/bucket/key" or "/key").
  std::string PathFor(std::string_view bucket, std::string_view key) const;
  // The full URL with an encoded query string (already canonical).
  std::string Url(std::string_view bucket, std::string_view key, const QueryParams& query) const;
};

}  // namespace floe
