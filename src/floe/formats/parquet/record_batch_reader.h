// ParquetRecordBatchReader: a Parquet file's rows as floe record batches —
// projected columns, chosen row groups, batches of a bounded row count.
//
// Per row group the projected column chunks are fetched with one
// ReadRanges() call (nearby chunks coalesced into few requests), then
// decoded batch by batch. Memory: the compressed projected chunks of one row
// group, one decompressed page per column and the batch being built.
//
// Thread safety: a reader is used by one thread at a time; several readers
// may share one ParquetFileReader.

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/statistics_filter.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

// Rows [begin, end) of a row group, numbered from 0 within it.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const RowRange&) const = default;
};

struct ScanOptions {
  // Fields to read, by dotted path ("id", "address.city"), top-level fields
  // in the order first named; nested selections prune structs (projection.h).
  // Unset: every field.
  std::optional<std::vector<std::string>> columns;
  // Fields to read by field id (Iceberg), at any depth; applies when
  // `columns` is unset. Ids the file lacks select nothing: a reader of an
  // evolved table fills those columns itself.
  std::optional<std::vector<int32_t>> field_ids;
  // Rows per batch (the last of a row group may be shorter).
  int64_t batch_size = 64 * 1024;
  // The most bytes of string and binary values one column of a batch holds
  // (at most 2^31 - 1, what a batch's 32-bit offsets address): where
  // `batch_size` rows would hold more, the batch is read again with fewer
  // rows: those that fit, for a flat column, or half as many, for a
  // repeated one. Later batches keep that size, and double again after
  // batches well within the limit, up to batch_size. It bounds a batch's
  // memory, and lets any valid file be read (docs/decisions/0074 and 0082).
  // A single row over it comes in a batch of its own; Unsupported only past
  // 2^31 - 1 bytes in one column of one row.
  int64_t max_batch_value_bytes = int64_t{64} << 20;
  // String and binary columns (BYTE_ARRAY leaves, nested ones included)
  // come out as dictionary<string> / dictionary<binary> arrays: a batch
  // holds the int32 indices of dictionary-encoded pages and shares its row
  // group's dictionary, instead of a copy of every value. Values of pages
  // written without the dictionary extend a copy of it for that batch,
  // and only those values count against max_batch_value_bytes: the indices
  // of a batch may stand for far more bytes (DecodeDictionaries on such a
  // batch can fail past 2^31 - 1). A VARIANT's leaves stay binary. Off:
  // plain string and binary arrays.
  bool read_dictionary = false;
  // Row groups to read, in this order. Unset: all.
  std::optional<std::vector<int>> row_groups;
  // Row groups handed out one at a time, for readers of one file that share
  // the work as each is ready for more (a scan's threads pulling from one
  // counter, so a thread that runs slower takes fewer). When set, it replaces
  // `row_groups`: called from Next() whenever the reader starts a row group,
  // it returns the next index, or nullopt when there are no more. An index
  // outside the file makes Next() return InvalidArgument. Readers sharing
  // one function call it from their own threads, so it must be thread-safe.
  std::function<std::optional<int>()> next_row_group;
  // Row selection: for the row groups listed, only these rows (sorted,
  // disjoint, non-empty ranges) are returned; other row groups are read
  // whole. Pages outside the ranges are skipped unread when the file has an
  // offset index, and decompressed but not decoded otherwise.
  std::map<int, std::vector<RowRange>> row_selection;
  // Predicates (AND) for pruning: row groups their statistics, bloom
  // filters (equality and IN) or dictionaries exclude are skipped, and
  // within a row group only the pages the page index keeps are read. The
  // batches still hold non-matching rows of kept pages: the caller filters
  // rows.
  std::vector<ColumnPredicate> filter;
  // Whether a row group the statistics and bloom filters keep is also
  // checked against the dictionary page of each filter column whose every
  // data page is dictionary-encoded (dictionary_filter.h): one more read
  // per row group, of those pages alone, coalesced; a kept row group's
  // chunk fetch reads them again. A dictionary page that is found but does
  // not read makes Next() return Corrupt, even for a column the scan does
  // not project; one floe cannot read (its codec, its size) or decrypt (no
  // key) only goes unused (docs/decisions/0076-pruning-by-dictionary.md).
  bool prune_by_dictionary = true;
  CoalesceOptions coalesce;
};

// What a scan read and skipped, for planning reports.
struct ScanMetrics {
  int64_t row_groups = 0;          // row groups the scan covered
  int64_t row_groups_pruned =
      0;  // skipped by statistics, bloom filters, dictionaries or the page index keeping nothing
  int64_t row_groups_pruned_by_bloom = 0;
  int64_t row_groups_pruned_by_dictionary = 0;
  int64_t dictionaries_read = 0;  // dictionary pages read to prune by
  // Data pages of the projected columns in row groups read by page (a
  // selection or filter applied and the file has an offset index), and how
  // many of those were skipped unread.
  int64_t pages = 0;
  int64_t pages_skipped = 0;
  int64_t rows = 0;                // rows returned
  // Batches read again with fewer rows, their string or binary values over
  // ScanOptions::max_batch_value_bytes.
  int64_t batches_read_again = 0;
};

