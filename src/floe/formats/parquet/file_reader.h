// ParquetFileReader: opens a Parquet file through FileIO and exposes its
// footer (FileMetaData), its schema tree and, per row group and column, the
// byte ranges a reader must fetch.
//
// Opening costs one request when the footer fits in the tail read
// (ReaderOptions::footer_read_size) and two when it is larger; a known object
// size (OpenReadOptions::size) saves the request that would learn it.
//
// Thread safety: after Open() every const method may be called concurrently.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/parquet/encryption.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/schema.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

// Remembers decoded footers by (path, size) so repeated scans of the same
// immutable file skip the tail read and the decode. Implementations must be
// thread-safe.
class FooterCache {
 public:
  virtual ~FooterCache() = default;
  virtual std::shared_ptr<const FileMetaData> Get(const std::string& path, int64_t size) = 0;
  virtual void Put(const std::string& path, int64_t size, std::shared_ptr<const FileMetaData> footer) = 0;
};

struct ReaderOptions {
  // Tail bytes the first request fetches: the footer and the end of what
  // precedes it (usually page index). Small, because bytes past the footer
  // that a scan does not need are waste: a longer footer costs one more
  // request for exactly its bytes, and the page index of only the chunks a
  // scan reads is fetched on demand (docs/decisions/0040).
  int64_t footer_read_size = 8 * 1024;
  // Footers above this are refused (Corrupt) before anything is allocated.
  int64_t max_footer_size = 256 << 20;
  // Decompressed page and dictionary sizes above this are refused: the memory
  // budget that keeps a 4 KiB file from inflating to gigabytes.
  int64_t max_page_size = 512 << 20;
  // Verify page CRCs where the writer stored them.
  bool verify_page_checksums = true;
  // Used for unencrypted files only: a decrypted footer is never shared.
  std::shared_ptr<FooterCache> footer_cache;
  // Keys for files written with Parquet modular encryption. Without them an
  // encrypted footer, or an encrypted column when it is read, is
  // PermissionDenied; the plaintext columns of a file with a plaintext
  // footer read as usual.
  std::shared_ptr<const DecryptionKeys> decryption;
};

// The byte range of one column chunk: from its dictionary page (or first
// data page) through its last data page.
struct ColumnChunkRange {
  int64_t offset = 0;
  int64_t length = 0;
  // Set when the chunk's stated size cannot be trusted to end at its last
  // page, so `length` takes in bytes after it: parquet-mr 1.2.8 and older
  // left the dictionary page header out of total_compressed_size
  // (PARQUET-816). A reader of the pages then stops once the data pages
  // have declared this many values (the chunk's num_values):
  // PageReaderOptions::end_after_values.
  std::optional<int64_t> end_after_values;
};

class ParquetFileReader {
 public:
  // Opens `path` and decodes its footer and schema, decrypting the footer and
  // the column metadata it has keys for (ReaderOptions::decryption). NotFound
  // / IOError from storage; Corrupt for a file that is not Parquet or whose
  // footer is damaged (naming the file); PermissionDenied for an encrypted
  // footer without its key, a wrong key, or a plaintext footer whose
  // signature does not verify.
  static Result<std::unique_ptr<ParquetFileReader>> Open(std::shared_ptr<FileIO> io, const std::string& path,
                                                         ReaderOptions options = {}, OpenReadOptions open_options = {});

  const std::string& path() const { return file_->path(); }
  int64_t file_size() const { return file_->size(); }
  const FileMetaData& metadata() const { return *metadata_; }
  const ParquetSchema& schema() const { return schema_; }
  const ReaderOptions& options() const { return options_; }
  RandomAccessFile& file() const { return *file_; }
  // The bytes [offset, offset + length) when the footer read already
  // fetched them (the page index usually sits just before the footer), so
  // callers skip a request; nullopt otherwise.
  std::optional<Buffer> CachedTailBytes(int64_t offset, int64_t length) const;
  // The bytes of each of `ranges`: those the footer read holds from it, the
  // rest in one ReadRanges() call with `coalesce`. Storage errors as
  // FileIO returns them.
  Result<std::vector<Buffer>> ReadRanges(const std::vector<ReadRange>& ranges,
                                         const CoalesceOptions& coalesce = {}) const;

