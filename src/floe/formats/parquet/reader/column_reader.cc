#include "floe/formats/parquet/reader/column_reader.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"
#include "floe/formats/parquet/metadata_enums.h"
#include "floe/formats/parquet/reader/value_conversion.h"

namespace floe::parquet {
namespace {

int BitWidthOf(int16_t max_level) { return std::bit_width(static_cast<uint16_t>(max_level)); }

// True when the RLE/bit-packed level stream `data` opens with one RLE run of
// `value` covering at least `n` levels: a page without nulls, whose levels
// need not be materialised.
bool IsOneRun(std::span<const uint8_t> data, int bit_width, int64_t n, int16_t value) {
  uint64_t header = 0;
  size_t pos = 0;
  for (int shift = 0; pos < data.size() && shift < 35; shift += 7) {
    const uint8_t byte = data[pos++];
    header |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      if ((header & 1) != 0 || static_cast<int64_t>(header >> 1) < n) return false;  // bit-packed, or short
      const size_t value_bytes = static_cast<size_t>((bit_width + 7) / 8);
      if (data.size() - pos < value_bytes) return false;
      uint32_t run_value = 0;
      for (size_t i = 0; i < value_bytes; ++i) run_value |= uint32_t{data[pos + i]} << (8 * i);
      return run_value == static_cast<uint32_t>(value);
    }
  }
  return false;
}

}  // namespace

Result<std::unique_ptr<ColumnReader>> ColumnReader::Make(const ColumnDescriptor& column, const ColumnMetaData& meta,
                                                         Buffer chunk, int64_t chunk_offset,
                                                         PageReaderOptions options, std::string context,
                                                         std::unique_ptr<ColumnReader> previous) {
  auto codec = ToCodec(meta.codec);
  if (!codec.ok()) return codec.status().WithContext(context);
  std::shared_ptr<Buffer> scratch;
  if (previous) {
    previous->page_ = Page();  // so the page buffer is free for reuse
    scratch = previous->pages_.TakeScratch();
  }
  options.first_page_is_dictionary = meta.dictionary_page_offset && *meta.dictionary_page_offset > 0;
  PageReader pages(std::move(chunk), chunk_offset, *codec, std::move(options), context, std::move(scratch));
  std::unique_ptr<ColumnReader> reader(new ColumnReader(column, std::move(pages), std::move(context), meta.num_values));
  if (previous) {
    // Level arrays keep their capacity: no fresh memory to fault in per row group.
    reader->page_def_.swap(previous->page_def_);
    reader->page_rep_.swap(previous->page_rep_);
  }
  return reader;
}

ColumnReader::ColumnReader(const ColumnDescriptor& column, PageReader pages, std::string context,
                           int64_t chunk_values)
    : column_(column),
      pages_(std::move(pages)),
      context_(std::move(context)),
      values_(MakeValueDecoder(column_)),
      output_width_(column_.type->id() == TypeId::kString || column_.type->id() == TypeId::kBinary ||
                            column_.type->id() == TypeId::kNull
                        ? 0
                        : OutputValueWidth(column_)),
      chunk_values_(chunk_values) {
  pages_.set_max_levels(column_.max_repetition_level, column_.max_definition_level);
}

Status ColumnReader::WithContext(const Status& status) const {
  return status.WithContext(StrCat(context_, ": page at byte ", page_offset_));
}

Status ColumnReader::ReadRecords(int64_t max_records, LeafBatch* out) {
  if (column_.max_repetition_level == 0 && output_width_ > 0 && max_records < kReserveLimit) {
    // A flat column holds at most one value per record: a batch that must
    // copy its values sizes them once instead of growing page by page.
    out->values_capacity_hint =
        out->values.size() + out->borrowed_values.size() + max_records * output_width_;
  }
  FLOE_ASSIGN_OR_RETURN(const int64_t records, Consume(max_records, out));
  out->num_records += records;
  return Status::OK();
}

Result<int64_t> ColumnReader::SkipRecords(int64_t records) {
  const int64_t start = records_;
  const int64_t target = start + records;
  FLOE_RETURN_IF_ERROR(JumpTowards(target));
  FLOE_RETURN_IF_ERROR(Consume(target - records_, nullptr).status());
  return records_ - start;
}

