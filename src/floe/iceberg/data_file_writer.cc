#include "floe/iceberg/data_file_writer.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/columnar/take.h"
#include "floe/formats/compression/codec.h"
#include "floe/iceberg/columnar_value.h"
#include "floe/iceberg/schema_json.h"
#include "floe/iceberg/transform_function.h"

namespace floe::iceberg {
namespace {

// A column of the batch reached through struct children, by field id.
struct ColumnPath {
  std::vector<int> indices;  // top-level index, then child indices
  TypePtr type;
};

bool FindColumnPath(const std::vector<NestedField>& fields, int32_t field_id, ColumnPath* path) {
  for (size_t i = 0; i < fields.size(); ++i) {
    path->indices.push_back(static_cast<int>(i));
    if (fields[i].field_id == field_id) {
      path->type = fields[i].type;
      return true;
    }
    if (fields[i].type->id() == TypeId::kStruct && FindColumnPath(fields[i].type->fields(), field_id, path)) {
      return true;
    }
    path->indices.pop_back();
  }
  return false;
}

// The array at `path` (a null parent struct makes the child's row null:
// callers check the parents, see ValueAt).
struct ResolvedColumn {
  std::vector<Array> chain;  // the arrays from the top-level column down
  TypePtr type;
};

ResolvedColumn Resolve(const RecordBatch& batch, const ColumnPath& path) {
  ResolvedColumn column{{batch.column(path.indices[0])}, path.type};
  for (size_t k = 1; k < path.indices.size(); ++k) column.chain.push_back(column.chain.back().field(path.indices[k]));
  return column;
}

std::optional<Literal> ValueAt(const ResolvedColumn& column, int64_t row) {
  for (size_t k = 0; k + 1 < column.chain.size(); ++k) {
    if (column.chain[k].IsNull(row)) return std::nullopt;
  }
  return LiteralAt(column.chain.back(), row);
}

// A byte key that tells partition tuples apart (null differs from every value).
void AppendKey(const std::optional<Literal>& value, std::string* key) {
  if (!value.has_value()) {
    key->push_back('\0');
    return;
  }
  const std::string bytes = value->ToBytes();
  key->push_back('\1');
  const auto size = static_cast<uint32_t>(bytes.size());
  key->append(reinterpret_cast<const char*>(&size), sizeof size);
  key->append(bytes);
}

int CompareKeys(const std::vector<std::optional<Literal>>& a, const std::vector<std::optional<Literal>>& b,
                const SortOrder& order) {
  for (size_t i = 0; i < a.size(); ++i) {
    const SortField& field = order.fields[i];
    if (!a[i].has_value() || !b[i].has_value()) {
      if (a[i].has_value() == b[i].has_value()) continue;
      const bool a_null = !a[i].has_value();
      const bool nulls_first = field.null_order == NullOrder::kNullsFirst;
      return (a_null == nulls_first) ? -1 : 1;
    }
    int c = a[i]->Compare(*b[i]);
    if (field.direction == SortDirection::kDesc) c = -c;
    if (c != 0) return c;
  }
  return 0;
}

Result<int64_t> IntProperty(const std::map<std::string, std::string>& properties, const std::string& key,
                            int64_t fallback) {
  auto it = properties.find(key);
  if (it == properties.end()) return fallback;
  int64_t value = 0;
  if (!ParseInt64(Trim(it->second), &value) || value <= 0) {
    return Status::InvalidArgument(StrCat("table property ", key, " is ", Quote(it->second),
                                          ", expected a positive integer"));
  }
  return value;
}

}  // namespace

struct DataFileWriter::Partition {
  PartitionValues values;
  std::string path;  // relative partition path, "" when unpartitioned
  int index = 0;
  int files = 0;
  std::unique_ptr<parquet::ParquetFileWriter> writer;
  std::string file_path;
  std::vector<RecordBatch> buffered;
  int64_t buffered_rows = 0;
};

Result<DataWriterOptions> DataWriterOptions::FromTable(const TableMetadata& metadata) {
  const auto& p = metadata.properties;
  DataWriterOptions options;
  FLOE_ASSIGN_OR_RETURN(options.target_file_size_bytes,
                        IntProperty(p, "write.target-file-size-bytes", options.target_file_size_bytes));
  FLOE_ASSIGN_OR_RETURN(options.row_group_rows, IntProperty(p, "write.parquet.row-group-limit", options.row_group_rows));
  FLOE_ASSIGN_OR_RETURN(options.parquet.row_group_bytes,
                        IntProperty(p, "write.parquet.row-group-size-bytes", int64_t{128} << 20));
  FLOE_ASSIGN_OR_RETURN(options.parquet.page_bytes, IntProperty(p, "write.parquet.page-size-bytes", int64_t{1} << 20));
  FLOE_ASSIGN_OR_RETURN(options.parquet.page_rows, IntProperty(p, "write.parquet.page-row-limit", 20000));
  FLOE_ASSIGN_OR_RETURN(options.parquet.dictionary_page_size_limit,
                        IntProperty(p, "write.parquet.dict-size-bytes", int64_t{2} << 20));
  // A row group holds what was buffered; the writer's own row limit must not cut it first.
  options.parquet.row_group_rows = std::max(options.parquet.row_group_rows, options.row_group_rows);
  if (auto it = p.find("write.parquet.compression-codec"); it != p.end()) {
    auto codec = compression::CodecFromName(it->second);
    if (!codec.ok()) {
      return Status::InvalidArgument(StrCat("table property write.parquet.compression-codec: ", codec.status().message()));
    }
    options.parquet.codec = *codec;
  }
  if (auto it = p.find("write.parquet.compression-level"); it != p.end()) {
    int64_t level = 0;
    if (!ParseInt64(Trim(it->second), &level)) {
      return Status::InvalidArgument(StrCat("table property write.parquet.compression-level is ", Quote(it->second)));
    }
    options.parquet.compression_level = static_cast<int>(level);
  }
  static constexpr std::string_view kBloomPrefix = "write.parquet.bloom-filter-enabled.column.";
  for (const auto& [key, value] : p) {
    if (key.starts_with(kBloomPrefix) && EqualsIgnoreCase(Trim(value), "true")) {
      options.parquet.columns[key.substr(kBloomPrefix.size())].bloom_filter = true;
    }
  }
  FLOE_ASSIGN_OR_RETURN(options.metrics, MetricsConfig::FromProperties(p));
  const Schema* current = metadata.current_schema();
  auto delta = p.find("write.parquet.delta-encoding.enabled");
  const bool use_delta = delta == p.end() || EqualsIgnoreCase(Trim(delta->second), "true");
  if (current != nullptr && use_delta) {
    // Integer-like columns whose dictionary overflows fall back to
    // DELTA_BINARY_PACKED rather than PLAIN (parquet-mr's v2 writer does the
    // same): sorted timestamps and ids shrink to a few bits per value, which
    // is what makes page-level pruning cheap (docs/decisions/0025).
    std::function<void(const std::vector<NestedField>&, const std::string&)> visit =
        [&](const std::vector<NestedField>& fields, const std::string& prefix) {
          for (const auto& field : fields) {
            const std::string path = prefix.empty() ? field.name : StrCat(prefix, ".", field.name);
            const TypeId id = field.type->id();
            const bool integer = id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDate ||
                                 id == TypeId::kTime || id == TypeId::kTimestamp || id == TypeId::kTimestampTz ||
                                 id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs ||
                                 (id == TypeId::kDecimal && field.type->precision() <= 18);
            if (integer && !options.parquet.columns[path].encoding.has_value()) {
              options.parquet.columns[path].encoding = parquet::Encoding::DELTA_BINARY_PACKED;
            }
            if (id == TypeId::kStruct) visit(field.type->fields(), path);
          }
        };
    visit(current->fields(), "");
  }
  auto data_path = p.find("write.data.path");
  options.data_location = data_path != p.end() ? data_path->second : JoinLocation(metadata.location, "data");
  const Schema* schema = metadata.current_schema();
  if (schema != nullptr) {
    // spec: readers may use the schema in the file's key-value metadata.
    options.parquet.key_value_metadata.push_back({"iceberg.schema", SchemaToJson(*schema)});
  }
  return options;
}

Result<std::unique_ptr<DataFileWriter>> DataFileWriter::Make(std::shared_ptr<FileIO> io, const TableMetadata& metadata,
                                                             DataWriterOptions options) {
  const Schema* schema = metadata.current_schema();
  const PartitionSpec* spec = metadata.default_spec();
  if (schema == nullptr || spec == nullptr) {
    return Status::InvalidArgument("table metadata has no current schema or default partition spec");
  }
  FLOE_RETURN_IF_ERROR(ValidatePartitionSpec(*spec, *schema));
  FLOE_ASSIGN_OR_RETURN(auto columnar, ToColumnarSchema(*schema));
  std::unique_ptr<DataFileWriter> writer(new DataFileWriter());
  writer->io_ = std::move(io);
  writer->schema_ = std::make_shared<const floe::Schema>(std::move(columnar));
  writer->table_schema_ = std::make_shared<const Schema>(*schema);
  writer->spec_ = *spec;
  const SortOrder* order = metadata.default_sort_order();
  if (order != nullptr) writer->sort_order_ = *order;
  writer->options_ = std::move(options);
  writer->write_uuid_ = RandomUuid();
  return writer;
}

DataFileWriter::~DataFileWriter() {
  if (!done_) Abort();
}

Status DataFileWriter::Fail(Status status) {
  if (error_.ok()) error_ = status;
  return status;
}

Status DataFileWriter::Write(const RecordBatch& batch) {
  if (done_) return Status::InvalidArgument("data file writer: already closed");
  FLOE_RETURN_IF_ERROR(error_);
  const auto& fields = batch.schema().fields;
  if (std::none_of(fields.begin(), fields.end(), [](const floe::Field& f) { return HasDictionary(f.type); })) {
    return WriteValues(batch);
  }
  // Dictionary columns count as their values: decoded a slice of rows at a
  // time, since a batch of indices may stand for more bytes than one array
  // holds.
  constexpr int64_t kDecodeRows = 4096;
  // Rows of earlier slices are buffered by the time a later one fails.
  const Status status =
      ForEachDecodedSlice(batch, kDecodeRows, [this](const RecordBatch& plain) { return WriteValues(plain); });
  return status.ok() ? status : Fail(status);
}

Status DataFileWriter::WriteValues(const RecordBatch& batch) {
  if (!batch.schema().Equals(*schema_)) {
    return Status::InvalidArgument(StrCat("data file writer: batch schema (", batch.schema().ToString(),
                                          ") differs from the table's (", schema_->ToString(), ")"));
  }
  if (batch.num_rows() == 0) return Status::OK();

  // Resolve each partition field's source column once per batch.
  std::vector<ResolvedColumn> sources;
  for (const auto& field : spec_.fields) {
    ColumnPath path;
    if (!field.transform.is_void() && !FindColumnPath(table_schema_->fields(), field.source_id(), &path)) {
      return Fail(Status::InvalidArgument(StrCat("partition field ", field.name, ": source column ",
                                                 field.source_id(), " is not in the schema")));
    }
    sources.push_back(field.transform.is_void() ? ResolvedColumn{} : Resolve(batch, path));
  }

  // Rows of one partition in a run share the tuple of the run's first row,
  // so sorted or clustered input costs one key per run.
  std::map<std::string, std::vector<int64_t>> rows_by_key;
  std::map<std::string, PartitionValues> tuples;
  PartitionValues previous;
  std::string previous_key;
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    PartitionValues tuple;
    tuple.reserve(spec_.fields.size());
    for (size_t f = 0; f < spec_.fields.size(); ++f) {
      const auto& field = spec_.fields[f];
      if (field.transform.is_void()) {
        tuple.emplace_back();
        continue;
      }
      auto value = ApplyTransform(field.transform, ValueAt(sources[f], row));
      if (!value.ok()) return Fail(value.status());
      tuple.push_back(std::move(*value));
    }
    if (row == 0 || tuple != previous) {
      previous_key.clear();
      for (const auto& v : tuple) AppendKey(v, &previous_key);
      tuples.try_emplace(previous_key, tuple);
      previous = std::move(tuple);
    }
    rows_by_key[previous_key].push_back(row);
  }

