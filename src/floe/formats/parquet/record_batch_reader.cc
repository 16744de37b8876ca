#include "floe/formats/parquet/record_batch_reader.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "floe/base/strings.h"
#include "floe/formats/parquet/bloom_filter_reader.h"
#include "floe/formats/parquet/dictionary_filter.h"
#include "floe/formats/parquet/dictionary_page_reader.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/projection.h"
#include "floe/formats/parquet/reader/column_reader.h"
#include "floe/formats/parquet/reader/leaf_batch.h"
#include "floe/formats/parquet/reader/record_assembler.h"

namespace floe::parquet {
namespace {
// Alignment for a chunk's values to be borrowed: the widest fixed-width value.
constexpr int64_t kChunkAlignment = 8;
std::vector<ReadRange> SelectedPages(const OffsetIndex& index, const ReadRange& chunk, int64_t num_rows,
                                     const std::vector<RowRange>& selection);
// Under read_dictionary: the plan with its BYTE_ARRAY string and binary
// leaves typed as dictionaries, in the plan and in `columns`, and the
// types of their ancestors rebuilt around them.
Status UseDictionaries(FieldPlan* plan, std::vector<ColumnDescriptor>* columns) {
  switch (plan->kind) {
    case FieldPlan::Kind::kPrimitive: {
      ColumnDescriptor& column = (*columns)[static_cast<size_t>(plan->column)];
      const TypeId id = column.type->id();
      if (column.physical_type != Type::BYTE_ARRAY || (id != TypeId::kString && id != TypeId::kBinary)) {
        return Status::OK();
      }
      FLOE_ASSIGN_OR_RETURN(column.type, DataType::Dictionary(column.type));
      plan->field.type = column.type;
      return Status::OK();
    }
    case FieldPlan::Kind::kStruct: {
      // A VARIANT's binary metadata and values stay binary: its readers
      // (variant/) take them as they are stored.
      for (const auto& [key, value] : plan->field.metadata) {
        if (key == kLogicalTypeKey && value.starts_with("VARIANT")) return Status::OK();
      }
      std::vector<Field> fields;
      for (FieldPlan& child : plan->children) {
        FLOE_RETURN_IF_ERROR(UseDictionaries(&child, columns));
        fields.push_back(child.field);
      }
      plan->field.type = DataType::Struct(std::move(fields));
      return Status::OK();
    }
    case FieldPlan::Kind::kList:
      FLOE_RETURN_IF_ERROR(UseDictionaries(&plan->children[0], columns));
      plan->field.type = DataType::List(plan->children[0].field);
      return Status::OK();
    case FieldPlan::Kind::kMap: {
      const bool keys_sorted = plan->field.type->keys_sorted();
      for (FieldPlan& child : plan->children) FLOE_RETURN_IF_ERROR(UseDictionaries(&child, columns));
      FLOE_ASSIGN_OR_RETURN(plan->field.type,
                            DataType::Map(plan->children[0].field, plan->children[1].field, keys_sorted));
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace

struct ParquetRecordBatchReader::RowGroupState {
  int row_group = 0;
  int64_t num_rows = 0;
  int64_t position = 0;            // rows of the row group read or skipped
  std::vector<RowRange> ranges;    // what to return: the selection, or all rows
  size_t next_range = 0;
  bool selected = false;           // a row selection applies
  std::vector<ColumnPageIndex> page_index;  // selected row groups: parallel to columns_
  std::vector<std::unique_ptr<ColumnReader>> readers;  // parallel to columns_
  std::vector<LeafBatch> batches;                      // parallel to columns_
  std::vector<LeafBatch*> by_column;                   // indexed by column number
  std::vector<Buffer> chunks;                          // parallel to columns_: what the readers read, for a restart
  int64_t rows_tried = 0;                              // the rows the batch being filled was reading up to
};

ParquetRecordBatchReader::ParquetRecordBatchReader(std::shared_ptr<const ParquetFileReader> file, ScanOptions options)
    : file_(std::move(file)), options_(std::move(options)), batch_rows_(options_.batch_size) {}

ParquetRecordBatchReader::~ParquetRecordBatchReader() = default;

Result<std::unique_ptr<ParquetRecordBatchReader>> ParquetRecordBatchReader::Make(
    std::shared_ptr<const ParquetFileReader> file, ScanOptions options) {
  if (options.batch_size < 1) {
    return Status::InvalidArgument(StrCat("batch size must be at least 1, not ", options.batch_size));
  }
  if (options.max_batch_value_bytes < 1 || options.max_batch_value_bytes > encoding::kMaxByteArrayDataSize) {
    return Status::InvalidArgument(StrCat("the most bytes of values per batch must be 1 to ",
                                          encoding::kMaxByteArrayDataSize, ", not ", options.max_batch_value_bytes));
  }
  std::unique_ptr<ParquetRecordBatchReader> reader(new ParquetRecordBatchReader(std::move(file), std::move(options)));
  const ParquetFileReader& f = *reader->file_;
  const ParquetSchema& schema = f.schema();
  if (reader->options_.columns) {
    auto plans = ProjectByPaths(schema, *reader->options_.columns);
    if (!plans.ok()) return plans.status().WithContext(StrCat("parquet file ", Quote(f.path())));
    reader->plans_ = std::move(*plans);
  } else if (reader->options_.field_ids) {
    reader->plans_ = ProjectByFieldIds(schema, *reader->options_.field_ids);
  } else {
    reader->plans_ = schema.fields();
  }

  if (reader->options_.read_dictionary) {
    reader->dictionary_descriptors_ = schema.columns();
    for (FieldPlan& plan : reader->plans_) {
      FLOE_RETURN_IF_ERROR(UseDictionaries(&plan, &reader->dictionary_descriptors_));
    }
  }

  std::vector<Field> fields;
  for (const FieldPlan& plan : reader->plans_) {
    fields.push_back(plan.field);
    for (const int column : schema.ColumnsOf(plan)) reader->columns_.push_back(column);
  }
  std::sort(reader->columns_.begin(), reader->columns_.end());
  reader->columns_.erase(std::unique(reader->columns_.begin(), reader->columns_.end()), reader->columns_.end());
  reader->schema_ = std::make_shared<const Schema>(std::move(fields));

  if (reader->options_.row_groups) {
    for (const int rg : *reader->options_.row_groups) {
      if (rg < 0 || rg >= f.num_row_groups()) {
        return Status::InvalidArgument(StrCat("parquet file ", Quote(f.path()), " has no row group ", rg, " (it has ",
                                              f.num_row_groups(), ")"));
      }
      reader->row_groups_.push_back(rg);
    }
  } else {
    for (int rg = 0; rg < f.num_row_groups(); ++rg) reader->row_groups_.push_back(rg);
  }
  for (const auto& [rg, ranges] : reader->options_.row_selection) {
    if (rg < 0 || rg >= f.num_row_groups()) {
      return Status::InvalidArgument(StrCat("row selection for row group ", rg, ", which ", Quote(f.path()),
                                            " does not have"));
    }
    const int64_t rows = f.metadata().row_groups[static_cast<size_t>(rg)].num_rows;
    int64_t previous_end = 0;
    for (const RowRange& range : ranges) {
      if (range.begin < previous_end || range.end <= range.begin || range.end > rows) {
        return Status::InvalidArgument(StrCat("row selection for row group ", rg, ": range ", range.begin, "..",
                                              range.end, " is unsorted, empty or outside its ", rows, " rows"));
      }
      previous_end = range.end;
    }
  }
  return reader;
}

namespace {

std::vector<RowRange> Intersect(const std::vector<RowRange>& a, const std::vector<RowRange>& b) {
  std::vector<RowRange> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t begin = std::max(a[i].begin, b[j].begin);
    const int64_t end = std::min(a[i].end, b[j].end);
    if (begin < end) out.push_back(RowRange{begin, end});
    (a[i].end < b[j].end) ? ++i : ++j;
  }
  return out;
}

}  // namespace

Result<bool> ParquetRecordBatchReader::StartRowGroup(int row_group) {
  const ParquetFileReader& f = *file_;
  const RowGroup& group = f.metadata().row_groups[static_cast<size_t>(row_group)];
  auto state = std::make_unique<RowGroupState>();
  state->row_group = row_group;
  state->num_rows = group.num_rows;
  if (state->num_rows < 0) {
    return Status::Corrupt(StrCat("parquet file ", Quote(f.path()), ": row group ", row_group, " has ",
                                  state->num_rows, " rows"));
  }
  ++metrics_.row_groups;
  if (state->num_rows == 0) return false;  // nothing to fetch; some writers leave such offsets at 0
  if (!options_.filter.empty() && !RowGroupMayMatch(f.schema(), group, options_.filter)) {
    ++metrics_.row_groups_pruned;
    return false;
  }
  FLOE_ASSIGN_OR_RETURN(const bool bloom_may_match, BloomFiltersMayMatch(row_group));
  if (!bloom_may_match) {
    ++metrics_.row_groups_pruned;
    ++metrics_.row_groups_pruned_by_bloom;
    return false;
  }
  FLOE_ASSIGN_OR_RETURN(const bool dictionary_may_match, DictionariesMayMatch(row_group));
  if (!dictionary_may_match) {
    ++metrics_.row_groups_pruned;
    ++metrics_.row_groups_pruned_by_dictionary;
    return false;
  }

  // The rows to read: the caller's selection, narrowed by the page index.
  std::vector<RowRange> rows{RowRange{0, state->num_rows}};
  const auto selection = options_.row_selection.find(row_group);
  if (selection != options_.row_selection.end()) {
    rows = selection->second;
    state->selected = true;
  }
  // One coalesced read of the page index the row group may need: the column
  // and offset indexes of the filter's columns, to narrow the rows, and the
  // offset indexes of the projected columns, to fetch only their pages (a
  // projected column's min/max per page would be bytes read for nothing).
  std::vector<ColumnPageIndex> index;  // parallel to index_columns
  std::vector<int> index_columns(columns_);
  if (!options_.filter.empty() || state->selected) {
    std::vector<bool> want_column_index(index_columns.size(), false);
    for (const ColumnPredicate& p : options_.filter) {
      const auto at = std::find(index_columns.begin(), index_columns.end(), p.column);
      if (at == index_columns.end()) {
        index_columns.push_back(p.column);
        want_column_index.push_back(true);
      } else {
        want_column_index[static_cast<size_t>(at - index_columns.begin())] = true;
      }
    }
    FLOE_ASSIGN_OR_RETURN(index, ReadPageIndex(f, row_group, index_columns, want_column_index));
  }
  if (!options_.filter.empty()) {
    std::vector<ColumnPageIndex> filter_index;
    for (const ColumnPredicate& p : options_.filter) {
      const auto at = std::find(index_columns.begin(), index_columns.end(), p.column);
      filter_index.push_back(index[static_cast<size_t>(at - index_columns.begin())]);
    }
    const std::vector<RowRange> kept = MatchingRowRanges(f.schema(), state->num_rows, options_.filter, filter_index);
    if (kept.size() != 1 || kept[0].begin != 0 || kept[0].end != state->num_rows) {
      rows = Intersect(rows, kept);
      state->selected = true;
    }
    if (rows.empty()) {
      ++metrics_.row_groups_pruned;
      return false;
    }
  }
  state->ranges = std::move(rows);

  std::vector<ReadRange> ranges;
  for (const int column : columns_) {
    FLOE_ASSIGN_OR_RETURN(const ColumnChunkRange range, f.ColumnChunkBytes(row_group, column));
    ranges.push_back(ReadRange{range.offset, range.length});
  }
  if (state->selected) {
    index.resize(columns_.size());
    state->page_index = std::move(index);
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Buffer> chunks, FetchChunks(*state, ranges));

  state->batches = std::vector<LeafBatch>(columns_.size());
  state->by_column.assign(static_cast<size_t>(f.schema().num_columns()), nullptr);
  state->chunks = chunks;
  state_ = std::move(state);
  for (size_t i = 0; i < columns_.size(); ++i) {
    std::unique_ptr<ColumnReader> previous;
    if (i < spare_readers_.size()) previous = std::move(spare_readers_[i]);
    auto reader = MakeColumnReader(i, std::move(chunks[i]), std::move(previous));
    if (!reader.ok()) {
      state_.reset();
      return reader.status();
    }
    state_->readers.push_back(std::move(*reader));
    state_->by_column[static_cast<size_t>(columns_[i])] = &state_->batches[i];
  }
  return true;
}

const std::vector<ColumnDescriptor>& ParquetRecordBatchReader::descriptors() const {
  return options_.read_dictionary ? dictionary_descriptors_ : file_->schema().columns();
}

Result<std::unique_ptr<ColumnReader>> ParquetRecordBatchReader::MakeColumnReader(
    size_t i, Buffer chunk, std::unique_ptr<ColumnReader> previous) {
  const ParquetFileReader& f = *file_;
  const RowGroupState& rg = *state_;
  const int column = columns_[i];
  FLOE_ASSIGN_OR_RETURN(const ColumnMetaData* meta, f.ColumnChunkMeta(rg.row_group, column));
  FLOE_ASSIGN_OR_RETURN(const ColumnChunkRange range, f.ColumnChunkBytes(rg.row_group, column));
  PageReaderOptions options;
  options.max_page_size = f.options().max_page_size;
  options.verify_checksums = f.options().verify_page_checksums;
  options.end_after_values = range.end_after_values;
  FLOE_ASSIGN_OR_RETURN(options.decryptor, f.ColumnDecryptor(rg.row_group, column));
  FLOE_ASSIGN_OR_RETURN(
      auto reader,
      ColumnReader::Make(descriptors()[static_cast<size_t>(column)], *meta, std::move(chunk), range.offset,
                         std::move(options), f.ColumnChunkContext(rg.row_group, column), std::move(previous)));
  if (rg.selected && rg.page_index[i].offset_index) reader->SetOffsetIndex(&*rg.page_index[i].offset_index);
  return reader;
}

namespace {

// The pages of a column chunk that hold selected rows, by the offset index:
// the bytes before the first data page (the dictionary) and each page whose
// rows meet a range. Empty when the whole chunk is needed.
std::vector<ReadRange> SelectedPages(const OffsetIndex& index, const ReadRange& chunk, int64_t num_rows,
                                     const std::vector<RowRange>& selection) {
  const std::vector<PageLocation>& pages = index.page_locations;
  std::vector<ReadRange> needed;
  if (pages.empty() || pages.front().offset < chunk.offset) return needed;
  if (pages.front().offset > chunk.offset) needed.push_back(ReadRange{chunk.offset, pages.front().offset - chunk.offset});
  size_t range = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    const int64_t first = pages[p].first_row_index;
    const int64_t end = PageEndRow(index, p, num_rows);
    while (range < selection.size() && selection[range].end <= first) ++range;
    if (range == selection.size()) break;
    if (selection[range].begin < end) {
      const PageLocation& page = pages[p];
      if (page.offset < chunk.offset || page.offset + page.compressed_page_size > chunk.offset + chunk.length) {
        return {};  // an index that does not fit the chunk: fetch it all and let the pages speak
      }
      needed.push_back(ReadRange{page.offset, page.compressed_page_size});
    }
  }
  return needed;
}

}  // namespace

Result<std::vector<Buffer>> ParquetRecordBatchReader::FetchChunks(const RowGroupState& state,
                                                                  const std::vector<ReadRange>& chunks) {
  // Which columns can be fetched page by page: a selection and an offset index.
  std::vector<std::vector<ReadRange>> pages(chunks.size());
  std::vector<ReadRange> requests;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (state.selected && state.page_index[i].offset_index) {
      const size_t total = state.page_index[i].offset_index->page_locations.size();
      pages[i] = SelectedPages(*state.page_index[i].offset_index, chunks[i], state.num_rows, state.ranges);
      metrics_.pages += static_cast<int64_t>(total);
      if (!pages[i].empty()) {
        const bool has_prefix = pages[i].front().offset < state.page_index[i].offset_index->page_locations.front().offset;
        metrics_.pages_skipped += static_cast<int64_t>(total) - static_cast<int64_t>(pages[i].size()) + (has_prefix ? 1 : 0);
      }
    }
    if (pages[i].empty()) {
      requests.push_back(chunks[i]);
    } else {
      requests.insert(requests.end(), pages[i].begin(), pages[i].end());
    }
  }
  // A small file's first tail read may already hold every chunk: serve them
  // from it rather than fetch the same bytes again.
  std::vector<Buffer> from_tail;
  for (const ReadRange& chunk : chunks) {
    std::optional<Buffer> bytes = file_->CachedTailBytes(chunk.offset, chunk.length);
    if (!bytes) break;
    from_tail.push_back(std::move(*bytes));
  }
  if (from_tail.size() == chunks.size()) return from_tail;
  if (chunks.size() == 1 && pages[0].empty() && chunks[0].length > 0) {
    // One whole chunk, the same one request ReadRanges would make, into the
    // reused buffer, `lead` bytes in: where the previous chunk's layout says
    // the values will land aligned, so that batches can borrow them.
    const int64_t lead = chunk_leads_.empty() ? 0 : chunk_leads_[0];
    const int64_t needed = lead + chunks[0].length;
    if (chunk_buffer_ == nullptr || chunk_buffer_.use_count() > 1 || chunk_buffer_->size() < needed) {
      const bool reusable = chunk_buffer_ != nullptr && chunk_buffer_.use_count() == 1;
      FLOE_ASSIGN_OR_RETURN(Buffer fresh, Buffer::Allocate(reusable ? std::max(needed, chunk_buffer_->size()) : needed));
      chunk_buffer_ = std::make_shared<Buffer>(std::move(fresh));
    }
    FLOE_RETURN_IF_ERROR(
        file_->file().ReadInto(chunks[0].offset, chunks[0].length, chunk_buffer_->mutable_data() + lead));
    std::vector<Buffer> out;
    out.push_back(Buffer::Wrap(chunk_buffer_, chunk_buffer_->data() + lead, chunks[0].length));
    return out;
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Buffer> fetched, file_->file().ReadRanges(requests, options_.coalesce));
  std::vector<Buffer> out;
  size_t next = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (pages[i].empty()) {
      out.push_back(std::move(fetched[next++]));
      continue;
    }
    // A sparse copy of the chunk: the fetched pages at their places. The
    // reader visits only those (it jumps by the offset index), and the
    // untouched rest of a large allocation costs no physical memory.
    FLOE_ASSIGN_OR_RETURN(Buffer chunk, Buffer::Allocate(chunks[i].length));
    for (const ReadRange& page : pages[i]) {
      std::memcpy(chunk.mutable_data() + (page.offset - chunks[i].offset), fetched[next++].data(),
                  static_cast<size_t>(page.length));
    }
    out.push_back(std::move(chunk));
  }
  return out;
}

Result<bool> ParquetRecordBatchReader::BloomFiltersMayMatch(int row_group) {
  for (const ColumnPredicate& p : options_.filter) {
    if (p.op != ColumnPredicate::Op::kEq && p.op != ColumnPredicate::Op::kIn) continue;
    if (p.column < 0 || p.column >= file_->schema().num_columns() || p.values.empty()) continue;
    FLOE_ASSIGN_OR_RETURN(const ColumnMetaData* meta, file_->ColumnChunkMeta(row_group, p.column));
    if (!meta->bloom_filter_offset) continue;
    FLOE_ASSIGN_OR_RETURN(const std::optional<SplitBlockBloomFilter> filter,
                          ReadBloomFilter(*file_, row_group, p.column));
    if (!filter) continue;
    // spec: values are hashed in their PLAIN encoding, byte arrays without
    // the length: the statistics encoding the predicate carries, looked up
    // as every encoding a matching row may have been hashed as.
    const ColumnDescriptor& column = file_->schema().column(p.column);
    const bool any = std::any_of(p.values.begin(), p.values.end(), [&](const std::string& v) {
      const std::optional<std::vector<std::string>> probes = BloomFilterProbes(column, v);
      return !probes || std::any_of(probes->begin(), probes->end(), [&](const std::string& probe) {
        return filter->Check(BloomHash(std::string_view(probe)));
      });
    });
    if (!any) return false;
  }
  return true;
}

Result<bool> ParquetRecordBatchReader::DictionariesMayMatch(int row_group) {
  if (!options_.prune_by_dictionary) return true;
  const ParquetFileReader& f = *file_;
  // The filter's columns whose values all come from their dictionary page.
  // Those whose metadata or pages cannot be read without a key are left out:
  // the pruning is an optimization, and a scan that reads them says why.
  std::vector<int> columns;
  for (const ColumnPredicate& p : options_.filter) {
    if (!DictionaryCanDecide(p) || p.column < 0 || p.column >= f.schema().num_columns()) continue;
    if (std::find(columns.begin(), columns.end(), p.column) != columns.end()) continue;
    if (f.schema().column(p.column).physical_type == Type::BOOLEAN) continue;  // two values at most
    const Result<const ColumnMetaData*> meta = f.ColumnChunkMeta(row_group, p.column);
    if (!meta.ok() && meta.status().code() == StatusCode::kPermissionDenied) continue;
    FLOE_RETURN_IF_ERROR(meta.status());
    if (AllDataPagesDictionaryEncoded(**meta)) columns.push_back(p.column);
  }
  if (columns.empty()) return true;
  FLOE_ASSIGN_OR_RETURN(const std::vector<std::optional<Page>> pages,
                        ReadDictionaryPages(f, row_group, columns, options_.coalesce));
  // Views of a dictionary take 16 bytes a value: past this many values they
  // would outweigh the page, and pruning by them the row group they save.
  constexpr int64_t kMostDictionaryValues = int64_t{1} << 22;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!pages[i] || pages[i]->num_values > kMostDictionaryValues) continue;
    ++metrics_.dictionaries_read;
    const Page& page = *pages[i];
    const ColumnDescriptor& column = f.schema().column(columns[i]);
    const Result<std::vector<std::string_view>> values =
        DictionaryPageValues(column, page.encoding, page.values, page.num_values);
    if (!values.ok() && values.status().code() == StatusCode::kUnsupported) continue;  // the chunk's reader says so
    if (!values.ok()) {
      return values.status().WithContext(
          StrCat(f.ColumnChunkContext(row_group, columns[i]), ": dictionary page at byte ", page.file_offset));
    }
    std::vector<const ColumnPredicate*> on_column;
    for (const ColumnPredicate& p : options_.filter) {
      if (p.column == columns[i]) on_column.push_back(&p);
    }
    if (!DictionaryMayMatch(column, on_column, *values)) return false;
  }
  return true;
}

