#include "floe/formats/parquet/file_reader.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <tuple>

#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/metadata_codec.h"

namespace floe::parquet {
namespace {

constexpr int64_t kMagicSize = 4;
constexpr int64_t kTailSize = 8;  // footer length (4, little-endian) + magic
constexpr char kMagic[] = "PAR1";
constexpr char kEncryptedMagic[] = "PARE";

uint32_t LoadLE32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

}  // namespace

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::Open(std::shared_ptr<FileIO> io,
                                                                   const std::string& path, ReaderOptions options,
                                                                   OpenReadOptions open_options) {
  std::unique_ptr<ParquetFileReader> reader(new ParquetFileReader());
  reader->io_ = std::move(io);
  reader->options_ = std::move(options);
  FLOE_ASSIGN_OR_RETURN(reader->file_, reader->io_->OpenRead(path, open_options));
  FLOE_RETURN_IF_ERROR(reader->Init(path, reader->options_.footer_read_size));
  return reader;
}

namespace {

// Whether `created_by` names parquet-mr before 1.2.9, which left a chunk's
// dictionary page header out of its total_compressed_size (PARQUET-816,
// IMPALA-694): "parquet-mr version 1.2.8 (build ...)", or "parquet-mr"
// alone, as the earliest wrote it.
bool WrittenByParquetMrBefore129(std::string_view created_by) {
  constexpr std::string_view kName = "parquet-mr";
  constexpr std::string_view kVersion = " version ";
  if (!created_by.starts_with(kName)) return false;
  std::string_view rest = created_by.substr(kName.size());
  if (rest.empty()) return true;
  if (!rest.starts_with(kVersion)) return false;
  rest.remove_prefix(kVersion.size());
  int parts[3] = {0, 0, 0};
  for (int& part : parts) {
    size_t digits = 0;
    while (digits < rest.size() && digits < 6 && rest[digits] >= '0' && rest[digits] <= '9') {
      part = part * 10 + (rest[digits] - '0');
      ++digits;
    }
    if (digits == 0) break;
    rest.remove_prefix(digits);
    if (!rest.starts_with('.')) break;
    rest.remove_prefix(1);
  }
  return std::make_tuple(parts[0], parts[1], parts[2]) < std::make_tuple(1, 2, 9);
}

bool HasDictionaryPage(const ColumnMetaData& meta) {
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0) return true;
  return std::any_of(meta.encodings.begin(), meta.encodings.end(),
                     [](Encoding e) { return e == Encoding::PLAIN_DICTIONARY || e == Encoding::RLE_DICTIONARY; });
}

}  // namespace