Status ColumnReader::JumpTowards(int64_t target) {
  if (offset_index_ == nullptr) return Status::OK();
  const std::vector<PageLocation>& pages = offset_index_->page_locations;
  if (!seen_data_page_ && !dictionary_checked_) {
    // A dictionary page precedes the data pages the index lists; the first
    // data page itself may not have been fetched, so stop before it.
    dictionary_checked_ = true;
    if (!pages.empty() && pages.front().offset > pages_.chunk_offset()) {
      FLOE_ASSIGN_OR_RETURN(std::optional<Page> page, pages_.Next());
      if (page && page->type != PageType::DICTIONARY_PAGE) {
        return Status::Corrupt(StrCat(context_, ": the offset index does not list the first data page (at byte ",
                                      page->file_offset, ")"));
      }
      if (page) FLOE_RETURN_IF_ERROR(TakeDictionary(*page));
      FLOE_RETURN_IF_ERROR(pages_.SeekTo(pages.front().offset, 0).WithContext("offset index"));
    }
  }
  int64_t page = data_page_;
  while (page + 1 < static_cast<int64_t>(pages.size()) &&
         pages[static_cast<size_t>(page + 1)].first_row_index <= target) {
    ++page;
  }
  if (page <= data_page_) return Status::OK();
  const PageLocation& location = pages[static_cast<size_t>(page)];
  if (location.first_row_index < records_) {
    return Status::Corrupt(StrCat(context_, ": the offset index's page ", page, " starts at row ",
                                  location.first_row_index, ", before row ", records_, " already read"));
  }
  // The levels of the skipped pages are never decoded: account for them from
  // the offset index, which for a repeated column counts records, not levels.
  FLOE_RETURN_IF_ERROR(pages_.SeekTo(location.offset, static_cast<int32_t>(page)).WithContext("offset index"));
  page_pos_ = page_levels_ = 0;
  records_ = location.first_row_index;
  levels_read_ = -1;  // unknown from here on; the chunk-length check is off
  data_page_ = page - 1;
  FLOE_ASSIGN_OR_RETURN(const bool more, NextDataPage());
  if (!more) {
    return Status::Corrupt(StrCat(context_, ": the offset index points past the last page (page ", page, ")"));
  }
  return Status::OK();
}

Result<int64_t> ColumnReader::Consume(int64_t max_records, LeafBatch* out) {
  const bool repeated = column_.max_repetition_level > 0;
  int64_t records = 0;
  while (true) {
    if (page_pos_ == page_levels_) {
      // With a page index every page starts a record (spec: PageIndex.md),
      // so a full read ends with the page; only old files need the peek.
      if ((!repeated || offset_index_ != nullptr) && records == max_records) break;
      FLOE_ASSIGN_OR_RETURN(const bool more, NextDataPage());
      if (!more) break;
      continue;  // the page may hold no levels
    }
    if (!repeated) {
      if (records == max_records) break;
      const int64_t n = std::min(page_levels_ - page_pos_, max_records - records);
      records += n;
      records_ += n;
      FLOE_RETURN_IF_ERROR(TakeLevels(n, out));
      continue;
    }
    // A record ends where the next repetition level 0 begins.
    const int16_t* rep = page_rep_.data();
    int64_t i = page_pos_;
    bool record_limit = false;
    for (; i < page_levels_; ++i) {
      if (rep[i] != 0) continue;
      if (records == max_records) {
        record_limit = true;
        break;
      }
      ++records;
      ++records_;
    }
    if (i > page_pos_) FLOE_RETURN_IF_ERROR(TakeLevels(i - page_pos_, out));
    if (record_limit) break;
  }
  return records;
}

Status ColumnReader::TakeLevels(int64_t n, LeafBatch* out) {
  const auto begin = static_cast<size_t>(page_pos_);
  const auto end = static_cast<size_t>(page_pos_ + n);
  int64_t values = n;
  const int16_t max_def = column_.max_definition_level;
  if (max_def > 0 && page_all_defined_) {
    // Levels left out while the batch has no null (LeafBatch::def_levels).
    if (out && !out->def_levels.empty()) out->def_levels.insert(out->def_levels.end(), static_cast<size_t>(n), max_def);
  } else if (max_def > 0) {
    values = 0;
    for (size_t i = begin; i < end; ++i) values += page_def_[i] == max_def;
    if (out) {
      if (out->def_levels.empty() && out->num_levels > 0) {
        out->def_levels.assign(static_cast<size_t>(out->num_levels), max_def);  // the earlier, left-out levels
      }
      out->def_levels.insert(out->def_levels.end(), page_def_.begin() + static_cast<ptrdiff_t>(begin),
                             page_def_.begin() + static_cast<ptrdiff_t>(end));
    }
  }
  if (out && column_.max_repetition_level > 0) {
    out->rep_levels.insert(out->rep_levels.end(), page_rep_.begin() + static_cast<ptrdiff_t>(begin),
                           page_rep_.begin() + static_cast<ptrdiff_t>(end));
  }
  if (values > 0) {
    // A column of the null type has no values to keep.
    const bool keep = out && column_.type->id() != TypeId::kNull;
    const Status status = keep ? values_->Decode(values, out) : values_->Skip(values);
    if (!status.ok()) {
      if (out && out->data_full) NoteRecordsThatFit(begin, end, out);
      return WithContext(status);
    }
  }
  if (out) {
    out->num_levels += n;
    out->num_values += values;
  }
  page_pos_ += n;
  if (levels_read_ >= 0) levels_read_ += n;
  return Status::OK();
}

