// The Thrift compact protocol, the encoding of every Parquet metadata struct.
//
// spec: apache/thrift doc/specs/thrift-compact-protocol.md. Only the parts
// Parquet uses are exposed as typed reads (structs, lists, i8..i64, double,
// binary), but every wire type can be skipped, so that fields a newer
// parquet.thrift adds (of any type) are passed over.
//
// ThriftCompactReader walks a byte span it does not own; the bytes must outlive
// it and every string_view it hands out. All reads are bounds-checked and
// fail with Corrupt (never crash) on truncated or malformed input, naming what
// was being read and the byte offset; the error is kept in the reader (see
// status()) so that the hot paths return a bool in a register. Nesting is
// limited to kMaxDepth structs and containers, and one reader accepts at most
// `max_elements` container elements in total, so hostile input can neither
// exhaust the stack nor make the caller grow vectors without bound.
//
// After a read fails the reader's position and nesting state are
// unspecified; only status() is meaningful.
//
// ThriftCompactWriter appends to a std::string it does not own.
//
// Thread safety: a reader or writer is used by one thread at a time; distinct
// objects are independent.

#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "floe/base/status.h"

namespace floe::parquet {

static_assert(std::endian::native == std::endian::little, "compact-protocol doubles are read as little-endian");

// Wire type ids. In a field header 1 and 2 are a bool field's value; as a
// list, set or map element type the spec calls 2 "BOOL" (legacy writers use 1,
// which the reader accepts and reports as kBooleanFalse, the element bool type).
enum class CompactType : uint8_t {
  kStop = 0,
  kBooleanTrue = 1,
  kBooleanFalse = 2,
  kI8 = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,
};

// The element type of list<bool> / set<bool> (spec: "BOOL, encoded as 2").
inline constexpr CompactType kBoolElementType = CompactType::kBooleanFalse;

// The spec's name of a wire type ("i32", "binary", "struct", ...), or "invalid".
std::string_view CompactTypeName(CompactType type);

// A struct field header. type == kStop marks the end of the struct.
struct ThriftField {
  CompactType type = CompactType::kStop;
  int16_t id = 0;
};

struct ThriftListHeader {
  CompactType element_type = CompactType::kStop;  // kStop only for an empty list
  uint32_t size = 0;                              // <= INT32_MAX
};

struct ThriftMapHeader {
  CompactType key_type = CompactType::kStop;    // kStop only for an empty map
  CompactType value_type = CompactType::kStop;  // kStop only for an empty map
  uint32_t size = 0;                            // pairs, <= INT32_MAX
};

namespace thrift_internal {

inline bool IsValueType(uint8_t type) {
  return type >= static_cast<uint8_t>(CompactType::kBooleanTrue) && type <= static_cast<uint8_t>(CompactType::kUuid);
}

// Legacy writers give bool elements the field-header type 1; the spec says 2.
inline uint8_t NormalizeElementType(uint8_t type) {
  return type == static_cast<uint8_t>(CompactType::kBooleanTrue) ? static_cast<uint8_t>(kBoolElementType) : type;
}

// The fewest bytes one element of `type` occupies on the wire, used to reject
// container sizes that cannot fit in the bytes left before anything is
// allocated for them.
inline uint64_t MinElementBytes(CompactType type) {
  switch (type) {
    case CompactType::kDouble: return 8;
    case CompactType::kUuid: return 16;
    default: return 1;
  }
}

}  // namespace thrift_internal

class ThriftCompactReader {
 public:
  // Deepest nesting of structs and containers accepted (spec leaves it open;
  // Parquet's own structs nest six deep).
  static constexpr int kMaxDepth = 64;
  // Default total of container elements one reader accepts. Every element
  // takes at least one byte, so it binds only on inputs above 128 MiB, where
  // it caps how many elements one message can make the caller hold.
  static constexpr int64_t kDefaultMaxElements = int64_t{1} << 27;

  explicit ThriftCompactReader(std::span<const uint8_t> bytes, int64_t max_elements = kDefaultMaxElements)
      : begin_(bytes.data()), pos_(bytes.data()), end_(bytes.data() + bytes.size()), elements_left_(max_elements) {}

  ThriftCompactReader(const ThriftCompactReader&) = delete;
  ThriftCompactReader& operator=(const ThriftCompactReader&) = delete;

