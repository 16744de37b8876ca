// Deletion vectors: 32-bit CRoaring bitmaps by key, the portable 64-bit
// layout around them, and the deletion-vector-v1 blob framing.

#include "floe/iceberg/deletion_vector.h"

#include <roaring/roaring.h>

#include <cstring>
#include <limits>
#include <set>
#include <span>

#include "floe/base/check.h"
#include "floe/base/crc32.h"
#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/iceberg/roaring_portable.h"

namespace floe::iceberg {
namespace {

// spec: reserved field id 2147483645, `_pos`, the row position; the blob's
// `fields`, as Java's DV writer sets it.
constexpr int32_t kRowPositionFieldId = 2147483645;
// spec (Puffin): the blob's required properties.
constexpr std::string_view kReferencedDataFile = "referenced-data-file";
constexpr std::string_view kCardinality = "cardinality";
// Length field, magic and CRC around the bitmap.
constexpr size_t kFramingBytes = 12;
// A blob above this is refused before it is read (a DV of a data file with
// 2^31 rows, every other one deleted, takes about 256 MiB).
constexpr int64_t kMaxBlobBytes = int64_t{1} << 30;
constexpr uint64_t kKeyBits = 32;
constexpr uint64_t kLowMask = 0xffffffffu;

uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
void AppendBigEndian32(std::string* out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}
uint32_t LoadLittleEndian32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}
void AppendLittleEndian(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

std::string Hex(const uint8_t* p, size_t n) {
  return "0x" + floe::Hex(std::string_view(reinterpret_cast<const char*>(p), n));
}

Status Bad(std::string_view what) { return Status::Corrupt(StrCat("deletion vector: ", what)); }

const uint8_t* Bytes(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

}  // namespace

void DeletionVector::Free::operator()(roaring_bitmap_s* bitmap) const { roaring_bitmap_free(bitmap); }

DeletionVector::DeletionVector() = default;
DeletionVector::~DeletionVector() = default;
DeletionVector::DeletionVector(DeletionVector&&) noexcept = default;
DeletionVector& DeletionVector::operator=(DeletionVector&&) noexcept = default;

DeletionVector::DeletionVector(const DeletionVector& other) {
  for (const auto& [key, bitmap] : other.bitmaps_) bitmaps_.emplace(key, Bitmap(roaring_bitmap_copy(bitmap.get())));
}

DeletionVector& DeletionVector::operator=(const DeletionVector& other) {
  if (this != &other) *this = DeletionVector(other);
  return *this;
}

roaring_bitmap_s* DeletionVector::BitmapFor(uint32_t key) {
  auto it = bitmaps_.find(key);
  if (it == bitmaps_.end()) it = bitmaps_.emplace(key, Bitmap(roaring_bitmap_create())).first;
  return it->second.get();
}

Status DeletionVector::Add(int64_t pos) {
  if (pos < 0) return Status::InvalidArgument(StrCat("deletion vector: position ", pos, " is negative"));
  const auto p = static_cast<uint64_t>(pos);
  roaring_bitmap_add(BitmapFor(static_cast<uint32_t>(p >> kKeyBits)), static_cast<uint32_t>(p & kLowMask));
  return Status::OK();
}

Status DeletionVector::AddRange(int64_t start, int64_t end) {
  if (start < 0 || end < start) {
    return Status::InvalidArgument(StrCat("deletion vector: range [", start, ", ", end, ") is invalid"));
  }
  if (start == end) return Status::OK();
  const auto first = static_cast<uint64_t>(start);
  const auto last = static_cast<uint64_t>(end) - 1;
  for (uint64_t key = first >> kKeyBits; key <= last >> kKeyBits; ++key) {
    const uint64_t low = key == first >> kKeyBits ? (first & kLowMask) : 0;
    const uint64_t high = key == last >> kKeyBits ? (last & kLowMask) : kLowMask;  // inclusive
    roaring_bitmap_add_range(BitmapFor(static_cast<uint32_t>(key)), low, high + 1);
  }
  return Status::OK();
}

void DeletionVector::Merge(const DeletionVector& other) {
  for (const auto& [key, bitmap] : other.bitmaps_) roaring_bitmap_or_inplace(BitmapFor(key), bitmap.get());
}

bool DeletionVector::Contains(int64_t pos) const {
  if (pos < 0) return false;
  const auto p = static_cast<uint64_t>(pos);
  const auto it = bitmaps_.find(static_cast<uint32_t>(p >> kKeyBits));
  return it != bitmaps_.end() && roaring_bitmap_contains(it->second.get(), static_cast<uint32_t>(p & kLowMask));
}

int64_t DeletionVector::cardinality() const {
  uint64_t total = 0;
  for (const auto& [key, bitmap] : bitmaps_) total += roaring_bitmap_get_cardinality(bitmap.get());
  return static_cast<int64_t>(total);
}

std::vector<int64_t> DeletionVector::Positions() const {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(cardinality()));
  std::vector<uint32_t> low;
  for (const auto& [key, bitmap] : bitmaps_) {
    low.resize(roaring_bitmap_get_cardinality(bitmap.get()));
    if (low.empty()) continue;
    roaring_bitmap_to_uint32_array(bitmap.get(), low.data());
    const uint64_t high = uint64_t{key} << kKeyBits;
    for (uint32_t v : low) out.push_back(static_cast<int64_t>(high | v));
  }
  return out;
}

std::vector<int64_t> DeletionVector::PositionsInRange(int64_t start, int64_t end) const {
  std::vector<int64_t> out;
  if (start < 0) start = 0;
  if (end <= start) return out;
  const auto first = static_cast<uint64_t>(start);
  const auto last = static_cast<uint64_t>(end) - 1;
  for (auto it = bitmaps_.lower_bound(static_cast<uint32_t>(first >> kKeyBits));
       it != bitmaps_.end() && it->first <= last >> kKeyBits; ++it) {
    const uint64_t high = uint64_t{it->first} << kKeyBits;
    roaring_uint32_iterator_t iter;
    roaring_init_iterator(it->second.get(), &iter);
    if (high < first) roaring_move_uint32_iterator_equalorlarger(&iter, static_cast<uint32_t>(first & kLowMask));
    while (iter.has_value && (high | iter.current_value) <= last) {
      out.push_back(static_cast<int64_t>(high | iter.current_value));
      roaring_advance_uint32_iterator(&iter);
    }
  }
  return out;
}

bool DeletionVector::operator==(const DeletionVector& other) const {
  if (bitmaps_.size() != other.bitmaps_.size()) return false;
  for (auto a = bitmaps_.begin(), b = other.bitmaps_.begin(); a != bitmaps_.end(); ++a, ++b) {
    if (a->first != b->first || !roaring_bitmap_equals(a->second.get(), b->second.get())) return false;
  }
  return true;
}

std::string DeletionVector::SerializeBitmap() const {
  // RoaringFormatSpec, 64-bit extension: u64 bitmap count, then per bitmap a
  // u32 key and the portable 32-bit bitmap. Keys iterate ascending.
  std::string out;
  AppendLittleEndian(&out, bitmaps_.size(), 8);
  for (const auto& [key, bitmap] : bitmaps_) {
    Bitmap optimized(roaring_bitmap_copy(bitmap.get()));
    roaring_bitmap_run_optimize(optimized.get());
    AppendLittleEndian(&out, key, 4);
    const size_t at = out.size();
    out.resize(at + roaring_bitmap_portable_size_in_bytes(optimized.get()));
    const size_t written = roaring_bitmap_portable_serialize(optimized.get(), out.data() + at);
    FLOE_CHECK(at + written == out.size(), "CRoaring wrote ", written, " bytes, announced ", out.size() - at);
  }
  return out;
}

std::string DeletionVector::Serialize() const {
  const std::string bitmap = SerializeBitmap();
  // The length field has 4 bytes; 4 GiB of bitmap would take ~2^39 positions.
  FLOE_CHECK(bitmap.size() + 4 <= std::numeric_limits<uint32_t>::max(), "deletion vector of ", bitmap.size(),
             " bytes is too large for a deletion-vector-v1 blob");
  std::string out;
  out.reserve(bitmap.size() + kFramingBytes);
  AppendBigEndian32(&out, static_cast<uint32_t>(bitmap.size() + sizeof kMagic));
  out.append(reinterpret_cast<const char*>(kMagic), sizeof kMagic);
  out += bitmap;
  AppendBigEndian32(&out, Crc32(0, std::span<const uint8_t>(Bytes(out) + 4, out.size() - 4)));
  return out;
}

Result<DeletionVector> DeletionVector::Deserialize(std::string_view blob) {
  if (blob.size() < kFramingBytes) {
    return Bad(StrCat("blob of ", blob.size(), " bytes is shorter than its ", kFramingBytes, "-byte framing"));
  }
  const uint8_t* data = Bytes(blob);
  // spec: "Combined length of the vector and magic bytes stored as 4 bytes,
  // big-endian".
  const uint32_t length = LoadBigEndian32(data);
  if (length != blob.size() - 8) {
    return Bad(StrCat("length field says ", length, " bytes of magic and bitmap, the blob holds ", blob.size() - 8));
  }
  if (std::memcmp(data + 4, kMagic, sizeof kMagic) != 0) {
    return Bad(StrCat("bad magic ", Hex(data + 4, 4), " (expected 0xd1d33964)"));
  }
  // spec: "A CRC-32 checksum of the magic bytes and serialized vector as 4
  // bytes, big-endian".
  const uint32_t stored = LoadBigEndian32(data + blob.size() - 4);
  const uint32_t computed = Crc32(0, std::span<const uint8_t>(data + 4, length));
  if (stored != computed) return Bad(StrCat("CRC-32 mismatch: stored ", stored, ", computed ", computed));
  return DeserializeBitmap(blob.substr(8, length - 4));
}

Result<DeletionVector> DeletionVector::DeserializeBitmap(std::string_view bytes) {
  const uint8_t* data = Bytes(bytes);
  const size_t size = bytes.size();
  if (size < 8) return Bad(StrCat("bitmap of ", size, " bytes is shorter than its 8-byte bitmap count"));
  const uint64_t count = uint64_t{LoadLittleEndian32(data)} | (uint64_t{LoadLittleEndian32(data + 4)} << 32);
  // Each 32-bit bitmap takes at least its key and an 8-byte empty bitmap.
  if (count > (size - 8) / 12) {
    return Bad(StrCat("bitmap count ", count, " does not fit in the ", size - 8, " bytes that follow"));
  }
  DeletionVector dv;
  size_t pos = 8;
  int64_t previous_key = -1;
  for (uint64_t i = 0; i < count; ++i) {
    if (size - pos < 4) return Bad(StrCat("bitmap ", i, ": key cut at byte ", pos));
    const uint32_t key = LoadLittleEndian32(data + pos);
    pos += 4;
    // spec: "ordered by unsigned comparison of the 32-bit keys".
    if (static_cast<int64_t>(key) <= previous_key) {
      return Bad(StrCat("bitmap ", i, ": key ", key, " is not above the previous key ", previous_key));
    }
    previous_key = key;
    // spec: "supports positive 64-bit positions (the most significant bit
    // must be 0)".
    if (key > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
      return Bad(StrCat("bitmap ", i, ": key ", key, " would make positions negative"));
    }
    Result<internal::PortableBitmapInfo> info =
        internal::CheckPortableBitmap(std::span<const uint8_t>(data + pos, size - pos));
    if (!info.ok()) return info.status().WithContext(StrCat("deletion vector: bitmap ", i, " (key ", key, ")"));
    Bitmap bitmap(
        roaring_bitmap_portable_deserialize_safe(reinterpret_cast<const char*>(data + pos), info->size_bytes));
    if (bitmap == nullptr || roaring_bitmap_get_cardinality(bitmap.get()) != info->cardinality) {
      return Bad(StrCat("bitmap ", i, " (key ", key, "): CRoaring cannot read it"));
    }
    pos += info->size_bytes;
    // Java keeps (and writes) empty bitmaps for the keys below its largest.
    if (info->cardinality > 0) dv.bitmaps_.emplace(key, std::move(bitmap));
  }
  if (pos != size) return Bad(StrCat(size - pos, " bytes follow the last bitmap"));
  return dv;
}

Result<DeletionVector> ReadDeletionVector(FileIO& io, const DataFile& dv) {
  if (!dv.is_deletion_vector()) {
    return Status::InvalidArgument(StrCat("delete file ", Quote(dv.file_path), " is not a deletion vector (content ",
                                          static_cast<int32_t>(dv.content), ", format ", dv.file_format, ")"));
  }
  const std::string where = StrCat("deletion vector in ", Quote(dv.file_path));
  if (!dv.content_offset.has_value() || !dv.content_size_in_bytes.has_value()) {
    return Status::Corrupt(StrCat(where, ": content_offset or content_size_in_bytes is missing"));
  }
  const int64_t offset = *dv.content_offset;
  const int64_t size = *dv.content_size_in_bytes;
  if (offset < 0 || size < static_cast<int64_t>(kFramingBytes)) {
    return Status::Corrupt(
        StrCat(where, ": content_offset ", offset, " and content_size_in_bytes ", size, " describe no blob"));
  }
  if (size > kMaxBlobBytes) {
    return Status::Unsupported(
        StrCat(where, ": blob of ", FormatBytes(size), " is above the limit of ", FormatBytes(kMaxBlobBytes)));
  }
  OpenReadOptions open;
  if (dv.file_size_in_bytes > 0) open.size = dv.file_size_in_bytes;
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, io.OpenRead(dv.file_path, open));
  if (offset > file->size() || size > file->size() - offset) {
    return Status::Corrupt(StrCat(where, ": blob [", offset, ", ", offset + size, ") runs past the end of the ",
                                  file->size(), "-byte file"));
  }
  FLOE_ASSIGN_OR_RETURN(Buffer blob, file->Read(offset, size));
  Result<DeletionVector> vector = DeletionVector::Deserialize(blob.view());
  if (!vector.ok()) return vector.status().WithContext(StrCat(where, " at offset ", offset));
  // spec: a DV's record_count is its cardinality.
  if (vector->cardinality() != dv.record_count) {
    return Status::Corrupt(StrCat(where, " at offset ", offset, ": holds ", vector->cardinality(),
                                  " positions, record_count says ", dv.record_count));
  }
  return std::move(*vector);
}

