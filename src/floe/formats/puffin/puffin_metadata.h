// Puffin files (spec: apache/iceberg format/puffin-spec.md): the footer's
// FileMetadata and BlobMetadata, the format's constants and its codecs.
//
//   Magic Blob1 Blob2 ... BlobN Footer
//   Footer = Magic FooterPayload FooterPayloadSize Flags Magic
//
// Reading is in puffin_reader.h, writing in puffin_writer.h.
//
// Thread safety: plain values and pure functions.

#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/compression/codec.h"

namespace floe::puffin {

// spec: "four bytes 0x50, 0x46, 0x41, 0x31 (short for: Puffin Fratercula
// arctica, version 1)", at the start of the file and twice in the footer.
inline constexpr std::string_view kMagic = "PFA1";
inline constexpr int64_t kMagicBytes = 4;
// The footer's fixed part around its payload: Magic before it, then
// FooterPayloadSize (4), Flags (4) and Magic after it.
inline constexpr int64_t kFooterFixedBytes = 16;
// The smallest well-formed file: leading magic and an empty footer.
inline constexpr int64_t kMinFileBytes = kMagicBytes + kFooterFixedBytes;
// spec: Flags "byte 0 (first) bit 0 (lowest bit): whether FooterPayload is
// compressed"; every other bit is reserved.
inline constexpr uint32_t kFlagFooterCompressed = 1;

// spec: "Blob types".
inline constexpr std::string_view kDeletionVectorV1 = "deletion-vector-v1";
inline constexpr std::string_view kApacheDatasketchesThetaV1 = "apache-datasketches-theta-v1";
// spec: "Common properties".
inline constexpr std::string_view kCreatedBy = "created-by";

// spec: "Compression codecs": none, or a single frame with its content size.
enum class PuffinCodec : uint8_t { kNone, kLz4, kZstd };

// The compression-codec value written for `codec`: "lz4", "zstd"; "" for
// kNone, whose blobs omit the field.
std::string_view PuffinCodecName(PuffinCodec codec);
// The codec a compression-codec value names ("" or absent is kNone;
// "lz4" and "zstd" in any case). Unsupported for any other name: the spec
// allows no others "for maximal interoperability".
Result<PuffinCodec> PuffinCodecFromName(std::string_view name);
// The block codec that decodes `codec` (kLz4Frame, kZstd, kUncompressed).
compression::Codec ToCompressionCodec(PuffinCodec codec);

// spec: "BlobMetadata".
struct BlobMetadata {
  std::string type;
  // Field ids the blob was computed for, in the order the blob uses them.
  std::vector<int32_t> fields;
  int64_t snapshot_id = -1;
  int64_t sequence_number = -1;
  // Where the stored (possibly compressed) bytes are in the file.
  int64_t offset = 0;
  int64_t length = 0;
  // As written; empty when the field is omitted (uncompressed).
  std::string compression_codec;
  std::map<std::string, std::string> properties;

  bool operator==(const BlobMetadata&) const = default;
};

// spec: "FileMetadata".
struct FileMetadata {
  std::vector<BlobMetadata> blobs;
  std::map<std::string, std::string> properties;

  bool operator==(const FileMetadata&) const = default;
};

// The footer payload's JSON for `metadata` (compact; fields in the spec's
// order; compression-codec and empty properties omitted).
std::string FileMetadataToJson(const FileMetadata& metadata);

// Parses a footer payload. Corrupt when it is not JSON, or a field is
// missing or of the wrong type, naming the field: "field
// 'blobs[1].offset' is \"4\", expected an integer". Unknown fields are
// ignored. Blob offsets are not checked against a file here (see
// PuffinReader).
Result<FileMetadata> ParseFileMetadata(std::string_view json);

}  // namespace floe::puffin
