// ColumnChunkWriter: one leaf column's share of a row group, from shredded
// levels and values (level_shredder.h) to finished, compressed pages.
//
// Pages: a data page is cut when its estimated encoded size passes
// `page_bytes` or its rows pass `page_rows`, always at a record boundary
// (repetition level 0), as the page index and data page v2 require. Data
// page v1 holds RLE levels with their 4-byte lengths and the values, all
// compressed together; v2 holds unprefixed RLE levels uncompressed and the
// values compressed (`is_compressed`), with num_nulls and num_rows. Page
// headers carry a CRC32 of the page bytes after the header when
// `page_checksums` (spec: PageHeader.crc). Page headers carry no
// statistics: the column index has them (docs/decisions/0010).
//
// Dictionary: values go through a dictionary (RLE_DICTIONARY data pages and
// a PLAIN dictionary page first in the chunk) until it passes
// `dictionary_page_size_limit`; the chunk's later pages then use `encoding`.
// When the chunk's first page with its dictionary is no smaller than PLAIN
// would be, the dictionary is dropped: that page and all later ones use
// `encoding` and the chunk has no dictionary page (parquet-mr's rule).
// The same happens early, without hashing the rest of the page, once the
// first page has put 4,096 values through the dictionary and more than 31 in
// 32 of them were new (docs/decisions/0046).
//
// The pages of the chunk are buffered here, compressed, until Finish();
// memory is bounded by the row group size the file writer chooses.
//
// Thread safety: a writer is used by one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/bloom_filter.h"
#include "floe/formats/parquet/level_shredder.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/schema_writer.h"

namespace floe::parquet {

// How a chunk's pages and page headers are encrypted (spec: Encryption.md):
// its key, the file's AAD and algorithm, and the column's ordinal in the row
// group. The row group ordinal is the number of chunks finished before.
struct ChunkEncryption {
  std::string key;
  std::string file_aad;
  bool ctr_pages = false;
  int16_t column = 0;
};

struct ColumnChunkOptions {
  compression::Codec codec = compression::Codec::kZstd;
  std::optional<int> compression_level;
  int data_page_version = 1;  // 1 or 2
  bool dictionary = true;
  // Encoding of pages that are not dictionary-encoded (all of them when
  // `dictionary` is false, the ones after a fallback otherwise).
  Encoding encoding = Encoding::PLAIN;
  int64_t dictionary_page_size_limit = int64_t{1} << 20;
  int64_t page_bytes = int64_t{1} << 20;
  int64_t page_rows = 20000;
  bool page_index = true;
  bool page_checksums = true;
  int32_t statistics_truncate_length = 64;  // <= 0: never truncate
  bool bloom_filter = false;
  int64_t bloom_ndv = 0;  // 0: size the filter from the chunk's distinct values
  double bloom_fpp = 0.01;
  // Encrypted pages: each page and each header is a module of its own, and
  // a page's CRC covers its ciphertext, as parquet-mr writes it.
  std::optional<ChunkEncryption> encryption;
};

// A finished column chunk. Offsets in meta_data and offset_index are
// relative to the chunk's first byte; the file writer rebases them.
struct FinishedColumnChunk {
  std::vector<uint8_t> dictionary_page;  // header and body; empty when there is none
  std::vector<uint8_t> data_pages;       // headers and bodies, in order
  ColumnMetaData meta_data;
  std::optional<ColumnIndex> column_index;  // absent when the spec forbids one (a page of only NaN)
  OffsetIndex offset_index;
  std::optional<SplitBlockBloomFilter> bloom_filter;

  int64_t size() const { return static_cast<int64_t>(dictionary_page.size() + data_pages.size()); }
};

class ColumnChunkWriter {
 public:
  virtual ~ColumnChunkWriter() = default;

  // A writer for `column` (which must outlive it). InvalidArgument when
  // `options` ask for an encoding the physical type does not have, a page
  // version other than 1 or 2, or a compression level the codec refuses.
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(const WriterColumn& column, const ColumnChunkOptions& options);

  // Appends one batch's levels and values; `leaf` is only read during the call.
  // Errors: codec failures (Internal), InvalidArgument for values the
  // encodings cannot hold (a dictionary of 2^31 entries).
  virtual Status Write(const ShreddedLeaf& leaf) = 0;

  // Bytes the chunk holds so far: finished pages plus an estimate of the open
  // page and the dictionary.
  virtual int64_t buffered_bytes() const = 0;

  // Closes the open page, writes the dictionary page, and moves the chunk to
  // *out; the writer then starts an empty chunk. The buffer of
  // out->data_pages on entry is kept for the next chunk's pages (pass the
  // same FinishedColumnChunk chunk after chunk to reuse it). Errors as
  // Write(); when encrypting, Unsupported past 32,768 row groups or data
  // pages in a chunk (the AAD holds 16-bit ordinals).
  virtual Status Finish(FinishedColumnChunk* out) = 0;
};

}  // namespace floe::parquet
