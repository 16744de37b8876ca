#include "floe/cli/row_input.h"

#include "floe/base/strings.h"
#include "floe/columnar/builder.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/text/csv_reader.h"

namespace floe::cli {
namespace {

using iceberg::Literal;
using iceberg::NestedField;
using iceberg::TypeId;

Status AppendLiteral(ArrayBuilder* builder, const Literal& v) {
  switch (v.type()->id()) {
    case TypeId::kBoolean: return builder->As<BoolBuilder>()->Append(v.bool_value());
    case TypeId::kInt:
    case TypeId::kDate: return builder->As<PrimitiveBuilder<int32_t>>()->Append(v.int_value());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return builder->As<PrimitiveBuilder<int64_t>>()->Append(v.long_value());
    case TypeId::kFloat: return builder->As<PrimitiveBuilder<float>>()->Append(v.float_value());
    case TypeId::kDouble: return builder->As<PrimitiveBuilder<double>>()->Append(v.double_value());
    case TypeId::kDecimal: return builder->As<PrimitiveBuilder<Decimal128Value>>()->Append(v.decimal_value());
    case TypeId::kString:
    case TypeId::kBinary: return builder->As<BinaryBuilder>()->Append(v.bytes());
    case TypeId::kFixed:
    case TypeId::kUuid: return builder->As<FixedSizeBinaryBuilder>()->Append(v.bytes());
    default: return Status::Unsupported(StrCat("values of type ", v.type()->ToString(), " from text"));
  }
}

int FindColumn(const Schema& schema, const std::string& name) {
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (EqualsIgnoreCase(schema.field(i).name, name)) return i;
  }
  return -1;
}

Status CheckNoExtraColumns(const Schema& file, const iceberg::Schema& table, const std::string& source) {
  for (const auto& f : file.fields) {
    bool known = false;
    for (const auto& t : table.fields()) known = known || EqualsIgnoreCase(t.name, f.name);
    if (!known) return Status::InvalidArgument(StrCat(source, ": column ", Quote(f.name), " is not in the table"));
  }
  return Status::OK();
}

std::string_view Extension(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? std::string_view() : std::string_view(path).substr(dot + 1);
}

}  // namespace

