// Deletion vectors (spec: "Deletion Vectors"; Puffin spec:
// "deletion-vector-v1 blob type"): the set of deleted row positions of one
// data file, and its blob in a Puffin file.
//
// Positions are non-negative int64 ("the most significant bit must be 0").
// A position splits into a 32-bit key (high half) and a sub-position (low
// half); each key has a 32-bit CRoaring bitmap. The blob is
//
//   u32 BE  length of magic + bitmap
//   4 bytes magic D1 D3 39 64
//   bitmap  u64 LE number of 32-bit bitmaps, then per bitmap, keys
//           ascending: u32 LE key, a portable 32-bit Roaring bitmap
//   u32 BE  CRC-32 of magic + bitmap
//
// Debian 12's CRoaring (0.2.66) predates the 64-bit portable format, so the
// 64-bit layer is floe's own (docs/decisions/0022-puffin-and-deletion-vectors.md).
//
// Thread safety: const methods may run concurrently; mutation needs
// exclusive access.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/puffin/puffin_writer.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/io/file_io.h"

struct roaring_bitmap_s;  // CRoaring's roaring_bitmap_t

namespace floe::iceberg {

class DeletionVector {
 public:
  // The magic bytes before the bitmap.
  static constexpr uint8_t kMagic[4] = {0xD1, 0xD3, 0x39, 0x64};

  DeletionVector();
  ~DeletionVector();
  DeletionVector(DeletionVector&&) noexcept;
  DeletionVector& operator=(DeletionVector&&) noexcept;
  // Deep copies.
  DeletionVector(const DeletionVector& other);
  DeletionVector& operator=(const DeletionVector& other);

  // Marks row `pos` deleted. InvalidArgument for a negative position.
  Status Add(int64_t pos);
  // Marks rows [start, end) deleted. InvalidArgument when start < 0 or
  // end < start.
  Status AddRange(int64_t start, int64_t end);
  // Adds every position of `other`.
  void Merge(const DeletionVector& other);

  // Whether row `pos` is deleted (false for negative positions).
  bool Contains(int64_t pos) const;
  int64_t cardinality() const;
  bool empty() const { return cardinality() == 0; }
  // Every position, ascending (8 bytes per position: for small vectors and
  // tests; scans use Contains or PositionsInRange).
  std::vector<int64_t> Positions() const;
  // The positions in [start, end), ascending.
  std::vector<int64_t> PositionsInRange(int64_t start, int64_t end) const;

  // The deletion-vector-v1 blob, run containers chosen where smaller (as
  // Java's writer does, so equal sets serialize to equal bytes).
  std::string Serialize() const;
  // Reads a deletion-vector-v1 blob. Corrupt, naming the problem, for a
  // length field that is not the blob's size, bad magic, a CRC mismatch, a
  // malformed bitmap (see roaring_portable.h), keys not ascending, a key
  // with the sign bit set, or trailing bytes.
  static Result<DeletionVector> Deserialize(std::string_view blob);

  // The bitmap alone: the portable 64-bit Roaring format (RoaringFormatSpec,
  // "Extension for 64-bit implementations"). Errors as Deserialize.
  std::string SerializeBitmap() const;
  static Result<DeletionVector> DeserializeBitmap(std::string_view bytes);

  bool operator==(const DeletionVector& other) const;

 private:
  struct Free {
    void operator()(roaring_bitmap_s* bitmap) const;
  };
  using Bitmap = std::unique_ptr<roaring_bitmap_s, Free>;
  // The bitmap for `key`, created when missing.
  roaring_bitmap_s* BitmapFor(uint32_t key);

  // Non-empty 32-bit bitmaps by key (keys < 2^31).
  std::map<uint32_t, Bitmap> bitmaps_;
};

// Reads the deletion vector `dv` describes (a DataFile with
// is_deletion_vector()): one ranged read of [content_offset,
// content_offset + content_size_in_bytes) of dv.file_path, no footer
// (spec: DVs are "tracked individually by file location, offset, and
// length"). InvalidArgument when `dv` is not a deletion vector; Corrupt when
// the offset or size is missing or outside the file, the blob is malformed,
// or its cardinality is not dv.record_count; NotFound / IOError from
// storage. Messages name the Puffin file and the offset.
Result<DeletionVector> ReadDeletionVector(FileIO& io, const DataFile& dv);

// One deletion vector to write, for the data file it applies to.
struct DeletionVectorToWrite {
  // The data file's file_path (spec: referenced_data_file).
  std::string referenced_data_file;
  // The data file's partition spec and tuple: a DV lives in its data file's
  // partition.
  int32_t spec_id = 0;
  PartitionValues partition;
  DeletionVector positions;
};

// Writes `dvs` as deletion-vector-v1 blobs of one new Puffin file at
// `location` and returns one delete-file entry per DV, in input order:
// content position deletes, format PUFFIN, referenced_data_file,
// content_offset / content_size_in_bytes of its blob, record_count = its
// cardinality, file_size_in_bytes of the Puffin file. InvalidArgument for no
// DVs, an empty DV, an empty or repeated referenced_data_file (spec: "at
// most one deletion vector is allowed per data file in a snapshot");
// errors from PuffinWriter otherwise, in which case nothing is published.
Result<std::vector<DataFile>> WriteDeletionVectorFile(FileIO& io, const std::string& location,
                                                      std::span<const DeletionVectorToWrite> dvs,
                                                      puffin::PuffinWriterOptions options = {});

}  // namespace floe::iceberg