  for (auto& [key, rows] : rows_by_key) {
    auto it = partitions_.find(key);
    if (it == partitions_.end()) {
      auto partition = std::make_unique<Partition>();
      partition->values = tuples[key];
      partition->path = PartitionPath(spec_, partition->values);
      partition->index = static_cast<int>(partitions_.size());
      it = partitions_.emplace(key, std::move(partition)).first;
    }
    const bool contiguous = rows.back() - rows.front() + 1 == static_cast<int64_t>(rows.size());
    RecordBatch part = batch;
    if (rows.size() != static_cast<size_t>(batch.num_rows())) {
      if (contiguous) {
        part = batch.Slice(rows.front(), static_cast<int64_t>(rows.size()));
      } else {
        auto taken = TakeRows(batch, rows);
        if (!taken.ok()) return Fail(taken.status());
        part = std::move(*taken);
      }
    }
    FLOE_RETURN_IF_ERROR(WritePartitionRows(*it->second, part));
  }
  rows_written_ += batch.num_rows();
  return Status::OK();
}

Status DataFileWriter::WritePartitionRows(Partition& partition, const RecordBatch& rows) {
  partition.buffered.push_back(rows);
  partition.buffered_rows += rows.num_rows();
  if (partition.buffered_rows >= options_.row_group_rows) return FlushPartition(partition, /*final=*/false);
  return Status::OK();
}

