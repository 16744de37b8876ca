// RecordBatch: equal-length columns under a schema; RecordBatchReader: a
// stream of batches that share one schema.
//
// Thread safety: a RecordBatch is an immutable value, readable from any
// thread. A RecordBatchReader is used by one thread at a time.

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/columnar/data_type.h"

namespace floe {

class RecordBatch {
 public:
  // Checks that there is one column per field, each of the field's type and
  // of `num_rows` elements (-1: the length of the first column, 0 when there
  // are none). InvalidArgument naming the first column that does not fit.
  static Result<RecordBatch> Make(std::shared_ptr<const Schema> schema, std::vector<Array> columns,
                                  int64_t num_rows = -1);

  const Schema& schema() const { return *schema_; }
  const std::shared_ptr<const Schema>& schema_ptr() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const Array& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<Array>& columns() const { return columns_; }
  // The first column named `name`; NotFound naming it otherwise.
  Result<Array> column_by_name(std::string_view name) const;

  // Rows [offset, offset + length), sharing this batch's buffers. The range
  // must lie inside the batch (checked; aborts otherwise, a caller bug).
  RecordBatch Slice(int64_t offset, int64_t length) const;
  // The columns at `indices`, in that order (repeats allowed), under the
  // matching sub-schema (schema metadata kept). InvalidArgument for an index
  // out of range.
  Result<RecordBatch> Project(std::span<const int> indices) const;

  // Equal schemas, row counts and column values (ArrayEquals).
  bool Equals(const RecordBatch& other) const;

 private:
  RecordBatch(std::shared_ptr<const Schema> schema, std::vector<Array> columns, int64_t num_rows)
      : schema_(std::move(schema)), columns_(std::move(columns)), num_rows_(num_rows) {}

  std::shared_ptr<const Schema> schema_;
  std::vector<Array> columns_;
  int64_t num_rows_ = 0;
};

// A stream of record batches with one schema. Producers (file and table
// scans, the Arrow C stream import) implement it.
class RecordBatchReader {
 public:
  virtual ~RecordBatchReader() = default;

  // The schema of every batch Next() returns.
  virtual const std::shared_ptr<const Schema>& schema() const = 0;

  // The next batch; std::nullopt once the stream is exhausted (and on every
  // later call). An error (of the producer's kind) ends the stream: later
  // calls return it again.
  virtual Result<std::optional<RecordBatch>> Next() = 0;

  // Every remaining batch, in order; the first error otherwise.
  Result<std::vector<RecordBatch>> ReadAll();
};

// A reader over batches held in memory.
class VectorRecordBatchReader final : public RecordBatchReader {
 public:
  // InvalidArgument naming the first batch whose schema differs from `schema`.
  static Result<std::unique_ptr<VectorRecordBatchReader>> Make(std::shared_ptr<const Schema> schema,
                                                               std::vector<RecordBatch> batches);

  const std::shared_ptr<const Schema>& schema() const override { return schema_; }
  Result<std::optional<RecordBatch>> Next() override;

 private:
  VectorRecordBatchReader(std::shared_ptr<const Schema> schema, std::vector<RecordBatch> batches)
      : schema_(std::move(schema)), batches_(std::move(batches)) {}

  std::shared_ptr<const Schema> schema_;
  std::vector<RecordBatch> batches_;
  size_t next_ = 0;
};

// Hands `write` the rows of `batch` in order, at most `max_rows` (>= 1) at a
// time, each slice with its dictionary columns decoded (DecodeDictionaries,
// under `batch`'s schema WithoutDictionaries): how a writer of values takes
// batches of indices that may stand for more bytes than one array holds.
// A slice whose values pass what int32 offsets address is halved.
// InvalidArgument when a single row's values do not fit or an index lies
// outside its dictionary; `write`'s errors as it returns them (no later
// slice is written).
Status ForEachDecodedSlice(const RecordBatch& batch, int64_t max_rows,
                           const std::function<Status(const RecordBatch&)>& write);

}  // namespace floe
