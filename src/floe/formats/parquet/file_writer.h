// ParquetFileWriter: record batches in, one Parquet file out, streamed
// through FileIO (spec: apache/parquet-format; layout "PAR1", row groups of
// column chunks, bloom filters after each row group, column and offset
// indexes, footer, "PAR1").
//
// Memory is bounded by one row group: its column chunks are buffered here,
// as compressed pages, and written out when the row group passes
// `row_group_rows` or (estimated) `row_group_bytes`, or on FlushRowGroup().
// Nothing is visible at `path` until Close() succeeds; after any error the
// writer is unusable, and Close() returns that error and removes the partial
// object, as Abort() and the destructor of an unclosed writer do.
//
// Defaults and the reasons for them: docs/decisions/0010-parquet-writer-defaults.md.
// Encrypted files (WriterOptions::encryption): every module is encrypted
// as Encryption.md lays out; the layout is otherwise the same
// (docs/decisions/0066).
//
// Thread safety: a writer is used by one thread at a time.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/encryption.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

// Settings of one leaf column; unset members take the file's.
struct ColumnWriterOptions {
  std::optional<bool> dictionary;
  // The encoding of pages that are not dictionary-encoded: PLAIN,
  // DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY),
  // DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), BYTE_STREAM_SPLIT
  // (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY), RLE (BOOLEAN).
  std::optional<Encoding> encoding;
  // A timestamp column as INT96 (Spark's legacy form); unset: the file's
  // `int96_timestamps`. PLAIN, no dictionary, no min/max (the spec leaves
  // INT96's order undefined), so no column index either.
  std::optional<bool> int96;
  // A float32 column as FLOAT16 (FIXED_LEN_BYTE_ARRAY(2)), rounded to the
  // nearest half.
  bool float16 = false;
  bool bloom_filter = false;
  // Distinct values expected per row group; 0: count them (the writer then
  // keeps each value's 8-byte hash until the row group ends).
  int64_t bloom_ndv = 0;
  double bloom_fpp = 0.01;
};

struct WriterOptions {
  compression::Codec codec = compression::Codec::kZstd;
  std::optional<int> compression_level;  // the codec's scale; unset: its default
  int data_page_version = 1;             // 1 or 2
  // Encoding of BOOLEAN columns: PLAIN (bit-packed) or RLE (the hybrid at bit
  // width 1, spec: Encodings.md; shorter for long runs). A column's own
  // `encoding` wins.
  Encoding boolean_encoding = Encoding::PLAIN;
  // Every timestamp column as INT96, as Spark's outputTimestampType=INT96.
  bool int96_timestamps = false;
  bool dictionary = true;
  // A chunk's dictionary passing this many bytes falls back to its encoding.
  int64_t dictionary_page_size_limit = int64_t{1} << 20;
  int64_t row_group_rows = int64_t{1} << 20;
  int64_t row_group_bytes = int64_t{128} << 20;
  int64_t page_bytes = int64_t{1} << 20;
  int64_t page_rows = 20000;
  bool page_index = true;
  bool page_checksums = true;
  // BYTE_ARRAY statistics and column index bounds are cut to this many bytes; <= 0: never.
  int32_t statistics_truncate_length = 64;
  // Per leaf column, by dotted path_in_schema ("id", "tags.list.element",
  // "attrs.key_value.value").
  std::map<std::string, ColumnWriterOptions> columns;
  std::vector<KeyValue> key_value_metadata;
  std::string created_by;  // empty: "floe version <version>"
  // Parquet modular encryption (encryption.h); unset: a plaintext file.
  std::optional<EncryptionProperties> encryption;
};

// What Close() wrote: the size and the footer, from which a table format
// takes its data-file metrics (per-column sizes, value, null and NaN counts,
// bounds, all by the field ids in metadata.schema). For an encrypted file,
// the footer as a reader holding every key sees it: every column's
// meta_data in plaintext, with its crypto_metadata. Its statistics of
// encrypted columns are secrets: a caller that stores metrics elsewhere (a
// table's manifests) must protect them as well or leave them out.
struct WrittenFile {
  int64_t file_size = 0;
  FileMetaData metadata;
};

class ParquetFileWriter {
 public:
  // Starts a file at `path` for batches of `schema`. InvalidArgument for bad
  // options (a column option naming no leaf column, an encoding the column's
  // type lacks, non-positive sizes), Unsupported for a type Parquet cannot
  // hold (schema_writer.h); InvalidArgument for int96 on a column that is no
  // timestamp or float16 on one that is no float32; InvalidArgument for
  // encryption properties with a key that is no AES key's size, a column
  // key or plaintext column naming no leaf column (or both for one), or an
  // unstored AAD prefix that is not given; storage errors from
  // FileIO::OpenWrite.
  static Result<std::unique_ptr<ParquetFileWriter>> Open(std::shared_ptr<FileIO> io, std::string path,
                                                         std::shared_ptr<const Schema> schema, WriterOptions options);
  ~ParquetFileWriter();
  ParquetFileWriter(const ParquetFileWriter&) = delete;
  ParquetFileWriter& operator=(const ParquetFileWriter&) = delete;

  // Appends the rows of `batch`. InvalidArgument when its fields differ from
  // the schema's or an array's layout is broken (Array::Validate; both
  // checked before anything is written: the writer stays usable) or a
  // non-nullable field holds a null; storage errors (IOError)
  // propagate. Every error but the schema check leaves the writer unusable.
  // Dictionary columns (a writer opened with a schema that has them) are
  // written as the values they index, decoded a slice of rows at a time;
  // InvalidArgument when an index lies outside its dictionary or a single
  // row's values pass 2^31 - 1 bytes.
  Status Write(const RecordBatch& batch);

  // Ends the current row group now (a no-op when it is empty).
  Status FlushRowGroup();

  // Writes the last row group, the page index and the footer, and publishes
  // the file. Returns the first error of any earlier call instead, with the
  // partial object removed. InvalidArgument when called twice.
  Result<WrittenFile> Close();

  // Discards the file; nothing becomes visible. Idempotent.
  void Abort();

  int64_t num_rows() const;
  // Bytes written so far plus the buffered row group's estimated size: what
  // the file would take if closed now, less the footer (for rolling files
  // at a target size).
  int64_t EstimatedSize() const;

 private:
  struct State;
  explicit ParquetFileWriter(std::unique_ptr<State> state);
  // Write() once dictionaries are decoded: the rows, a row group's room at a time.
  Status WriteRows(const RecordBatch& batch);
  Status WriteSlice(const RecordBatch& batch);
  Status Fail(Status status);

  std::unique_ptr<State> state_;
};

}  // namespace floe::parquet
