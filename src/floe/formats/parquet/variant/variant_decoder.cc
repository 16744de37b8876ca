#include "floe/formats/parquet/variant/variant_decoder.h"

#include <cstring>

#include "floe/base/strings.h"
#include "floe/columnar/value_format.h"

namespace floe::parquet {
namespace {

// spec: "Basic Type" table.
constexpr int kPrimitive = 0;
constexpr int kShortString = 1;
constexpr int kObject = 2;

constexpr int32_t kMaxDecimalScale = 38;

uint32_t LoadUnsigned(const char* p, int width) {
  uint32_t v = 0;
  for (int i = 0; i < width; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

bool IsUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const int length = value_format::Utf8SequenceLength(s.substr(i));
    if (length == 0) return false;
    i += static_cast<size_t>(length);
  }
  return true;
}

// 10^digits, for the decimal width checks (digits <= 38).
__int128 PowerOfTen(int digits) {
  __int128 p = 1;
  for (int i = 0; i < digits; ++i) p *= 10;
  return p;
}

class Decoder {
 public:
  Decoder(const VariantMetadata& metadata, size_t total_bytes) : metadata_(metadata), budget_(total_bytes) {}

  // Decodes the value starting at `bytes[0]`, which may run on past it (a
  // field inside its object); *size is set to the value's own length.
  Status Decode(std::string_view bytes, int depth, VariantValue* out, size_t* size) {
    if (bytes.empty()) return Corrupt("a value is empty (no header byte)");
    if (budget_ == 0) return Corrupt("more values than bytes: fields share bytes");
    --budget_;
    const auto header = static_cast<unsigned char>(bytes[0]);
    const int basic_type = header & 3;
    const int value_header = header >> 2;
    if (basic_type == kPrimitive) return Primitive(bytes, value_header, out, size);
    if (basic_type == kShortString) {
      const auto length = static_cast<size_t>(value_header);
      FLOE_RETURN_IF_ERROR(Need(bytes, 1 + length, "short string"));
      FLOE_RETURN_IF_ERROR(SetString(bytes.substr(1, length), VariantKind::kString, out));
      *size = 1 + length;
      return Status::OK();
    }
    if (depth >= kMaxVariantDepth) return Corrupt(StrCat("nesting deeper than ", kMaxVariantDepth, " levels"));
    return basic_type == kObject ? Object(bytes, value_header, depth, out, size)
                                 : Array(bytes, value_header, depth, out, size);
  }

 private:
  static Status Corrupt(std::string_view what) { return Status::Corrupt(StrCat("variant value: ", what)); }

  static Status Need(std::string_view bytes, size_t n, std::string_view what) {
    if (bytes.size() < n) {
      return Corrupt(StrCat(what, " needs ", n, " bytes, ", bytes.size(), " remain"));
    }
    return Status::OK();
  }

  static Status SetString(std::string_view s, VariantKind kind, VariantValue* out) {
    if (kind == VariantKind::kString && !IsUtf8(s)) return Corrupt("a string is not UTF-8");
    out->kind = kind;
    out->bytes.assign(s);
    return Status::OK();
  }

  template <typename T>
  static Status Fixed(std::string_view bytes, VariantKind kind, VariantValue* out, size_t* size) {
    FLOE_RETURN_IF_ERROR(Need(bytes, 1 + sizeof(T), VariantKindName(kind)));
    T v;
    std::memcpy(&v, bytes.data() + 1, sizeof v);
    out->kind = kind;
    if constexpr (std::is_floating_point_v<T>) {
      out->number = v;
    } else {
      out->integer = v;
    }
    *size = 1 + sizeof(T);
    return Status::OK();
  }

  // decimal4/8/16: a scale byte, then the unscaled value (T wide), whose
  // magnitude must fit the type's precision (spec: "Decimal table").
  template <typename T>
  static Status Decimal(std::string_view bytes, VariantKind kind, int max_digits, VariantValue* out, size_t* size) {
    FLOE_RETURN_IF_ERROR(Need(bytes, 2 + sizeof(T), VariantKindName(kind)));
    const auto scale = static_cast<unsigned char>(bytes[1]);
    if (scale > kMaxDecimalScale) return Corrupt(StrCat(VariantKindName(kind), " scale ", int{scale}, " above 38"));
    T v;
    std::memcpy(&v, bytes.data() + 2, sizeof v);
    const __int128 unscaled = v;
    const __int128 limit = PowerOfTen(max_digits);
    if (unscaled >= limit || unscaled <= -limit) {
      return Corrupt(StrCat(VariantKindName(kind), " unscaled value wider than ", max_digits, " digits"));
    }
    out->kind = kind;
    out->scale = scale;
    out->integer = unscaled;
    *size = 2 + sizeof(T);
    return Status::OK();
  }