  // Errors are sticky, so that the hot paths return a bool in a register:
  // every read returns true on success; on failure it returns false and
  // status() holds the first error (Corrupt, naming what was read and the
  // byte offset). Reads after a failure keep failing.
  const Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }
  // Records an error found by the caller (a missing required field, a value
  // out of range) unless one is already recorded; returns false.
  bool Fail(Status error);
  // Puts "<context>: " before the recorded error's message, so that callers
  // unwinding a nested read name each enclosing struct and field.
  void AddContext(std::string_view context);

  // Bytes consumed so far / still unread.
  size_t position() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  // The whole input, for slicing out the raw bytes of a skipped value.
  std::span<const uint8_t> bytes() const { return {begin_, end_}; }

  // Unsigned LEB128 varints: at most 10 bytes for 64 bits, 5 for 32; a value
  // that does not fit is Corrupt.
  [[gnu::always_inline]] bool ReadVarint64(uint64_t* out);
  [[gnu::always_inline]] bool ReadVarint32(uint32_t* out);

  // Integers are zigzag varints (i8 is one raw byte); i16 and i32 values out of
  // range are Corrupt. Doubles are 8 bytes little-endian.
  [[gnu::always_inline]] bool ReadI8(int8_t* out);
  [[gnu::always_inline]] bool ReadI16(int16_t* out);
  [[gnu::always_inline]] bool ReadI32(int32_t* out);
  [[gnu::always_inline]] bool ReadI64(int64_t* out);
  [[gnu::always_inline]] bool ReadDouble(double* out);
  // A list/set/map element of type bool: one byte, 1 true, 0 (or 2) false.
  bool ReadBoolElement(bool* out);
  bool ReadUuid(std::array<uint8_t, 16>* out);

  // binary and string: a varint length (<= INT32_MAX and <= remaining bytes)
  // then the bytes. The view points into the input span.
  [[gnu::always_inline]] bool ReadBinary(std::string_view* out);
  [[gnu::always_inline]] bool ReadString(std::string* out);

  // Enter / leave a struct. BeginStruct is Corrupt past kMaxDepth. Between
  // them, ReadFieldHeader returns fields in wire order until type == kStop.
  // The short form adds its 4-bit delta to the previous id of this struct,
  // which is the id in *field: pass the same ThriftField for every field of
  // one struct, starting from a default-constructed one (id 0). The long
  // form reads a zigzag i16. Invalid type ids (14, 15) are Corrupt.
  [[gnu::always_inline]] bool BeginStruct();
  [[gnu::always_inline]] bool ReadFieldHeader(ThriftField* field);
  void EndStruct() { --depth_; }

  // For a bool field the value is its header's type.
  static bool BoolFieldValue(const ThriftField& field) { return field.type == CompactType::kBooleanTrue; }

  // Container headers (short and long size forms). The size is checked
  // against the bytes left (every element takes at least one byte) and
  // charged to the element budget; either overrun is Corrupt.
  [[gnu::always_inline]] bool ReadListHeader(ThriftListHeader* header);
  bool ReadSetHeader(ThriftListHeader* header) { return ReadListHeader(header); }
  bool ReadMapHeader(ThriftMapHeader* header);

  // Skip the value of `field` (a bool field has no value bytes), or one
  // list/set/map element of `element_type`. Nested structs and containers
  // are skipped within kMaxDepth; invalid type ids are Corrupt.
  bool SkipField(const ThriftField& field) { return Skip(field.type, /*in_field=*/true); }
  bool SkipElement(CompactType element_type) { return Skip(element_type, /*in_field=*/false); }

  // For a specialised struct reader that walks the bytes itself (the footer's
  // column chunks, metadata_reader_column_chunk.cc): it reads from cursor()
  // up to end(), nesting at most kMaxDepth - depth() structs, and then either
  // leaves the reader untouched or calls Commit with the position after what
  // it read (within [cursor(), end()]) and the container elements it met.
  // Commit returns false, changing nothing, when those exceed the element
  // budget.
  const uint8_t* cursor() const { return pos_; }
  const uint8_t* end() const { return end_; }
  int depth() const { return depth_; }
  bool Commit(const uint8_t* pos, int64_t elements) {
    if (elements > elements_left_) return false;
    elements_left_ -= elements;
    pos_ = pos;
    return true;
  }

