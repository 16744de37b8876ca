// ColumnReader: reads one column chunk — one leaf column of one row group —
// record by record into LeafBatches: levels decoded per page, values through
// the page encoding's ValueDecoder.
//
// A record is the data of one row: it starts at a repetition level of 0 and
// may, in files from old writers, continue on the next page, so a read ends
// only where the next record begins.
//
// Thread safety: one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/reader/leaf_batch.h"
#include "floe/formats/parquet/reader/page_reader.h"
#include "floe/formats/parquet/reader/value_decoder.h"
#include "floe/formats/parquet/schema.h"

namespace floe::parquet {

class ColumnReader {
 public:
  // Reads `chunk` (the column chunk's bytes, from file offset `chunk_offset`)
  // of `column`, which `meta` describes. `context` names the file, column and
  // row group in messages. Unsupported for a codec floe lacks.
  //
  // `previous`, when given, is the same column's reader of the previous
  // chunk, which is consumed: the new reader takes over its decompression
  // buffer and level arrays (unless a batch still holds the buffer), so a
  // scan of many row groups does not fault in fresh memory per row group.
  static Result<std::unique_ptr<ColumnReader>> Make(const ColumnDescriptor& column, const ColumnMetaData& meta,
                                                    Buffer chunk, int64_t chunk_offset, PageReaderOptions options,
                                                    std::string context,
                                                    std::unique_ptr<ColumnReader> previous = nullptr);

  // Appends up to `max_records` whole records to `out` and adds them to
  // out->num_records. Fewer only at the end of the chunk. Corrupt (with
  // context) for damaged pages, levels or values.
  Status ReadRecords(int64_t max_records, LeafBatch* out);

  // Moves past `records` whole records without decoding their values. With
  // an offset index (SetOffsetIndex) whole pages are skipped unread.
  // Returns the records skipped: fewer only at the end of the chunk.
  Result<int64_t> SkipRecords(int64_t records);

  // The chunk's OffsetIndex, which must outlive the reader; lets SkipRecords
  // jump over pages. Corrupt later if it does not describe the chunk.
  // An index without pages (which a chunk with values cannot have) is ignored.
  void SetOffsetIndex(const OffsetIndex* index) {
    offset_index_ = index != nullptr && !index->page_locations.empty() ? index : nullptr;
  }

  const ColumnDescriptor& column() const { return column_; }

  // The current data page, decompressed, for a reader made again over the
  // same chunk to take (OfferPage) instead of decompressing it again;
  // nullopt between pages. This reader is only fit for Make()'s `previous`
  // afterwards.
  std::optional<Page> TakePage() {
    // A page read starts after the file's magic; a default Page is at 0.
    if (page_.file_offset == 0) return std::nullopt;
    return std::exchange(page_, Page());
  }
  void OfferPage(Page page) { pages_.Offer(std::move(page)); }

  // Drops the chunk and the current page (a finished reader kept only to be
  // passed to Make() as `previous`), so their buffers can be reused.
  void ReleaseChunk() {
    page_ = Page();
    pages_.ReleaseChunk();
  }

  // Where the first data page's values began, in bytes from the start of
  // the chunk, when they lie in the chunk itself (uncompressed pages); -1
  // before the first data page or when they were decompressed. A caller
  // reading the next chunk of this column can place it so that its values
  // land aligned and can be borrowed without a copy.
  int64_t first_values_offset() const { return first_values_offset_; }

 private:
  ColumnReader(const ColumnDescriptor& column, PageReader pages, std::string context, int64_t chunk_values);

  // Loads the next data page (taking a dictionary page on the way); false at
  // the end of the chunk.
  Result<bool> NextDataPage();
  Status StartDataPage(const Page& page);
  // With an offset index: Corrupt unless the page just started is listed,
  // starts at the row read so far, holds as many rows as the index gives it
  // (where the page says how many before it is read) and, in a repeated
  // column, starts a record. A record that a spec-breaking writer continued
  // on the next page is seen only if that page is read: a selection ending
  // at the page boundary may not have fetched it.
  Status CheckPageAgainstOffsetIndex() const;
  Status TakeDictionary(const Page& page);
  // With `all_max`: when the levels are one run of max_level (no nulls), sets
  // it and leaves `out` alone.
  Status DecodeLevels(Encoding encoding, std::span<const uint8_t> data, bool length_prefixed, int16_t max_level,
                      int32_t num_values, std::vector<int16_t>* out, int64_t* consumed, bool* all_max);
  // Reads (out set) or skips (out null) up to `max_records` records.
  Result<int64_t> Consume(int64_t max_records, LeafBatch* out);
  // Consumes levels [page_pos_, page_pos_ + n) of the current page into
  // `out`, or drops them and skips their values when `out` is null.
  Status TakeLevels(int64_t n, LeafBatch* out);
  // After the values of the page's levels begin..end passed the batch's
  // byte limit: sets out->records_fit where the column can tell.
  void NoteRecordsThatFit(size_t begin, size_t end, LeafBatch* out) const;
  // Jumps to the last page starting at or before record `target`, when the
  // offset index shows it lies beyond the current page.
  Status JumpTowards(int64_t target);
  Status WithContext(const Status& status) const;

  const ColumnDescriptor column_;
  PageReader pages_;
  std::string context_;
  // Up-front reservations stop at this many records (a caller asking for
  // "everything" must not allocate it before the data proves it exists).
  static constexpr int64_t kReserveLimit = 1 << 20;

  std::unique_ptr<ValueDecoder> values_;
  const int32_t output_width_;  // fixed-width types: bytes per value in a LeafBatch; 0 otherwise
  int64_t chunk_values_;   // ColumnMetaData.num_values, to detect truncated chunks
  int64_t levels_read_ = 0;
  int64_t records_ = 0;  // records whose first level was consumed
  bool seen_data_page_ = false;
  bool seen_dictionary_ = false;
  bool dictionary_checked_ = false;  // JumpTowards took the dictionary page, if any
  const OffsetIndex* offset_index_ = nullptr;
  int64_t data_page_ = -1;  // ordinal of the current data page in the chunk

  Page page_;  // the current data page, kept alive for its spans
  int64_t page_pos_ = 0;
  int64_t page_levels_ = 0;
  int64_t page_offset_ = 0;  // for messages
  std::vector<int16_t> page_def_;  // not filled when page_all_defined_
  std::vector<int16_t> page_rep_;
  bool page_all_defined_ = false;  // every definition level of the page is the maximum
  int64_t first_values_offset_ = -1;
};

}  // namespace floe::parquet
