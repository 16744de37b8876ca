// TableMetadataCache: parsed table metadata by the location of its file, so
// a catalog serving many commits does not re-read and re-parse the metadata
// file it has just written (or read) for every load and commit.
//
// Sound because a metadata file never changes once published: commits write
// a new file under a new name with put-if-absent (spec: "each change creates
// a new metadata file"), so a location names one content for good. The
// pointer itself is never cached — every load and commit still reads it
// from the catalog, and every commit still swaps it with a compare-and-swap.
//
// Bounded: at most `capacity` entries, the least recently used evicted.
// Thread safety: thread-safe.

#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "floe/base/result.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/io/file_io.h"

namespace floe::catalog {

class TableMetadataCache {
 public:
  explicit TableMetadataCache(size_t capacity);

  // The metadata of the file at `location`, or nullptr when not cached.
  std::shared_ptr<const iceberg::TableMetadata> Find(const std::string& location);
  // Remembers `metadata` as the content of `location` (capacity 0: no-op).
  void Insert(const std::string& location, std::shared_ptr<const iceberg::TableMetadata> metadata);
  // Forgets `location` (its file was deleted).
  void Erase(const std::string& location);

  size_t size() const;

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const iceberg::TableMetadata>>;
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // most recently used first; guarded by mutex_
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;  // guarded by mutex_
};

// The metadata at `location`: from `cache` when it holds it (cache may be
// null), else read through `io` (ReadTableMetadata's errors) and cached.
Result<std::shared_ptr<const iceberg::TableMetadata>> ReadTableMetadataCached(FileIO& io, const std::string& location,
                                                                              TableMetadataCache* cache);

}  // namespace floe::catalog