  // binary and string: a 4-byte length, then the bytes.
  static Status Sized(std::string_view bytes, VariantKind kind, VariantValue* out, size_t* size) {
    FLOE_RETURN_IF_ERROR(Need(bytes, 5, VariantKindName(kind)));
    const size_t length = LoadUnsigned(bytes.data() + 1, 4);
    FLOE_RETURN_IF_ERROR(Need(bytes, 5 + length, VariantKindName(kind)));
    FLOE_RETURN_IF_ERROR(SetString(bytes.substr(5, length), kind, out));
    *size = 5 + length;
    return Status::OK();
  }

  // spec: "Variant primitive types" table, by type id.
  Status Primitive(std::string_view bytes, int type_id, VariantValue* out, size_t* size) {
    switch (type_id) {
      case 0: out->kind = VariantKind::kNull; *size = 1; return Status::OK();
      case 1:
      case 2:
        out->kind = VariantKind::kBoolean;
        out->boolean = type_id == 1;
        *size = 1;
        return Status::OK();
      case 3: return Fixed<int8_t>(bytes, VariantKind::kInt8, out, size);
      case 4: return Fixed<int16_t>(bytes, VariantKind::kInt16, out, size);
      case 5: return Fixed<int32_t>(bytes, VariantKind::kInt32, out, size);
      case 6: return Fixed<int64_t>(bytes, VariantKind::kInt64, out, size);
      case 7: return Fixed<double>(bytes, VariantKind::kDouble, out, size);
      case 8: return Decimal<int32_t>(bytes, VariantKind::kDecimal4, 9, out, size);
      case 9: return Decimal<int64_t>(bytes, VariantKind::kDecimal8, 18, out, size);
      case 10: return Decimal<__int128>(bytes, VariantKind::kDecimal16, 38, out, size);
      case 11: return Fixed<int32_t>(bytes, VariantKind::kDate, out, size);
      case 12: return Fixed<int64_t>(bytes, VariantKind::kTimestamp, out, size);
      case 13: return Fixed<int64_t>(bytes, VariantKind::kTimestampNtz, out, size);
      case 14: return Fixed<float>(bytes, VariantKind::kFloat, out, size);
      case 15: return Sized(bytes, VariantKind::kBinary, out, size);
      case 16: return Sized(bytes, VariantKind::kString, out, size);
      case 17: return Fixed<int64_t>(bytes, VariantKind::kTimeNtz, out, size);
      case 18: return Fixed<int64_t>(bytes, VariantKind::kTimestampNanos, out, size);
      case 19: return Fixed<int64_t>(bytes, VariantKind::kTimestampNtzNanos, out, size);
      case 20:
        FLOE_RETURN_IF_ERROR(Need(bytes, 17, "uuid"));
        out->kind = VariantKind::kUuid;
        out->bytes.assign(bytes.substr(1, 16));
        *size = 17;
        return Status::OK();
      default:
        return Status::Unsupported(StrCat("variant value: primitive type id ", type_id, " is not in the spec"));
    }
  }

  // The element count (1 or 4 bytes), then `ids` field ids of `id_width`
  // bytes, then count + 1 offsets of `offset_width` bytes: where the
  // fields begin, and the count, ids and offsets read.
  struct Layout {
    uint32_t count = 0;
    const char* ids = nullptr;
    const char* offsets = nullptr;
    std::string_view fields;  // from the first field to the end of `bytes`
  };

