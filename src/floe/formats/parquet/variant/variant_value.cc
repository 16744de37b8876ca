#include "floe/formats/parquet/variant/variant_value.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "floe/base/hex.h"

namespace floe::parquet {
namespace {

// The decimal digits of |v| (the minimum value included).
std::string MagnitudeDigits(__int128 v) {
  unsigned __int128 m = v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  return std::string(digits.rbegin(), digits.rend());
}

void AppendInt128(__int128 v, std::string* out) {
  if (v < 0) out->push_back('-');
  out->append(MagnitudeDigits(v));
}

// The unscaled value with `scale` digits after the point: (-5, 2) -> "-0.05".
void AppendDecimal(__int128 unscaled, int32_t scale, std::string* out) {
  std::string digits = MagnitudeDigits(unscaled);
  if (unscaled < 0) out->push_back('-');
  if (scale <= 0) {
    out->append(digits);
    return;
  }
  const auto s = static_cast<size_t>(scale);
  if (digits.size() <= s) digits.insert(0, s + 1 - digits.size(), '0');
  out->append(digits, 0, digits.size() - s);
  out->push_back('.');
  out->append(digits, digits.size() - s, s);
}

template <typename Float>
void AppendShortest(Float v, std::string* out) {
  if (std::isnan(v)) {
    out->append("NaN");
    return;
  }
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, result.ptr);
}

void AppendQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out->append(buf);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

void Append(const VariantValue& v, std::string* out) {
  const std::string_view kind = VariantKindName(v.kind);
  switch (v.kind) {
    case VariantKind::kNull: out->append("null"); return;
    case VariantKind::kBoolean: out->append(v.boolean ? "true" : "false"); return;
    case VariantKind::kString: AppendQuoted(v.bytes, out); return;
    case VariantKind::kObject: {
      out->push_back('{');
      for (size_t i = 0; i < v.fields.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendQuoted(v.fields[i].name, out);
        out->append(": ");
        Append(v.fields[i].value, out);
      }
      out->push_back('}');
      return;
    }
    case VariantKind::kArray: {
      out->push_back('[');
      for (size_t i = 0; i < v.elements.size(); ++i) {
        if (i > 0) out->append(", ");
        Append(v.elements[i], out);
      }
      out->push_back(']');
      return;
    }
    default: break;
  }
  out->append(kind);
  out->push_back('(');
  switch (v.kind) {
    case VariantKind::kDouble: AppendShortest(v.number, out); break;
    case VariantKind::kFloat: AppendShortest(static_cast<float>(v.number), out); break;
    case VariantKind::kDecimal4:
    case VariantKind::kDecimal8:
    case VariantKind::kDecimal16: AppendDecimal(v.integer, v.scale, out); break;
    case VariantKind::kBinary: AppendHex(v.bytes, out); break;
    case VariantKind::kUuid: {
      std::string hex;
      AppendHex(v.bytes, &hex);
      for (size_t i = 0; i < hex.size(); ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) out->push_back('-');
        out->push_back(hex[i]);
      }
      break;
    }
    default: AppendInt128(v.integer, out); break;
  }
  out->push_back(')');
}

}  // namespace

std::string_view VariantKindName(VariantKind kind) {
  switch (kind) {
    case VariantKind::kNull: return "null";
    case VariantKind::kBoolean: return "boolean";
    case VariantKind::kInt8: return "int8";
    case VariantKind::kInt16: return "int16";
    case VariantKind::kInt32: return "int32";
    case VariantKind::kInt64: return "int64";
    case VariantKind::kDouble: return "double";
    case VariantKind::kDecimal4: return "decimal4";
    case VariantKind::kDecimal8: return "decimal8";
    case VariantKind::kDecimal16: return "decimal16";
    case VariantKind::kDate: return "date";
    case VariantKind::kTimestamp: return "timestamp";
    case VariantKind::kTimestampNtz: return "timestamp_ntz";
    case VariantKind::kFloat: return "float";
    case VariantKind::kBinary: return "binary";
    case VariantKind::kString: return "string";
    case VariantKind::kTimeNtz: return "time_ntz";
    case VariantKind::kTimestampNanos: return "timestamp_nanos";
    case VariantKind::kTimestampNtzNanos: return "timestamp_ntz_nanos";
    case VariantKind::kUuid: return "uuid";
    case VariantKind::kObject: return "object";
    case VariantKind::kArray: return "array";
  }
  return "unknown";
}

std::string VariantValue::ToString() const {
  std::string out;
  Append(*this, &out);
  return out;
}

}  // namespace floe::parquet