class ColumnReader;

class ParquetRecordBatchReader : public RecordBatchReader {
 public:
  // InvalidArgument for an unknown column name, a bad row group index, a
  // row selection that is unsorted, overlapping or outside its row group,
  // or a batch size below 1.
  static Result<std::unique_ptr<ParquetRecordBatchReader>> Make(std::shared_ptr<const ParquetFileReader> file,
                                                                ScanOptions options = {});
  ~ParquetRecordBatchReader() override;

  const std::shared_ptr<const Schema>& schema() const override { return schema_; }
  // The next batch, or nullopt after the last. Storage errors as FileIO
  // returns them; Corrupt / Unsupported (naming file, column, row group and
  // page) for damaged or unsupported data.
  Result<std::optional<RecordBatch>> Next() override;

  // Rows returned so far.
  int64_t rows_read() const { return metrics_.rows; }
  const ScanMetrics& metrics() const { return metrics_; }

 private:
  struct RowGroupState;

  ParquetRecordBatchReader(std::shared_ptr<const ParquetFileReader> file, ScanOptions options);
  // The next row group to start, from `row_groups_` or
  // `options_.next_row_group`; nullopt after the last.
  Result<std::optional<int>> TakeRowGroup();
  // Starts `row_group`; false when pruning leaves nothing to read in it.
  Result<bool> StartRowGroup(int row_group);
  Status CheckRowGroupEnd();
  // Whether the bloom filters of the filter's equality columns admit a value.
  Result<bool> BloomFiltersMayMatch(int row_group);
  // Whether the dictionary of every filter column that is dictionary-encoded
  // throughout holds a value satisfying its predicates.
  Result<bool> DictionariesMayMatch(int row_group);
  // The bytes of each projected chunk (or, under a row selection with an
  // offset index, of its selected pages), with one ReadRanges() call.
  Result<std::vector<Buffer>> FetchChunks(const RowGroupState& state, const std::vector<ReadRange>& chunks);
  Status ShortColumn(size_t reader, int64_t rows) const;
  // Column `i`'s reader for the current row group, over `chunk`, taking over
  // `previous`'s memory.
  Result<std::unique_ptr<ColumnReader>> MakeColumnReader(size_t i, Buffer chunk,
                                                         std::unique_ptr<ColumnReader> previous);
  // Reads the next batch's rows into the row group's leaf batches: how many.
  // On a byte-limit overflow (a LeafBatch::data_full), the error.
  Result<int64_t> FillBatch();
  // Makes the row group's readers again and moves them to `position`, the
  // start of a batch to read again with fewer rows.
  Status RestartAt(int64_t position, size_t range);
  // After a batch is filled: the rows of the next (batch_rows_).
  void AdaptBatchRows();
  // Ends the current row group, keeping its column readers' memory for the next.
  void FinishRowGroup();

  std::shared_ptr<const ParquetFileReader> file_;
  ScanOptions options_;
  std::shared_ptr<const Schema> schema_;
  // The columns' descriptors: the schema's, or under read_dictionary
  // copies whose string and binary leaves have dictionary types.
  const std::vector<ColumnDescriptor>& descriptors() const;

  std::vector<FieldPlan> plans_;  // the projected fields (projection.h)
  std::vector<ColumnDescriptor> dictionary_descriptors_;  // read_dictionary only
  std::vector<int> columns_;  // the leaf columns of those fields, ascending
  std::vector<int> row_groups_;
  size_t next_row_group_ = 0;
  std::unique_ptr<RowGroupState> state_;
  // Parallel to columns_: the finished row group's readers, whose buffers
  // the next row group's readers take over, and the bytes to place before a
  // column's next chunk so that its first page's values land aligned.
  std::vector<std::unique_ptr<ColumnReader>> spare_readers_;
  std::vector<int64_t> chunk_leads_;
  // Rows per batch: options_.batch_size, or fewer once a batch's values
  // passed max_batch_value_bytes, doubling back after batches well within it.
  int64_t batch_rows_ = 0;
  // The next batch is one row whose values alone pass max_batch_value_bytes.
  bool oversized_row_ = false;
  // The buffer a single projected column's chunks are read into, reused
  // from row group to row group while no batch still holds it (fresh
  // memory per row group costs page faults on every read).
  std::shared_ptr<Buffer> chunk_buffer_;
  ScanMetrics metrics_;
};

// Reads the whole file (or the projection) into batches. Errors as above.
Result<std::vector<RecordBatch>> ReadAllBatches(std::shared_ptr<const ParquetFileReader> file,
                                                ScanOptions options = {});

}  // namespace floe::parquet
