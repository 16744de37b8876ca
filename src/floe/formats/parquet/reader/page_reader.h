// PageReader: walks the pages of one column chunk held in memory — header,
// CRC check, decompression — and hands out dictionary and data pages with
// their level and value sections located.
//
// spec: parquet.thrift PageHeader, DataPageHeader(V2), DictionaryPageHeader;
// "the CRC is computed on the page data only ... after compression" (for v2
// pages over the levels and the values as stored). Index pages and unknown
// page types are skipped, as other readers do.
//
// Decompressed sizes are checked against the header and against
// ReaderOptions::max_page_size before anything is allocated, so a tiny page
// cannot claim gigabytes. Every error names the file, the column and the
// page's offset in the file.
//
// Pages decompress into one buffer the reader reuses from page to page, so
// a scan's steady state allocates nothing and touches no fresh memory. A
// page's `storage` shares that buffer: while any Page (or a Buffer taken
// from it) is still alive, the next page goes to a new buffer instead, so a
// page's bytes never change under its holder. Callers that drop a page
// before asking for the next one (ColumnReader does) get the reuse.
//
// A v1 data page compresses its levels and values together, so its values
// would land after the level bytes, usually misaligned for their type. The
// reader decompresses a v1 page at an offset that aligns its values when the
// page has no nulls (set_max_levels), so they can be borrowed without a copy;
// v2 pages decompress the values alone, at the buffer's (64-byte aligned)
// start.
//
// Thread safety: one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/encryption.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

// One page, decompressed. The spans point into `storage` (the decompression
// buffer, the chunk, or an encrypted page's decrypted bytes) or, for the
// levels of a v2 page, `level_storage`; the page keeps them alive.
struct Page {
  PageType type = PageType::DATA_PAGE;
  int64_t file_offset = 0;  // where the page header starts
  int32_t num_values = 0;   // levels in a data page; entries in a dictionary page
  // Data page v2 only (-1 otherwise): rows and nulls the header declares.
  int32_t num_rows = -1;
  int32_t num_nulls = -1;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  // v2: the two level sections, unprefixed. v1: empty; the levels lead `values`,
  // each behind its 4-byte length.
  std::span<const uint8_t> repetition_levels;
  std::span<const uint8_t> definition_levels;
  std::span<const uint8_t> values;  // v1: levels, then values
  Buffer storage;
  // What holds a v2 page's level spans when `storage` does not: the
  // decrypted page of an encrypted, compressed v2 page (its values were
  // inflated into `storage`). Empty otherwise.
  Buffer level_storage;
};

// One page as the chunk stores it: its header (decrypted, for an encrypted
// chunk) and its body still compressed and encrypted.
struct StoredPage {
  int64_t file_offset = 0;  // where the page header starts
  int64_t header_size = 0;  // bytes of the header as stored (an encrypted header: its whole module)
  PageHeader header;
  std::span<const uint8_t> body;   // into PageReader::chunk(); what the header's crc covers
  int32_t data_page_ordinal = -1;  // the chunk's data page number; -1 for other page types
};

struct PageReaderOptions {
  int64_t max_page_size = 512 << 20;
  bool verify_checksums = true;
  // For an encrypted column chunk: decrypts each page header and page (whose
  // CRC, when present, covers the page as stored, encrypted).
  std::optional<ModuleDecryptor> decryptor;
  // Encrypted chunks only: whether the chunk opens with a dictionary page,
  // which the AAD of the first page header depends on.
  bool first_page_is_dictionary = false;
  // When the chunk's bytes may run on past its last page
  // (ColumnChunkRange::end_after_values): the chunk ends once its data
  // pages have declared this many values, whatever bytes follow.
  std::optional<int64_t> end_after_values;
};

class PageReader {
 public:
  // Reads the pages in `chunk`, which starts at byte `chunk_offset` of the
  // file. `context` names the file and column in messages.
  // `scratch`, when given, is a decompression buffer to reuse (from the
  // previous chunk's reader, TakeScratch()).
  PageReader(Buffer chunk, int64_t chunk_offset, compression::Codec codec, PageReaderOptions options,
             std::string context, std::shared_ptr<Buffer> scratch = nullptr);

  // The next dictionary or data page, or nullopt at the end of the chunk.
  // Corrupt for a damaged header, a page running past the chunk, a CRC
  // mismatch or bad compressed data; Unsupported when a page is larger than
  // the budget or uses a codec floe lacks (LZO).
  Result<std::optional<Page>> Next();

