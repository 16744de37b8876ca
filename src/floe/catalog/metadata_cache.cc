#include "floe/catalog/metadata_cache.h"

#include "floe/iceberg/metadata_io.h"

namespace floe::catalog {

TableMetadataCache::TableMetadataCache(size_t capacity) : capacity_(capacity) {}

std::shared_ptr<const iceberg::TableMetadata> TableMetadataCache::Find(const std::string& location) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(location);
  if (it == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, it->second);
  return it->second->second;
}

void TableMetadataCache::Insert(const std::string& location, std::shared_ptr<const iceberg::TableMetadata> metadata) {
  if (capacity_ == 0 || metadata == nullptr) return;
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(location); it != index_.end()) {
    it->second->second = std::move(metadata);
    entries_.splice(entries_.begin(), entries_, it->second);
    return;
  }
  entries_.emplace_front(location, std::move(metadata));
  index_.emplace(location, entries_.begin());
  while (entries_.size() > capacity_) {
    index_.erase(entries_.back().first);
    entries_.pop_back();
  }
}

void TableMetadataCache::Erase(const std::string& location) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(location);
  if (it == index_.end()) return;
  entries_.erase(it->second);
  index_.erase(it);
}

size_t TableMetadataCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

Result<std::shared_ptr<const iceberg::TableMetadata>> ReadTableMetadataCached(FileIO& io, const std::string& location,
                                                                              TableMetadataCache* cache) {
  if (cache != nullptr) {
    if (auto hit = cache->Find(location)) return hit;
  }
  FLOE_ASSIGN_OR_RETURN(iceberg::TableMetadata metadata, iceberg::ReadTableMetadata(io, location));
  auto shared = std::make_shared<const iceberg::TableMetadata>(std::move(metadata));
  if (cache != nullptr) cache->Insert(location, shared);
  return shared;
}

}  // namespace floe::catalog