void ParquetRecordBatchReader::FinishRowGroup() {
  std::vector<std::unique_ptr<ColumnReader>>& readers = state_->readers;
  if (readers.size() == columns_.size()) {
    chunk_leads_.assign(columns_.size(), 0);
    for (size_t i = 0; i < readers.size(); ++i) {
      readers[i]->ReleaseChunk();
      const int64_t offset = readers[i]->first_values_offset();
      if (offset >= 0) chunk_leads_[i] = (kChunkAlignment - offset % kChunkAlignment) % kChunkAlignment;
    }
    spare_readers_ = std::move(readers);
  }
  state_.reset();
}

Status ParquetRecordBatchReader::CheckRowGroupEnd() {
  // A column chunk holding more rows than its row group is damaged.
  RowGroupState& rg = *state_;
  for (size_t i = 0; i < rg.readers.size(); ++i) {
    LeafBatch& extra = rg.batches[i];
    extra.Clear();
    FLOE_RETURN_IF_ERROR(rg.readers[i]->ReadRecords(1, &extra));
    if (extra.num_records > 0) {
      return Status::Corrupt(StrCat("parquet file ", Quote(file_->path()), ": column ",
                                    Quote(rg.readers[i]->column().dotted_path()), " in row group ", rg.row_group,
                                    " holds more than the row group's ", rg.num_rows, " rows"));
    }
  }
  return Status::OK();
}

