// LruFooterCache: a FooterCache (file_reader.h) that keeps the decoded
// footers of the `capacity` most recently opened files in memory, for
// engines that open the same immutable files again (a table's data files
// scanned split by split, a delete file applied to many data files).
//
// Entries are keyed by path and size: a file rewritten at the same path with
// another size misses. Thread safety: every method may be called
// concurrently.

#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "floe/formats/parquet/file_reader.h"

namespace floe::parquet {

class LruFooterCache final : public FooterCache {
 public:
  // `capacity` footers at most (at least 1).
  explicit LruFooterCache(size_t capacity);

  std::shared_ptr<const FileMetaData> Get(const std::string& path, int64_t size) override;
  void Put(const std::string& path, int64_t size, std::shared_ptr<const FileMetaData> footer) override;

  size_t size() const;
  int64_t hits() const;
  int64_t misses() const;

 private:
  using Key = std::pair<std::string, int64_t>;
  struct Entry {
    Key key;
    std::shared_ptr<const FileMetaData> footer;
  };

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;                                 // most recent first; guarded by mutex_
  std::map<Key, std::list<Entry>::iterator> index_;          // guarded by mutex_
  int64_t hits_ = 0;                                         // guarded by mutex_
  int64_t misses_ = 0;                                       // guarded by mutex_
};

}  // namespace floe::parquet
