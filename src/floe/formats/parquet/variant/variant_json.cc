#include "floe/formats/parquet/variant/variant_json.h"

#include <cmath>

#include "floe/base/base64.h"
#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/value_format.h"
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
    case VariantKind::kTimeNtz: value_format::AppendTime(value, TimeUnit::kMicro, out); return;
    case VariantKind::kTimestamp: value_format::AppendTimestamp(value, TimeUnit::kMicro, true, out); return;
    case VariantKind::kTimestampNtz: value_format::AppendTimestamp(value, TimeUnit::kMicro, false, out); return;
    case VariantKind::kTimestampNanos: value_format::AppendTimestamp(value, TimeUnit::kNano, true, out); return;
    case VariantKind::kTimestampNtzNanos: value_format::AppendTimestamp(value, TimeUnit::kNano, false, out); return;
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

Result<Array> VariantColumnToJson(const Array& column, int64_t first_row) {
  StringBuilder builder;
  FLOE_RETURN_IF_ERROR(builder.Reserve(column.length()));
  std::string json;
  for (int64_t row = 0; row < column.length(); ++row) {
    Result<std::optional<VariantValue>> value = UnshredVariant(column, row);
    if (!value.ok()) return value.status().WithContext(StrCat("variant at row ", first_row + row));
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

}  // namespace floe::parquet