Status ParquetFileReader::Init(const std::string& path, int64_t footer_guess) {
  const int64_t size = file_->size();
  const std::string name = StrCat("parquet file ", Quote(path));
  if (size < kMagicSize + kTailSize) {
    return Status::Corrupt(StrCat(name, " is ", size, " bytes, too small to be Parquet (at least 12)"));
  }
  if (options_.footer_cache) metadata_ = options_.footer_cache->Get(path, size);
  if (!metadata_) {
    const int64_t tail_len = std::clamp<int64_t>(footer_guess, kTailSize, size);
    FLOE_ASSIGN_OR_RETURN(Buffer tail, file_->Read(size - tail_len, tail_len));
    tail_ = tail;
    tail_offset_ = size - tail_len;
    const uint8_t* end = tail.data() + tail_len;
    const bool encrypted_footer = std::memcmp(end - kMagicSize, kEncryptedMagic, kMagicSize) == 0;
    if (!encrypted_footer && std::memcmp(end - kMagicSize, kMagic, kMagicSize) != 0) {
      return Status::Corrupt(StrCat(name, " does not end with the magic PAR1: not a Parquet file, or truncated"));
    }
    const int64_t footer_len = LoadLE32(end - kTailSize);
    if (footer_len > size - kMagicSize - kTailSize) {
      return Status::Corrupt(
          StrCat(name, ": footer length ", footer_len, " exceeds the file (", size, " bytes)"));
    }
    if (footer_len > options_.max_footer_size) {
      return Status::Corrupt(StrCat(name, ": footer of ", footer_len, " bytes exceeds the limit of ",
                                    options_.max_footer_size));
    }
    Buffer footer;
    if (footer_len + kTailSize <= tail_len) {
      footer = tail.Slice(tail_len - kTailSize - footer_len, footer_len);
    } else {
      // The guess was short: one more request for exactly the footer.
      FLOE_ASSIGN_OR_RETURN(footer, file_->Read(size - kTailSize - footer_len, footer_len));
    }
    FileMetaData decoded_metadata;
    if (encrypted_footer) {
      FLOE_ASSIGN_OR_RETURN(decoded_metadata, DecryptFooter(footer.span(), name));
    } else {
      auto decoded = DecodeFileMetaData(footer.span());
      if (!decoded.ok()) return decoded.status().WithContext(name);
      decoded_metadata = std::move(decoded).value();
      if (decoded_metadata.encryption_algorithm && options_.decryption) {
        FLOE_ASSIGN_OR_RETURN(
            decryptor_, FileDecryptor::Make(*decoded_metadata.encryption_algorithm,
                                            decoded_metadata.footer_signing_key_metadata, *options_.decryption, name));
        if (options_.decryption->verify_footer_signature) {
          FLOE_RETURN_IF_ERROR(VerifyFooterSignature(footer.span(), name));
        }
      }
    }
    FLOE_RETURN_IF_ERROR(MakeSchema(decoded_metadata, name));
    if (decryptor_) FLOE_RETURN_IF_ERROR(DecryptColumnMetaData(&decoded_metadata, name));
    encrypted_footer_ = encrypted_footer;
    if (decoded_metadata.encryption_algorithm) encryption_algorithm_ = decoded_metadata.encryption_algorithm;
    metadata_ = std::make_shared<const FileMetaData>(std::move(decoded_metadata));
    if (options_.footer_cache && !encryption_algorithm_) options_.footer_cache->Put(path, size, metadata_);
  } else {
    FLOE_RETURN_IF_ERROR(MakeSchema(*metadata_, name));
  }
  int64_t rows = 0;
  for (size_t g = 0; g < metadata_->row_groups.size(); ++g) {
    const RowGroup& rg = metadata_->row_groups[g];
    if (rg.num_rows < 0) return Status::Corrupt(StrCat(name, ": row group ", g, " has num_rows ", rg.num_rows));
    rows += rg.num_rows;
  }
  // Some writers leave FileMetaData.num_rows at 0 (parquet-testing
  // repeated_no_annotation.parquet); the row groups are the truth.
  num_rows_ = rows;
  sizes_omit_dictionary_header_ = metadata_->created_by && WrittenByParquetMrBefore129(*metadata_->created_by);
  return Status::OK();
}

Status ParquetFileReader::MakeSchema(const FileMetaData& metadata, const std::string& name) {
  auto schema = ParquetSchema::Make(metadata.schema, metadata.column_orders);
  if (!schema.ok()) return schema.status().WithContext(name);
  schema_ = std::move(schema).value();
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    const RowGroup& rg = metadata.row_groups[g];
    if (static_cast<int>(rg.columns.size()) != schema_.num_columns()) {
      return Status::Corrupt(StrCat(name, ": row group ", g, " has ", rg.columns.size(), " column chunks, the schema ",
                                    schema_.num_columns(), " columns"));
    }
  }
  return Status::OK();
}

Result<FileMetaData> ParquetFileReader::DecryptFooter(std::span<const uint8_t> footer, const std::string& name) {
  if (!options_.decryption) {
    return Status::PermissionDenied(StrCat(name, " has an encrypted footer (magic PARE) and no key was given"));
  }
  size_t crypto_size = 0;
  auto crypto = DecodeFileCryptoMetaData(footer, &crypto_size);
  if (!crypto.ok()) return crypto.status().WithContext(StrCat(name, ": FileCryptoMetaData"));
  FLOE_ASSIGN_OR_RETURN(
      decryptor_, FileDecryptor::Make(crypto->encryption_algorithm, crypto->key_metadata, *options_.decryption, name));
  encryption_algorithm_ = crypto->encryption_algorithm;
  FLOE_ASSIGN_OR_RETURN(const ModuleDecryptor footer_decryptor, decryptor_->ForFooter());
  auto plain = footer_decryptor.Decrypt(ModuleType::kFooter, footer.subspan(crypto_size));
  if (!plain.ok()) return plain.status().WithContext(StrCat(name, ": encrypted footer"));
  auto decoded = DecodeFileMetaData(plain->span());
  if (!decoded.ok()) return decoded.status().WithContext(StrCat(name, ": decrypted footer"));
  if (!decryptor_->module_aad()) {
    // DuckDB's form encrypts every column with the footer key and marks none
    // (decision 0066): say so, as the spec's writers do.
    for (RowGroup& group : decoded->row_groups) {
      for (ColumnChunk& chunk : group.columns) {
        if (!chunk.crypto_metadata) chunk.crypto_metadata = EncryptionWithFooterKey{};
      }
    }
  }
  return decoded;
}