  // How the file is encrypted: its algorithm (from the crypto metadata of an
  // encrypted footer, or from a signed plaintext footer), or nullptr for a
  // plaintext file.
  const EncryptionAlgorithm* encryption_algorithm() const {
    return encryption_algorithm_ ? &*encryption_algorithm_ : nullptr;
  }
  // True for the "PARE" mode, whose footer is encrypted.
  bool has_encrypted_footer() const { return encrypted_footer_; }

  int num_row_groups() const { return static_cast<int>(metadata_->row_groups.size()); }
  // The rows of all row groups (not FileMetaData.num_rows, which some writers leave 0).
  int64_t num_rows() const { return num_rows_; }

  // "parquet file 'PATH': column 'a.b' in row group 3", which messages about
  // a column chunk start with. Requires a valid column.
  std::string ColumnChunkContext(int row_group, int column) const;
  // The column chunk's metadata; PermissionDenied when it is encrypted and
  // no key was given for it, Corrupt when the file lacks it, Unsupported for
  // a chunk in another file.
  Result<const ColumnMetaData*> ColumnChunkMeta(int row_group, int column) const;
  // The bytes to fetch for a column chunk, checked against the file size.
  // PermissionDenied for an encrypted column without its key.
  Result<ColumnChunkRange> ColumnChunkBytes(int row_group, int column) const;
  // The decryptor of an encrypted column chunk's modules (pages, page index,
  // bloom filter); nullopt for a plaintext chunk. PermissionDenied when the
  // chunk is encrypted and no key was given for it.
  Result<std::optional<ModuleDecryptor>> ColumnDecryptor(int row_group, int column) const;

 private:
  ParquetFileReader() = default;
  Status Init(const std::string& path, int64_t footer_guess);
  // The FileMetaData behind an encrypted footer ("PARE"); `footer` holds the
  // FileCryptoMetaData and the encrypted footer module.
  Result<FileMetaData> DecryptFooter(std::span<const uint8_t> footer, const std::string& name);
  // Plaintext footer mode: checks the signature after the footer.
  Status VerifyFooterSignature(std::span<const uint8_t> footer, const std::string& name);
  // Builds schema_ and checks each row group's chunks against it.
  Status MakeSchema(const FileMetaData& metadata, const std::string& name);
  // Replaces the stripped or missing metadata of encrypted columns with the
  // decrypted encrypted_column_metadata; a chunk that cannot be decrypted
  // (no key, a wrong one) gets its error in column_errors_ instead.
  Status DecryptColumnMetaData(FileMetaData* metadata, const std::string& name);
  // The error kept for an encrypted chunk at open, or OK.
  Status DeferredColumnError(int row_group, int column) const;

  std::shared_ptr<FileIO> io_;
  std::unique_ptr<RandomAccessFile> file_;
  ReaderOptions options_;
  std::shared_ptr<const FileMetaData> metadata_;
  std::shared_ptr<const FileDecryptor> decryptor_;       // null for a plaintext file, or without keys
  std::map<std::pair<int, int>, Status> column_errors_;  // (row group, column) -> why it cannot be read
  std::optional<EncryptionAlgorithm> encryption_algorithm_;
  bool encrypted_footer_ = false;
  Buffer tail_;                                          // the footer read's bytes (empty with a footer cache hit)
  int64_t tail_offset_ = 0;                              // where they start in the file
  ParquetSchema schema_;
  int64_t num_rows_ = 0;
  // Written by parquet-mr 1.2.8 or older (ColumnChunkRange::end_after_values).
  bool sizes_omit_dictionary_header_ = false;
};

}  // namespace floe::parquet
