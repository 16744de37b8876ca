// Arrow C Data Interface format strings ("Data type description -- format
// strings" in the spec), both ways.

#include <charconv>

#include "floe/base/strings.h"
#include "floe/columnar/arrow_c_data.h"

namespace floe {

std::string ArrowFormat(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull:
      return "n";
    case TypeId::kBool:
      return "b";
    case TypeId::kInt8:
      return "c";
    case TypeId::kUInt8:
      return "C";
    case TypeId::kInt16:
      return "s";
    case TypeId::kUInt16:
      return "S";
    case TypeId::kInt32:
      return "i";
    case TypeId::kUInt32:
      return "I";
    case TypeId::kInt64:
      return "l";
    case TypeId::kUInt64:
      return "L";
    case TypeId::kFloat32:
      return "f";
    case TypeId::kFloat64:
      return "g";
    case TypeId::kDecimal128:
      return StrCat("d:", type.precision(), ",", type.scale());
    case TypeId::kDate32:
      return "tdD";
    case TypeId::kTime64:
      return type.unit() == TimeUnit::kMicro ? "ttu" : "ttn";
    case TypeId::kTimestamp:
      return (type.unit() == TimeUnit::kMicro ? "tsu:" : "tsn:") + type.timezone();
    case TypeId::kInterval:
      return "tin";
    case TypeId::kString:
      return "u";
    case TypeId::kBinary:
      return "z";
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return StrCat("w:", type.byte_width());
    case TypeId::kList:
      return "+l";
    case TypeId::kMap:
      return "+m";
    case TypeId::kStruct:
      return "+s";
    case TypeId::kDictionary:
      // spec: a dictionary-encoded field's format is its index type's; the
      // values' type is the `dictionary` schema's.
      return "i";
  }
  return "";
}

namespace {

Status Malformed(std::string_view format, std::string_view why) {
  return Status::InvalidArgument(StrCat("Arrow format ", Quote(format), ": ", why));
}

Status NotModelled(std::string_view format, std::string_view what) {
  return Status::Unsupported(StrCat("Arrow format ", Quote(format), " (", what, ") has no floe type"));
}

// Parses all of `digits` (optionally signed) as an int32.
bool ParseInt32(std::string_view digits, bool allow_sign, int32_t* out) {
  if (digits.empty() || digits.size() > 11) return false;
  if (!allow_sign && digits[0] == '-') return false;  // from_chars already rejects '+'
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, *out);
  return ec == std::errc() && ptr == end;
}

Result<TypePtr> ParseDecimal(std::string_view format) {
  // "d:P,S" or "d:P,S,N" with N the bit width.
  const std::vector<std::string_view> parts = Split(format.substr(2), ',');
  if (parts.size() != 2 && parts.size() != 3) return Malformed(format, "decimal needs precision,scale[,bitwidth]");
  int32_t precision;
  int32_t scale;
  if (!ParseInt32(parts[0], false, &precision)) return Malformed(format, "decimal precision is not a number");
  if (!ParseInt32(parts[1], true, &scale)) return Malformed(format, "decimal scale is not a number");
  if (parts.size() == 3) {
    int32_t bits;
    if (!ParseInt32(parts[2], false, &bits)) return Malformed(format, "decimal bit width is not a number");
    if (bits == 32 || bits == 64 || bits == 256) return NotModelled(format, StrCat(bits, "-bit decimal"));
    if (bits != 128) return Malformed(format, "decimal bit width must be 32, 64, 128 or 256");
  }
  if (precision < 1 || precision > 38) return Malformed(format, "decimal128 precision must be 1..38");
  if (scale < 0 || scale > precision) return NotModelled(format, "decimal scale outside 0..precision");
  return DataType::Decimal128(precision, scale);
}