Status ParquetFileReader::VerifyFooterSignature(std::span<const uint8_t> footer, const std::string& name) {
  // spec 5.5: the footer, then its 28-byte signature (nonce and GCM tag).
  constexpr size_t kSignatureBytes = 28;
  if (footer.size() < kSignatureBytes) {
    return Status::Corrupt(
        StrCat(name, ": a signed footer of ", footer.size(), " bytes has no room for its signature"));
  }
  const size_t body = footer.size() - kSignatureBytes;
  FLOE_ASSIGN_OR_RETURN(const ModuleDecryptor signer, decryptor_->ForFooter());
  FLOE_ASSIGN_OR_RETURN(const bool verified, signer.VerifySignature(footer.first(body), footer.subspan(body)));
  if (!verified) {
    return Status::PermissionDenied(
        StrCat(name, ": the footer's signature does not verify (a wrong footer key, or an altered footer)"));
  }
  return Status::OK();
}

Status ParquetFileReader::DecryptColumnMetaData(FileMetaData* metadata, const std::string& name) {
  for (size_t g = 0; g < metadata->row_groups.size(); ++g) {
    RowGroup& group = metadata->row_groups[g];
    const int64_t ordinal = group.ordinal.value_or(static_cast<int64_t>(g));
    for (size_t c = 0; c < group.columns.size(); ++c) {
      ColumnChunk& chunk = group.columns[c];
      if (!chunk.crypto_metadata) continue;
      const std::string path = schema_.column(static_cast<int>(c)).dotted_path();
      const std::string where = StrCat(name, ": column ", Quote(path), " in row group ", g);
      // A chunk whose key is missing, wrong or unreachable fails when it is
      // read, not here: the file's other columns stay readable.
      auto defer = [&](Status status) { column_errors_.emplace(std::pair<int, int>(g, c), std::move(status)); };
      if (const auto* with_key = std::get_if<EncryptionWithColumnKey>(&*chunk.crypto_metadata)) {
        if (with_key->path_in_schema != schema_.column(static_cast<int>(c)).path) {
          return Status::Corrupt(
              StrCat(where, ": its crypto metadata names the column ", Quote(with_key->path_in_schema.Dotted())));
        }
        if (!chunk.encrypted_column_metadata && !chunk.meta_data) {
          return Status::Corrupt(StrCat(where, ": encrypted with a column key, but without its metadata"));
        }
      }
      if (!chunk.encrypted_column_metadata) continue;  // the footer key's columns of an encrypted footer
      auto decryptor = decryptor_->ForColumn(*chunk.crypto_metadata, path, ordinal, static_cast<int64_t>(c));
      if (!decryptor.ok()) {
        defer(decryptor.status());
        continue;
      }
      const auto& bytes = *chunk.encrypted_column_metadata;
      auto plain = decryptor->Decrypt(ModuleType::kColumnMetaData, AsBytes(bytes));
      if (!plain.ok()) {
        defer(plain.status().WithContext(StrCat(where, ": encrypted metadata")));
        continue;
      }
      auto decoded = DecodeColumnMetaData(plain->span());
      if (!decoded.ok()) return decoded.status().WithContext(StrCat(where, ": decrypted metadata"));
      chunk.meta_data = std::move(decoded).value();
    }
  }
  return Status::OK();
}

Result<std::optional<ModuleDecryptor>> ParquetFileReader::ColumnDecryptor(int row_group, int column) const {
  if (row_group < 0 || row_group >= num_row_groups() || column < 0 || column >= schema_.num_columns()) {
    return ColumnChunkMeta(row_group, column).status();  // its message for indexes out of range
  }
  const RowGroup& group = metadata_->row_groups[static_cast<size_t>(row_group)];
  const ColumnChunk& chunk = group.columns[static_cast<size_t>(column)];
  if (!chunk.crypto_metadata) return std::optional<ModuleDecryptor>();
  FLOE_RETURN_IF_ERROR(DeferredColumnError(row_group, column));
  const std::string path = schema_.column(column).dotted_path();
  if (!decryptor_) {
    return Status::PermissionDenied(StrCat("parquet file ", Quote(this->path()), ": column ", Quote(path),
                                           " is encrypted and no key was given for it"));
  }
  FLOE_ASSIGN_OR_RETURN(ModuleDecryptor decryptor,
                        decryptor_->ForColumn(*chunk.crypto_metadata, path, group.ordinal.value_or(row_group), column));
  return std::optional<ModuleDecryptor>(std::move(decryptor));
}

std::string ParquetFileReader::ColumnChunkContext(int row_group, int column) const {
  return StrCat("parquet file ", Quote(path()), ": column ", Quote(schema_.column(column).dotted_path()),
                " in row group ", row_group);
}