  static Status ReadLayout(std::string_view bytes, bool is_large, int id_width, int offset_width,
                           std::string_view what, Layout* layout) {
    const size_t count_width = is_large ? 4 : 1;
    FLOE_RETURN_IF_ERROR(Need(bytes, 1 + count_width, what));
    layout->count = LoadUnsigned(bytes.data() + 1, static_cast<int>(count_width));
    const size_t table = 1 + count_width + size_t{layout->count} * static_cast<size_t>(id_width) +
                         (size_t{layout->count} + 1) * static_cast<size_t>(offset_width);
    FLOE_RETURN_IF_ERROR(Need(bytes, table, StrCat(what, " of ", layout->count, " elements")));
    layout->ids = bytes.data() + 1 + count_width;
    layout->offsets = layout->ids + size_t{layout->count} * static_cast<size_t>(id_width);
    layout->fields = bytes.substr(table);
    return Status::OK();
  }

  // The total size of the fields (the last offset), checked to fit.
  static Result<size_t> FieldsSize(const Layout& layout, int offset_width, std::string_view what) {
    const size_t end = LoadUnsigned(layout.offsets + size_t{layout.count} * static_cast<size_t>(offset_width), offset_width);
    if (end > layout.fields.size()) {
      return Corrupt(StrCat(what, ": its fields end at byte ", end, " of ", layout.fields.size()));
    }
    return end;
  }

  Status Object(std::string_view bytes, int value_header, int depth, VariantValue* out, size_t* size) {
    const int offset_width = (value_header & 3) + 1;
    const int id_width = ((value_header >> 2) & 3) + 1;
    const bool is_large = (value_header >> 4) & 1;
    Layout layout;
    FLOE_RETURN_IF_ERROR(ReadLayout(bytes, is_large, id_width, offset_width, "object", &layout));
    FLOE_ASSIGN_OR_RETURN(const size_t fields_size, FieldsSize(layout, offset_width, "object"));
    const std::string_view fields = layout.fields.substr(0, fields_size);
    out->kind = VariantKind::kObject;
    out->fields.reserve(layout.count);
    for (uint32_t i = 0; i < layout.count; ++i) {
      const uint32_t id = LoadUnsigned(layout.ids + size_t{i} * static_cast<size_t>(id_width), id_width);
      if (id >= metadata_.size()) {
        return Corrupt(StrCat("object field id ", id, " is outside the metadata dictionary of ", metadata_.size(),
                              " keys"));
      }
      const std::string_view name = metadata_.key(id);
      // spec: "field ids and field offsets must be in lexicographical order
      // of the corresponding field names"; names are unique.
      if (i > 0 && !(out->fields.back().name < name)) {
        return Corrupt(StrCat("object field ", Quote(name), " follows ", Quote(out->fields.back().name),
                              ": names not sorted and unique"));
      }
      const size_t start =
          LoadUnsigned(layout.offsets + size_t{i} * static_cast<size_t>(offset_width), offset_width);
      if (start >= fields.size()) {
        return Corrupt(StrCat("object field ", Quote(name), " starts at byte ", start, " of ", fields.size()));
      }
      VariantValue field;
      size_t field_size = 0;
      FLOE_RETURN_IF_ERROR(Decode(fields.substr(start), depth + 1, &field, &field_size));
      out->fields.push_back(VariantField{std::string(name), std::move(field)});
    }
    *size = static_cast<size_t>(layout.fields.data() - bytes.data()) + fields_size;
    return Status::OK();
  }

  Status Array(std::string_view bytes, int value_header, int depth, VariantValue* out, size_t* size) {
    const int offset_width = (value_header & 3) + 1;
    const bool is_large = (value_header >> 2) & 1;
    Layout layout;
    FLOE_RETURN_IF_ERROR(ReadLayout(bytes, is_large, 0, offset_width, "array", &layout));
    FLOE_ASSIGN_OR_RETURN(const size_t fields_size, FieldsSize(layout, offset_width, "array"));
    out->kind = VariantKind::kArray;
    out->elements.reserve(layout.count);
    // Array elements are in order: element i fills [offset i, offset i + 1).
    size_t start = LoadUnsigned(layout.offsets, offset_width);
    if (start != 0) return Corrupt(StrCat("array's first element starts at byte ", start, ", not 0"));
    for (uint32_t i = 0; i < layout.count; ++i) {
      const size_t end =
          LoadUnsigned(layout.offsets + (size_t{i} + 1) * static_cast<size_t>(offset_width), offset_width);
      if (end < start || end > fields_size) {
        return Corrupt(StrCat("array element ", i, " spans bytes [", start, ", ", end, ") of ", fields_size));
      }
      VariantValue element;
      size_t element_size = 0;
      FLOE_RETURN_IF_ERROR(Decode(layout.fields.substr(start, end - start), depth + 1, &element, &element_size));
      if (element_size != end - start) {
        return Corrupt(StrCat("array element ", i, " is ", element_size, " bytes in a slot of ", end - start));
      }
      out->elements.push_back(std::move(element));
      start = end;
    }
    *size = static_cast<size_t>(layout.fields.data() - bytes.data()) + fields_size;
    return Status::OK();
  }

