#include "floe/iceberg/scan/scan_file_reader.h"

#include <algorithm>

#include "floe/base/strings.h"
#include "floe/columnar/take.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/iceberg/columnar_value.h"
#include "floe/iceberg/deletion_vector.h"
#include "floe/iceberg/expression/evaluator.h"
#include "floe/iceberg/expression/parquet_filter.h"
#include "floe/iceberg/name_mapping.h"
#include "floe/iceberg/parquet_metrics.h"
#include "floe/iceberg/scan/column_projection.h"
#include "floe/iceberg/scan/split_planner.h"

namespace floe::iceberg {
namespace {

// spec: the reserved field ids of position delete files.
constexpr int32_t kDeleteFilePathId = 2147483546;
constexpr int32_t kDeleteFilePosId = 2147483545;

void CollectFieldIds(const Expression& e, std::set<int32_t>* ids) {
  if (e.is_predicate()) {
    if (e.is_bound()) ids->insert(e.field_id());
    return;
  }
  if (e.left()) CollectFieldIds(*e.left(), ids);
  if (e.right()) CollectFieldIds(*e.right(), ids);
}

bool Contains(const NestedField& field, int32_t id) {
  if (field.field_id == id) return true;
  if (field.type->is_nested()) {
    for (const auto& child : field.type->fields()) {
      if (Contains(child, id)) return true;
    }
  }
  return false;
}

bool IsAlwaysTrue(const ExpressionPtr& e) { return e == nullptr || e->op() == Operation::kTrue; }

std::string RowKey(const std::vector<std::pair<Array, TypePtr>>& columns, int64_t row) {
  std::string key;
  for (const auto& column : columns) {
    const auto value = LiteralAt(column.first, row);
    if (!value.has_value()) {
      key.push_back('\0');
      continue;
    }
    const std::string bytes = value->ToBytes();
    key.push_back('\1');
    key += StrCat(bytes.size(), ":");
    key += bytes;
  }
  return key;
}

// The manifest's size of a file, so opening it needs no request to learn it.
OpenReadOptions KnownSize(const DataFile& file) {
  OpenReadOptions options;
  options.size = file.file_size_in_bytes > 0 ? file.file_size_in_bytes : -1;
  return options;
}

// The batch's top-level column with this field id, or -1.
int ColumnWithId(const RecordBatch& batch, int32_t id) {
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (batch.schema().field(c).field_id == id) return c;
  }
  return -1;
}

}  // namespace

ScanFileReader::~ScanFileReader() = default;