Status ParquetRecordBatchReader::ShortColumn(size_t reader, int64_t rows) const {
  const RowGroupState& rg = *state_;
  return Status::Corrupt(StrCat("parquet file ", Quote(file_->path()), ": column ",
                                Quote(rg.readers[reader]->column().dotted_path()), " in row group ", rg.row_group,
                                " ends after ", rows, " of the row group's ", rg.num_rows, " rows"));
}

Result<std::optional<int>> ParquetRecordBatchReader::TakeRowGroup() {
  if (!options_.next_row_group) {
    if (next_row_group_ == row_groups_.size()) return std::optional<int>();
    return std::optional<int>(row_groups_[next_row_group_++]);
  }
  const std::optional<int> row_group = options_.next_row_group();
  if (row_group && (*row_group < 0 || *row_group >= file_->num_row_groups())) {
    return Status::InvalidArgument(StrCat("parquet file ", Quote(file_->path()), " has no row group ", *row_group,
                                          " (it has ", file_->num_row_groups(), "), asked for by next_row_group"));
  }
  return row_group;
}

Result<int64_t> ParquetRecordBatchReader::FillBatch() {
  RowGroupState& rg = *state_;
  // A row that passes the limit on its own is read alone, up to what the
  // offsets address: the limit bounds how many rows a batch gathers, not
  // the size of a value the file holds.
  const int64_t limit = oversized_row_ ? encoding::kMaxByteArrayDataSize : options_.max_batch_value_bytes;
  for (LeafBatch& batch : rg.batches) {
    batch.Clear();
    batch.max_data_bytes = limit;
  }
  int64_t want = 0;
  while (want < batch_rows_ && rg.next_range < rg.ranges.size()) {
    const RowRange& range = rg.ranges[rg.next_range];
    if (rg.position < range.begin) {
      const int64_t gap = range.begin - rg.position;
      for (size_t i = 0; i < rg.readers.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(const int64_t skipped, rg.readers[i]->SkipRecords(gap));
        if (skipped != gap) return ShortColumn(i, rg.position + skipped);
      }
      rg.position = range.begin;
    }
    const int64_t n = std::min(batch_rows_ - want, range.end - rg.position);
    rg.rows_tried = want + n;
    for (size_t i = 0; i < rg.readers.size(); ++i) {
      const int64_t before = rg.batches[i].num_records;
      FLOE_RETURN_IF_ERROR(rg.readers[i]->ReadRecords(n, &rg.batches[i]));
      if (rg.batches[i].num_records - before != n) {
        return ShortColumn(i, rg.position + rg.batches[i].num_records - before);
      }
    }
    rg.position += n;
    want += n;
    if (rg.position == range.end) ++rg.next_range;
  }
  return want;
}