Result<const ColumnMetaData*> ParquetFileReader::ColumnChunkMeta(int row_group, int column) const {
  if (row_group < 0 || row_group >= num_row_groups() || column < 0 || column >= schema_.num_columns()) {
    return Status::InvalidArgument(StrCat("parquet file ", Quote(path()), ": no column chunk (row group ", row_group,
                                          ", column ", column, ")"));
  }
  const ColumnChunk& chunk = metadata_->row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(column)];
  const std::string where = ColumnChunkContext(row_group, column);
  if (chunk.file_path) {
    return Status::Unsupported(StrCat(where, " lives in another file (", Quote(*chunk.file_path), ")"));
  }
  if (!chunk.meta_data) {
    // Why an encrypted chunk's metadata could not be decrypted, when known.
    // (A plaintext footer's stripped metadata is still returned: the writer
    // left it for readers without the key.)
    FLOE_RETURN_IF_ERROR(DeferredColumnError(row_group, column));
    return chunk.crypto_metadata
               ? Status::PermissionDenied(StrCat(where, " has encrypted column metadata and no key was given for it"))
               : Status::Corrupt(StrCat(where, " has no column metadata"));
  }
  return &*chunk.meta_data;
}

Result<ColumnChunkRange> ParquetFileReader::ColumnChunkBytes(int row_group, int column) const {
  FLOE_ASSIGN_OR_RETURN(const ColumnMetaData* meta, ColumnChunkMeta(row_group, column));
  // Plaintext-footer files keep readable metadata, but the pages are
  // encrypted: without the column's key its bytes are not worth fetching.
  FLOE_RETURN_IF_ERROR(ColumnDecryptor(row_group, column).status());
  int64_t start = meta->data_page_offset;
  // Some writers set dictionary_page_offset to 0 when there is none
  // (parquet-testing dict-page-offset-zero.parquet): only a positive offset
  // before the first data page marks a dictionary page.
  if (meta->dictionary_page_offset && *meta->dictionary_page_offset > 0 &&
      *meta->dictionary_page_offset < start) {
    start = *meta->dictionary_page_offset;
  }
  const int64_t length = meta->total_compressed_size;
  if (start < kMagicSize || length < 0 || start > file_size() || length > file_size() - start) {
    return Status::Corrupt(StrCat(ColumnChunkContext(row_group, column), " claims bytes ", start, "..", start + length,
                                  " of a ", file_size(), "-byte file"));
  }
  ColumnChunkRange range;
  range.offset = start;
  range.length = length;
  if (sizes_omit_dictionary_header_ && HasDictionaryPage(*meta)) {
    // The header left out of the size: parquet-mr's dictionary page headers
    // take ~20 bytes, so 100 is ample; the pages end by their values.
    constexpr int64_t kMaxDictionaryHeader = 100;
    range.length += std::clamp<int64_t>(file_size() - kTailSize - (start + length), 0, kMaxDictionaryHeader);
    range.end_after_values = meta->num_values;
  }
  return range;
}

Status ParquetFileReader::DeferredColumnError(int row_group, int column) const {
  if (column_errors_.empty()) return Status::OK();
  const auto it = column_errors_.find({row_group, column});
  return it == column_errors_.end() ? Status::OK() : it->second;
}

Result<std::vector<Buffer>> ParquetFileReader::ReadRanges(const std::vector<ReadRange>& ranges,
                                                          const CoalesceOptions& coalesce) const {
  std::vector<Buffer> out(ranges.size());
  std::vector<size_t> missing;
  std::vector<ReadRange> requests;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (std::optional<Buffer> cached = CachedTailBytes(ranges[i].offset, ranges[i].length)) {
      out[i] = std::move(*cached);
    } else {
      missing.push_back(i);
      requests.push_back(ranges[i]);
    }
  }
  if (requests.empty()) return out;
  FLOE_ASSIGN_OR_RETURN(std::vector<Buffer> fetched, file_->ReadRanges(requests, coalesce));
  for (size_t k = 0; k < missing.size(); ++k) out[missing[k]] = std::move(fetched[k]);
  return out;
}

std::optional<Buffer> ParquetFileReader::CachedTailBytes(int64_t offset, int64_t length) const {
  if (tail_.empty() || offset < tail_offset_ || length < 0 ||
      offset + length > tail_offset_ + static_cast<int64_t>(tail_.size())) {
    return std::nullopt;
  }
  return tail_.Slice(offset - tail_offset_, length);
}

}  // namespace floe::parquet
