#include "floe/formats/parquet/record_batch_reader.h"

#include <algorithm>
#include <utility>

#include "floe/base/strings.h"
#include "floe/formats/parquet/reader/column_reader.h"
#include "floe/formats/parquet/reader/leaf_batch.h"
#include "floe/formats/parquet/reader/record_assembler.h"

namespace floe::parquet {

struct ParquetRecordBatchReader::RowGroupState {
  int row_group = 0;
  int64_t num_rows = 0;
  int64_t rows_read = 0;
  std::vector<std::unique_ptr<ColumnReader>> readers;  // parallel to columns_
  std::vector<LeafBatch> batches;                      // parallel to columns_
  std::vector<LeafBatch*> by_column;                   // indexed by column number
};

ParquetRecordBatchReader::ParquetRecordBatchReader(std::shared_ptr<const ParquetFileReader> file,
                                                   ScanOptions options)
    : file_(std::move(file)), options_(std::move(options)) {}

ParquetRecordBatchReader::~ParquetRecordBatchReader() = default;

Result<std::unique_ptr<ParquetRecordBatchReader>> ParquetRecordBatchReader::Make(
    std::shared_ptr<const ParquetFileReader> file, ScanOptions options) {
  if (options.batch_size < 1) {
    return Status::InvalidArgument(StrCat("batch size must be at least 1, not ", options.batch_size));
  }
  std::unique_ptr<ParquetRecordBatchReader> reader(new ParquetRecordBatchReader(std::move(file), std::move(options)));
  const ParquetFileReader& f = *reader->file_;
  const ParquetSchema& schema = f.schema();
  const std::vector<FieldPlan>& plans = schema.fields();
  if (reader->options_.columns) {
    for (const std::string& name : *reader->options_.columns) {
      const int index = schema.schema().FieldIndex(name);
      if (index < 0) {
        return Status::InvalidArgument(
            StrCat("parquet file ", Quote(f.path()), " has no column ", Quote(name), " (it has: ",
                   schema.schema().ToString(), ")"));
      }
      reader->fields_.push_back(index);
    }
  } else if (reader->options_.field_ids) {
    for (const int32_t id : *reader->options_.field_ids) {
      for (size_t i = 0; i < plans.size(); ++i) {
        if (plans[i].field.field_id == id) {
          reader->fields_.push_back(static_cast<int>(i));
          break;
        }
      }
    }
  } else {
    for (size_t i = 0; i < plans.size(); ++i) reader->fields_.push_back(static_cast<int>(i));
  }

  std::vector<Field> fields;
  for (const int index : reader->fields_) {
    const FieldPlan& plan = plans[static_cast<size_t>(index)];
    fields.push_back(plan.field);
    for (const int column : schema.ColumnsOf(plan)) reader->columns_.push_back(column);
  }
  std::sort(reader->columns_.begin(), reader->columns_.end());
  reader->columns_.erase(std::unique(reader->columns_.begin(), reader->columns_.end()), reader->columns_.end());
  reader->schema_ = std::make_shared<const Schema>(std::move(fields));

  if (reader->options_.row_groups) {
    for (const int rg : *reader->options_.row_groups) {
      if (rg < 0 || rg >= f.num_row_groups()) {
        return Status::InvalidArgument(StrCat("parquet file ", Quote(f.path()), " has no row group ", rg, " (it has ",
                                              f.num_row_groups(), ")"));
      }
      reader->row_groups_.push_back(rg);
    }
  } else {
    for (int rg = 0; rg < f.num_row_groups(); ++rg) reader->row_groups_.push_back(rg);
  }
  return reader;
}

Status ParquetRecordBatchReader::StartRowGroup(int row_group) {
  const ParquetFileReader& f = *file_;
  auto state = std::make_unique<RowGroupState>();
  state->row_group = row_group;
  state->num_rows = f.metadata().row_groups[static_cast<size_t>(row_group)].num_rows;
  if (state->num_rows < 0) {
    return Status::Corrupt(StrCat("parquet file ", Quote(f.path()), ": row group ", row_group, " has ",
                                  state->num_rows, " rows"));
  }

  if (state->num_rows == 0) {
    // Nothing to fetch; some writers leave an empty group's offsets at 0.
    state_ = std::move(state);
    return Status::OK();
  }

  std::vector<ReadRange> ranges;
  for (const int column : columns_) {
    FLOE_ASSIGN_OR_RETURN(const ColumnChunkRange range, f.ColumnChunkBytes(row_group, column));
    ranges.push_back(ReadRange{range.offset, range.length});
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Buffer> chunks, f.file().ReadRanges(ranges, options_.coalesce));

  const PageReaderOptions page_options{f.options().max_page_size, f.options().verify_page_checksums};
  state->batches = std::vector<LeafBatch>(columns_.size());
  state->by_column.assign(static_cast<size_t>(f.schema().num_columns()), nullptr);
  for (size_t i = 0; i < columns_.size(); ++i) {
    const int column = columns_[i];
    const ColumnDescriptor& descriptor = f.schema().column(column);
    FLOE_ASSIGN_OR_RETURN(const ColumnMetaData* meta, f.ColumnChunkMeta(row_group, column));
    std::string context = StrCat("parquet file ", Quote(f.path()), ": column ", Quote(descriptor.dotted_path()),
                                 " in row group ", row_group);
    FLOE_ASSIGN_OR_RETURN(auto reader, ColumnReader::Make(descriptor, *meta, std::move(chunks[i]), ranges[i].offset,
                                                          page_options, std::move(context)));
    state->readers.push_back(std::move(reader));
    state->by_column[static_cast<size_t>(column)] = &state->batches[i];
  }
  state_ = std::move(state);
  return Status::OK();
}

Result<std::optional<RecordBatch>> ParquetRecordBatchReader::Next() {
  while (true) {
    if (!state_) {
      if (next_row_group_ == row_groups_.size()) return std::optional<RecordBatch>();
      FLOE_RETURN_IF_ERROR(StartRowGroup(row_groups_[next_row_group_++]));
    }
    RowGroupState& rg = *state_;
    const int64_t want = std::min(options_.batch_size, rg.num_rows - rg.rows_read);
    if (want == 0 && rg.readers.empty()) {
      state_.reset();
      continue;
    }
    if (want == 0) {
      // Every column must end with the row group: a longer chunk is damaged.
      for (size_t i = 0; i < rg.readers.size(); ++i) {
        LeafBatch& extra = rg.batches[i];
        extra.Clear();
        FLOE_RETURN_IF_ERROR(rg.readers[i]->ReadRecords(1, &extra));
        if (extra.num_records > 0) {
          return Status::Corrupt(StrCat("parquet file ", Quote(file_->path()), ": column ",
                                        Quote(rg.readers[i]->column().dotted_path()), " in row group ", rg.row_group,
                                        " holds more than the row group's ", rg.num_rows, " rows"));
        }
      }
      state_.reset();
      continue;
    }
    for (size_t i = 0; i < rg.readers.size(); ++i) {
      LeafBatch& batch = rg.batches[i];
      batch.Clear();
      FLOE_RETURN_IF_ERROR(rg.readers[i]->ReadRecords(want, &batch));
      if (batch.num_records != want) {
        return Status::Corrupt(StrCat("parquet file ", Quote(file_->path()), ": column ",
                                      Quote(rg.readers[i]->column().dotted_path()), " in row group ", rg.row_group,
                                      " ends after ", rg.rows_read + batch.num_records, " of the row group's ",
                                      rg.num_rows, " rows"));
      }
    }
    std::vector<Array> arrays;
    arrays.reserve(fields_.size());
    for (const int index : fields_) {
      const FieldPlan& plan = file_->schema().fields()[static_cast<size_t>(index)];
      auto array = AssembleField(plan, rg.by_column, file_->schema().columns(), want);
      if (!array.ok()) {
        return array.status().WithContext(
            StrCat("parquet file ", Quote(file_->path()), ": row group ", rg.row_group));
      }
      arrays.push_back(std::move(*array));
    }
    rg.rows_read += want;
    rows_read_ += want;
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema_, std::move(arrays), want));
    return std::optional<RecordBatch>(std::move(batch));
  }
}

Result<std::vector<RecordBatch>> ReadAllBatches(std::shared_ptr<const ParquetFileReader> file, ScanOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto reader, ParquetRecordBatchReader::Make(std::move(file), std::move(options)));
  std::vector<RecordBatch> batches;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
    if (!batch) return batches;
    batches.push_back(std::move(*batch));
  }
}

}  // namespace floe::parquet