void ParquetRecordBatchReader::AdaptBatchRows() {
  if (oversized_row_) {
    oversized_row_ = false;  // the rows after it start again from one a batch
    return;
  }
  if (batch_rows_ == options_.batch_size) return;
  // Grow back after a batch well within the limit, so that a few large
  // values do not leave the rest of the file in small batches. Under a
  // quarter, twice the rows of values like these still fit: batches of
  // evenly sized values settle instead of growing past the limit and being
  // read again.
  int64_t largest = 0;
  for (const LeafBatch& batch : state_->batches) largest = std::max(largest, batch.data.size());
  if (largest <= options_.max_batch_value_bytes / 4) batch_rows_ = std::min(options_.batch_size, batch_rows_ * 2);
}

Status ParquetRecordBatchReader::RestartAt(int64_t position, size_t range) {
  RowGroupState& rg = *state_;
  for (LeafBatch& batch : rg.batches) batch.Clear();  // before the readers reuse the pages it borrows
  // Readers start again at the chunk's first row. Under a selection they
  // skip to where the next selected rows begin: the pages before may not
  // have been fetched.
  int64_t target = position;
  if (range < rg.ranges.size()) target = std::max(target, rg.ranges[range].begin);
  for (size_t i = 0; i < rg.readers.size(); ++i) {
    // The page each reader was in is handed on decompressed: a value that
    // passed the limit may be a page of hundreds of megabytes.
    std::optional<Page> page = rg.readers[i]->TakePage();
    FLOE_ASSIGN_OR_RETURN(rg.readers[i], MakeColumnReader(i, rg.chunks[i], std::move(rg.readers[i])));
    if (page) rg.readers[i]->OfferPage(std::move(*page));
    FLOE_ASSIGN_OR_RETURN(const int64_t skipped, rg.readers[i]->SkipRecords(target));
    if (skipped != target) return ShortColumn(i, skipped);
  }
  rg.position = target;
  rg.next_range = range;
  return Status::OK();
}

