#include "floe/formats/avro/datum.h"

#include <simdjson.h>

#include <cmath>

#include "floe/base/strings.h"
#include "floe/formats/avro/datum_internal.h"

namespace floe::avro {

Datum Datum::Float(float v) {
  Datum d;
  d.kind_ = DatumKind::kFloat;
  d.double_ = v;
  return d;
}

Datum Datum::Double(double v) {
  Datum d;
  d.kind_ = DatumKind::kDouble;
  d.double_ = v;
  return d;
}

Datum Datum::Record(std::vector<Datum> fields) {
  Datum d;
  d.kind_ = DatumKind::kRecord;
  d.children_ = std::move(fields);
  return d;
}

Datum Datum::Array(std::vector<Datum> items) {
  Datum d;
  d.kind_ = DatumKind::kArray;
  d.children_ = std::move(items);
  return d;
}

Datum Datum::Map(std::vector<std::string> keys, std::vector<Datum> values) {
  Datum d;
  d.kind_ = DatumKind::kMap;
  d.keys_ = std::move(keys);
  d.children_ = std::move(values);
  d.keys_.resize(d.children_.size());
  return d;
}

const Datum* Datum::MapValue(std::string_view key) const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return &children_[i];
  }
  return nullptr;
}

bool Datum::operator==(const Datum& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case DatumKind::kNull: return true;
    case DatumKind::kFloat:
    case DatumKind::kDouble: return double_ == o.double_ || (std::isnan(double_) && std::isnan(o.double_));
    case DatumKind::kBytes:
    case DatumKind::kString:
    case DatumKind::kFixed: return text_ == o.text_;
    case DatumKind::kRecord:
    case DatumKind::kArray: return children_ == o.children_;
    case DatumKind::kMap: return keys_ == o.keys_ && children_ == o.children_;
    default: return int_ == o.int_;
  }
}

std::string Datum::ToString() const {
  switch (kind_) {
    case DatumKind::kNull: return "null";
    case DatumKind::kBoolean: return int_ ? "true" : "false";
    case DatumKind::kInt:
    case DatumKind::kLong: return StrCat(int_);
    case DatumKind::kEnum: return StrCat("enum#", int_);
    case DatumKind::kFloat:
    case DatumKind::kDouble: return StrCat(double_);
    case DatumKind::kString: return Quote(text_);
    case DatumKind::kBytes:
    case DatumKind::kFixed: {
      std::string out = "0x";
      static constexpr char kHex[] = "0123456789abcdef";
      for (unsigned char c : text_) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
      return out;
    }
    case DatumKind::kRecord:
    case DatumKind::kArray: {
      std::string out = kind_ == DatumKind::kRecord ? "{" : "[";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i) out += ", ";
        out += children_[i].ToString();
      }
      return out + (kind_ == DatumKind::kRecord ? "}" : "]");
    }
    case DatumKind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i) out += ", ";
        out += Quote(keys_[i]) + ": " + children_[i].ToString();
      }
      return out + "}";
    }
  }
  return "?";
}

// ---------------------------------------------------------------------------
// Decoding

namespace internal {

size_t MinEncodedBytes(const Node& n, int depth) {
  switch (n.type()) {
    case Type::kNull: return 0;
    case Type::kFloat: return 4;
    case Type::kDouble: return 8;
    case Type::kFixed: return static_cast<size_t>(n.fixed_size());
    case Type::kRecord: {
      if (depth > 4) return 0;
      size_t total = 0;
      for (const Field& f : n.fields()) total += MinEncodedBytes(*f.type, depth + 1);
      return total;
    }
    default: return 1;  // a varint, a boolean, a length, a count or a branch index
  }
}

Status CheckItemCount(const Node& item, int64_t count, int64_t total, const Decoder& d) {
  // Items that take no bytes cannot be bounded by the input size.
  if (total + count > kMaxZeroSizeItems && MinEncodedBytes(item, 0) == 0) {
    return Status::Corrupt(StrCat("array/map at offset ", d.position(), " has more than ", kMaxZeroSizeItems,
                                  " items of an empty type"));
  }
  return Status::OK();
}

}  // namespace internal

