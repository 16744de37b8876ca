// RetryPolicy: when an S3 request is tried again, and after how long.
//
// Retried: transport failures and the answers S3 documents as transient
// (HTTP 500, 502, 503, 504, 429; error codes SlowDown, InternalError,
// RequestTimeout, ServiceUnavailable, RequestTimeTooSkewed is not). Only
// idempotent requests are retried blindly; a conditional PUT whose outcome
// is unknown is resolved by reading the object back (s3_client.cc).
// Delays grow exponentially with "full jitter" (a uniform draw in
// [0, min(max, base * 2^attempt)]), which spreads out a herd of clients that
// failed together, as AWS's architecture guidance recommends.
//
// Thread safety: immutable; Delay() uses a thread-local generator.

#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

namespace floe {

struct RetryPolicy {
  int max_attempts = 5;
  int64_t base_delay_ms = 50;
  int64_t max_delay_ms = 2000;

  // Whether an answer with this status and S3 error code is worth retrying.
  static bool IsRetryableAnswer(long http_status, std::string_view error_code);
  // The pause before attempt `attempt + 1` (attempt >= 1 just failed).
  std::chrono::milliseconds Delay(int attempt) const;
  // The largest pause Delay(attempt) can return.
  std::chrono::milliseconds MaxDelay(int attempt) const;
};

}  // namespace floe
