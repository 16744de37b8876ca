#include "floe/server/idempotency_cache.h"

namespace floe::server {

IdempotencyCache::IdempotencyCache(int64_t lifetime_s, size_t max_entries)
    : lifetime_(lifetime_s), max_entries_(max_entries == 0 ? 1 : max_entries) {}

void IdempotencyCache::EvictLocked(std::chrono::steady_clock::time_point now) {
  while (!order_.empty() && (order_.front().first + lifetime_ <= now || entries_.size() >= max_entries_)) {
    auto it = entries_.find(order_.front().second);
    // A running attempt is never evicted (its Finish would find nothing); an
    // entry re-created after eviction has a newer time than this record.
    if (it != entries_.end() && it->second.created == order_.front().first) {
      if (!it->second.done) break;
      entries_.erase(it);
    }
    order_.pop_front();
  }
}

std::optional<CachedResponse> IdempotencyCache::Begin(const std::string& key, std::chrono::milliseconds wait) {
  std::unique_lock lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  EvictLocked(now);
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    entries_[key] = Entry{false, {}, now};
    order_.emplace_back(now, key);
    return std::nullopt;
  }
  const bool finished = cv_.wait_for(lock, wait, [&] {
    auto e = entries_.find(key);
    return e == entries_.end() || e->second.done;
  });
  auto e = entries_.find(key);
  if (finished && e == entries_.end()) {
    // The first attempt failed with a 5xx and was forgotten: run again.
    const auto again = std::chrono::steady_clock::now();
    entries_[key] = Entry{false, {}, again};
    order_.emplace_back(again, key);
    return std::nullopt;
  }
  if (!finished) {
    return CachedResponse{503,
                          R"({"error":{"message":"a request with this Idempotency-Key is still running; retry later",)"
                          R"("type":"ServiceUnavailableException","code":503}})",
                          "application/json", ""};
  }
  return e->second.response;
}

void IdempotencyCache::Finish(const std::string& key, const CachedResponse& response) {
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      if (response.status < 500) {
        it->second.done = true;
        it->second.response = response;
      } else {
        entries_.erase(it);
      }
    }
  }
  cv_.notify_all();
}

size_t IdempotencyCache::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace floe::server