class DatumDecoder {
 public:
  static Status Decode(const Node& n, Decoder* d, Datum* out, int depth) {
    if (depth > kMaxNestingDepth) return Status::Corrupt(StrCat("value nests deeper than ", kMaxNestingDepth, " levels"));
    out->branch_ = -1;
    switch (n.type()) {
      case Type::kNull: out->kind_ = DatumKind::kNull; return Status::OK();
      case Type::kBoolean: {
        out->kind_ = DatumKind::kBoolean;
        bool b;
        FLOE_RETURN_IF_ERROR(d->ReadBoolean(&b));
        out->int_ = b;
        return Status::OK();
      }
      case Type::kInt: {
        out->kind_ = DatumKind::kInt;
        int32_t v;
        FLOE_RETURN_IF_ERROR(d->ReadInt(&v));
        out->int_ = v;
        return Status::OK();
      }
      case Type::kLong: out->kind_ = DatumKind::kLong; return d->ReadLong(&out->int_);
      case Type::kFloat: {
        out->kind_ = DatumKind::kFloat;
        float f;
        FLOE_RETURN_IF_ERROR(d->ReadFloat(&f));
        out->double_ = f;
        return Status::OK();
      }
      case Type::kDouble: out->kind_ = DatumKind::kDouble; return d->ReadDouble(&out->double_);
      case Type::kBytes:
      case Type::kString: {
        out->kind_ = n.type() == Type::kBytes ? DatumKind::kBytes : DatumKind::kString;
        std::string_view v;
        FLOE_RETURN_IF_ERROR(d->ReadBytes(&v));
        out->text_.assign(v);
        return Status::OK();
      }
      case Type::kFixed: {
        out->kind_ = DatumKind::kFixed;
        std::string_view v;
        FLOE_RETURN_IF_ERROR(d->ReadFixed(static_cast<size_t>(n.fixed_size()), &v));
        out->text_.assign(v);
        return Status::OK();
      }
      case Type::kEnum: {
        out->kind_ = DatumKind::kEnum;
        const size_t at = d->position();
        int32_t v;
        FLOE_RETURN_IF_ERROR(d->ReadInt(&v));
        if (v < 0 || static_cast<size_t>(v) >= n.symbols().size()) {
          return Status::Corrupt(StrCat("enum ", Quote(n.full_name()), " index ", v, " at offset ", at, " is out of range"));
        }
        out->int_ = v;
        return Status::OK();
      }
      case Type::kUnion: {
        const size_t at = d->position();
        int64_t b;
        FLOE_RETURN_IF_ERROR(d->ReadLong(&b));
        if (b < 0 || static_cast<size_t>(b) >= n.branches().size()) {
          return Status::Corrupt(StrCat("union branch ", b, " at offset ", at, " is out of range (", n.branches().size(),
                                        " branches)"));
        }
        FLOE_RETURN_IF_ERROR(Decode(*n.branches()[static_cast<size_t>(b)], d, out, depth + 1));
        out->branch_ = static_cast<int16_t>(b);
        return Status::OK();
      }
      case Type::kRecord: {
        out->kind_ = DatumKind::kRecord;
        out->children_.resize(n.fields().size());
        for (size_t i = 0; i < n.fields().size(); ++i) {
          FLOE_RETURN_IF_ERROR(Decode(*n.fields()[i].type, d, &out->children_[i], depth + 1));
        }
        return Status::OK();
      }
      case Type::kArray:
      case Type::kMap: {
        const bool is_map = n.type() == Type::kMap;
        out->kind_ = is_map ? DatumKind::kMap : DatumKind::kArray;
        const size_t min_bytes = internal::MinEncodedBytes(*n.items(), 0) + (is_map ? 1 : 0);
        int64_t total = 0;
        while (true) {
          int64_t count, byte_size;
          FLOE_RETURN_IF_ERROR(d->ReadBlockCount(&count, &byte_size, min_bytes));
          if (count == 0) break;
          FLOE_RETURN_IF_ERROR(internal::CheckItemCount(*n.items(), count, total, *d));
          const size_t new_size = static_cast<size_t>(total + count);
          if (out->children_.size() < new_size) out->children_.resize(new_size);
          if (is_map && out->keys_.size() < new_size) out->keys_.resize(new_size);
          for (int64_t i = 0; i < count; ++i, ++total) {
            if (is_map) {
              std::string_view key;
              FLOE_RETURN_IF_ERROR(d->ReadBytes(&key));
              out->keys_[static_cast<size_t>(total)].assign(key);
            }
            FLOE_RETURN_IF_ERROR(Decode(*n.items(), d, &out->children_[static_cast<size_t>(total)], depth + 1));
          }
        }
        out->children_.resize(static_cast<size_t>(total));
        if (is_map) {
          out->keys_.resize(static_cast<size_t>(total));
        } else {
          out->keys_.clear();
        }
        return Status::OK();
      }
    }
    return Status::Internal("unknown Avro type");
  }
};

