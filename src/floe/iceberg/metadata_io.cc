#include "floe/iceberg/metadata_io.h"

#include <span>

#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/formats/compression/codec.h"
#include "floe/iceberg/table_metadata_json.h"

namespace floe::iceberg {
namespace {

bool IsGzip(std::span<const uint8_t> bytes) { return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b; }

// RFC 1952 section 2.3.1: a member ends with ISIZE, the input size modulo
// 2^32, little-endian. Java writes one member, so it is the exact size of
// anything below 4 GiB; a file it does not describe fails to decompress
// with Corrupt.
Result<int64_t> GzipDecompressedSize(std::span<const uint8_t> bytes, const std::string& location) {
  constexpr size_t kMinMember = 18;  // 10-byte header, empty deflate, 8-byte trailer
  if (bytes.size() < kMinMember) {
    return Status::Corrupt(
        StrCat("table metadata ", Quote(location), ": gzip stream of ", bytes.size(), " bytes is truncated"));
  }
  const uint8_t* t = bytes.data() + bytes.size() - 4;
  return int64_t{t[0]} | (int64_t{t[1]} << 8) | (int64_t{t[2]} << 16) | (int64_t{t[3]} << 24);
}

}  // namespace

MetadataCompression MetadataCompressionForLocation(std::string_view location) {
  if (EndsWith(location, ".gz.metadata.json") || EndsWith(location, ".metadata.json.gz")) {
    return MetadataCompression::kGzip;
  }
  return MetadataCompression::kNone;
}

Result<TableMetadata> ReadTableMetadata(FileIO& io, const std::string& location) {
  FLOE_ASSIGN_OR_RETURN(Buffer raw, io.ReadAll(location));
  std::span<const uint8_t> bytes(raw.data(), static_cast<size_t>(raw.size()));
  if (!IsGzip(bytes)) {
    if (raw.size() > kMaxMetadataFileBytes) {
      return Status::Unsupported(StrCat("table metadata ", Quote(location), ": ", raw.size(),
                                        " bytes is above the limit of ", kMaxMetadataFileBytes));
    }
    return TableMetadataFromJson(
        std::string_view(reinterpret_cast<const char*>(raw.data()), static_cast<size_t>(raw.size())), location);
  }
  FLOE_ASSIGN_OR_RETURN(int64_t size, GzipDecompressedSize(bytes, location));
  auto json = compression::DecompressToBuffer(compression::Codec::kGzip, bytes, size, kMaxMetadataFileBytes);
  if (!json.ok()) return json.status().WithContext(StrCat("table metadata ", Quote(location)));
  return TableMetadataFromJson(
      std::string_view(reinterpret_cast<const char*>(json->data()), static_cast<size_t>(json->size())), location);
}

Status WriteTableMetadata(FileIO& io, const std::string& location, const TableMetadata& metadata,
                          const WriteMetadataOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::string json, TableMetadataToJson(metadata, {.pretty = options.pretty}));
  WriteOptions write_options;
  write_options.if_absent = options.if_absent;
  write_options.durable = options.durable;
  if (MetadataCompressionForLocation(location) == MetadataCompression::kNone) {
    return io.WriteAll(location, json, write_options);
  }
  FLOE_ASSIGN_OR_RETURN(Buffer gz, compression::Compress(compression::Codec::kGzip, AsBytes(json)));
  return io.WriteAll(location, std::span<const uint8_t>(gz.data(), static_cast<size_t>(gz.size())), write_options);
}

}  // namespace floe::iceberg
