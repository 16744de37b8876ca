#include "floe/formats/parquet/page_index.h"

#include "floe/base/strings.h"
#include "floe/formats/parquet/metadata_codec.h"

namespace floe::parquet {
namespace {

struct IndexSlot {
  size_t column_position;
  bool is_offset_index;
  ReadRange range;
};

Status CheckOffsetIndex(const OffsetIndex& index, int64_t row_group_rows, const std::string& where) {
  int64_t previous = -1;
  for (size_t i = 0; i < index.page_locations.size(); ++i) {
    const PageLocation& page = index.page_locations[i];
    const bool first_ok = i > 0 || page.first_row_index == 0;
    if (!first_ok || page.first_row_index <= previous || page.first_row_index >= std::max<int64_t>(row_group_rows, 1) ||
        page.offset < 0 || page.compressed_page_size < 0) {
      return Status::Corrupt(StrCat(where, ": offset index page ", i, " (first row ", page.first_row_index,
                                    ", offset ", page.offset, ") is out of order or out of range"));
    }
    previous = page.first_row_index;
  }
  return Status::OK();
}

// What makes a structurally sound column index say something its column
// cannot hold, so that trusting it would prune pages that have matching
// rows; empty when nothing does. parquet-mr 1.13 wrote, for pages without
// statistics, every page of a required column as a null page with a null
// count of -1 (parquet-testing datapage_v1-*-checksum.parquet).
std::string ColumnIndexContradiction(const ColumnDescriptor& column, const ColumnIndex& ci, const OffsetIndex& offsets,
                                     int64_t row_group_rows) {
  const std::vector<PageLocation>& pages = offsets.page_locations;
  for (size_t p = 0; p < pages.size(); ++p) {
    const int64_t rows = PageEndRow(offsets, p, row_group_rows) - pages[p].first_row_index;
    const std::optional<int64_t> nulls = ci.null_counts ? std::optional<int64_t>((*ci.null_counts)[p]) : std::nullopt;
    if (nulls && *nulls < 0) return StrCat("page ", p, " has a null count of ", *nulls);
    if (!ci.null_pages[p] || rows == 0) continue;
    if (column.max_definition_level == 0) {
      return StrCat("page ", p, " of a column without nulls is marked as holding only nulls");
    }
    // Without repetition a row is one value, so a page of nulls has one per row.
    if (column.max_repetition_level == 0 && nulls && *nulls != rows) {
      return StrCat("page ", p, " is marked as holding only nulls but counts ", *nulls, " nulls in ", rows, " rows");
    }
  }
  return "";
}

}  // namespace

Result<std::vector<ColumnPageIndex>> ReadPageIndex(const ParquetFileReader& file, int row_group,
                                                   std::span<const int> columns) {
  return ReadPageIndex(file, row_group, columns, std::vector<bool>(columns.size(), true));
}

Result<std::vector<ColumnPageIndex>> ReadPageIndex(const ParquetFileReader& file, int row_group,
                                                   std::span<const int> columns,
                                                   const std::vector<bool>& want_column_index) {
  if (want_column_index.size() != columns.size()) {
    return Status::InvalidArgument(StrCat("page index of parquet file ", Quote(file.path()), ": ", columns.size(),
                                          " columns but ", want_column_index.size(), " column index flags"));
  }
  if (row_group < 0 || row_group >= file.num_row_groups()) {
    return Status::InvalidArgument(StrCat("parquet file ", Quote(file.path()), " has no row group ", row_group));
  }
  const RowGroup& group = file.metadata().row_groups[static_cast<size_t>(row_group)];
  std::vector<IndexSlot> slots;
  for (size_t p = 0; p < columns.size(); ++p) {
    const int column = columns[p];
    if (column < 0 || column >= static_cast<int>(group.columns.size())) {
      return Status::InvalidArgument(StrCat("parquet file ", Quote(file.path()), " has no column ", column));
    }
    const ColumnChunk& chunk = group.columns[static_cast<size_t>(column)];
    const std::string where = file.ColumnChunkContext(row_group, column);
    auto add = [&](const std::optional<int64_t>& offset, const std::optional<int32_t>& length, bool offset_index) {
      if (!offset || !length) return Status::OK();
      if (*offset < 0 || *length < 0 || *offset > file.file_size() || *length > file.file_size() - *offset) {
        return Status::Corrupt(StrCat(where, ": page index at bytes ", *offset, "..", *offset + *length,
                                      " lies outside the ", file.file_size(), "-byte file"));
      }
      slots.push_back(IndexSlot{p, offset_index, ReadRange{*offset, *length}});
      return Status::OK();
    };
    if (want_column_index[p]) FLOE_RETURN_IF_ERROR(add(chunk.column_index_offset, chunk.column_index_length, false));
    FLOE_RETURN_IF_ERROR(add(chunk.offset_index_offset, chunk.offset_index_length, true));
  }
  // Index bytes the footer read already holds cost no request.
  std::vector<ReadRange> ranges;
  for (const IndexSlot& slot : slots) ranges.push_back(slot.range);
  FLOE_ASSIGN_OR_RETURN(const std::vector<Buffer> bytes, file.ReadRanges(ranges));

  std::vector<ColumnPageIndex> out(columns.size());
  for (size_t i = 0; i < slots.size(); ++i) {
    const int column = columns[slots[i].column_position];
    const std::string where = file.ColumnChunkContext(row_group, column);
    ColumnPageIndex& index = out[slots[i].column_position];
    std::span<const uint8_t> encoded = bytes[i].span();
    Buffer decrypted;
    FLOE_ASSIGN_OR_RETURN(const std::optional<ModuleDecryptor> decryptor, file.ColumnDecryptor(row_group, column));
    if (decryptor) {
      auto plain = decryptor->Decrypt(slots[i].is_offset_index ? ModuleType::kOffsetIndex : ModuleType::kColumnIndex,
                                      encoded);
      if (!plain.ok()) {
        return plain.status().WithContext(StrCat(where, slots[i].is_offset_index ? ": offset index" : ": column index"));
      }
      decrypted = std::move(plain).value();
      encoded = decrypted.span();
    }
    if (slots[i].is_offset_index) {
      auto decoded = DecodeOffsetIndex(encoded);
      if (!decoded.ok()) return decoded.status().WithContext(StrCat(where, ": offset index"));
      FLOE_RETURN_IF_ERROR(CheckOffsetIndex(*decoded, group.num_rows, where));
      index.offset_index = std::move(*decoded);
    } else {
      auto decoded = DecodeColumnIndex(encoded);
      if (!decoded.ok()) return decoded.status().WithContext(StrCat(where, ": column index"));
      index.column_index = std::move(*decoded);
    }
  }
  for (size_t p = 0; p < out.size(); ++p) {
    const ColumnPageIndex& index = out[p];
    const auto corrupt = [&](const std::string& what) {
      return Status::Corrupt(StrCat(file.ColumnChunkContext(row_group, columns[p]), ": ", what));
    };
    if (index.column_index && index.offset_index &&
        index.column_index->null_pages.size() != index.offset_index->page_locations.size()) {
      return corrupt(StrCat("column index has ", index.column_index->null_pages.size(), " pages, offset index ",
                            index.offset_index->page_locations.size()));
    }
    // Every list of the column index has one entry per page.
    if (const ColumnIndex* ci = index.column_index ? &*index.column_index : nullptr) {
      const size_t pages = ci->null_pages.size();
      if (ci->min_values.size() != pages || ci->max_values.size() != pages ||
          (ci->null_counts && ci->null_counts->size() != pages)) {
        return corrupt(StrCat("column index has ", pages, " null_pages but ", ci->min_values.size(), " min_values, ",
                              ci->max_values.size(), " max_values",
                              ci->null_counts ? StrCat(" and ", ci->null_counts->size(), " null_counts") : ""));
      }
    }
    if (index.column_index && index.offset_index) {
      std::string unusable = ColumnIndexContradiction(file.schema().column(columns[p]), *index.column_index,
                                                      *index.offset_index, group.num_rows);
      if (!unusable.empty()) {
        out[p].column_index.reset();
        out[p].column_index_unused = std::move(unusable);
      }
    }
  }
  return out;
}

}  // namespace floe::parquet