Result<RecordBatch> DataFileWriter::SortRows(const RecordBatch& rows) const {
  std::vector<ResolvedColumn> columns;
  for (const auto& field : sort_order_.fields) {
    ColumnPath path;
    if (!FindColumnPath(table_schema_->fields(), field.source_id(), &path)) {
      return Status::InvalidArgument(StrCat("sort order: source column ", field.source_id(), " is not in the schema"));
    }
    columns.push_back(Resolve(rows, path));
  }
  auto key_of = [&](int64_t row) -> Result<std::vector<std::optional<Literal>>> {
    std::vector<std::optional<Literal>> key;
    for (size_t f = 0; f < columns.size(); ++f) {
      FLOE_ASSIGN_OR_RETURN(auto value, ApplyTransform(sort_order_.fields[f].transform, ValueAt(columns[f], row)));
      key.push_back(std::move(value));
    }
    return key;
  };
  // Input already in order (the common case: rows arrive sorted by time) is written as is.
  std::vector<std::vector<std::optional<Literal>>> keys;
  keys.reserve(static_cast<size_t>(rows.num_rows()));
  bool sorted = true;
  for (int64_t row = 0; row < rows.num_rows(); ++row) {
    FLOE_ASSIGN_OR_RETURN(auto key, key_of(row));
    if (sorted && !keys.empty() && CompareKeys(keys.back(), key, sort_order_) > 0) sorted = false;
    keys.push_back(std::move(key));
  }
  if (sorted) return rows;
  std::vector<int64_t> order(static_cast<size_t>(rows.num_rows()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return CompareKeys(keys[static_cast<size_t>(a)], keys[static_cast<size_t>(b)], sort_order_) < 0;
  });
  return TakeRows(rows, order);
}