 private:
  bool Skip(CompactType type, bool in_field);
  bool ReadFieldHeaderSlow(ThriftField* field);
  bool ChargeElements(uint64_t elements, uint64_t min_bytes, const char* what);
  [[gnu::cold]] bool ContainerTooLarge(uint64_t elements, uint64_t min_bytes, const char* what);
  [[gnu::cold]] bool Truncated(const char* what);
  [[gnu::cold]] bool Invalid(const char* what, int64_t value);

  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  int64_t elements_left_;
  int depth_ = 0;
  Status status_;
};

class ThriftCompactWriter {
 public:
  // Appends to *out, which must outlive the writer.
  explicit ThriftCompactWriter(std::string* out) : out_(out) {}

  ThriftCompactWriter(const ThriftCompactWriter&) = delete;
  ThriftCompactWriter& operator=(const ThriftCompactWriter&) = delete;

  // The first error met (InvalidArgument: a binary or container larger than
  // INT32_MAX, nesting past kMaxDepth, an invalid type id); OK otherwise.
  // Bytes written after an error are meaningless.
  const Status& status() const { return status_; }

  // A struct is BeginStruct, fields in any order (ascending ids give the
  // short header form), EndStruct (which writes the stop byte).
  void BeginStruct();
  void EndStruct();
  void WriteFieldHeader(CompactType type, int16_t id);
  void WriteBoolField(int16_t id, bool value) {
    WriteFieldHeader(value ? CompactType::kBooleanTrue : CompactType::kBooleanFalse, id);
  }

  void WriteVarint64(uint64_t value);
  void WriteVarint32(uint32_t value) { WriteVarint64(value); }
  void WriteI8(int8_t value) { out_->push_back(static_cast<char>(value)); }
  void WriteI16(int16_t value) { WriteI32(value); }
  void WriteI32(int32_t value) {
    WriteVarint32((static_cast<uint32_t>(value) << 1) ^ static_cast<uint32_t>(value >> 31));
  }
  void WriteI64(int64_t value) {
    WriteVarint64((static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63));
  }
  void WriteDouble(double value);
  void WriteBoolElement(bool value) { out_->push_back(value ? 1 : 0); }
  void WriteUuid(const std::array<uint8_t, 16>& value) {
    out_->append(reinterpret_cast<const char*>(value.data()), value.size());
  }
  void WriteBinary(std::string_view value);

  void WriteListHeader(CompactType element_type, size_t size);
  void WriteSetHeader(CompactType element_type, size_t size) { WriteListHeader(element_type, size); }
  void WriteMapHeader(CompactType key_type, CompactType value_type, size_t size);

  // Bytes that already are a compact-encoded value (a preserved union member).
  void WriteRaw(std::string_view bytes) { out_->append(bytes); }

 private:
  void Fail(std::string message);

  std::string* out_;
  Status status_;
  int depth_ = 0;
  std::array<int16_t, ThriftCompactReader::kMaxDepth + 1> last_field_id_{};
};

// ---- inline hot paths --------------------------------------------------------

