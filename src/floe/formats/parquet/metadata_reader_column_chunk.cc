// The footer's hot path: a ColumnChunk read in one straight walk.
//
// A large footer is almost all ColumnChunks (one per column per row group),
// and the writers met in practice (parquet-mr, parquet-cpp, DuckDB, floe)
// write them alike: Thrift's field order (ascending ids) in the short header
// form, the same handful of fields. ReadColumnChunkFast reads that shape
// without the generic walker's switch per field and bounds check per byte:
// it tests the fields of ColumnChunk, ColumnMetaData, Statistics,
// PageEncodingStats and SizeStatistics in id order, each test one compare
// against the current header, and checks the bytes left once per header and
// per list element (kSlack), so that the value after it needs no check.
//
// It decodes only what it checks as the generic reader (metadata_reader.cc)
// does: required fields, wire types, non-negative sizes, enums, i32 ranges,
// the element budget and the depth. On anything else -- a field it does not
// take (crypto metadata, key-value metadata, geospatial statistics, a newer
// spec's field), a long-form header (which a repeated or out-of-order id
// needs), a wrong wire type, a list of 15 or more elements, a value out of
// range, the end of the input near -- it gives up without moving the reader,
// and the caller reads the chunk again with the generic reader, which decodes
// every field and reports every error.

#include <bit>
#include <cstring>

#include "floe/formats/parquet/metadata_reader_internal.h"

namespace floe::parquet::metadata_internal {
namespace {

// Every field header and list element is read only when this many bytes are
// left, so that the header and a varint after it (at most 11 bytes) need no
// further check.
constexpr ptrdiff_t kSlack = 16;
// The structs a ColumnChunk nests: itself, ColumnMetaData, Statistics.
constexpr int kChunkDepth = 3;

// The walk over one chunk's bytes; the reader moves only if it succeeds.
struct Walk {
  const uint8_t* p;
  const uint8_t* end;
  int64_t elements = 0;  // list elements met, for the reader's budget