  const VariantMetadata& metadata_;
  size_t budget_;  // values still allowed: at most one per byte
};

}  // namespace

Result<VariantMetadata> VariantMetadata::Parse(std::string_view bytes, size_t* consumed) {
  auto corrupt = [](std::string_view what) { return Status::Corrupt(StrCat("variant metadata: ", what)); };
  if (bytes.empty()) return corrupt("empty (no header byte)");
  const auto header = static_cast<unsigned char>(bytes[0]);
  const int version = header & 15;
  if (version != 1) {
    return Status::Unsupported(StrCat("variant metadata: version ", version, "; floe reads version 1"));
  }
  VariantMetadata m;
  m.sorted_strings_ = (header >> 4) & 1;
  const int width = (header >> 6) + 1;
  const auto need = [&](size_t n, std::string_view what) -> Status {
    if (bytes.size() < n) return corrupt(StrCat(what, " needs ", n, " bytes, ", bytes.size(), " given"));
    return Status::OK();
  };
  FLOE_RETURN_IF_ERROR(need(1 + static_cast<size_t>(width), "dictionary size"));
  const size_t count = LoadUnsigned(bytes.data() + 1, width);
  const size_t offsets_at = 1 + static_cast<size_t>(width);
  FLOE_RETURN_IF_ERROR(need(offsets_at + (count + 1) * static_cast<size_t>(width), StrCat(count, " keys' offsets")));
  const size_t strings_at = offsets_at + (count + 1) * static_cast<size_t>(width);
  const std::string_view strings = bytes.substr(strings_at);
  m.keys_.reserve(count);
  size_t start = LoadUnsigned(bytes.data() + offsets_at, width);
  if (start != 0) return corrupt(StrCat("the first key starts at byte ", start, ", not 0"));
  for (size_t i = 0; i < count; ++i) {
    const size_t end = LoadUnsigned(bytes.data() + offsets_at + (i + 1) * static_cast<size_t>(width), width);
    if (end < start || end > strings.size()) {
      return corrupt(StrCat("key ", i, " spans bytes [", start, ", ", end, ") of ", strings.size()));
    }
    const std::string_view key = strings.substr(start, end - start);
    if (!IsUtf8(key)) return corrupt(StrCat("key ", i, " is not UTF-8"));
    if (m.sorted_strings_ && i > 0 && !(m.keys_.back() < key)) {
      return corrupt(StrCat("key ", Quote(key), " follows ", Quote(m.keys_.back()),
                            " in a dictionary marked sorted_strings"));
    }
    m.keys_.push_back(key);
    start = end;
  }
  const size_t length = strings_at + start;
  if (consumed != nullptr) {
    *consumed = length;
  } else if (length != bytes.size()) {
    return corrupt(StrCat(bytes.size() - length, " bytes after the dictionary"));
  }
  return m;
}

Result<VariantValue> DecodeVariant(const VariantMetadata& metadata, std::string_view value) {
  Decoder decoder(metadata, value.size());
  VariantValue out;
  size_t size = 0;
  FLOE_RETURN_IF_ERROR(decoder.Decode(value, 0, &out, &size));
  if (size != value.size()) {
    return Status::Corrupt(StrCat("variant value: ", value.size() - size, " bytes after the value"));
  }
  return out;
}

Result<VariantValue> DecodeSerializedVariant(std::string_view metadata_then_value) {
  size_t metadata_size = 0;
  FLOE_ASSIGN_OR_RETURN(const VariantMetadata metadata, VariantMetadata::Parse(metadata_then_value, &metadata_size));
  return DecodeVariant(metadata, metadata_then_value.substr(metadata_size));
}

}  // namespace floe::parquet