void ColumnReader::NoteRecordsThatFit(size_t begin, size_t end, LeafBatch* out) const {
  // A flat column's records are its levels; a repeated column's would need
  // its repetition levels walked, and a dictionary column's `offsets` hold
  // only some of its values: those read again by halves instead.
  if (column_.max_repetition_level > 0 || column_.type->id() == TypeId::kDictionary || out->values_fit < 0) return;
  const int64_t values = out->values_fit - out->num_values;  // of the levels begin..end
  int64_t levels = values;
  if (column_.max_definition_level > 0 && !page_all_defined_) {
    // The levels before the first value that did not fit: nulls take no bytes.
    int64_t seen = 0;
    size_t i = begin;
    for (; i < end; ++i) {
      if (page_def_[i] != column_.max_definition_level) continue;
      if (seen == values) break;
      ++seen;
    }
    levels = static_cast<int64_t>(i - begin);
  }
  out->records_fit = out->num_levels + levels;
}

Result<bool> ColumnReader::NextDataPage() {
  // The current page is used up: dropping it first lets the page reader
  // decompress the next one into the same buffer.
  page_ = Page();
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<Page> page, pages_.Next());
    if (!page) {
      if (levels_read_ >= 0 && levels_read_ < chunk_values_) {
        return Status::Corrupt(StrCat(context_, ": the column chunk ends after ", levels_read_, " of its ",
                                      chunk_values_, " values"));
      }
      return false;
    }
    page_offset_ = page->file_offset;
    if (page->num_values < 0) return WithContext(Status::Corrupt(StrCat("num_values is ", page->num_values)));
    if (page->type == PageType::DICTIONARY_PAGE) {
      FLOE_RETURN_IF_ERROR(TakeDictionary(*page));
      continue;
    }
    seen_data_page_ = true;
    ++data_page_;
    page_ = std::move(*page);
    FLOE_RETURN_IF_ERROR(StartDataPage(page_));
    if (offset_index_ != nullptr) FLOE_RETURN_IF_ERROR(CheckPageAgainstOffsetIndex());
    return true;
  }
}

Status ColumnReader::CheckPageAgainstOffsetIndex() const {
  // Row selection trusts the offset index to say where each page's rows
  // begin; a page that disagrees would misalign this column's rows with the
  // others', or cut a record short, silently.
  const std::vector<PageLocation>& pages = offset_index_->page_locations;
  if (data_page_ >= static_cast<int64_t>(pages.size())) {
    return WithContext(
        Status::Corrupt(StrCat("data page ", data_page_, " is not in the offset index, which lists ", pages.size())));
  }
  const auto page = static_cast<size_t>(data_page_);
  const int64_t first_row = pages[page].first_row_index;
  if (first_row != records_) {
    return WithContext(Status::Corrupt(StrCat("the offset index says data page ", data_page_, " starts at row ",
                                              first_row, ", the pages before it hold ", records_, " rows")));
  }
  // Its rows, where the page says them before it is read: a value per row
  // without repetition, or a v2 header's count. (A v1 page of a repeated
  // column is counted as it is read, and checked at the next page.)
  const bool flat = column_.max_repetition_level == 0;
  const int64_t page_rows = flat ? page_levels_ : page_.num_rows;
  const int64_t end_row = page + 1 < pages.size() ? pages[page + 1].first_row_index : flat ? chunk_values_ : -1;
  if (page_rows >= 0 && end_row >= 0 && page_rows != end_row - first_row) {
    return WithContext(Status::Corrupt(
        StrCat("data page ", data_page_, " holds ", page_rows, " rows, the offset index says ", end_row - first_row)));
  }
  // spec (PageIndex.md): with a page index, every page starts a record.
  if (column_.max_repetition_level > 0 && page_levels_ > 0 && page_rep_[0] != 0) {
    return WithContext(Status::Corrupt(StrCat("data page ", data_page_,
                                              " starts inside a record, which a file with a page index may not do; "
                                              "it can be read whole, not by row selection")));
  }
  return Status::OK();
}

