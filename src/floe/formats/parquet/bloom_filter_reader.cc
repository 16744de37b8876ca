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
                                                                      const ModuleDecryptor& decryptor,
                                                                      int64_t offset, Buffer bytes,
                                                                      const std::string& where) {
  // The bytes from `at` through the module there (its length prefix first).
  auto module_at = [&](int64_t at) -> Result<Buffer> {
    if (at + 4 > bytes.size()) {
      if (offset + at + 4 > file.file_size()) return Status::Corrupt(StrCat(where, " runs past the file"));
      FLOE_ASSIGN_OR_RETURN(bytes, file.file().Read(offset, at + 4));
    }
    const uint8_t* p = bytes.data() + at;
    const int64_t length = int64_t{p[0]} | int64_t{p[1]} << 8 | int64_t{p[2]} << 16 | int64_t{p[3]} << 24;
    if (offset + at + 4 + length > file.file_size()) {
      return Status::Corrupt(StrCat(where, ": an encrypted module of ", length, " bytes runs past the file"));
    }
    if (at + 4 + length > bytes.size()) {
      FLOE_ASSIGN_OR_RETURN(bytes, file.file().Read(offset, at + 4 + length));
    }
    return bytes.Slice(at, 4 + length);
  };
  FLOE_ASSIGN_OR_RETURN(const Buffer header_module, module_at(0));
  auto header_bytes = decryptor.Decrypt(ModuleType::kBloomFilterHeader, header_module.span());
  if (!header_bytes.ok()) return header_bytes.status().WithContext(StrCat(where, " header"));
  auto header = DecodeBloomFilterHeader(header_bytes->span());
  if (!header.ok()) return header.status().WithContext(where);
  if (header->algorithm != BloomFilterAlgorithm::BLOCK || header->hash != BloomFilterHash::XXHASH ||
      header->compression != BloomFilterCompression::UNCOMPRESSED) {
    return Status::Corrupt(StrCat(where, ": not a split-block, XXH64, uncompressed filter"));
  }
  FLOE_ASSIGN_OR_RETURN(const Buffer bitset_module, module_at(header_module.size()));
  auto bitset = decryptor.Decrypt(ModuleType::kBloomFilterBitset, bitset_module.span());
  if (!bitset.ok()) return bitset.status().WithContext(StrCat(where, " bitset"));
  if (bitset->size() != header->numBytes) {
    return Status::Corrupt(StrCat(where, ": the bitset holds ", bitset->size(), " bytes, the header says ",
                                  header->numBytes));
  }
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
  const std::string where = StrCat("parquet file ", Quote(file.path()), ": column ",
                                   Quote(file.schema().column(column).dotted_path()), " in row group ", row_group,
                                   ": bloom filter");
  const int64_t offset = *meta->bloom_filter_offset;
  if (offset < 0 || offset >= file.file_size()) {
    return Status::Corrupt(StrCat(where, " at byte ", offset, " lies outside the ", file.file_size(), "-byte file"));
  }
  // Without a recorded length, guess a header plus a small filter.
  constexpr int64_t kGuess = 4096;
  const int64_t first = meta->bloom_filter_length ? *meta->bloom_filter_length : kGuess;
  const int64_t length = std::min(first, file.file_size() - offset);
  if (length <= 0) return Status::Corrupt(StrCat(where, " has length ", length));
  FLOE_ASSIGN_OR_RETURN(Buffer bytes, file.file().Read(offset, length));
  FLOE_ASSIGN_OR_RETURN(const std::optional<ModuleDecryptor> decryptor, file.ColumnDecryptor(row_group, column));
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
