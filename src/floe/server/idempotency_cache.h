// IdempotencyCache: the responses of mutations sent with an Idempotency-Key,
// replayed when the same key comes again (spec, parameter idempotency-key):
// "If a prior request with this key has been finalized, the server returns
// an equivalent final response without re-running the operation."
// 2xx and 4xx answers are final and kept; 5xx are not (a retry runs again).
// A retry that arrives while the first attempt still runs waits for it.
//
// Entries live `lifetime_s` from their first use, and at most `max_entries`
// are kept (the oldest go first), so memory stays bounded.
//
// Thread safety: every method may be called from any thread.

#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace floe::server {

struct CachedResponse {
  int status = 0;
  std::string body;
  std::string content_type;
  std::string etag;
};

class IdempotencyCache {
 public:
  IdempotencyCache(int64_t lifetime_s, size_t max_entries);

  // Claims `key`. nullopt: the caller runs the operation, then must call
  // Finish. Otherwise the final response of an earlier attempt, after
  // waiting up to `wait` for one still running (still running then: a 503
  // ServiceUnavailableException response, so the client retries later).
  std::optional<CachedResponse> Begin(const std::string& key, std::chrono::milliseconds wait);

  // Records the response of a claimed key: kept when final (< 500),
  // forgotten otherwise. Wakes waiting retries.
  void Finish(const std::string& key, const CachedResponse& response);

  size_t size() const;

 private:
  struct Entry {
    bool done = false;
    CachedResponse response;
    std::chrono::steady_clock::time_point created;
  };
  void EvictLocked(std::chrono::steady_clock::time_point now);

  const std::chrono::seconds lifetime_;
  const size_t max_entries_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Entry> entries_;
  std::deque<std::pair<std::chrono::steady_clock::time_point, std::string>> order_;
};

}  // namespace floe::server
