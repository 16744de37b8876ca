#include "floe/iceberg/position_delete_file.h"

#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/iceberg/columnar_value.h"
#include "floe/iceberg/parquet_metrics.h"

namespace floe::iceberg {

const Schema& PositionDeleteSchema() {
  static const Schema* schema = [] {
    NestedField path;
    path.field_id = kPositionDeleteFilePathId;
    path.name = "file_path";
    path.type = Type::String();
    path.required = true;
    NestedField pos;
    pos.field_id = kPositionDeletePosId;
    pos.name = "pos";
    pos.type = Type::Long();
    pos.required = true;
    return new Schema(Schema::Make(0, {path, pos}).value());
  }();
  return *schema;
}

Result<DataFile> WritePositionDeleteFile(std::shared_ptr<FileIO> io, const std::string& path,
                                         const DataFile& data_file, const std::vector<int64_t>& positions) {
  if (positions.empty()) {
    return Status::InvalidArgument(StrCat("position delete file ", Quote(path), ": no positions to write"));
  }
  StringBuilder paths;
  Int64Builder pos;
  for (size_t i = 0; i < positions.size(); ++i) {
    if (positions[i] < 0 || (i > 0 && positions[i] <= positions[i - 1])) {
      return Status::InvalidArgument(StrCat("position delete file ", Quote(path), ": position ", positions[i],
                                            " is negative or not ascending"));
    }
    FLOE_RETURN_IF_ERROR(paths.Append(data_file.file_path));
    FLOE_RETURN_IF_ERROR(pos.Append(positions[i]));
  }
  const Schema& schema = PositionDeleteSchema();
  FLOE_ASSIGN_OR_RETURN(auto columnar, ToColumnarSchema(schema));
  auto columnar_schema = std::make_shared<const floe::Schema>(std::move(columnar));
  FLOE_ASSIGN_OR_RETURN(auto path_array, paths.Finish());
  FLOE_ASSIGN_OR_RETURN(auto pos_array, pos.Finish());
  FLOE_ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(columnar_schema, {std::move(path_array), std::move(pos_array)}));

  FLOE_ASSIGN_OR_RETURN(auto writer, parquet::ParquetFileWriter::Open(io, path, columnar_schema, {}));
  Status status = writer->Write(batch);
  if (!status.ok()) {
    writer->Abort();
    return status;
  }
  FLOE_ASSIGN_OR_RETURN(auto written, writer->Close());

  DataFile file;
  file.content = DataFileContent::kPositionDeletes;
  file.file_path = path;
  file.spec_id = data_file.spec_id;
  file.partition = data_file.partition;
  file.file_size_in_bytes = written.file_size;
  file.referenced_data_file = data_file.file_path;
  // Full-length bounds for file_path: readers match a delete file to data
  // files by them (Java keeps them untruncated for this column).
  MetricsConfig metrics;
  metrics.default_mode.kind = MetricsMode::Kind::kFull;
  status = FillParquetMetrics(written.metadata, schema, metrics, &file);
  if (!status.ok()) {
    (void)io->Delete(path);
    return status;
  }
  file.record_count = static_cast<int64_t>(positions.size());
  return file;
}

Result<DeletionVector> ReadPositionDeletes(std::shared_ptr<FileIO> io, const DataFile& delete_file,
                                           const std::string& data_file_path) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const parquet::ParquetFileReader> reader,
                        parquet::ParquetFileReader::Open(io, delete_file.file_path));
  parquet::ScanOptions options;
  options.columns = std::vector<std::string>{"file_path", "pos"};
  // One path repeats for many rows: as a dictionary it is not copied per row.
  options.read_dictionary = true;
  FLOE_ASSIGN_OR_RETURN(auto batches, parquet::ReadAllBatches(reader, options));
  DeletionVector positions;
  for (const auto& batch : batches) {
    const int path_column = batch.schema().FieldIndex("file_path");
    const int pos_column = batch.schema().FieldIndex("pos");
    if (path_column < 0 || pos_column < 0 || batch.column(pos_column).type_id() != floe::TypeId::kInt64) {
      return Status::Corrupt(StrCat("position delete file ", Quote(delete_file.file_path),
                                    " lacks the file_path and pos columns"));
    }
    const Array& paths = batch.column(path_column);
    const Array& pos = batch.column(pos_column);
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      const std::optional<std::string_view> path = BytesAt(paths, i);
      if (path.has_value() && !pos.IsNull(i) && *path == data_file_path) {
        FLOE_RETURN_IF_ERROR(positions.Add(pos.Values<int64_t>()[i]));
      }
    }
  }
  return positions;
}

}  // namespace floe::iceberg
