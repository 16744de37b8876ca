#include "floe/formats/parquet/bloom_filter_reader.h"

#include <algorithm>

#include "floe/base/strings.h"
#include "floe/formats/parquet/metadata_codec.h"

namespace floe::parquet {
namespace {

// spec (Encryption.md): an encrypted filter is two modules, the header and
// then the bitset. `bytes` holds the file from `offset` on, perhaps not all
// of the filter.
Result<std::optional<SplitBlockBloomFilter>> ReadEncryptedBloomFilter(const ParquetFileReader& file,
                                                                      const ModuleDecryptor& decryptor, int64_t offset,
                                                                      Buffer bytes, const std::string& where) {
  constexpr int64_t kLengthBytes = 4;
  constexpr int64_t kGcmOverhead = 12 + 16;  // nonce and tag
  // Makes `bytes` reach `end` (relative to offset), within the file.
  auto reach = [&](int64_t end) -> Status {
    if (end <= bytes.size()) return Status::OK();
    if (end > file.file_size() - offset) return Status::Corrupt(StrCat(where, " runs past the file"));
    FLOE_ASSIGN_OR_RETURN(bytes, file.file().Read(offset, end));
    return Status::OK();
  };
  FLOE_RETURN_IF_ERROR(reach(kLengthBytes));
  auto header_extent = EncryptedModuleExtent(bytes.span());
  if (!header_extent.ok()) return header_extent.status().WithContext(where);
  FLOE_RETURN_IF_ERROR(reach(*header_extent));
  auto header_bytes = decryptor.Decrypt(ModuleType::kBloomFilterHeader, bytes.span());
  if (!header_bytes.ok()) return header_bytes.status().WithContext(StrCat(where, " header"));
  auto header = DecodeBloomFilterHeader(header_bytes->span());
  if (!header.ok()) return header.status().WithContext(where);
  if (header->algorithm != BloomFilterAlgorithm::BLOCK || header->hash != BloomFilterHash::XXHASH ||
      header->compression != BloomFilterCompression::UNCOMPRESSED) {
    return Status::Corrupt(StrCat(where, ": not a split-block, XXH64, uncompressed filter"));
  }
  if (header->numBytes <= 0) return Status::Corrupt(StrCat(where, " has numBytes ", header->numBytes));
  // The bitset module's size follows from the header, checked before it is read.
  const int64_t at = *header_extent;
  const int64_t bitset_size = kLengthBytes + kGcmOverhead + header->numBytes;
  FLOE_RETURN_IF_ERROR(reach(at + bitset_size));
  const std::span<const uint8_t> bitset_module = bytes.span().subspan(static_cast<size_t>(at));
  auto stored = EncryptedModuleSize(bitset_module);
  if (!stored.ok() || static_cast<int64_t>(*stored) != bitset_size) {
    return Status::Corrupt(
        StrCat(where, ": the bitset module does not hold the header's ", header->numBytes, " bytes"));
  }
  auto bitset = decryptor.Decrypt(ModuleType::kBloomFilterBitset, bitset_module);
  if (!bitset.ok()) return bitset.status().WithContext(StrCat(where, " bitset"));
  auto filter = SplitBlockBloomFilter::FromBytes(bitset->span());
  if (!filter.ok()) return filter.status().WithContext(where);
  return std::optional<SplitBlockBloomFilter>(std::move(*filter));
}

}  // namespace

Result<std::optional<SplitBlockBloomFilter>> ReadBloomFilter(const ParquetFileReader& file, int row_group,
                                                              int column) {
  if (row_group < 0 || row_group >= file.num_row_groups() || column < 0 || column >= file.schema().num_columns()) {
    return Status::InvalidArgument(StrCat("parquet file ", Quote(file.path()), " has no column ", column,
                                          " in row group ", row_group));
  }
  FLOE_ASSIGN_OR_RETURN(const ColumnMetaData* meta, file.ColumnChunkMeta(row_group, column));
  if (!meta->bloom_filter_offset) return std::optional<SplitBlockBloomFilter>();
  const std::string where = StrCat(file.ColumnChunkContext(row_group, column), ": bloom filter");
  const int64_t offset = *meta->bloom_filter_offset;
  if (offset < 0 || offset >= file.file_size()) {
    return Status::Corrupt(StrCat(where, " at byte ", offset, " lies outside the ", file.file_size(), "-byte file"));
  }
  // Without a recorded length, guess a header plus a small filter.
  constexpr int64_t kGuess = 4096;
  const int64_t first = meta->bloom_filter_length ? *meta->bloom_filter_length : kGuess;
  const int64_t length = std::min(first, file.file_size() - offset);
  if (length <= 0) return Status::Corrupt(StrCat(where, " has length ", length));
  FLOE_ASSIGN_OR_RETURN(const std::optional<ModuleDecryptor> decryptor, file.ColumnDecryptor(row_group, column));
  FLOE_ASSIGN_OR_RETURN(Buffer bytes, file.file().Read(offset, length));
  if (decryptor) return ReadEncryptedBloomFilter(file, *decryptor, offset, std::move(bytes), where);
  size_t header_size = 0;
  auto header = DecodeBloomFilterHeader(bytes.span(), &header_size);
  if (!header.ok()) return header.status().WithContext(where);
  if (header->algorithm != BloomFilterAlgorithm::BLOCK || header->hash != BloomFilterHash::XXHASH ||
      header->compression != BloomFilterCompression::UNCOMPRESSED) {
    return Status::Corrupt(StrCat(where, ": not a split-block, XXH64, uncompressed filter"));
  }
  const int64_t end = static_cast<int64_t>(header_size) + header->numBytes;
  if (header->numBytes <= 0 || offset + end > file.file_size()) {
    return Status::Corrupt(StrCat(where, ": ", header->numBytes, " bytes run past the file"));
  }
  if (end > bytes.size()) {
    FLOE_ASSIGN_OR_RETURN(bytes, file.file().Read(offset, end));
  }
  auto filter = SplitBlockBloomFilter::FromBytes(bytes.span().subspan(header_size, static_cast<size_t>(header->numBytes)));
  if (!filter.ok()) return filter.status().WithContext(where);
  return std::optional<SplitBlockBloomFilter>(std::move(*filter));
}

}  // namespace floe::parquet
