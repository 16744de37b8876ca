// DataFileWriter: rows of a table in, Parquet data files with their
// DataFile entries (partition tuple, metrics) out — the write half of an
// append, overwrite or compaction.
//
// Rows are split by the table's partition spec (fan-out: one open file per
// partition seen), each partition's rows are sorted by the table's sort
// order within every row group, and a file is closed once it reaches
// `write.target-file-size-bytes`. Files go to
// `<write.data.path or location/data>/<partition path>/` named
// `<partition #>-0-<write uuid>-<file #>.parquet`, as Java names them.
// Parquet settings come from the `write.parquet.*` table properties and
// metrics from `write.metadata.metrics.*` (parquet_metrics.h).
//
// Nothing here commits: the DataFiles are for a snapshot producer. Abort()
// (and the destructor of a writer neither closed nor aborted) deletes every
// file written, so a failed write leaves no orphans.
//
// Thread safety: a writer is used by one thread at a time.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/record_batch.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/iceberg/table_metadata.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

struct DataWriterOptions {
  int64_t target_file_size_bytes = int64_t{512} << 20;  // write.target-file-size-bytes
  // Rows buffered per partition before they are sorted and written as one
  // row group (write.parquet.row-group-limit, as PyIceberg names it).
  int64_t row_group_rows = int64_t{1} << 20;
  parquet::WriterOptions parquet;
  MetricsConfig metrics;
  std::string data_location;  // write.data.path, or <location>/data

  // The options a table's properties ask for. InvalidArgument naming the
  // property for a value that does not parse.
  static Result<DataWriterOptions> FromTable(const TableMetadata& metadata);
};

class DataFileWriter {
 public:
  // A writer for rows of `metadata`'s current schema, partitioned by its
  // default spec and sorted by its default sort order. InvalidArgument when
  // the schema has no columnar form or the spec's transforms do not apply.
  static Result<std::unique_ptr<DataFileWriter>> Make(std::shared_ptr<FileIO> io, const TableMetadata& metadata,
                                                      DataWriterOptions options);
  ~DataFileWriter();
  DataFileWriter(const DataFileWriter&) = delete;
  DataFileWriter& operator=(const DataFileWriter&) = delete;

  // The columnar schema batches must have (ToColumnarSchema of the table schema).
  const std::shared_ptr<const floe::Schema>& schema() const { return schema_; }

  // Buffers and writes the rows of `batch`, whose dictionary-encoded columns
  // count as their values (decoded a slice of rows at a time). InvalidArgument
  // when its schema (dictionaries aside) differs from schema(), a required
  // column holds a null, or one row's decoded values pass 2^31 - 1 bytes;
  // storage errors as FileIO returns them. After an error the writer only
  // aborts.
  Status Write(const RecordBatch& batch);

  // Writes what is buffered and closes every file; the DataFiles in the
  // order their files were finished. The first error of any earlier call
  // is returned instead (files deleted).
  Result<std::vector<DataFile>> Close();

  // Deletes every file written or being written. Idempotent.
  void Abort();

  int64_t rows_written() const { return rows_written_; }

 private:
  struct Partition;
  DataFileWriter() = default;
  // Write() once dictionaries are decoded.
  Status WriteValues(const RecordBatch& batch);
  Status WritePartitionRows(Partition& partition, const RecordBatch& rows);
  // Writes the buffered rows as row groups of row_group_rows; the last,
  // shorter one only when `final`.
  Status FlushPartition(Partition& partition, bool final);
  Status WriteRowGroup(Partition& partition, const RecordBatch& rows);
  Status FinishFile(Partition& partition);
  Result<RecordBatch> SortRows(const RecordBatch& rows) const;
  Status Fail(Status status);

  std::shared_ptr<FileIO> io_;
  std::shared_ptr<const floe::Schema> schema_;
  std::shared_ptr<const Schema> table_schema_;
  PartitionSpec spec_;
  SortOrder sort_order_;
  DataWriterOptions options_;
  std::string write_uuid_;
  std::map<std::string, std::unique_ptr<Partition>> partitions_;  // by partition key
  std::vector<DataFile> finished_;
  std::vector<std::string> written_paths_;
  int64_t rows_written_ = 0;
  Status error_;
  bool done_ = false;
};

}  // namespace floe::iceberg