Result<std::unique_ptr<ScanFileReader>> ScanFileReader::Open(std::shared_ptr<FileIO> io, const TableMetadata& metadata,
                                                             const Schema& scan_schema,
                                                             const std::vector<int32_t>& output_field_ids,
                                                             std::shared_ptr<const floe::Schema> output_schema,
                                                             const ExpressionPtr& filter, const FileScanTask& task,
                                                             int64_t batch_rows, ScanReport* report,
                                                             int64_t split_start, int64_t split_length,
                                                             std::shared_ptr<FileIO> delete_io) {
  (void)filter;  // the residual carries what the partition does not decide
  if (delete_io == nullptr) delete_io = io;
  std::unique_ptr<ScanFileReader> r(new ScanFileReader());
  r->path_ = task.file.file_path();
  r->report_ = report;
  r->output_schema_ = std::move(output_schema);
  r->residual_ = task.residual;

  // The top-level fields to read: the output, the residual's and the equality deletes' columns.
  std::set<int32_t> wanted(output_field_ids.begin(), output_field_ids.end());
  if (!IsAlwaysTrue(r->residual_)) CollectFieldIds(*r->residual_, &wanted);
  for (const auto& d : task.equality_deletes) wanted.insert(d->equality_ids.begin(), d->equality_ids.end());
  std::vector<NestedField> read_fields;
  for (const auto& field : scan_schema.fields()) {
    if (std::any_of(wanted.begin(), wanted.end(), [&](int32_t id) { return Contains(field, id); })) {
      read_fields.push_back(field);
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto read_schema, Schema::Make(scan_schema.schema_id(), read_fields));
  r->read_schema_ = std::make_shared<const Schema>(std::move(read_schema));
  FLOE_ASSIGN_OR_RETURN(auto read_columnar, ToColumnarSchema(*r->read_schema_));
  r->read_columnar_ = std::make_shared<const floe::Schema>(std::move(read_columnar));
  for (const int32_t id : output_field_ids) {
    for (size_t i = 0; i < read_fields.size(); ++i) {
      if (read_fields[i].field_id == id) r->output_columns_.push_back(static_cast<int>(i));
    }
  }

  OpenReadOptions open_options;
  open_options.size = task.file.file_size_in_bytes() > 0 ? task.file.file_size_in_bytes() : -1;
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const parquet::ParquetFileReader> file,
                        parquet::ParquetFileReader::Open(io, r->path_, {}, open_options));
  const auto& nodes = file->schema().nodes();
  r->file_has_ids_ = std::any_of(nodes.begin() + (nodes.empty() ? 0 : 1), nodes.end(),
                                 [](const parquet::SchemaNode& n) { return n.field_id.has_value(); });

  parquet::ScanOptions options;
  options.batch_size = batch_rows;
  {
    const auto& groups = file->metadata().row_groups;
    const FileScanSplit split{nullptr, split_start, split_length};
    std::vector<int> selected;
    int64_t first_row = 0;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (split_length < 0 || SplitContains(split, RowGroupStartOffset(groups[g]))) {
        selected.push_back(static_cast<int>(g));
        r->group_rows_.emplace_back(first_row, groups[g].num_rows);
      }
      first_row += groups[g].num_rows;
    }
    if (split_length >= 0) options.row_groups = std::move(selected);
  }
  if (r->file_has_ids_) {
    std::vector<int32_t> ids;
    for (const auto& f : read_fields) ids.push_back(f.field_id);
    options.field_ids = std::move(ids);
  } else {
    // spec: files without ids resolve through the name mapping.
    if (auto it = metadata.properties.find("schema.name-mapping.default"); it != metadata.properties.end()) {
      auto parsed = ParseNameMapping(it->second);
      if (!parsed.ok()) {
        return Status(parsed.status().code(), StrCat("table property 'schema.name-mapping.default' (needed by ",
                                                     Quote(task.file.file_path()), ", which has no field ids): ",
                                                     parsed.status().message()));
      }
      r->mapping_ = std::move(*parsed);
    }
    const std::optional<NameMapping>& mapping = r->mapping_;
    std::vector<std::string> columns;
    for (const auto& column : file->schema().schema().fields) {
      for (const auto& f : read_fields) {
        const bool maps = mapping ? mapping->TopLevelId(column.name) == f.field_id : column.name == f.name;
        if (maps) {
          columns.push_back(column.name);
          r->name_of_id_[f.field_id] = column.name;
        }
      }
    }
    options.columns = std::move(columns);
  }

  if (!task.position_deletes.empty()) {
    for (const auto& delete_file : task.position_deletes) {
      const DataFile& d = *delete_file;
      if (d.is_deletion_vector()) {
        // spec: a DV lists the deleted positions of exactly one data file.
        FLOE_ASSIGN_OR_RETURN(auto dv, ReadDeletionVector(*delete_io, d));
        for (const int64_t pos : dv.Positions()) r->deleted_positions_.insert(pos);
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const parquet::ParquetFileReader> deletes,
                            parquet::ParquetFileReader::Open(delete_io, d.file_path, {}, KnownSize(d)));
      parquet::ScanOptions delete_options;
      delete_options.columns = std::vector<std::string>{"file_path", "pos"};
      // One path repeats for many rows: as a dictionary it is not copied per row.
      delete_options.read_dictionary = true;
      auto batches = parquet::ReadAllBatches(deletes, delete_options);
      if (!batches.ok()) {
        // Keep the kind: a storage error is not a corrupt file.
        return Status(batches.status().code(),
                      StrCat("position delete file ", Quote(d.file_path), ": ", batches.status().message()));
      }
      for (const auto& batch : *batches) {
        const int path_column = batch.schema().FieldIndex("file_path");
        const int pos_column = batch.schema().FieldIndex("pos");
        if (path_column < 0 || pos_column < 0 || batch.column(pos_column).type_id() != floe::TypeId::kInt64) {
          return Status::Corrupt(StrCat("position delete file ", Quote(d.file_path),
                                        " lacks the file_path and pos columns (field ids ", kDeleteFilePathId, ", ",
                                        kDeleteFilePosId, ")"));
        }
        const Array& paths = batch.column(path_column);
        const Array& positions = batch.column(pos_column);
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          const std::optional<std::string_view> path = BytesAt(paths, i);
          if (path.has_value() && !positions.IsNull(i) && *path == task.file.file_path()) {
            r->deleted_positions_.insert(positions.Values<int64_t>()[i]);
          }
        }
      }
    }
  } else if (r->file_has_ids_ && !IsAlwaysTrue(r->residual_)) {
    // Row groups and pages the statistics exclude are skipped; positions
    // are then not needed because no position deletes apply.
    options.filter = ToParquetPredicates(*r->residual_, file->schema());
  }

  for (const auto& delete_file : task.equality_deletes) {
    const DataFile& d = *delete_file;
    FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const parquet::ParquetFileReader> deletes,
                          parquet::ParquetFileReader::Open(delete_io, d.file_path, {}, KnownSize(d)));
    parquet::ScanOptions delete_options;
    delete_options.field_ids = d.equality_ids;
    FLOE_ASSIGN_OR_RETURN(auto batches, parquet::ReadAllBatches(deletes, delete_options));
    std::set<std::string> keys;
    for (const auto& batch : batches) {
      std::vector<std::pair<Array, TypePtr>> columns;
      for (const int32_t id : d.equality_ids) {
        const int c = ColumnWithId(batch, id);
        const NestedField* field = scan_schema.FindFieldById(id);
        if (c < 0 || field == nullptr) {
          return Status::Corrupt(StrCat("equality delete file ", Quote(d.file_path), " has no column with field id ", id));
        }
        columns.emplace_back(batch.column(c), field->type);
      }
      for (int64_t i = 0; i < batch.num_rows(); ++i) keys.insert(RowKey(columns, i));
    }
    r->equality_deletes_.emplace_back(d.equality_ids, std::move(keys));
  }

  // spec: fields the file lacks read as their identity partition value, else their default.
  std::map<int32_t, std::optional<Literal>> constants;
  if (const PartitionSpec* spec = metadata.PartitionSpecById(task.file.spec_id())) {
    constants = IdentityPartitionValues(*spec, scan_schema, task.file.partition());
  }
  r->projection_ = std::make_unique<ColumnProjection>(r->file_has_ids_, r->mapping_ ? &*r->mapping_ : nullptr,
                                                      std::move(constants));

  FLOE_ASSIGN_OR_RETURN(r->reader_, parquet::ParquetRecordBatchReader::Make(file, std::move(options)));
  return r;
}