Status DecodeDatum(const Node& schema, Decoder* decoder, Datum* out) {
  return DatumDecoder::Decode(schema, decoder, out, 0);
}

Status internal::Decode(const Node& n, Decoder* d, Datum* out, int depth) {
  return DatumDecoder::Decode(n, d, out, depth);
}

namespace internal {

Status Skip(const Node& n, Decoder* d, int depth) {
  if (depth > kMaxNestingDepth) return Status::Corrupt(StrCat("value nests deeper than ", kMaxNestingDepth, " levels"));
  switch (n.type()) {
    case Type::kNull: return Status::OK();
    case Type::kBoolean: {
      bool b;
      return d->ReadBoolean(&b);
    }
    case Type::kInt:
    case Type::kEnum: {
      int32_t v;
      return d->ReadInt(&v);
    }
    case Type::kLong: {
      int64_t v;
      return d->ReadLong(&v);
    }
    case Type::kFloat: return d->Skip(4);
    case Type::kDouble: return d->Skip(8);
    case Type::kFixed: return d->Skip(static_cast<size_t>(n.fixed_size()));
    case Type::kBytes:
    case Type::kString: {
      std::string_view v;
      return d->ReadBytes(&v);
    }
    case Type::kUnion: {
      const size_t at = d->position();
      int64_t b;
      FLOE_RETURN_IF_ERROR(d->ReadLong(&b));
      if (b < 0 || static_cast<size_t>(b) >= n.branches().size()) {
        return Status::Corrupt(StrCat("union branch ", b, " at offset ", at, " is out of range (", n.branches().size(),
                                      " branches)"));
      }
      return Skip(*n.branches()[static_cast<size_t>(b)], d, depth + 1);
    }
    case Type::kRecord:
      for (const Field& f : n.fields()) FLOE_RETURN_IF_ERROR(Skip(*f.type, d, depth + 1));
      return Status::OK();
    case Type::kArray:
    case Type::kMap: {
      const bool is_map = n.type() == Type::kMap;
      const size_t min_bytes = MinEncodedBytes(*n.items(), 0) + (is_map ? 1 : 0);
      int64_t total = 0;
      while (true) {
        int64_t count, byte_size;
        FLOE_RETURN_IF_ERROR(d->ReadBlockCount(&count, &byte_size, min_bytes));
        if (count == 0) return Status::OK();
        if (byte_size >= 0) {
          FLOE_RETURN_IF_ERROR(d->Skip(static_cast<size_t>(byte_size)));
          continue;
        }
        FLOE_RETURN_IF_ERROR(CheckItemCount(*n.items(), count, total, *d));
        total += count;
        for (int64_t i = 0; i < count; ++i) {
          if (is_map) {
            std::string_view key;
            FLOE_RETURN_IF_ERROR(d->ReadBytes(&key));
          }
          FLOE_RETURN_IF_ERROR(Skip(*n.items(), d, depth + 1));
        }
      }
    }
  }
  return Status::Internal("unknown Avro type");
}

}  // namespace internal

Status SkipDatum(const Node& schema, Decoder* decoder) { return internal::Skip(schema, decoder, 0); }

// ---------------------------------------------------------------------------
// Encoding