Status DataFileWriter::FlushPartition(Partition& partition, bool final) {
  if (partition.buffered.empty()) return Status::OK();
  auto combined = ConcatenateRows(partition.buffered);
  if (!combined.ok()) return Fail(combined.status());
  RecordBatch rows = std::move(*combined);
  partition.buffered.clear();
  partition.buffered_rows = 0;
  if (!sort_order_.is_unsorted()) {
    auto sorted = SortRows(rows);
    if (!sorted.ok()) return Fail(sorted.status());
    rows = std::move(*sorted);
  }
  // Full row groups are written now; a short tail waits for more rows
  // unless this is the last flush.
  const int64_t limit = options_.row_group_rows;
  int64_t offset = 0;
  while (offset < rows.num_rows()) {
    const int64_t length = std::min(limit, rows.num_rows() - offset);
    if (length < limit && !final) {
      partition.buffered.push_back(rows.Slice(offset, length));
      partition.buffered_rows = length;
      break;
    }
    FLOE_RETURN_IF_ERROR(WriteRowGroup(partition, rows.Slice(offset, length)));
    offset += length;
  }
  return Status::OK();
}

Status DataFileWriter::WriteRowGroup(Partition& partition, const RecordBatch& rows) {
  if (partition.writer == nullptr) {
    char name[96];
    std::snprintf(name, sizeof name, "%05d-0-%s-%05d.parquet", partition.index, write_uuid_.c_str(),
                  ++partition.files);
    const std::string folder =
        partition.path.empty() ? options_.data_location : JoinLocation(options_.data_location, partition.path);
    partition.file_path = JoinLocation(folder, name);
    written_paths_.push_back(partition.file_path);
    auto writer = parquet::ParquetFileWriter::Open(io_, partition.file_path, schema_, options_.parquet);
    if (!writer.ok()) return Fail(writer.status());
    partition.writer = std::move(*writer);
  }
  Status status = partition.writer->Write(rows);
  if (status.ok()) status = partition.writer->FlushRowGroup();
  if (!status.ok()) return Fail(status);
  if (partition.writer->EstimatedSize() >= options_.target_file_size_bytes) return FinishFile(partition);
  return Status::OK();
}