  bool HasSlack() const { return end - p >= kSlack; }
};

// Unsigned LEB128, as ThriftCompactReader::ReadVarint64 reads it, without
// bounds checks: the caller made sure of kSlack bytes. Values of up to four
// bytes (all but the largest offsets and sizes) are told apart by a branch per
// length: the walk is one long chain of "where does the next value start",
// and a predicted branch lets the CPU run ahead along it, where a length
// computed from the loaded bytes would make every later read wait for the
// load (measured: the footer bench's decode 1.20 -> 0.97 ms). Longer values
// are found and gathered from one 8-byte load.
[[gnu::always_inline]] inline bool Varint64(const uint8_t*& p, uint64_t* out) {
  if (p[0] < 0x80) [[likely]] {
    *out = *p++;
    return true;
  }
  if (p[1] < 0x80) {
    *out = (p[0] & 0x7fu) | (uint64_t{p[1]} << 7);
    p += 2;
    return true;
  }
  if (p[2] < 0x80) {
    *out = (p[0] & 0x7fu) | (uint64_t{p[1] & 0x7fu} << 7) | (uint64_t{p[2]} << 14);
    p += 3;
    return true;
  }
  if (p[3] < 0x80) {
    *out = (p[0] & 0x7fu) | (uint64_t{p[1] & 0x7fu} << 7) | (uint64_t{p[2] & 0x7fu} << 14) | (uint64_t{p[3]} << 21);
    p += 4;
    return true;
  }
  uint64_t word;
  std::memcpy(&word, p, sizeof word);
  const uint64_t stops = ~word & 0x8080808080808080u;  // the high bit of each byte that ends the value
  if (stops == 0) [[unlikely]] {
    // 9 or 10 bytes: a byte at a time; the tenth may only carry bit 63.
    uint64_t v = word & 0x7f7f7f7f7f7f7f7fu;
    v = (v & 0x007f007f007f007fu) | ((v & 0x7f007f007f007f00u) >> 1);
    v = (v & 0x00003fff00003fffu) | ((v & 0x3fff00003fff0000u) >> 2);
    v = (v & 0x000000000fffffffu) | ((v & 0x0fffffff00000000u) >> 4);
    const uint64_t b8 = p[8];
    v |= (b8 & 0x7f) << 56;
    if (b8 < 0x80) {
      p += 9;
      *out = v;
      return true;
    }
    const uint64_t b9 = p[9];
    if (b9 > 1) return false;
    *out = v | (b9 << 63);
    p += 10;
    return true;
  }
  const int bits = std::countr_zero(stops) + 1;  // 8 * the value's length
  uint64_t v = word & (~uint64_t{0} >> (64 - bits)) & 0x7f7f7f7f7f7f7f7fu;
  v = (v & 0x007f007f007f007fu) | ((v & 0x7f007f007f007f00u) >> 1);
  v = (v & 0x00003fff00003fffu) | ((v & 0x3fff00003fff0000u) >> 2);
  v = (v & 0x000000000fffffffu) | ((v & 0x0fffffff00000000u) >> 4);
  p += bits / 8;
  *out = v;
  return true;
}

// As ThriftCompactReader::ReadVarint32 reads it: at most 5 bytes (an
// overlong encoding of a small value is refused too) and 32 bits.
[[gnu::always_inline]] inline bool Varint32(const uint8_t*& p, uint32_t* out) {
  const uint8_t* start = p;
  uint64_t v;
  if (!Varint64(p, &v) || p - start > 5 || v > UINT32_MAX) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

[[gnu::always_inline]] inline int32_t Zigzag32(uint32_t u) {
  return static_cast<int32_t>((u >> 1) ^ (0u - (u & 1)));
}
[[gnu::always_inline]] inline int64_t Zigzag64(uint64_t u) {
  return static_cast<int64_t>((u >> 1) ^ (uint64_t{0} - (u & 1)));
}

constexpr uint8_t Wire(CompactType t) { return static_cast<uint8_t>(t); }

// The fields of one struct, taken in ascending id order. The current header
// is kept as one key, id * 16 + wire type, so that At(id, type) -- is the
// current field this id with this type? -- is one compare. A field with a
// known id and another type matches no test, and neither does one in the
// long header form (delta 0 keeps the previous id); both leave the walk short
// of AtStop(), where it gives up. A typed read reads the value of the field
// At() matched and moves to the next header. Every call returns false where
// the fast path gives up.
class Fields {
 public:
  explicit Fields(Walk& w) : w_(w) {}

  // Reads the first header.
  [[gnu::always_inline]] bool Begin() { return Next(); }
  bool At(int id, CompactType type) const { return key_ == Key(id, type); }
  // A bool field: its value is its wire type.
  bool AtBool(int id) const { return key_ - Key(id, CompactType::kBooleanTrue) <= 1; }
  bool AtStop() const { return key_ == kStopKey; }

  [[gnu::always_inline]] bool Next() {
    if (!w_.HasSlack()) [[unlikely]] {
      return false;
    }
    const uint8_t b = *w_.p++;
    key_ = b == 0 ? kStopKey : (key_ & ~0x0fu) + b;  // adds the delta to the id
    return true;
  }

  [[gnu::always_inline]] bool I32(int32_t* out) {
    uint32_t u;
    if (!Varint32(w_.p, &u)) return false;
    *out = Zigzag32(u);
    return Next();
  }
  [[gnu::always_inline]] bool NonNegativeI32(int32_t* out) { return I32(out) && *out >= 0; }
  [[gnu::always_inline]] bool I64(int64_t* out) {
    uint64_t u;
    if (!Varint64(w_.p, &u)) return false;
    *out = Zigzag64(u);
    return Next();
  }
  [[gnu::always_inline]] bool NonNegativeI64(int64_t* out) { return I64(out) && *out >= 0; }
  template <typename E>
  [[gnu::always_inline]] bool Enum(E* out) {
    int32_t v;
    if (!I32(&v) || v < 0) return false;
    *out = static_cast<E>(v);
    return true;
  }
  [[gnu::always_inline]] bool Bool(bool* out) {
    *out = (key_ & 0x0f) == Wire(CompactType::kBooleanTrue);
    return Next();
  }
  [[gnu::always_inline]] bool Binary(std::string_view* out) {
    uint32_t length;
    if (!Varint32(w_.p, &length)) return false;
    if (length > static_cast<uint32_t>(INT32_MAX) || length > static_cast<size_t>(w_.end - w_.p)) return false;
    *out = std::string_view(reinterpret_cast<const char*>(w_.p), length);
    w_.p += length;
    return Next();
  }
  // A list field's header, short form only; the caller reads the `size`
  // elements (checking slack before each), then calls Next().
  [[gnu::always_inline]] bool List(CompactType element, uint32_t* size) {
    const uint8_t b = *w_.p++;
    *size = b >> 4;
    const uint8_t type = thrift_internal::NormalizeElementType(b & 0x0f);
    w_.elements += *size;
    if (type == Wire(element)) return *size != 15;
    // An empty list may name no type, or any (its elements are not read).
    return *size == 0 && (type == 0 || thrift_internal::IsValueType(type));
  }

 private:
  static constexpr uint32_t Key(int id, CompactType type) { return (static_cast<uint32_t>(id) << 4) | Wire(type); }
  // Above any key a valid field can have (ids are at most 32767).
  static constexpr uint32_t kStopKey = ~0u;

  Walk& w_;
  uint32_t key_ = 0;
};

constexpr CompactType kI32 = CompactType::kI32;
constexpr CompactType kI64 = CompactType::kI64;
constexpr CompactType kBinary = CompactType::kBinary;
constexpr CompactType kList = CompactType::kList;
constexpr CompactType kStruct = CompactType::kStruct;

template <typename E, uint32_t N>
[[gnu::always_inline]] inline bool EnumList(Walk& w, Fields& f, SmallVector<E, N>* out) {
  uint32_t size;
  if (!f.List(kI32, &size)) return false;
  out->resize_for_overwrite(size);  // sized once, then filled: no growth test per element
  E* values = out->data();
  for (uint32_t i = 0; i < size; ++i) {
    uint32_t u;
    if (!w.HasSlack() || !Varint32(w.p, &u)) return false;
    const int32_t v = Zigzag32(u);
    if (v < 0) return false;
    values[i] = static_cast<E>(v);
  }
  return f.Next();
}

[[gnu::always_inline]] inline bool I64List(Walk& w, Fields& f, LevelHistogram* out) {
  uint32_t size;
  if (!f.List(kI64, &size)) return false;
  out->resize_for_overwrite(size);
  int64_t* values = out->data();
  for (uint32_t i = 0; i < size; ++i) {
    uint64_t u;
    if (!w.HasSlack() || !Varint64(w.p, &u)) return false;
    values[i] = Zigzag64(u);
  }
  return f.Next();
}

// list<string> into its packed form (column_path.h).
[[gnu::always_inline]] inline bool PathList(Walk& w, Fields& f, ColumnPath* out) {
  uint32_t size;
  if (!f.List(kBinary, &size)) return false;
  const uint8_t* start = w.p;
  for (uint32_t i = 0; i < size; ++i) {
    uint32_t length;
    if (!w.HasSlack() || !Varint32(w.p, &length)) return false;
    if (length > static_cast<uint32_t>(INT32_MAX) || length > static_cast<size_t>(w.end - w.p)) return false;
    w.p += length;
  }
  out->AssignPacked(std::string_view(reinterpret_cast<const char*>(start), static_cast<size_t>(w.p - start)), size);
  return f.Next();
}

[[gnu::always_inline]] inline bool OptionalString(Fields& f, std::optional<std::string>* out) {
  std::string_view v;
  if (!f.Binary(&v)) return false;
  out->emplace(v);
  return true;
}

[[gnu::always_inline]] inline bool ReadStatistics(Walk& w, Statistics* out) {
  Fields f(w);
  if (!f.Begin()) return false;
  if (f.At(1, kBinary) && !OptionalString(f, &out->max)) return false;
  if (f.At(2, kBinary) && !OptionalString(f, &out->min)) return false;
  if (f.At(3, kI64) && !f.I64(&out->null_count.emplace())) return false;
  if (f.At(4, kI64) && !f.I64(&out->distinct_count.emplace())) return false;
  if (f.At(5, kBinary) && !OptionalString(f, &out->max_value)) return false;
  if (f.At(6, kBinary) && !OptionalString(f, &out->min_value)) return false;
  if (f.AtBool(7) && !f.Bool(&out->is_max_value_exact.emplace())) return false;
  if (f.AtBool(8) && !f.Bool(&out->is_min_value_exact.emplace())) return false;
  if (f.At(9, kI64) && !f.I64(&out->nan_count.emplace())) return false;
  return f.AtStop();
}

[[gnu::always_inline]] inline bool ReadPageEncodingStats(Walk& w, PageEncodingStats* out) {
  Fields f(w);
  return f.Begin() && f.At(1, kI32) && f.Enum(&out->page_type) && f.At(2, kI32) && f.Enum(&out->encoding) &&
         f.At(3, kI32) && f.I32(&out->count) && f.AtStop();
}

[[gnu::always_inline]] inline bool EncodingStatsList(Walk& w, Fields& f, PageEncodingStatsList* out) {
  uint32_t size;
  if (!f.List(kStruct, &size)) return false;
  out->resize_for_overwrite(size);
  PageEncodingStats* values = out->data();
  for (uint32_t i = 0; i < size; ++i) {
    if (!ReadPageEncodingStats(w, &values[i])) return false;
  }
  return f.Next();
}

[[gnu::always_inline]] inline bool ReadSizeStatistics(Walk& w, SizeStatistics* out) {
  Fields f(w);
  if (!f.Begin()) return false;
  if (f.At(1, kI64) && !f.I64(&out->unencoded_byte_array_data_bytes.emplace())) return false;
  if (f.At(2, kList) && !I64List(w, f, &out->repetition_level_histogram.emplace())) return false;
  if (f.At(3, kList) && !I64List(w, f, &out->definition_level_histogram.emplace())) return false;
  return f.AtStop();
}

[[gnu::always_inline]] inline bool ReadColumnMetaData(Walk& w, ColumnMetaData* out) {
  Fields f(w);
  if (!f.Begin()) return false;
  // Required: type, encodings, path_in_schema, codec, num_values, the two
  // sizes, data_page_offset. key_value_metadata (8) is left to the generic
  // reader: nothing tests for it, so the walk cannot reach the stop.
  if (!(f.At(1, kI32) && f.Enum(&out->type))) return false;
  if (!(f.At(2, kList) && EnumList(w, f, &out->encodings))) return false;
  if (!(f.At(3, kList) && PathList(w, f, &out->path_in_schema))) return false;
  if (!(f.At(4, kI32) && f.Enum(&out->codec))) return false;
  if (!(f.At(5, kI64) && f.NonNegativeI64(&out->num_values))) return false;
  if (!(f.At(6, kI64) && f.NonNegativeI64(&out->total_uncompressed_size))) return false;
  if (!(f.At(7, kI64) && f.NonNegativeI64(&out->total_compressed_size))) return false;
  if (!(f.At(9, kI64) && f.I64(&out->data_page_offset))) return false;
  if (f.At(10, kI64) && !f.I64(&out->index_page_offset.emplace())) return false;
  if (f.At(11, kI64) && !f.I64(&out->dictionary_page_offset.emplace())) return false;
  if (f.At(12, kStruct) && !(ReadStatistics(w, &out->statistics.emplace()) && f.Next())) return false;
  if (f.At(13, kList) && !EncodingStatsList(w, f, &out->encoding_stats.emplace())) return false;
  if (f.At(14, kI64) && !f.I64(&out->bloom_filter_offset.emplace())) return false;
  if (f.At(15, kI32) && !f.NonNegativeI32(&out->bloom_filter_length.emplace())) return false;
  if (f.At(16, kStruct) && !(ReadSizeStatistics(w, &out->size_statistics.emplace()) && f.Next())) return false;
  return f.AtStop();
}

[[gnu::always_inline]] inline bool ReadChunk(Walk& w, ColumnChunk* out) {
  Fields f(w);
  if (!f.Begin()) return false;
  if (f.At(1, kBinary)) {
    std::string_view path;
    if (!f.Binary(&path)) return false;
    out->file_path.emplace(path);
  }
  if (!(f.At(2, kI64) && f.I64(&out->file_offset))) return false;
  if (f.At(3, kStruct) && !(ReadColumnMetaData(w, &out->meta_data.emplace()) && f.Next())) return false;
  if (f.At(4, kI64) && !f.I64(&out->offset_index_offset.emplace())) return false;
  if (f.At(5, kI32) && !f.NonNegativeI32(&out->offset_index_length.emplace())) return false;
  if (f.At(6, kI64) && !f.I64(&out->column_index_offset.emplace())) return false;
  if (f.At(7, kI32) && !f.NonNegativeI32(&out->column_index_length.emplace())) return false;
  return f.AtStop();
}

}  // namespace

bool ReadColumnChunkFast(Reader& r, ColumnChunk* out) {
  if (r.depth() > Reader::kMaxDepth - kChunkDepth) return false;
  Walk w{r.cursor(), r.end()};
  return ReadChunk(w, out) && r.Commit(w.p, w.elements);
}

}  // namespace floe::parquet::metadata_internal
