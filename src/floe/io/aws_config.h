// S3 client configuration from properties, the AWS environment variables
// and the ~/.aws/credentials and ~/.aws/config profiles.
//
// Precedence, per setting: catalog/table properties (the names PyIceberg and
// Iceberg Java use: s3.endpoint, s3.access-key-id, s3.secret-access-key,
// s3.session-token, s3.path-style-access, client.region), then environment
// (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, AWS_REGION, AWS_DEFAULT_REGION,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), then the
// profile named by AWS_PROFILE (default "default") in the files named by
// AWS_SHARED_CREDENTIALS_FILE / AWS_CONFIG_FILE (default under $HOME/.aws).
// Credentials are taken as a set from one source, never mixed.
//
// Thread safety: pure functions of their arguments (and the files they read).

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/io/sigv4.h"

namespace floe {

struct S3Config {
  // "http://127.0.0.1:9000" or "https://host"; empty means AWS
  // (https://s3.<region>.amazonaws.com).
  std::string endpoint{};
  std::string region = "us-east-1";
  AwsCredentials credentials{};  // empty access key: requests go unsigned
  // Unset: path-style for custom endpoints whose host is an IP address or
  // localhost and for bucket names that are not DNS labels; else virtual-hosted.
  std::optional<bool> path_style{};
  int64_t connect_timeout_ms = 5000;
  // Whole-request limit; a transfer that stalls (under 1 KiB/s for
  // stall_timeout_ms) fails sooner.
  int64_t request_timeout_ms = 300000;
  int64_t stall_timeout_ms = 30000;
  // Attempts per idempotent request (1 = no retries), with exponential
  // backoff from retry_base_delay_ms, capped at retry_max_delay_ms, full jitter.
  int max_attempts = 5;
  int64_t retry_base_delay_ms = 50;
  int64_t retry_max_delay_ms = 2000;
  // Multipart upload: objects larger than one part are uploaded in parts of
  // this size (S3's minimum is 5 MiB), up to max_parallel_parts at a time.
  int64_t part_size = 8 << 20;
  int max_parallel_parts = 4;
  // Requests RandomAccessFile::ReadRanges may have in flight per file.
  int max_parallel_reads = 8;
  std::string profile{};  // which profile the file settings came from, for messages
};

// Looks up an environment variable; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
// The process environment.
std::optional<std::string> ProcessEnv(std::string_view name);

// Resolves the configuration. InvalidArgument naming the property when a
// value is malformed (a non-numeric size, path-style neither true nor false,
// an access key without its secret); IOError when a profile file exists but
// cannot be read. Missing files are not an error.
Result<S3Config> ResolveS3Config(const std::map<std::string, std::string>& properties = {},
                                 const EnvLookup& env = ProcessEnv);

// Parses an INI profile file (the AWS flavour: "[default]", "[profile x]",
// "key = value", '#' and ';' comments). Returns section -> key -> value, with
// "profile " stripped from section names. Corrupt on a line it cannot read.
Result<std::map<std::string, std::map<std::string, std::string>>> ParseAwsProfileFile(std::string_view text,
                                                                                      std::string_view file_name);

}  // namespace floe
