#include "floe/columnar/record_batch.h"

#include <cstdio>
#include <cstdlib>

#include "floe/base/check.h"
#include "floe/base/strings.h"

namespace floe {

Result<RecordBatch> RecordBatch::Make(std::shared_ptr<const Schema> schema, std::vector<Array> columns,
                                      int64_t num_rows) {
  if (schema == nullptr) return Status::InvalidArgument("record batch has no schema");
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::InvalidArgument(
        StrCat("record batch has ", columns.size(), " columns, its schema has ", schema->num_fields(), " fields"));
  }
  if (num_rows < 0) num_rows = columns.empty() ? 0 : (columns[0].data() ? columns[0].length() : 0);
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& field = schema->fields[i];
    const Array& column = columns[i];
    if (column.data() == nullptr) {
      return Status::InvalidArgument(StrCat("record batch column ", i, " (", Quote(field.name), ") is missing"));
    }
    if (!TypeEquals(column.type(), field.type)) {
      return Status::InvalidArgument(StrCat("record batch column ", i, " (", Quote(field.name), ") has type ",
                                            column.type()->ToString(), ", the schema says ", field.type->ToString()));
    }
    if (column.length() != num_rows) {
      return Status::InvalidArgument(StrCat("record batch column ", i, " (", Quote(field.name), ") has ",
                                            column.length(), " rows, expected ", num_rows));
    }
  }
  return RecordBatch(std::move(schema), std::move(columns), num_rows);
}

Result<Array> RecordBatch::column_by_name(std::string_view name) const {
  const int index = schema_->FieldIndex(name);
  if (index < 0) return Status::NotFound(StrCat("record batch has no column ", Quote(name)));
  return columns_[static_cast<size_t>(index)];
}

RecordBatch RecordBatch::Slice(int64_t offset, int64_t length) const {
  FLOE_CHECK(offset >= 0 && length >= 0 && offset <= num_rows_ && length <= num_rows_ - offset,
             "RecordBatch::Slice(", offset, ", ", length, ") outside a batch of ", num_rows_, " rows");
  std::vector<Array> columns;
  columns.reserve(columns_.size());
  for (const Array& column : columns_) columns.push_back(column.Slice(offset, length));
  return RecordBatch(schema_, std::move(columns), length);
}

Result<RecordBatch> RecordBatch::Project(std::span<const int> indices) const {
  auto schema = std::make_shared<Schema>();
  schema->metadata = schema_->metadata;
  std::vector<Array> columns;
  columns.reserve(indices.size());
  for (int index : indices) {
    if (index < 0 || index >= num_columns()) {
      return Status::InvalidArgument(
          StrCat("projection index ", index, " is outside the batch's ", num_columns(), " columns"));
    }
    schema->fields.push_back(schema_->field(index));
    columns.push_back(columns_[static_cast<size_t>(index)]);
  }
  return RecordBatch(std::move(schema), std::move(columns), num_rows_);
}

bool RecordBatch::Equals(const RecordBatch& other) const {
  if (num_rows_ != other.num_rows_ || !schema_->Equals(*other.schema_)) return false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!ArrayEquals(columns_[i], other.columns_[i])) return false;
  }
  return true;
}

Result<std::vector<RecordBatch>> RecordBatchReader::ReadAll() {
  std::vector<RecordBatch> batches;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, Next());
    if (!batch) return batches;
    batches.push_back(std::move(*batch));
  }
}

Result<std::unique_ptr<VectorRecordBatchReader>> VectorRecordBatchReader::Make(std::shared_ptr<const Schema> schema,
                                                                               std::vector<RecordBatch> batches) {
  if (schema == nullptr) return Status::InvalidArgument("record batch reader has no schema");
  for (size_t i = 0; i < batches.size(); ++i) {
    if (!batches[i].schema().Equals(*schema)) {
      return Status::InvalidArgument(StrCat("batch ", i, " has schema {", batches[i].schema().ToString(),
                                            "}, the reader's is {", schema->ToString(), "}"));
    }
  }
  return std::unique_ptr<VectorRecordBatchReader>(new VectorRecordBatchReader(std::move(schema), std::move(batches)));
}

Result<std::optional<RecordBatch>> VectorRecordBatchReader::Next() {
  if (next_ == batches_.size()) return std::optional<RecordBatch>();
  return std::optional<RecordBatch>(batches_[next_++]);
}

}  // namespace floe
