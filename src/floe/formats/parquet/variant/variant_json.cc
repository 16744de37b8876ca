#include "floe/formats/parquet/variant/variant_json.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <variant>
#include <vector>

#include "floe/base/base64.h"
#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/value_format.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/variant/variant_shredding.h"

namespace floe::parquet {
namespace {

// JSON has no NaN or infinities: those print as strings, as the batch
// printer's JSON does.
void AppendJsonNumber(double v, bool is_float, std::string* out) {
  if (!std::isfinite(v)) {
    out->push_back('"');
    value_format::AppendFloat(v, out);
    out->push_back('"');
    return;
  }
  if (is_float) {
    value_format::AppendFloat(static_cast<float>(v), out);
  } else {
    value_format::AppendFloat(v, out);
  }
}

// The text of a uuid, date, time or timestamp, as value_format prints it.
void AppendTemporalOrUuid(const VariantValue& v, std::string* out) {
  const auto value = static_cast<int64_t>(v.integer);
  switch (v.kind) {
    case VariantKind::kUuid: value_format::AppendUuid(v.bytes, out); return;
    case VariantKind::kDate: value_format::AppendDate(value, out); return;
    case VariantKind::kTimeNtz: value_format::AppendTime(value, floe::TimeUnit::kMicro, out); return;
    case VariantKind::kTimestamp: value_format::AppendTimestamp(value, floe::TimeUnit::kMicro, true, out); return;
    case VariantKind::kTimestampNtz: value_format::AppendTimestamp(value, floe::TimeUnit::kMicro, false, out); return;
    case VariantKind::kTimestampNanos: value_format::AppendTimestamp(value, floe::TimeUnit::kNano, true, out); return;
    case VariantKind::kTimestampNtzNanos:
      value_format::AppendTimestamp(value, floe::TimeUnit::kNano, false, out);
      return;
    default: return;
  }
}

}  // namespace

void AppendVariantJson(const VariantValue& v, std::string* out) {
  switch (v.kind) {
    case VariantKind::kNull: out->append("null"); return;
    case VariantKind::kBoolean: out->append(v.boolean ? "true" : "false"); return;
    case VariantKind::kInt8:
    case VariantKind::kInt16:
    case VariantKind::kInt32:
    case VariantKind::kInt64: value_format::AppendDecimal(v.integer, 0, out); return;
    case VariantKind::kDecimal4:
    case VariantKind::kDecimal8:
    case VariantKind::kDecimal16: value_format::AppendDecimal(v.integer, v.scale, out); return;
    case VariantKind::kDouble: AppendJsonNumber(v.number, /*is_float=*/false, out); return;
    case VariantKind::kFloat: AppendJsonNumber(v.number, /*is_float=*/true, out); return;
    case VariantKind::kString: value_format::AppendJsonString(v.bytes, out); return;
    case VariantKind::kBinary: value_format::AppendJsonString(Base64Encode(v.bytes), out); return;
    case VariantKind::kUuid:
    case VariantKind::kDate:
    case VariantKind::kTimeNtz:
    case VariantKind::kTimestamp:
    case VariantKind::kTimestampNtz:
    case VariantKind::kTimestampNanos:
    case VariantKind::kTimestampNtzNanos:
      // value_format's text of these needs no JSON escape: quoting makes it a string.
      out->push_back('"');
      AppendTemporalOrUuid(v, out);
      out->push_back('"');
      return;
    case VariantKind::kObject:
      out->push_back('{');
      for (size_t i = 0; i < v.fields.size(); ++i) {
        if (i > 0) out->push_back(',');
        value_format::AppendJsonString(v.fields[i].name, out);
        out->push_back(':');
        AppendVariantJson(v.fields[i].value, out);
      }
      out->push_back('}');
      return;
    case VariantKind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < v.elements.size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendVariantJson(v.elements[i], out);
      }
      out->push_back(']');
      return;
  }
  out->append("null");  // unreachable: every kind is handled above
}

std::string VariantToJson(const VariantValue& value) {
  std::string out;
  AppendVariantJson(value, &out);
  return out;
}