namespace {

bool Fits(const Node& n, const Datum& v) {
  switch (n.type()) {
    case Type::kNull: return v.kind() == DatumKind::kNull;
    case Type::kBoolean: return v.kind() == DatumKind::kBoolean;
    case Type::kInt:
      return (v.kind() == DatumKind::kInt || v.kind() == DatumKind::kLong) && v.long_value() >= INT32_MIN &&
             v.long_value() <= INT32_MAX;
    case Type::kLong: return v.kind() == DatumKind::kInt || v.kind() == DatumKind::kLong;
    case Type::kFloat:
    case Type::kDouble: return v.kind() == DatumKind::kFloat || v.kind() == DatumKind::kDouble;
    case Type::kBytes: return v.kind() == DatumKind::kBytes;
    case Type::kString: return v.kind() == DatumKind::kString;
    case Type::kFixed:
      return v.kind() == DatumKind::kFixed && static_cast<int64_t>(v.bytes_value().size()) == n.fixed_size();
    case Type::kEnum: return v.kind() == DatumKind::kEnum;
    case Type::kRecord: return v.kind() == DatumKind::kRecord && v.children().size() == n.fields().size();
    case Type::kArray: return v.kind() == DatumKind::kArray;
    case Type::kMap: return v.kind() == DatumKind::kMap;
    case Type::kUnion: return false;
  }
  return false;
}

std::string_view KindName(DatumKind k) {
  static constexpr std::string_view kNames[] = {"null",  "boolean", "int",  "long", "float",  "double", "bytes",
                                                "string", "fixed",  "enum", "record", "array", "map"};
  return kNames[static_cast<size_t>(k)];
}

// The path to a value, rendered only when an error names it.
struct Path {
  const Path* parent = nullptr;
  std::string_view field;  // empty: an item
  size_t index = 0;
  std::string ToString() const {
    std::string prefix = parent ? parent->ToString() : "value";
    return field.empty() ? StrCat(prefix, "[", index, "]") : StrCat(prefix, ".", field);
  }
};

Status Encode(const Node& n, const Datum& v, Encoder* e, const Path* path_node, int depth) {
  const auto path = [path_node]() { return path_node ? path_node->ToString() : std::string("value"); };
  if (depth > kMaxNestingDepth) return Status::InvalidArgument(StrCat(path(), ": value nests too deep"));
  if (n.type() == Type::kUnion) {
    int chosen = -1;
    const int hint = v.branch();
    if (hint >= 0 && static_cast<size_t>(hint) < n.branches().size() && Fits(*n.branches()[hint], v)) {
      chosen = hint;
    } else {
      for (size_t i = 0; i < n.branches().size() && chosen < 0; ++i) {
        if (Fits(*n.branches()[i], v)) chosen = static_cast<int>(i);
      }
    }
    if (chosen < 0) return Status::InvalidArgument(StrCat(path(), ": no union branch fits a ", KindName(v.kind())));
    e->WriteLong(chosen);
    return Encode(*n.branches()[static_cast<size_t>(chosen)], v, e, path_node, depth + 1);
  }
  if (!Fits(n, v)) {
    return Status::InvalidArgument(
        StrCat(path(), ": a ", KindName(v.kind()), " value does not fit Avro type ", TypeName(n.type()),
               n.type() == Type::kRecord ? StrCat(" with ", n.fields().size(), " fields") : std::string()));
  }
  switch (n.type()) {
    case Type::kNull: return Status::OK();
    case Type::kBoolean: e->WriteBoolean(v.boolean_value()); return Status::OK();
    case Type::kInt:
    case Type::kLong: e->WriteLong(v.long_value()); return Status::OK();
    case Type::kFloat: e->WriteFloat(static_cast<float>(v.double_value())); return Status::OK();
    case Type::kDouble: e->WriteDouble(v.double_value()); return Status::OK();
    case Type::kBytes:
    case Type::kString: e->WriteBytes(v.bytes_value()); return Status::OK();
    case Type::kFixed: e->WriteFixed(v.bytes_value()); return Status::OK();
    case Type::kEnum:
      if (v.enum_index() < 0 || static_cast<size_t>(v.enum_index()) >= n.symbols().size()) {
        return Status::InvalidArgument(StrCat(path(), ": enum index ", v.enum_index(), " out of range"));
      }
      e->WriteInt(v.enum_index());
      return Status::OK();
    case Type::kRecord:
      for (size_t i = 0; i < n.fields().size(); ++i) {
        const Path child{path_node, n.fields()[i].name, 0};
        FLOE_RETURN_IF_ERROR(Encode(*n.fields()[i].type, v.field(i), e, &child, depth + 1));
      }
      return Status::OK();
    case Type::kArray:
    case Type::kMap: {
      const bool is_map = n.type() == Type::kMap;
      if (!v.children().empty()) {
        e->WriteLong(static_cast<int64_t>(v.children().size()));
        for (size_t i = 0; i < v.children().size(); ++i) {
          if (is_map) e->WriteBytes(v.map_keys()[i]);
          const Path child{path_node, {}, i};
          FLOE_RETURN_IF_ERROR(Encode(*n.items(), v.children()[i], e, &child, depth + 1));
        }
      }
      e->WriteLong(0);
      return Status::OK();
    }
    case Type::kUnion: break;
  }
  return Status::Internal("unknown Avro type");
}

}  // namespace

Status EncodeDatum(const Node& schema, const Datum& datum, Encoder* encoder) {
  return Encode(schema, datum, encoder, nullptr, 0);
}

// ---------------------------------------------------------------------------
// Defaults

namespace {

Result<std::string> Latin1Bytes(std::string_view utf8) {
  // spec: bytes and fixed defaults are JSON strings whose code points 0-255
  // are the bytes.
  std::string out;
  for (size_t i = 0; i < utf8.size(); ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if ((c & 0xE0) == 0xC0 && i + 1 < utf8.size()) {
      const unsigned cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu);
      if (cp > 0xFF) return Status::Corrupt("bytes default has a code point above 255");
      out.push_back(static_cast<char>(cp));
      ++i;
    } else {
      return Status::Corrupt("bytes default has a code point above 255");
    }
  }
  return out;
}