Result<RecordBatch> ScanFileReader::Conform(const RecordBatch& file_batch) const {
  std::vector<Array> columns;
  const auto& fields = read_schema_->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const auto& target = read_columnar_->field(static_cast<int>(i));
    int c = -1;
    if (file_has_ids_) {
      c = ColumnWithId(file_batch, fields[i].field_id);
    } else if (auto it = name_of_id_.find(fields[i].field_id); it != name_of_id_.end()) {
      c = file_batch.schema().FieldIndex(it->second);
    }
    const MappedField* mapped = file_has_ids_ ? nullptr : projection_->TopLevelMapping(fields[i].field_id);
    FLOE_ASSIGN_OR_RETURN(auto column, projection_->Project(c < 0 ? nullptr : &file_batch.column(c), fields[i],
                                                            target.type, mapped, file_batch.num_rows()));
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(read_columnar_, std::move(columns), file_batch.num_rows());
}

Result<std::vector<uint8_t>> ScanFileReader::EqualityDeleted(const RecordBatch& rows) const {
  std::vector<uint8_t> deleted(static_cast<size_t>(rows.num_rows()), 0);
  for (const auto& [ids, keys] : equality_deletes_) {
    std::vector<std::pair<Array, TypePtr>> columns;
    for (const int32_t id : ids) {
      const int c = ColumnWithId(rows, id);
      const NestedField* field = read_schema_->FindFieldById(id);
      if (c < 0 || field == nullptr) return Status::Unsupported(StrCat("equality delete on nested field id ", id));
      columns.emplace_back(rows.column(c), field->type);
    }
    for (int64_t i = 0; i < rows.num_rows(); ++i) {
      if (keys.count(RowKey(columns, i)) > 0) deleted[static_cast<size_t>(i)] = 1;
    }
  }
  return deleted;
}