namespace {

// VariantColumnToJson, with `context(i)` naming element i's place in errors.
template <typename Context>
Result<Array> ColumnToJson(const Array& column, const Context& context) {
  StringBuilder builder;
  FLOE_RETURN_IF_ERROR(builder.Reserve(column.length()));
  std::string json;
  for (int64_t row = 0; row < column.length(); ++row) {
    Result<std::optional<VariantValue>> value = UnshredVariant(column, row);
    if (!value.ok()) return value.status().WithContext(context(row));
    if (!value->has_value()) {
      FLOE_RETURN_IF_ERROR(builder.AppendNulls(1));
      continue;
    }
    json.clear();
    AppendVariantJson(**value, &json);
    FLOE_RETURN_IF_ERROR(builder.Append(json));
  }
  return builder.Finish();
}

// `column`'s validity from its first element, at offset 0: an empty buffer
// when it has no nulls.
Result<Buffer> ValidityFromZero(const Array& column) {
  if (column.null_count() == 0) return Buffer();
  FLOE_ASSIGN_OR_RETURN(Buffer bits, Buffer::Allocate(bit_util::BytesForBits(column.length())));
  std::memset(bits.mutable_data(), 0, static_cast<size_t>(bits.size()));  // the last byte's spare bits too
  for (int64_t i = 0; i < column.length(); ++i) bit_util::SetBitTo(bits.mutable_data(), i, column.IsValid(i));
  return bits;
}

// VariantsAsJson for `column` at `path`, whose element i is in row rows[i].
Result<Array> RewriteVariants(const Field& field, const Array& column, const std::string& path,
                              std::span<const int64_t> rows) {
  if (IsVariantField(field)) {
    return ColumnToJson(column, [&](int64_t i) { return StrCat("variant ", path, " at row ", rows[i]); });
  }
  if (!HoldsVariant(field)) return column;
  const DataType& type = *field.type;
  const TypePtr printed = VariantsAsJsonField(field).type;
  FLOE_ASSIGN_OR_RETURN(Buffer validity, ValidityFromZero(column));
  if (type.id() == TypeId::kStruct) {
    std::vector<std::shared_ptr<const ArrayData>> children;
    for (int f = 0; f < type.num_fields(); ++f) {
      const Field& child = type.fields()[static_cast<size_t>(f)];
      FLOE_ASSIGN_OR_RETURN(Array rewritten,
                            RewriteVariants(child, column.field(f), StrCat(path, ".", child.name), rows));
      children.push_back(rewritten.data());
    }
    return Array(std::make_shared<ArrayData>(printed, column.length(), std::vector<Buffer>{std::move(validity)},
                                             std::move(children), column.null_count()));
  }
  // A list's items or a map's entries, rebased to start at 0.
  const int32_t* offsets = column.ValueOffsets();
  const int32_t first = offsets[0];
  const int64_t count = offsets[column.length()] - first;
  if (first < 0 || count < 0 || first + count > column.list_values().length()) {
    return Status::InvalidArgument(StrCat(path, ": offsets ", first, "..", first + count, " outside its ",
                                          column.list_values().length(), " items"));
  }
  FLOE_ASSIGN_OR_RETURN(Buffer rebased, Buffer::Allocate((column.length() + 1) * int64_t{sizeof(int32_t)}));
  auto* out = reinterpret_cast<int32_t*>(rebased.mutable_data());
  std::vector<int64_t> item_rows(static_cast<size_t>(count));
  for (int64_t i = 0; i < column.length(); ++i) {
    out[i] = offsets[i] - first;
    for (int32_t k = offsets[i]; k < offsets[i + 1]; ++k) item_rows[static_cast<size_t>(k - first)] = rows[i];
  }
  out[column.length()] = offsets[column.length()] - first;
  const Field& items = type.fields()[0];  // a list's item field, a map's entries
  const std::string item_path = type.id() == TypeId::kList ? StrCat(path, ".", items.name) : path;
  FLOE_ASSIGN_OR_RETURN(Array rewritten,
                        RewriteVariants(items, column.list_values().Slice(first, count), item_path, item_rows));
  return Array(std::make_shared<ArrayData>(
      printed, column.length(), std::vector<Buffer>{std::move(validity), std::move(rebased)},
      std::vector<std::shared_ptr<const ArrayData>>{rewritten.data()}, column.null_count()));
}

}  // namespace

Result<Array> VariantColumnToJson(const Array& column, int64_t first_row) {
  return ColumnToJson(column, [&](int64_t row) { return StrCat("variant at row ", first_row + row); });
}

bool IsVariantField(const Field& field) {
  if (field.type == nullptr || field.type->id() != TypeId::kStruct) return false;
  const std::optional<std::string_view> annotation = FindMetadata(field.metadata, kLogicalTypeKey);
  if (!annotation) return false;
  Result<LogicalType> logical = ParseLogicalType(*annotation);
  return logical.ok() && std::holds_alternative<VariantType>(*logical);
}

bool HoldsVariant(const Field& field) {
  if (IsVariantField(field)) return true;
  if (field.type == nullptr || !field.type->is_nested()) return false;
  return std::ranges::any_of(field.type->fields(), HoldsVariant);
}

Field VariantsAsJsonField(const Field& field) {
  if (IsVariantField(field)) {
    return MarkJsonText(Field(field.name, DataType::Utf8(), field.nullable, {}, field.field_id));
  }
  if (!HoldsVariant(field)) return field;
  Field out = field;
  const DataType& type = *field.type;
  switch (type.id()) {
    case TypeId::kStruct: {
      std::vector<Field> children;
      for (const Field& child : type.fields()) children.push_back(VariantsAsJsonField(child));
      out.type = DataType::Struct(std::move(children));
      break;
    }
    case TypeId::kList: out.type = DataType::List(VariantsAsJsonField(type.item_field())); break;
    case TypeId::kMap: {
      // The key keeps its non-null field, so Map cannot refuse it.
      out.type = DataType::Map(VariantsAsJsonField(type.key_field()), VariantsAsJsonField(type.value_field()),
                               type.keys_sorted())
                     .value();
      break;
    }
    default: break;
  }
  return out;
}

Result<Array> VariantsAsJson(const Field& field, const Array& column, int64_t first_row) {
  if (IsVariantField(field)) return VariantColumnToJson(column, first_row);
  if (!HoldsVariant(field)) return column;
  std::vector<int64_t> rows(static_cast<size_t>(column.length()));
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = first_row + static_cast<int64_t>(i);
  return RewriteVariants(field, column, field.name, rows);
}

}  // namespace floe::parquet