Result<Datum> FromJson(const Node& n, simdjson::dom::element e, int depth) {
  if (depth > kMaxNestingDepth) return Status::Corrupt("default value nests too deep");
  const auto bad = [&]() { return Status::Corrupt(StrCat("default ", simdjson::minify(e), " does not fit ", TypeName(n.type()))); };
  switch (n.type()) {
    case Type::kNull:
      if (!e.is_null()) return bad();
      return Datum::Null();
    case Type::kBoolean:
      if (!e.is_bool()) return bad();
      return Datum::Boolean(e.get_bool().value_unsafe());
    case Type::kInt:
    case Type::kLong: {
      int64_t v;
      if (e.get_int64().get(v) != simdjson::SUCCESS) return bad();
      if (n.type() == Type::kInt) {
        if (v < INT32_MIN || v > INT32_MAX) return bad();
        return Datum::Int(static_cast<int32_t>(v));
      }
      return Datum::Long(v);
    }
    case Type::kFloat:
    case Type::kDouble: {
      double v;
      if (e.get_double().get(v) != simdjson::SUCCESS) return bad();
      return n.type() == Type::kFloat ? Datum::Float(static_cast<float>(v)) : Datum::Double(v);
    }
    case Type::kString:
    case Type::kBytes:
    case Type::kFixed:
    case Type::kEnum: {
      std::string_view s;
      if (e.get_string().get(s) != simdjson::SUCCESS) return bad();
      if (n.type() == Type::kString) return Datum::String(std::string(s));
      if (n.type() == Type::kEnum) {
        for (size_t i = 0; i < n.symbols().size(); ++i) {
          if (n.symbols()[i] == s) return Datum::Enum(static_cast<int32_t>(i));
        }
        return bad();
      }
      FLOE_ASSIGN_OR_RETURN(std::string bytes, Latin1Bytes(s));
      if (n.type() == Type::kFixed) {
        if (static_cast<int64_t>(bytes.size()) != n.fixed_size()) return bad();
        return Datum::Fixed(std::move(bytes));
      }
      return Datum::Bytes(std::move(bytes));
    }
    case Type::kUnion: {
      FLOE_ASSIGN_OR_RETURN(Datum d, FromJson(*n.branches()[0], e, depth + 1));
      d.set_branch(0);
      return d;
    }
    case Type::kArray: {
      simdjson::dom::array arr;
      if (e.get_array().get(arr) != simdjson::SUCCESS) return bad();
      std::vector<Datum> items;
      for (simdjson::dom::element item : arr) {
        FLOE_ASSIGN_OR_RETURN(Datum d, FromJson(*n.items(), item, depth + 1));
        items.push_back(std::move(d));
      }
      return Datum::Array(std::move(items));
    }
    case Type::kMap: {
      simdjson::dom::object obj;
      if (e.get_object().get(obj) != simdjson::SUCCESS) return bad();
      std::vector<std::string> keys;
      std::vector<Datum> values;
      for (auto [k, v] : obj) {
        FLOE_ASSIGN_OR_RETURN(Datum d, FromJson(*n.values(), v, depth + 1));
        keys.emplace_back(k);
        values.push_back(std::move(d));
      }
      return Datum::Map(std::move(keys), std::move(values));
    }
    case Type::kRecord: {
      simdjson::dom::object obj;
      if (e.get_object().get(obj) != simdjson::SUCCESS) return bad();
      std::vector<Datum> fields;
      for (const Field& f : n.fields()) {
        simdjson::dom::element fv;
        if (obj[f.name].get(fv) == simdjson::SUCCESS) {
          FLOE_ASSIGN_OR_RETURN(Datum d, FromJson(*f.type, fv, depth + 1));
          fields.push_back(std::move(d));
        } else if (f.default_json) {
          FLOE_ASSIGN_OR_RETURN(Datum d, DatumFromJsonDefault(*f.type, *f.default_json));
          fields.push_back(std::move(d));
        } else {
          return Status::Corrupt(StrCat("default record lacks field ", Quote(f.name)));
        }
      }
      return Datum::Record(std::move(fields));
    }
  }
  return bad();
}

}  // namespace

Result<Datum> DatumFromJsonDefault(const Node& schema, std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat("default value ", Quote(json), " is not valid JSON"));
  }
  return FromJson(schema, root, 0);
}

}  // namespace floe::avro