inline bool ThriftCompactReader::ReadVarint64(uint64_t* out) {
  const uint8_t* p = pos_;
  if (p != end_ && *p < 0x80) [[likely]] {  // most values in metadata are small
    *out = *p;
    pos_ = p + 1;
    return true;
  }
  uint64_t result = 0;
  // Byte k carries bits 7k..7k+6; the tenth byte may only carry bit 63.
  for (int shift = 0;; shift += 7) {
    if (p == end_) return Truncated("varint");
    const uint8_t b = *p++;
    if (shift == 63 && b > 1) return Invalid("varint wider than 64 bits, last byte", b);
    result |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  pos_ = p;
  *out = result;
  return true;
}

inline bool ThriftCompactReader::ReadVarint32(uint32_t* out) {
  const uint8_t* p = pos_;
  if (p != end_ && *p < 0x80) [[likely]] {
    *out = *p;
    pos_ = p + 1;
    return true;
  }
  uint32_t result = 0;
  for (int shift = 0;; shift += 7) {
    if (p == end_) return Truncated("varint");
    const uint8_t b = *p++;
    if (shift == 28 && b > 0x0f) return Invalid("varint wider than 32 bits, last byte", b);
    result |= static_cast<uint32_t>(b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  pos_ = p;
  *out = result;
  return true;
}

inline bool ThriftCompactReader::ReadI8(int8_t* out) {
  if (pos_ == end_) return Truncated("i8");
  *out = static_cast<int8_t>(*pos_++);
  return true;
}

inline bool ThriftCompactReader::ReadI32(int32_t* out) {
  uint32_t u = 0;
  if (!ReadVarint32(&u)) return false;
  *out = static_cast<int32_t>((u >> 1) ^ (0u - (u & 1)));
  return true;
}

inline bool ThriftCompactReader::ReadI16(int16_t* out) {
  int32_t v = 0;
  if (!ReadI32(&v)) return false;
  if (v < INT16_MIN || v > INT16_MAX) return Invalid("i16 out of range", v);
  *out = static_cast<int16_t>(v);
  return true;
}

inline bool ThriftCompactReader::ReadI64(int64_t* out) {
  uint64_t u = 0;
  if (!ReadVarint64(&u)) return false;
  *out = static_cast<int64_t>((u >> 1) ^ (uint64_t{0} - (u & 1)));
  return true;
}

inline bool ThriftCompactReader::ReadDouble(double* out) {
  if (remaining() < sizeof(double)) return Truncated("double");
  std::memcpy(out, pos_, sizeof(double));
  pos_ += sizeof(double);
  return true;
}

inline bool ThriftCompactReader::ReadBinary(std::string_view* out) {
  uint32_t length = 0;
  if (!ReadVarint32(&length)) return false;
  if (length > static_cast<uint32_t>(INT32_MAX)) [[unlikely]] {
    return Invalid("binary length is negative", static_cast<int32_t>(length));
  }
  if (length > remaining()) return Invalid("binary length exceeds the bytes left", length);
  *out = std::string_view(reinterpret_cast<const char*>(pos_), length);
  pos_ += length;
  return true;
}

inline bool ThriftCompactReader::ReadString(std::string* out) {
  std::string_view view;
  if (!ReadBinary(&view)) return false;
  out->assign(view);
  return true;
}

inline bool ThriftCompactReader::BeginStruct() {
  if (depth_ == kMaxDepth) [[unlikely]] {
    return Invalid("nesting deeper than the limit", kMaxDepth);
  }
  ++depth_;
  return true;
}

inline bool ThriftCompactReader::ReadFieldHeader(ThriftField* field) {
  // The common case in one test: a short-form header (delta 1..15) with a
  // valid type (1..13). Stop bytes, long forms and errors take the slow path.
  if (pos_ != end_) [[likely]] {
    const uint8_t b = *pos_;
    const uint8_t type = b & 0x0f;
    const int id = field->id + (b >> 4);
    if (b >= 0x10 && static_cast<uint8_t>(type - 1) < static_cast<uint8_t>(CompactType::kUuid) && id <= INT16_MAX)
        [[likely]] {
      ++pos_;
      field->type = static_cast<CompactType>(type);
      field->id = static_cast<int16_t>(id);
      return true;
    }
    if (b == 0) {
      ++pos_;
      field->type = CompactType::kStop;
      field->id = 0;
      return true;
    }
  }
  return ReadFieldHeaderSlow(field);
}

inline bool ThriftCompactReader::ChargeElements(uint64_t elements, uint64_t min_bytes, const char* what) {
  if (min_bytes > remaining() || static_cast<int64_t>(elements) > elements_left_) [[unlikely]] {
    return ContainerTooLarge(elements, min_bytes, what);
  }
  elements_left_ -= static_cast<int64_t>(elements);
  return true;
}

inline bool ThriftCompactReader::ReadListHeader(ThriftListHeader* header) {
  if (pos_ == end_) return Truncated("list header");
  const uint8_t b = *pos_++;
  uint32_t size = b >> 4;
  const uint8_t type = thrift_internal::NormalizeElementType(b & 0x0f);
  if (size == 15) {
    if (!ReadVarint32(&size)) return false;
    if (size > static_cast<uint32_t>(INT32_MAX)) [[unlikely]] {
      return Invalid("list size is negative", static_cast<int32_t>(size));
    }
  }
  if (!thrift_internal::IsValueType(type)) {
    if (size == 0 && type == 0) {  // an empty list may leave its type unset
      header->element_type = CompactType::kStop;
      header->size = 0;
      return true;
    }
    return Invalid("list element type id", type);
  }
  header->element_type = static_cast<CompactType>(type);
  header->size = size;
  return ChargeElements(size, uint64_t{size} * thrift_internal::MinElementBytes(header->element_type), "list");
}

}  // namespace floe::parquet