Status ColumnReader::TakeDictionary(const Page& page) {
  page_offset_ = page.file_offset;
  if (seen_data_page_ || seen_dictionary_) {
    return WithContext(Status::Corrupt(seen_data_page_ ? "dictionary page after a data page"
                                                       : "a second dictionary page"));
  }
  seen_dictionary_ = true;
  const Status status = values_->SetDictionary(page.encoding, page.values, page.num_values);
  if (!status.ok()) return WithContext(status.WithContext("dictionary page"));
  return Status::OK();
}

Status ColumnReader::DecodeLevels(Encoding encoding, std::span<const uint8_t> data, bool length_prefixed,
                                  int16_t max_level, int32_t num_values, std::vector<int16_t>* out,
                                  int64_t* consumed, bool* all_max) {
  if (encoding != Encoding::RLE) {
    return Status::Unsupported(StrCat("levels in encoding ", EncodingName(encoding)));
  }
  if (all_max != nullptr) {
    *all_max = false;
    std::span<const uint8_t> stream = data;
    int64_t size = static_cast<int64_t>(data.size());
    bool framed = true;
    if (length_prefixed) {
      framed = data.size() >= 4;
      if (framed) {
        const uint32_t length = uint32_t{data[0]} | uint32_t{data[1]} << 8 | uint32_t{data[2]} << 16 |
                                uint32_t{data[3]} << 24;
        framed = length <= data.size() - 4;
        if (framed) {
          stream = data.subspan(4, length);
          size = 4 + int64_t{length};
        }
      }
    }
    if (framed && IsOneRun(stream, BitWidthOf(max_level), num_values, max_level)) {
      *all_max = true;
      *consumed = size;
      return Status::OK();
    }
  }
  encoding::RleBitPackedHybridDecoder decoder;
  if (length_prefixed) {
    FLOE_ASSIGN_OR_RETURN(*consumed, decoder.InitWithLengthPrefix(data, BitWidthOf(max_level)));
  } else {
    FLOE_RETURN_IF_ERROR(decoder.Init(data, BitWidthOf(max_level)));
    *consumed = static_cast<int64_t>(data.size());
  }
  out->resize(static_cast<size_t>(num_values));
  FLOE_RETURN_IF_ERROR(decoder.Decode(num_values, out->data()));
  int16_t highest = 0;
  for (const int16_t level : *out) highest = std::max(highest, level);
  if (highest > max_level) return Status::Corrupt(StrCat("level ", highest, " above the maximum ", max_level));
  return Status::OK();
}

Status ColumnReader::StartDataPage(const Page& page) {
  const int16_t max_def = column_.max_definition_level;
  const int16_t max_rep = column_.max_repetition_level;
  page_pos_ = 0;
  page_levels_ = 0;
  const int64_t level_count = (max_def > 0) + (max_rep > 0);
  // Levels are materialised per page: bound them like decompressed bytes.
  if (level_count > 0 && int64_t{page.num_values} * 2 * level_count > pages_.max_page_size()) {
    return WithContext(Status::Unsupported(StrCat("page declares ", page.num_values,
                                                  " levels, above the page memory budget")));
  }
  std::span<const uint8_t> values = page.values;
  const bool v1 = page.type == PageType::DATA_PAGE;
  int64_t consumed = 0;
  page_all_defined_ = false;
  if (max_rep > 0) {
    const Status status = DecodeLevels(page.repetition_level_encoding, v1 ? values : page.repetition_levels, v1,
                                       max_rep, page.num_values, &page_rep_, &consumed, nullptr);
    if (!status.ok()) return WithContext(status.WithContext("repetition levels"));
    if (v1) values = values.subspan(static_cast<size_t>(consumed));
    if (levels_read_ == 0 && page.num_values > 0 && page_rep_[0] != 0) {
      return WithContext(Status::Corrupt("the column chunk starts inside a record (repetition level > 0)"));
    }
  }
  if (max_def > 0) {
    const Status status = DecodeLevels(page.definition_level_encoding, v1 ? values : page.definition_levels, v1,
                                       max_def, page.num_values, &page_def_, &consumed, &page_all_defined_);
    if (!status.ok()) return WithContext(status.WithContext("definition levels"));
    if (v1) values = values.subspan(static_cast<size_t>(consumed));
  }
  const Buffer& chunk = pages_.chunk();
  if (first_values_offset_ < 0 && !values.empty() && values.data() >= chunk.data() &&
      values.data() < chunk.data() + chunk.size()) {
    first_values_offset_ = values.data() - chunk.data();
  }
  const Status status = values_->StartPage(page.encoding, values, page.storage);
  if (!status.ok()) return WithContext(status);
  page_levels_ = page.num_values;
  return Status::OK();
}

}  // namespace floe::parquet