Status DataFileWriter::FinishFile(Partition& partition) {
  if (partition.writer == nullptr) return Status::OK();
  auto written = partition.writer->Close();
  partition.writer.reset();
  if (!written.ok()) return Fail(written.status());
  DataFile file;
  file.file_path = partition.file_path;
  file.spec_id = spec_.spec_id;
  file.partition = partition.values;
  file.file_size_in_bytes = written->file_size;
  if (!sort_order_.is_unsorted()) file.sort_order_id = sort_order_.order_id;
  Status status = FillParquetMetrics(written->metadata, *table_schema_, options_.metrics, &file);
  if (!status.ok()) return Fail(status);
  finished_.push_back(std::move(file));
  return Status::OK();
}

Result<std::vector<DataFile>> DataFileWriter::Close() {
  if (done_) return Status::InvalidArgument("data file writer: already closed");
  if (error_.ok()) {
    for (auto& [key, partition] : partitions_) {
      if (Status s = FlushPartition(*partition, /*final=*/true); !s.ok()) break;
      if (Status s = FinishFile(*partition); !s.ok()) break;
    }
  }
  if (!error_.ok()) {
    Status error = error_;
    Abort();
    return error;
  }
  done_ = true;
  return std::move(finished_);
}

void DataFileWriter::Abort() {
  for (auto& [key, partition] : partitions_) {
    if (partition->writer != nullptr) partition->writer->Abort();
    partition->writer.reset();
  }
  if (!written_paths_.empty()) (void)io_->DeleteMany(written_paths_);
  written_paths_.clear();
  finished_.clear();
  done_ = true;
}

}  // namespace floe::iceberg