Result<std::optional<RecordBatch>> ParquetRecordBatchReader::Next() {
  while (true) {
    if (!state_) {
      FLOE_ASSIGN_OR_RETURN(const std::optional<int> row_group, TakeRowGroup());
      if (!row_group) return std::optional<RecordBatch>();
      FLOE_ASSIGN_OR_RETURN(const bool started, StartRowGroup(*row_group));
      if (!started) continue;
    }
    RowGroupState& rg = *state_;
    if (rg.next_range == rg.ranges.size()) {
      if (!rg.selected && !rg.readers.empty()) FLOE_RETURN_IF_ERROR(CheckRowGroupEnd());
      FinishRowGroup();
      continue;
    }
    // Fill the batch from the ranges left. A column whose string or binary
    // values would pass the byte limit stops it: the batch is read again
    // from its start with the rows that fit where the column can tell
    // (a flat one), with half the rows where it cannot, and with a row alone
    // where that row passes the limit by itself.
    const int64_t start_position = rg.position;
    const size_t start_range = rg.next_range;
    Result<int64_t> filled = FillBatch();
    if (!filled.ok()) {
      auto full = std::find_if(rg.batches.begin(), rg.batches.end(), [](const LeafBatch& b) { return b.data_full; });
      if (full == rg.batches.end() || oversized_row_) return filled.status();
      const int64_t fit = full->records_fit >= 0 ? std::min(full->records_fit, rg.rows_tried - 1) : rg.rows_tried / 2;
      batch_rows_ = std::max<int64_t>(fit, 1);
      oversized_row_ = fit == 0;
      ++metrics_.batches_read_again;
      FLOE_RETURN_IF_ERROR(RestartAt(start_position, start_range));
      continue;
    }
    const int64_t want = *filled;
    if (want == 0) continue;
    AdaptBatchRows();
    std::vector<Array> arrays;
    arrays.reserve(plans_.size());
    for (const FieldPlan& plan : plans_) {
      auto array = AssembleField(plan, rg.by_column, descriptors(), want);
      if (!array.ok()) {
        return array.status().WithContext(
            StrCat("parquet file ", Quote(file_->path()), ": row group ", rg.row_group));
      }
      arrays.push_back(std::move(*array));
    }
    metrics_.rows += want;
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema_, std::move(arrays), want));
    return std::optional<RecordBatch>(std::move(batch));
  }
}

Result<std::vector<RecordBatch>> ReadAllBatches(std::shared_ptr<const ParquetFileReader> file, ScanOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto reader, ParquetRecordBatchReader::Make(std::move(file), std::move(options)));
  std::vector<RecordBatch> batches;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
    if (!batch) return batches;
    batches.push_back(std::move(*batch));
  }
}

}  // namespace floe::parquet