Result<std::vector<DataFile>> WriteDeletionVectorFile(FileIO& io, const std::string& location,
                                                      std::span<const DeletionVectorToWrite> dvs,
                                                      puffin::PuffinWriterOptions options) {
  if (dvs.empty()) return Status::InvalidArgument(StrCat("deletion vector file ", Quote(location), ": no vectors"));
  std::set<std::string_view> seen;
  for (const DeletionVectorToWrite& dv : dvs) {
    if (dv.referenced_data_file.empty()) {
      return Status::InvalidArgument(StrCat("deletion vector file ", Quote(location), ": a vector names no data file"));
    }
    if (!seen.insert(dv.referenced_data_file).second) {
      return Status::InvalidArgument(StrCat("deletion vector file ", Quote(location), ": two vectors for ",
                                            Quote(dv.referenced_data_file), " (at most one per data file)"));
    }
    if (dv.positions.empty()) {
      return Status::InvalidArgument(StrCat("deletion vector file ", Quote(location), ": the vector for ",
                                            Quote(dv.referenced_data_file), " deletes no rows"));
    }
  }
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<puffin::PuffinWriter> writer,
                        puffin::PuffinWriter::Open(io, location, std::move(options)));
  std::vector<DataFile> out;
  out.reserve(dvs.size());
  for (const DeletionVectorToWrite& dv : dvs) {
    const int64_t cardinality = dv.positions.cardinality();
    puffin::BlobMetadata blob;
    blob.type = std::string(puffin::kDeletionVectorV1);
    blob.fields = {kRowPositionFieldId};
    // spec (Puffin): "snapshot-id and sequence-number must be set to -1";
    // "Omit compression-codec".
    blob.snapshot_id = -1;
    blob.sequence_number = -1;
    blob.properties[std::string(kReferencedDataFile)] = dv.referenced_data_file;
    blob.properties[std::string(kCardinality)] = StrCat(cardinality);
    FLOE_ASSIGN_OR_RETURN(puffin::BlobMetadata written, writer->AddBlob(std::move(blob), dv.positions.Serialize()));
    DataFile file;
    file.content = DataFileContent::kPositionDeletes;
    file.file_path = location;
    file.file_format = std::string(kFileFormatPuffin);
    file.spec_id = dv.spec_id;
    file.partition = dv.partition;
    file.record_count = cardinality;
    file.referenced_data_file = dv.referenced_data_file;
    file.content_offset = written.offset;
    file.content_size_in_bytes = written.length;
    out.push_back(std::move(file));
  }
  FLOE_ASSIGN_OR_RETURN(const int64_t size, writer->Finish());
  for (DataFile& file : out) file.file_size_in_bytes = size;
  return out;
}

}  // namespace floe::iceberg
