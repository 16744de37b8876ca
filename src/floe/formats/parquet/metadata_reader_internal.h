// Internal to the metadata decoders (metadata_reader*.cc): the typed field
// walker over ThriftCompactReader that every struct reader is written with.
// Not for use elsewhere; see metadata_codec.h for the public functions.
//
// A struct reader is a switch over field ids inside StructScope::Read; values
// are read by C++ type (ReadValue overloads: integers, enums, strings,
// optionals, lists, nested structs), so a wrong wire type, a missing required
// field and the path of nested structs all come out in one error message.
// Every function returns true on success; on failure the error is recorded
// in the reader (ThriftCompactReader::Fail) and each level adds its struct
// and field name while unwinding. Everything is inlined into the struct
// readers: no virtual calls, no Status on the success path.

#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "floe/base/result.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/thrift_compact.h"

namespace floe::parquet::metadata_internal {

using Reader = ThriftCompactReader;

// spec (parquet.thrift users): field id 32767 is reserved for extensions that
// other readers must pass over.
constexpr int16_t kExtensionFieldId = 32767;

// A lying list header may claim many elements; reserve at most this much up
// front and let real elements grow the vector.
constexpr size_t kMaxUpfrontReserveBytes = size_t{1} << 20;

struct RequiredField {
  int16_t id;
  const char* name;
};

[[gnu::cold]] inline bool WrongType(Reader& r, CompactType got, CompactType want) {
  return r.Fail(
      Status::Corrupt(StrCat("wire type ", CompactTypeName(got), " where ", CompactTypeName(want), " is expected")));
}

[[gnu::cold]] inline bool InField(Reader& r, const char* struct_name, const char* field, int16_t id) {
  r.AddContext(StrCat(struct_name, ": field '", field, "' (", id, ")"));
  return false;
}

[[gnu::cold]] inline bool NegativeField(Reader& r, const char* struct_name, const char* field, int16_t id,
                                        int64_t value) {
  return r.Fail(Status::Corrupt(StrCat(struct_name, ": field '", field, "' (", id, ") is ", value)));
}

inline bool NonNegative(Reader& r, const char* struct_name, const char* field, int16_t id, int64_t value) {
  if (value < 0) return NegativeField(r, struct_name, field, id, value);
  return true;
}

template <typename T>
bool NonNegative(Reader& r, const char* struct_name, const char* field, int16_t id, const std::optional<T>& value) {
  return value ? NonNegative(r, struct_name, field, id, *value) : true;
}

// ---- struct readers (metadata_reader.cc, metadata_reader_pages.cc), declared
// here so that the value templates below find them ----

bool ReadStruct(Reader& r, Statistics* out);
bool ReadStruct(Reader& r, SizeStatistics* out);
bool ReadStruct(Reader& r, BoundingBox* out);
bool ReadStruct(Reader& r, GeospatialStatistics* out);
bool ReadStruct(Reader& r, DecimalType* out);
bool ReadStruct(Reader& r, TimeType* out);
bool ReadStruct(Reader& r, TimestampType* out);
bool ReadStruct(Reader& r, IntType* out);
bool ReadStruct(Reader& r, VariantType* out);
bool ReadStruct(Reader& r, GeometryType* out);
bool ReadStruct(Reader& r, GeographyType* out);
bool ReadStruct(Reader& r, LogicalType* out);
bool ReadStruct(Reader& r, SchemaElement* out);
bool ReadStruct(Reader& r, DataPageHeader* out);
bool ReadStruct(Reader& r, DictionaryPageHeader* out);
bool ReadStruct(Reader& r, DataPageHeaderV2* out);
bool ReadStruct(Reader& r, PageHeader* out);
bool ReadStruct(Reader& r, BloomFilterHeader* out);
bool ReadStruct(Reader& r, KeyValue* out);
bool ReadStruct(Reader& r, SortingColumn* out);
bool ReadStruct(Reader& r, PageEncodingStats* out);
bool ReadStruct(Reader& r, ColumnMetaData* out);
bool ReadStruct(Reader& r, EncryptionWithColumnKey* out);
bool ReadStruct(Reader& r, ColumnCryptoMetaData* out);
bool ReadStruct(Reader& r, ColumnChunk* out);
bool ReadStruct(Reader& r, RowGroup* out);
bool ReadStruct(Reader& r, PageLocation* out);
bool ReadStruct(Reader& r, OffsetIndex* out);
bool ReadStruct(Reader& r, ColumnIndex* out);
bool ReadStruct(Reader& r, AesGcmV1* out);
bool ReadStruct(Reader& r, AesGcmCtrV1* out);
bool ReadStruct(Reader& r, EncryptionAlgorithm* out);
bool ReadStruct(Reader& r, FileMetaData* out);
bool ReadStruct(Reader& r, FileCryptoMetaData* out);

// ReadStruct(ColumnChunk) is ReadColumnChunkFast, the fast path for the
// common shape of a chunk (metadata_reader_column_chunk.cc), and where it
// gives up (returning false, with the reader untouched and *out partly set)
// ReadColumnChunkGeneric, the field walker of every other struct, on a
// default-constructed *out. Both are declared for the test that compares them.
bool ReadColumnChunkFast(Reader& r, ColumnChunk* out);
bool ReadColumnChunkGeneric(Reader& r, ColumnChunk* out);

// The container templates below call each other through optional and
// vector members, so all are declared before any is defined.
template <typename T>
bool ReadValue(Reader& r, CompactType t, std::optional<T>* out);
template <typename T>
bool ReadValue(Reader& r, CompactType t, std::vector<T>* out);
template <typename T, uint32_t N>
bool ReadValue(Reader& r, CompactType t, SmallVector<T, N>* out);
template <typename T>
bool ReadValue(Reader& r, CompactType t, Boxed<T>* out);
inline bool ReadValue(Reader& r, CompactType t, ColumnPath* out);

// Walks the fields of one struct, handing each to `on_field` (which reads or
// skips it), and names the struct in errors of the walk itself.
template <typename OnField>
[[gnu::always_inline]] inline bool ReadFields(Reader& r, const char* struct_name, OnField&& on_field) {
  if (!r.BeginStruct()) [[unlikely]] {
    r.AddContext(struct_name);
    return false;
  }
  ThriftField field;
  while (true) {
    if (!r.ReadFieldHeader(&field)) [[unlikely]] {
      r.AddContext(struct_name);
      return false;
    }
    if (field.type == CompactType::kStop) break;
    if (!on_field(field)) [[unlikely]] {
      return false;
    }
  }
  r.EndStruct();
  return true;
}

// Empty structs of the spec (StringType, IndexPageHeader, ...): any fields a
// newer spec gives them are skipped.
template <typename T>
requires std::is_empty_v<T>
bool ReadStruct(Reader& r, T*) {
  return ReadFields(r, "struct", [&](const ThriftField& f) { return r.SkipField(f); });
}

// ---- values by C++ type --------------------------------------------------------

[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, bool* out) {
  if (t != CompactType::kBooleanTrue && t != CompactType::kBooleanFalse) [[unlikely]] {
    return WrongType(r, t, CompactType::kBooleanFalse);
  }
  *out = t == CompactType::kBooleanTrue;  // a bool field's value is its header's type
  return true;
}
[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, int8_t* out) {
  return t == CompactType::kI8 ? r.ReadI8(out) : WrongType(r, t, CompactType::kI8);
}
[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, int16_t* out) {
  return t == CompactType::kI16 ? r.ReadI16(out) : WrongType(r, t, CompactType::kI16);
}
[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, int32_t* out) {
  return t == CompactType::kI32 ? r.ReadI32(out) : WrongType(r, t, CompactType::kI32);
}
[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, int64_t* out) {
  return t == CompactType::kI64 ? r.ReadI64(out) : WrongType(r, t, CompactType::kI64);
}
[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, double* out) {
  return t == CompactType::kDouble ? r.ReadDouble(out) : WrongType(r, t, CompactType::kDouble);
}
[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, std::string* out) {
  return t == CompactType::kBinary ? r.ReadString(out) : WrongType(r, t, CompactType::kBinary);
}

[[gnu::cold]] inline bool NegativeEnum(Reader& r, int32_t v) {
  return r.Fail(Status::Corrupt(StrCat("negative enum value ", v)));
}

// Thrift enums: i32 on the wire, kept as read. No parquet.thrift enum has a
// negative value and new values are appended, so a negative one is damage
// rather than a newer writer.
template <typename E>
requires(std::is_enum_v<E>&& std::is_same_v<std::underlying_type_t<E>, int32_t>)
    [[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, E* out) {
  int32_t v = 0;
  if (!ReadValue(r, t, &v)) return false;
  if (v < 0) return NegativeEnum(r, v);
  *out = static_cast<E>(v);
  return true;
}

constexpr const char* UnionName(TimeUnit*) { return "TimeUnit"; }
constexpr const char* UnionName(ColumnOrder*) { return "ColumnOrder"; }
constexpr const char* UnionName(BloomFilterAlgorithm*) { return "BloomFilterAlgorithm"; }
constexpr const char* UnionName(BloomFilterHash*) { return "BloomFilterHash"; }
constexpr const char* UnionName(BloomFilterCompression*) { return "BloomFilterCompression"; }

[[gnu::cold]] inline bool SecondMember(Reader& r, const char* union_name, int16_t first, int16_t second) {
  return r.Fail(
      Status::Corrupt(StrCat(union_name, ": union has more than one member (fields ", first, " and ", second, ")")));
}

// Unions of empty structs, held as the member's field id (0: none set).
template <typename E>
requires(std::is_enum_v<E>&& std::is_same_v<std::underlying_type_t<E>, int16_t>) bool ReadValue(Reader& r,
                                                                                                CompactType t, E* out) {
  if (t != CompactType::kStruct) return WrongType(r, t, CompactType::kStruct);
  const char* name = UnionName(out);
  int16_t member = 0;
  const bool ok = ReadFields(r, name, [&](const ThriftField& f) {
    if (f.id == kExtensionFieldId) return r.SkipField(f);
    if (f.type != CompactType::kStruct) [[unlikely]] {
      WrongType(r, f.type, CompactType::kStruct);
      r.AddContext(name);
      return false;
    }
    if (member != 0) return SecondMember(r, name, member, f.id);
    member = f.id;
    return r.SkipField(f);
  });
  *out = static_cast<E>(member);
  return ok;
}

template <typename T>
requires requires(Reader& r, T* v) { ReadStruct(r, v); }
bool ReadValue(Reader& r, CompactType t, T* out) {
  return t == CompactType::kStruct ? ReadStruct(r, out) : WrongType(r, t, CompactType::kStruct);
}

template <typename T>
[[gnu::always_inline]] inline bool ReadValue(Reader& r, CompactType t, std::optional<T>* out) {
  return ReadValue(r, t, &out->emplace());
}

template <typename T>
bool ReadValue(Reader& r, CompactType t, Boxed<T>* out) {
  return ReadValue(r, t, &out->emplace());
}

[[gnu::cold]] inline bool InElement(Reader& r, uint32_t i) {
  r.AddContext(StrCat("element ", i));
  return false;
}

template <typename T>
bool ReadValue(Reader& r, CompactType t, std::vector<T>* out) {
  static_assert(!std::is_same_v<T, bool>, "list<bool> elements are bytes; see ReadBoolList");
  if (t != CompactType::kList) return WrongType(r, t, CompactType::kList);
  ThriftListHeader header;
  if (!r.ReadListHeader(&header)) return false;
  out->clear();
  out->reserve(std::min<size_t>(header.size, kMaxUpfrontReserveBytes / sizeof(T)));
  for (uint32_t i = 0; i < header.size; ++i) {
    if (!ReadValue(r, header.element_type, &out->emplace_back())) return InElement(r, i);
  }
  return true;
}

// Lists that stay inline in the common case: no allocation below N elements.
template <typename T, uint32_t N>
bool ReadValue(Reader& r, CompactType t, SmallVector<T, N>* out) {
  if (t != CompactType::kList) return WrongType(r, t, CompactType::kList);
  ThriftListHeader header;
  if (!r.ReadListHeader(&header)) return false;
  out->clear();
  out->reserve(std::min<size_t>(header.size, kMaxUpfrontReserveBytes / sizeof(T)));
  for (uint32_t i = 0; i < header.size; ++i) {
    if (!ReadValue(r, header.element_type, &out->emplace_back())) return InElement(r, i);
  }
  return true;
}

// list<string> into its packed form: the elements are validated in place
// and their bytes taken in one copy (column_path.h).
inline bool ReadValue(Reader& r, CompactType t, ColumnPath* out) {
  if (t != CompactType::kList) return WrongType(r, t, CompactType::kList);
  ThriftListHeader header;
  if (!r.ReadListHeader(&header)) return false;
  if (header.size > 0 && header.element_type != CompactType::kBinary) {
    return WrongType(r, header.element_type, CompactType::kBinary);
  }
  const size_t start = r.position();
  for (uint32_t i = 0; i < header.size; ++i) {
    std::string_view part;
    if (!r.ReadBinary(&part)) return InElement(r, i);
  }
  const auto packed = r.bytes().subspan(start, r.position() - start);
  *out = ColumnPath::FromPacked(std::string_view(reinterpret_cast<const char*>(packed.data()), packed.size()),
                                header.size);
  return true;
}

inline bool ReadBoolList(Reader& r, CompactType t, std::vector<bool>* out) {
  if (t != CompactType::kList) return WrongType(r, t, CompactType::kList);
  ThriftListHeader header;
  if (!r.ReadListHeader(&header)) return false;
  if (header.size > 0 && header.element_type != kBoolElementType) {
    return WrongType(r, header.element_type, kBoolElementType);
  }
  out->assign(header.size, false);
  for (uint32_t i = 0; i < header.size; ++i) {
    bool v = false;
    if (!r.ReadBoolElement(&v)) return false;
    (*out)[i] = v;
  }
  return true;
}

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsOptional<Boxed<T>> : std::true_type {};

template <typename T>
struct IsList : std::false_type {};
template <typename T>
struct IsList<std::vector<T>> : std::true_type {};
template <typename T, uint32_t N>
struct IsList<SmallVector<T, N>> : std::true_type {};
template <>
struct IsList<ColumnPath> : std::true_type {};

// Whether a field of C++ type T may have wire type `t`.
template <typename T>
constexpr bool WireTypeMatches(CompactType t) {
  if constexpr (std::is_same_v<T, bool>) {
    return t == CompactType::kBooleanTrue || t == CompactType::kBooleanFalse;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return t == CompactType::kI8;
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return t == CompactType::kI16;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return t == CompactType::kI32;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return t == CompactType::kI64;
  } else if constexpr (std::is_same_v<T, double>) {
    return t == CompactType::kDouble;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return t == CompactType::kBinary;
  } else if constexpr (std::is_enum_v<T>) {
    // i32 enums; int16_t ones are unions of empty structs.
    return t == (sizeof(T) == sizeof(int32_t) ? CompactType::kI32 : CompactType::kStruct);
  } else if constexpr (IsList<T>::value) {
    return t == CompactType::kList;
  } else {
    return t == CompactType::kStruct;
  }
}

// ---- per-struct helpers ----------------------------------------------------------

template <size_t N>
constexpr uint32_t RequiredMask(const RequiredField (&fields)[N]) {
  uint32_t mask = 0;
  for (const RequiredField& f : fields) mask |= uint32_t{1} << f.id;
  return mask;
}

template <size_t N>
[[gnu::cold]] bool MissingField(Reader& r, const char* struct_name, const RequiredField (&fields)[N], uint32_t seen) {
  for (const RequiredField& f : fields) {
    if ((seen & (uint32_t{1} << f.id)) == 0) {
      return r.Fail(Status::Corrupt(StrCat(struct_name, ": required field '", f.name, "' (", f.id, ") missing")));
    }
  }
  return true;
}

// Reads the fields of one struct and tracks which were seen, so that missing
// required fields are reported by name.
class StructScope {
 public:
  StructScope(Reader& r, const char* name) : r_(r), name_(name) {}

  // Reads a struct without required fields.
  template <typename OnField>
  bool Read(OnField&& on_field) {
    return ReadFields(r_, name_, on_field);
  }

  // Reads a struct whose required fields are `kRequired` (a static array,
  // so that the check is one mask compare).
  template <const auto& kRequired, typename OnField>
  bool Read(OnField&& on_field) {
    if (!ReadFields(r_, name_, on_field)) return false;
    constexpr uint32_t kMask = RequiredMask(kRequired);
    if ((seen_ & kMask) != kMask) return MissingField(r_, name_, kRequired, seen_);
    return true;
  }

  // Reads the value of field `f` (a known id below 32) into *out. An
  // optional field with an unexpected wire type is skipped, as
  // Thrift-generated readers do: pre-release writers used some ids with
  // other types (parquet-mr 1.12 snapshots wrote ColumnMetaData field 15 as
  // a list). A required one is Corrupt, naming both types.
  template <typename T>
  [[gnu::always_inline]] bool Field(const ThriftField& f, const char* field_name, T* out) {
    if constexpr (IsOptional<T>::value) {
      if (!WireTypeMatches<typename T::value_type>(f.type)) [[unlikely]] {
        return Skip(f);
      }
    }
    seen_ |= uint32_t{1} << f.id;
    bool ok;
    if constexpr (std::is_same_v<T, std::vector<bool>>) {
      ok = ReadBoolList(r_, f.type, out);
    } else {
      ok = ReadValue(r_, f.type, out);
    }
    if (!ok) return InField(r_, name_, field_name, f.id);
    return true;
  }

  // Passes over a field this version does not know.
  bool Skip(const ThriftField& f) {
    if (!r_.SkipField(f)) [[unlikely]] {
      r_.AddContext(StrCat(name_, ": unknown field ", f.id));
      return false;
    }
    return true;
  }

 private:
  Reader& r_;
  const char* name_;
  uint32_t seen_ = 0;
};

// Reads one union whose members map onto alternatives of a std::variant.
template <typename Variant>
class UnionScope {
 public:
  UnionScope(Reader& r, const char* name, Variant* out) : r_(r), name_(name), out_(out) {
    *out_ = UnknownUnionMember{};
  }

  template <typename OnField>
  bool Read(OnField&& on_field) {
    return ReadFields(r_, name_, on_field);
  }

  template <typename T>
  bool Member(const ThriftField& f, const char* member_name) {
    if (!Claim(f)) return false;
    if (!ReadValue(r_, f.type, &out_->template emplace<T>())) [[unlikely]] {
      return InField(r_, name_, member_name, f.id);
    }
    return true;
  }

  // A member this version does not know: kept verbatim (extensions skipped).
  bool Unknown(const ThriftField& f) {
    if (f.id == kExtensionFieldId) return SkipMember(f);
    if (!Claim(f)) return false;
    const size_t start = r_.position();
    if (!SkipMember(f)) return false;
    const auto raw = r_.bytes().subspan(start, r_.position() - start);
    out_->template emplace<UnknownUnionMember>(UnknownUnionMember{
        f.id, static_cast<uint8_t>(f.type), std::string(reinterpret_cast<const char*>(raw.data()), raw.size())});
    return true;
  }

 private:
  bool SkipMember(const ThriftField& f) {
    if (!r_.SkipField(f)) [[unlikely]] {
      r_.AddContext(StrCat(name_, ": unknown member ", f.id));
      return false;
    }
    return true;
  }

  bool Claim(const ThriftField& f) {
    if (member_ != 0) return SecondMember(r_, name_, member_, f.id);
    member_ = f.id;
    return true;
  }

  Reader& r_;
  const char* name_;
  Variant* out_;
  int16_t member_ = 0;
};

// Decodes one T from the front of `bytes`; *consumed (if not null) is its size.
template <typename T>
Result<T> DecodeStruct(std::span<const uint8_t> bytes, size_t* consumed) {
  Reader r(bytes);
  T value;
  if (!ReadStruct(r, &value)) return r.status();
  if (consumed != nullptr) *consumed = r.position();
  return value;
}

}  // namespace floe::parquet::metadata_internal