Result<RecordBatch> TypeTextBatch(const RecordBatch& text, const iceberg::Schema& schema,
                                  const std::shared_ptr<const Schema>& columnar, const std::string& source,
                                  int64_t first_row) {
  FLOE_RETURN_IF_ERROR(CheckNoExtraColumns(text.schema(), schema, source));
  std::vector<Array> columns;
  for (size_t f = 0; f < schema.fields().size(); ++f) {
    const NestedField& field = schema.fields()[f];
    auto builder = MakeBuilder(columnar->field(static_cast<int>(f)).type);
    const int c = FindColumn(text.schema(), field.name);
    if (c < 0) {
      if (field.required) {
        return Status::InvalidArgument(StrCat(source, ": required column ", Quote(field.name), " is missing"));
      }
      FLOE_RETURN_IF_ERROR(builder->AppendNulls(text.num_rows()));
    } else {
      if (!field.type->is_primitive()) {
        return Status::Unsupported(StrCat(source, ": column ", Quote(field.name), " of type ",
                                          field.type->ToString(), " cannot be read from text yet"));
      }
      const Array& values = text.column(c);
      FLOE_RETURN_IF_ERROR(builder->Reserve(text.num_rows()));
      for (int64_t row = 0; row < text.num_rows(); ++row) {
        if (values.IsNull(row)) {
          if (field.required) {
            return Status::InvalidArgument(
                StrCat(source, " row ", first_row + row, ": required column ", Quote(field.name), " is empty"));
          }
          FLOE_RETURN_IF_ERROR(builder->AppendNull());
          continue;
        }
        auto value = Literal::Parse(field.type, values.GetString(row));
        if (!value.ok()) {
          return Status::InvalidArgument(
              StrCat(source, " row ", first_row + row, ", column ", Quote(field.name), ": ", value.status().message()));
        }
        FLOE_RETURN_IF_ERROR(AppendLiteral(builder.get(), *value));
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto column, builder->Finish());
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(columnar, std::move(columns), text.num_rows());
}

namespace {

// A Parquet file's batch as the table's: columns by name, same types only.
// Not by field id: the ids of a file another table wrote mean other columns
// there, and matching them would swap columns silently (decision 0058).
Result<RecordBatch> ConformParquetBatch(const RecordBatch& batch, const iceberg::Schema& schema,
                                        const std::shared_ptr<const Schema>& columnar, const std::string& source) {
  FLOE_RETURN_IF_ERROR(CheckNoExtraColumns(batch.schema(), schema, source));
  std::vector<Array> columns;
  for (size_t f = 0; f < schema.fields().size(); ++f) {
    const NestedField& field = schema.fields()[f];
    const Field& target = columnar->field(static_cast<int>(f));
    const int c = FindColumn(batch.schema(), field.name);
    if (c < 0) {
      if (field.required) {
        return Status::InvalidArgument(StrCat(source, ": required column ", Quote(field.name), " is missing"));
      }
      auto builder = MakeBuilder(target.type);
      FLOE_RETURN_IF_ERROR(builder->AppendNulls(batch.num_rows()));
      FLOE_ASSIGN_OR_RETURN(auto nulls, builder->Finish());
      columns.push_back(std::move(nulls));
      continue;
    }
    Array column = batch.column(c);
    // A dictionary-encoded column holds values of its value type.
    if (HasDictionary(column.type())) {
      FLOE_ASSIGN_OR_RETURN(column, DecodeDictionaries(column));
    }
    if (!TypeEquals(column.type(), target.type)) {
      return Status::InvalidArgument(StrCat(source, ": column ", Quote(field.name), " is ",
                                            batch.column(c).type()->ToString(), ", the table has ",
                                            target.type->ToString()));
    }
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(columnar, std::move(columns), batch.num_rows());
}

}  // namespace

Result<iceberg::BatchSource> OpenRowInput(const std::vector<std::string>& paths, const iceberg::Schema& schema,
                                          std::shared_ptr<const Schema> columnar,
                                          std::function<Result<std::shared_ptr<FileIO>>(const std::string&)> io_for) {
  for (const auto& path : paths) {
    const std::string ext = ToLowerAscii(Extension(path));
    if (ext != "csv" && ext != "jsonl" && ext != "ndjson" && ext != "json" && ext != "parquet") {
      return Status::InvalidArgument(StrCat("input ", Quote(path), ": unknown format (use .csv, .jsonl or .parquet)"));
    }
  }
  auto schema_copy = std::make_shared<const iceberg::Schema>(schema);
  struct State {
    size_t next = 0;
    std::unique_ptr<RecordBatchReader> reader;
    bool text = false;
    std::string path;
    int64_t rows_read = 0;  // of the current file, for the row numbers in errors
  };
  auto state = std::make_shared<State>();
  iceberg::BatchSource source = [=]() -> Result<std::optional<RecordBatch>> {
    while (true) {
      if (state->reader == nullptr) {
        if (state->next >= paths.size()) return std::optional<RecordBatch>();
        state->path = paths[state->next++];
        state->rows_read = 0;
        FLOE_ASSIGN_OR_RETURN(auto io, io_for(state->path));
        const std::string ext = ToLowerAscii(Extension(state->path));
        state->text = ext != "parquet";
        if (ext == "csv") {
          FLOE_ASSIGN_OR_RETURN(state->reader, text::OpenCsv(*io, state->path));
        } else if (state->text) {
          FLOE_ASSIGN_OR_RETURN(state->reader, text::OpenJsonLines(*io, state->path));
        } else {
          FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const parquet::ParquetFileReader> file,
                                parquet::ParquetFileReader::Open(io, state->path));
          FLOE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetRecordBatchReader::Make(file));
          state->reader = std::move(reader);
        }
      }
      FLOE_ASSIGN_OR_RETURN(auto batch, state->reader->Next());
      if (!batch.has_value()) {
        state->reader.reset();
        continue;
      }
      const int64_t first_row = state->rows_read + 1;
      state->rows_read += batch->num_rows();
      if (state->text) {
        FLOE_ASSIGN_OR_RETURN(auto typed, TypeTextBatch(*batch, *schema_copy, columnar, state->path, first_row));
        return std::optional<RecordBatch>(std::move(typed));
      }
      FLOE_ASSIGN_OR_RETURN(auto conformed, ConformParquetBatch(*batch, *schema_copy, columnar, state->path));
      return std::optional<RecordBatch>(std::move(conformed));
    }
  };
  return source;
}

}  // namespace floe::cli