  // The next page of any type, dictionary, data, index or unknown, as
  // stored: its header is decoded (and decrypted) and its body neither
  // decrypted, decompressed nor checked against its CRC. For listing a
  // chunk's pages without the cost, or the page budget, of reading them.
  // nullopt at the end of the chunk; Corrupt for a damaged header or a page
  // running past the chunk; PermissionDenied for a header that does not
  // decrypt; Unsupported for an encrypted chunk of more than 32,768 data
  // pages (the AAD's page ordinal is 16 bits).
  Result<std::optional<StoredPage>> NextStored();

  // Moves to the page whose header starts at `file_offset` (from an
  // OffsetIndex), the chunk's data page number `data_page_ordinal` (counted
  // from 0; the AAD of an encrypted page needs it). InvalidArgument when it
  // lies outside the chunk.
  Status SeekTo(int64_t file_offset, int32_t data_page_ordinal);

  // A page of this chunk that an earlier reader of it decompressed (a batch
  // read again from an earlier row): Next() returns it when it reaches its
  // offset instead of checking and decompressing that page again, and drops
  // it once past.
  void Offer(Page page) { offered_ = std::move(page); }

  // The decompression buffer, for the next chunk's reader; this reader
  // allocates a new one if it decompresses again.
  std::shared_ptr<Buffer> TakeScratch() { return std::move(scratch_); }

  // The column's maximum levels, from which the reader foresees the level
  // bytes leading a v1 page without nulls (one RLE run per level kind) and
  // decompresses the page where its values land aligned. A page with nulls
  // only loses the alignment.
  void set_max_levels(int16_t max_repetition, int16_t max_definition) {
    max_repetition_level_ = max_repetition;
    max_definition_level_ = max_definition;
  }

  // Forgets the chunk (the reader is at its end afterwards).
  void ReleaseChunk() {
    chunk_ = Buffer();
    pos_ = 0;
    offered_.reset();
  }

  const Buffer& chunk() const { return chunk_; }
  const std::string& context() const { return context_; }
  int64_t max_page_size() const { return options_.max_page_size; }
  int64_t chunk_offset() const { return chunk_offset_; }

 private:
  Status Error(int64_t page_offset, const std::string& what) const;
  // Decodes the next page header into header_ and moves past its body,
  // which `out` locates; false at the end of the chunk.
  Result<bool> ReadStored(StoredPage* out);
  // Decompresses `in` into `size` bytes placed `lead` bytes into the buffer.
  Result<Buffer> Inflate(int64_t page_offset, std::span<const uint8_t> in, int64_t size, int64_t lead = 0);
  // Dictionary and v1 pages: the whole body is compressed together. `owner`
  // holds `body` (the chunk, or the decrypted page).
  Status TakeWholeBody(int64_t page_offset, std::span<const uint8_t> body, const Buffer& owner, Page* page);
  // An encrypted chunk's next page header, decrypted; its size in the chunk
  // goes to `stored_size`.
  Result<PageHeader> DecryptPageHeader(int64_t page_offset, std::span<const uint8_t> rest, size_t* stored_size);
  // `size` writable bytes in the reused buffer, or in a new one when a page
  // still holds the old.
  Result<Buffer> ScratchFor(int64_t size, int64_t lead);

  Buffer chunk_;
  int64_t chunk_offset_;
  compression::Codec codec_;
  PageReaderOptions options_;
  std::string context_;
  int64_t pos_ = 0;  // into chunk_
  PageHeader header_;
  // The decompression buffer; handed out as Buffer::Wrap(scratch_, ...), so
  // use_count() == 1 means no page holds it any more.
  std::shared_ptr<Buffer> scratch_;
  std::optional<Page> offered_;  // Offer()
  // Offset into the decompression buffer that aligns a v1 page's values.
  int64_t V1Lead(int32_t num_values) const;

  int16_t max_repetition_level_ = 0;
  int16_t max_definition_level_ = 0;
  // Encrypted chunks: the data page the next page would be, and whether it
  // is the chunk's first page.
  int32_t data_page_ordinal_ = 0;
  bool at_first_page_ = true;
  int64_t data_values_ = 0;  // declared by the data pages read; -1 after a SeekTo
};

}  // namespace floe::parquet
