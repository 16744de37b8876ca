// ParquetFileReader: opens a Parquet file through FileIO and exposes its
// footer (FileMetaData), its schema tree and, per row group and column, the
// byte ranges a reader must fetch.
//
// Opening costs one request when the footer fits in the tail read
// (ReaderOptions::footer_read_size) and two when it is larger; a known object
// size (OpenReadOptions::size) saves the request that would learn it.
//
// Thread safety: after Open() every const method may be called concurrently.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "floe/base/result.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/schema.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

// Remembers decoded footers by (path, size) so repeated scans of the same
// immutable file skip the tail read and the decode. Implementations must be
// thread-safe.
class FooterCache {
 public:
  virtual ~FooterCache() = default;
  virtual std::shared_ptr<const FileMetaData> Get(const std::string& path, int64_t size) = 0;
  virtual void Put(const std::string& path, int64_t size, std::shared_ptr<const FileMetaData> footer) = 0;
};

struct ReaderOptions {
  // Tail bytes the first request fetches: the footer and the end of what
  // precedes it (usually page index). Small, because bytes past the footer
  // that a scan does not need are waste: a longer footer costs one more
  // request for exactly its bytes, and the page index of only the chunks a
  // scan reads is fetched on demand (docs/decisions/0040).
  int64_t footer_read_size = 8 * 1024;
  // Footers above this are refused (Corrupt) before anything is allocated.
  int64_t max_footer_size = 256 << 20;
  // Decompressed page and dictionary sizes above this are refused: the memory
  // budget that keeps a 4 KiB file from inflating to gigabytes.
  int64_t max_page_size = 512 << 20;
  // Verify page CRCs where the writer stored them.
  bool verify_page_checksums = true;
  std::shared_ptr<FooterCache> footer_cache;
};

// The byte range of one column chunk: from its dictionary page (or first
// data page) through its last data page.
struct ColumnChunkRange {
  int64_t offset = 0;
  int64_t length = 0;
};

class ParquetFileReader {
 public:
  // Opens `path` and decodes its footer and schema. NotFound / IOError from
  // storage; Corrupt for a file that is not Parquet or whose footer is
  // damaged (naming the file); Unsupported for encrypted footers.
  static Result<std::unique_ptr<ParquetFileReader>> Open(std::shared_ptr<FileIO> io, const std::string& path,
                                                         ReaderOptions options = {},
                                                         OpenReadOptions open_options = {});

  const std::string& path() const { return file_->path(); }
  int64_t file_size() const { return file_->size(); }
  const FileMetaData& metadata() const { return *metadata_; }
  const ParquetSchema& schema() const { return schema_; }
  const ReaderOptions& options() const { return options_; }
  RandomAccessFile& file() const { return *file_; }
  // The bytes [offset, offset + length) when the footer read already
  // fetched them (the page index usually sits just before the footer), so
  // callers skip a request; nullopt otherwise.
  std::optional<Buffer> CachedTailBytes(int64_t offset, int64_t length) const;

  int num_row_groups() const { return static_cast<int>(metadata_->row_groups.size()); }
  // The rows of all row groups (not FileMetaData.num_rows, which some writers leave 0).
  int64_t num_rows() const { return num_rows_; }

  // The column chunk's metadata; Corrupt when the file lacks it (encrypted
  // column metadata, or a chunk in another file).
  Result<const ColumnMetaData*> ColumnChunkMeta(int row_group, int column) const;
  // The bytes to fetch for a column chunk, checked against the file size.
  // Unsupported for an encrypted column.
  Result<ColumnChunkRange> ColumnChunkBytes(int row_group, int column) const;

 private:
  ParquetFileReader() = default;
  Status Init(const std::string& path, int64_t footer_guess);

  std::shared_ptr<FileIO> io_;
  std::unique_ptr<RandomAccessFile> file_;
  ReaderOptions options_;
  std::shared_ptr<const FileMetaData> metadata_;
  Buffer tail_;              // the footer read's bytes (empty with a footer cache hit)
  int64_t tail_offset_ = 0;  // where they start in the file
  ParquetSchema schema_;
  int64_t num_rows_ = 0;
};

}  // namespace floe::parquet
