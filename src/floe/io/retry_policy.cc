#include "floe/io/retry_policy.h"

#include <algorithm>
#include <random>

namespace floe {

bool RetryPolicy::IsRetryableAnswer(long http_status, std::string_view error_code) {
  if (error_code == "SlowDown" || error_code == "InternalError" || error_code == "RequestTimeout" ||
      error_code == "ServiceUnavailable" || error_code == "OperationAborted") {
    return true;
  }
  return http_status == 500 || http_status == 502 || http_status == 503 || http_status == 504 ||
         http_status == 429;
}

std::chrono::milliseconds RetryPolicy::MaxDelay(int attempt) const {
  const int shift = std::clamp(attempt - 1, 0, 30);
  const int64_t cap = std::min<int64_t>(max_delay_ms, base_delay_ms << shift);
  return std::chrono::milliseconds(std::max<int64_t>(cap, 0));
}

std::chrono::milliseconds RetryPolicy::Delay(int attempt) const {
  thread_local std::mt19937_64 rng(std::random_device{}());
  const int64_t cap = MaxDelay(attempt).count();
  if (cap <= 0) return std::chrono::milliseconds(0);
  return std::chrono::milliseconds(std::uniform_int_distribution<int64_t>(0, cap)(rng));
}

}  // namespace floe
