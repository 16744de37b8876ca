#include "floe/formats/parquet/footer_cache.h"

#include <algorithm>

namespace floe::parquet {

LruFooterCache::LruFooterCache(size_t capacity) : capacity_(std::max<size_t>(capacity, 1)) {}

std::shared_ptr<const FileMetaData> LruFooterCache::Get(const std::string& path, int64_t size) {
  std::lock_guard lock(mutex_);
  const auto it = index_.find(Key(path, size));
  if (it == index_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  entries_.splice(entries_.begin(), entries_, it->second);
  return it->second->footer;
}

void LruFooterCache::Put(const std::string& path, int64_t size, std::shared_ptr<const FileMetaData> footer) {
  std::lock_guard lock(mutex_);
  Key key(path, size);
  if (const auto it = index_.find(key); it != index_.end()) {
    it->second->footer = std::move(footer);
    entries_.splice(entries_.begin(), entries_, it->second);
    return;
  }
  entries_.push_front(Entry{key, std::move(footer)});
  index_.emplace(std::move(key), entries_.begin());
  if (entries_.size() > capacity_) {
    index_.erase(entries_.back().key);
    entries_.pop_back();
  }
}

size_t LruFooterCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

int64_t LruFooterCache::hits() const {
  std::lock_guard lock(mutex_);
  return hits_;
}

int64_t LruFooterCache::misses() const {
  std::lock_guard lock(mutex_);
  return misses_;
}

}  // namespace floe::parquet