Result<std::optional<RecordBatch>> ScanFileReader::Next() {
  if (finished_) return std::optional<RecordBatch>();
  FLOE_ASSIGN_OR_RETURN(auto batch, reader_->Next());
  if (!batch.has_value()) {
    finished_ = true;
    const auto& m = reader_->metrics();
    report_->row_groups_total += m.row_groups;
    report_->row_groups_skipped += m.row_groups_pruned;
    report_->pages_total += m.pages;
    report_->pages_skipped += m.pages_skipped;
    return std::optional<RecordBatch>();
  }
  const int64_t n = batch->num_rows();
  report_->rows_scanned += n;
  FLOE_ASSIGN_OR_RETURN(RecordBatch rows, Conform(*batch));
  std::vector<uint8_t> keep(static_cast<size_t>(n), 1);
  if (!IsAlwaysTrue(residual_)) {
    const auto& fields = read_schema_->fields();
    FLOE_ASSIGN_OR_RETURN(keep, EvaluateBatch(*residual_, rows, [&](int32_t id) {
                            for (size_t i = 0; i < fields.size(); ++i) {
                              if (fields[i].field_id == id) return static_cast<int>(i);
                            }
                            return -1;
                          }));
  }
  int64_t deleted = 0;
  int64_t position = 0;  // in the data file, of the batch's first row
  if ((track_positions_ || !deleted_positions_.empty()) && n > 0) {
    while (group_ < group_rows_.size() && rows_into_group_ >= group_rows_[group_].second) {
      ++group_;
      rows_into_group_ = 0;
    }
    if (group_ >= group_rows_.size() || rows_into_group_ + n > group_rows_[group_].second) {
      return Status::Internal(StrCat("data file ", Quote(path_), ": a batch of ", n,
                                     " rows does not fit the row groups read"));
    }
    position = group_rows_[group_].first + rows_into_group_;
    rows_into_group_ += n;
  }
  if (!deleted_positions_.empty()) {
    for (int64_t i = 0; i < n; ++i) {
      if (deleted_positions_.count(position + i) > 0 && keep[static_cast<size_t>(i)]) {
        keep[static_cast<size_t>(i)] = 0;
        ++deleted;
      }
    }
  }
  if (!equality_deletes_.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto removed, EqualityDeleted(rows));
    for (size_t i = 0; i < removed.size(); ++i) {
      if (removed[i] && keep[i]) {
        keep[i] = 0;
        ++deleted;
      }
    }
  }
  report_->rows_deleted += deleted;
  if (track_positions_) {
    positions_.clear();
    for (int64_t i = 0; i < n; ++i) {
      if (keep[static_cast<size_t>(i)]) positions_.push_back(position + i);
    }
  }
  FLOE_ASSIGN_OR_RETURN(RecordBatch kept, FilterRows(rows, keep));
  std::vector<Array> columns;
  for (const int c : output_columns_) columns.push_back(kept.column(c));
  FLOE_ASSIGN_OR_RETURN(auto out, RecordBatch::Make(output_schema_, std::move(columns), kept.num_rows()));
  return std::optional<RecordBatch>(std::move(out));
}

}  // namespace floe::iceberg