Result<TypePtr> ParseTemporal(std::string_view format) {
  if (format == "tdD") return DataType::Date32();
  if (format == "tdm") return NotModelled(format, "date64");
  if (format == "ttu") return DataType::Time64(TimeUnit::kMicro);
  if (format == "ttn") return DataType::Time64(TimeUnit::kNano);
  if (format == "tts" || format == "ttm") return NotModelled(format, "time32");
  if (format.size() >= 4 && format.substr(0, 2) == "ts" && format[3] == ':') {
    const char unit = format[2];
    std::string timezone(format.substr(4));
    if (unit == 'u') return DataType::Timestamp(TimeUnit::kMicro, std::move(timezone));
    if (unit == 'n') return DataType::Timestamp(TimeUnit::kNano, std::move(timezone));
    if (unit == 's' || unit == 'm') return NotModelled(format, "timestamp in seconds or milliseconds");
    return Malformed(format, "unknown timestamp unit");
  }
  if (format.size() == 3 && format.substr(0, 2) == "tD" && std::string_view("smun").find(format[2]) != std::string_view::npos) {
    return NotModelled(format, "duration");
  }
  if (format == "tin") return DataType::Interval();
  if (format == "tiM" || format == "tiD") return NotModelled(format, "interval in months or days and milliseconds");
  return Malformed(format, "unknown temporal type");
}

Result<TypePtr> ParseNested(std::string_view format, std::vector<Field> children, bool map_keys_sorted) {
  if (format == "+s") return DataType::Struct(std::move(children));
  if (format == "+l") {
    if (children.size() != 1) return Malformed(format, StrCat("a list has 1 child, got ", children.size()));
    return DataType::List(std::move(children[0]));
  }
  if (format == "+m") {
    if (children.size() != 1) return Malformed(format, StrCat("a map has 1 child, got ", children.size()));
    const Field& entries = children[0];
    if (entries.type == nullptr || entries.type->id() != TypeId::kStruct || entries.type->num_fields() != 2) {
      return Malformed(format, "a map's child must be a struct of key and value");
    }
    return DataType::Map(entries.type->field(0), entries.type->field(1), map_keys_sorted);
  }
  if (format == "+L") return NotModelled(format, "large list");
  if (format == "+vl" || format == "+vL") return NotModelled(format, "list view");
  if (format == "+r") return NotModelled(format, "run-end encoded");
  if (StartsWith(format, "+w:")) return NotModelled(format, "fixed-size list");
  if (StartsWith(format, "+ud:") || StartsWith(format, "+us:")) return NotModelled(format, "union");
  return Malformed(format, "unknown nested type");
}

}  // namespace

Result<TypePtr> ParseArrowFormat(std::string_view format, std::vector<Field> children, bool map_keys_sorted) {
  if (format.empty()) return Malformed(format, "empty");
  if (format[0] == '+') return ParseNested(format, std::move(children), map_keys_sorted);
  if (!children.empty()) return Malformed(format, StrCat("a non-nested type has no children, got ", children.size()));
  if (format.size() == 1) {
    switch (format[0]) {
      case 'n':
        return DataType::Null();
      case 'b':
        return DataType::Bool();
      case 'c':
        return DataType::Int8();
      case 'C':
        return DataType::UInt8();
      case 's':
        return DataType::Int16();
      case 'S':
        return DataType::UInt16();
      case 'i':
        return DataType::Int32();
      case 'I':
        return DataType::UInt32();
      case 'l':
        return DataType::Int64();
      case 'L':
        return DataType::UInt64();
      case 'f':
        return DataType::Float32();
      case 'g':
        return DataType::Float64();
      case 'u':
        return DataType::Utf8();
      case 'z':
        return DataType::Binary();
      case 'e':
        return NotModelled(format, "float16");
      case 'U':
        return NotModelled(format, "large string");
      case 'Z':
        return NotModelled(format, "large binary");
      default:
        return Malformed(format, "unknown type");
    }
  }
  if (format == "vu" || format == "vz") return NotModelled(format, "string or binary view");
  if (StartsWith(format, "d:")) return ParseDecimal(format);
  if (StartsWith(format, "w:")) {
    int32_t width;
    if (!ParseInt32(format.substr(2), false, &width)) return Malformed(format, "fixed-size binary width is not a number");
    return DataType::FixedSizeBinary(width);
  }
  if (format[0] == 't') return ParseTemporal(format);
  return Malformed(format, "unknown type");
}

}  // namespace floe
