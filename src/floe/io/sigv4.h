// AWS Signature Version 4 for S3 requests.
//
// spec: https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
// A request is signed over its canonical form: method, URI path (each
// segment percent-encoded once; S3 does not normalise paths), the query
// parameters sorted by encoded name then value, the signed headers
// (lower-case names, sorted, values trimmed with inner runs of spaces
// collapsed), and the SHA-256 of the payload. Every step is exposed so tests
// can check it against AWS's published vectors.
//
// Thread safety: pure functions; SigV4Signer is immutable after construction.

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floe {

using HeaderList = std::vector<std::pair<std::string, std::string>>;
using QueryParams = std::vector<std::pair<std::string, std::string>>;

// RFC 3986 percent-encoding as SigV4 wants it: unreserved characters
// (A-Z a-z 0-9 - . _ ~) stay, every other byte becomes %XX (upper-case hex).
// With encode_slash false, '/' stays (for object keys in paths).
std::string UriEncode(std::string_view s, bool encode_slash = true);

// "a=1&b=" from unencoded pairs: each name and value UriEncode()d, sorted
// by encoded name, then encoded value; a parameter without a value is "name=".
std::string CanonicalQueryString(const QueryParams& params);

// Hex SHA-256 of bytes, lower case.
std::string Sha256Hex(std::span<const uint8_t> data);
std::string Sha256Hex(std::string_view data);
// The SHA-256 of an empty payload, precomputed.
inline constexpr std::string_view kEmptyPayloadSha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

struct AwsCredentials {
  std::string access_key_id{};
  std::string secret_access_key{};
  std::string session_token{};  // empty unless temporary credentials
};

struct SigV4Input {
  std::string method{};         // "GET"
  std::string canonical_uri{};  // already encoded: "/bucket/key%20name"
  QueryParams query{};          // unencoded
  // Every header to sign, any case, including host. x-amz-date,
  // x-amz-content-sha256 (when the service wants it) and
  // x-amz-security-token are added by the caller (see SigV4Signer::Sign).
  HeaderList headers{};
  std::string payload_sha256{};  // hex, or "UNSIGNED-PAYLOAD"
};

struct SigV4Output {
  std::string canonical_request{};
  std::string string_to_sign{};
  std::string signed_headers{};  // "host;range;x-amz-date"
  std::string signature{};       // hex
  std::string authorization{};   // the Authorization header value
};

class SigV4Signer {
 public:
  SigV4Signer(AwsCredentials credentials, std::string region, std::string service);

  // Signs `input` at `amz_date` ("20150830T123600Z"). The caller sends the
  // headers it signed plus Authorization.
  SigV4Output Sign(const SigV4Input& input, std::string_view amz_date) const;

  const AwsCredentials& credentials() const { return credentials_; }
  const std::string& region() const { return region_; }

 private:
  AwsCredentials credentials_;
  std::string region_;
  std::string service_;
};

// The current UTC time as "YYYYMMDDTHHMMSSZ".
std::string AmzDateNow();

}  // namespace floe
