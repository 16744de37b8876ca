#include "floe/formats/parquet/column_chunk_writer.h"

#include <algorithm>
#include <bit>
#include <variant>

#include "floe/base/bytes.h"
#include "floe/base/crc32.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/column_chunk_writer_internal.h"
#include "floe/formats/parquet/encoding/bit_util.h"
#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"
#include "floe/formats/parquet/metadata_codec.h"

namespace floe::parquet {
namespace internal {
namespace {

// Levels are appended in runs of at most this many, so a page is checked
// against its limits often enough to stay near them.
constexpr int64_t kMiniBatchLevels = 1024;

void AddUnique(Encoding e, std::vector<Encoding>* list) {
  if (std::find(list->begin(), list->end(), e) == list->end()) list->push_back(e);
}

}  // namespace

bool EncodingSupports(Encoding encoding, Type physical) {
  switch (encoding) {
    case Encoding::PLAIN: return true;
    case Encoding::RLE: return physical == Type::BOOLEAN;  // spec: RLE values are booleans (levels aside)
    case Encoding::DELTA_BINARY_PACKED: return physical == Type::INT32 || physical == Type::INT64;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: return physical == Type::BYTE_ARRAY;
    case Encoding::DELTA_BYTE_ARRAY: return physical == Type::BYTE_ARRAY || physical == Type::FIXED_LEN_BYTE_ARRAY;
    case Encoding::BYTE_STREAM_SPLIT:
      return physical == Type::FLOAT || physical == Type::DOUBLE || physical == Type::INT32 ||
             physical == Type::INT64 || physical == Type::FIXED_LEN_BYTE_ARRAY;
    default: return false;
  }
}

ColumnChunkWriterBase::ColumnChunkWriterBase(const WriterColumn& column, const ColumnChunkOptions& options)
    : column_(column),
      options_(options),
      sort_order_(SortOrderFor(column)),
      def_bit_width_(encoding::BitWidth(static_cast<uint64_t>(column.max_definition_level))),
      rep_bit_width_(encoding::BitWidth(static_cast<uint64_t>(column.max_repetition_level))) {
  column_index_.null_counts.emplace();
  if (IsFloatingPoint(column)) column_index_.nan_counts.emplace();
  // Without an order there are no page bounds, and a column index needs them.
  column_index_valid_ = sort_order_ != ColumnSortOrder::kUndefined;
  ResetBloom();
  ResetChunkSizeStatistics();
  if (column.physical_type == Type::BYTE_ARRAY && column.logical_type && IsGeospatial(*column.logical_type)) {
    geospatial_.emplace(std::holds_alternative<GeographyType>(*column.logical_type));
  }
}

// spec (SizeStatistics): a histogram has one entry per level 0..max and "may
// be omitted if max_repetition_level is 0" (definition: "0 or 1"); floe
// writes each one whenever its level is not always 0, so
// that readers need not special-case max_definition_level 1.
void ColumnChunkWriterBase::ResetChunkSizeStatistics() {
  chunk_unencoded_bytes_ = 0;
  chunk_def_histogram_.assign(column_.max_definition_level > 0 ? column_.max_definition_level + 1 : 0, 0);
  chunk_rep_histogram_.assign(column_.max_repetition_level > 0 ? column_.max_repetition_level + 1 : 0, 0);
  page_def_histogram_.assign(chunk_def_histogram_.size(), 0);
  page_rep_histogram_.assign(chunk_rep_histogram_.size(), 0);
  page_unencoded_bytes_ = 0;
  if (!chunk_def_histogram_.empty()) column_index_.definition_level_histograms.emplace();
  if (!chunk_rep_histogram_.empty()) column_index_.repetition_level_histograms.emplace();
  if (column_.physical_type == Type::BYTE_ARRAY) offset_index_.unencoded_byte_array_data_bytes.emplace();
}

void ColumnChunkWriterBase::ResetBloom() {
  bloom_.reset();
  bloom_hashes_.clear();
  if (options_.bloom_filter && options_.bloom_ndv > 0) {
    bloom_.emplace(SplitBlockBloomFilter::OptimalNumBytes(options_.bloom_ndv, options_.bloom_fpp));
  }
}

Status ColumnChunkWriterBase::Write(const ShreddedLeaf& leaf) {
  leaf_ = &leaf;
  cursor_ = leaf.begin;
  validity_ = nullptr;
  if (!leaf.has_indices && leaf.values != nullptr && !leaf.values->buffers.empty() &&
      !leaf.values->buffers[0].empty() && leaf.values->type->id() != TypeId::kNull) {
    validity_ = leaf.values->buffers[0].data();
  }
  const int16_t* def = leaf.def_levels.empty() ? nullptr : leaf.def_levels.data();
  const int16_t* rep = leaf.rep_levels.empty() ? nullptr : leaf.rep_levels.data();
  const int16_t max_def = column_.max_definition_level;
  const int64_t n = leaf.num_levels;
  int64_t pos = 0;
  int64_t value_pos = 0;
  while (pos < n) {
    const int64_t room = std::max<int64_t>(1, options_.page_rows - page_rows_);
    int64_t end = std::min(n, pos + std::min(kMiniBatchLevels, room));
    if (rep != nullptr) {
      while (end < n && rep[end] != 0) ++end;  // pages end at record boundaries
    }
    int64_t values = end - pos;
    if (def != nullptr) {
      values = 0;
      for (int64_t i = pos; i < end; ++i) values += def[i] == max_def;
      int64_t* hist = page_def_histogram_.data();
      if (max_def == 1) {
        // Two levels: the counts give the histogram, without a loop of
        // dependent increments of one counter.
        hist[0] += end - pos - values;
        hist[1] += values;
      } else {
        for (int64_t i = pos; i < end; ++i) ++hist[def[i]];
      }
      page_def_.insert(page_def_.end(), def + pos, def + end);
    }
    int64_t rows = end - pos;
    if (rep != nullptr) {
      rows = 0;
      int64_t* hist = page_rep_histogram_.data();
      for (int64_t i = pos; i < end; ++i) {
        rows += rep[i] == 0;
        ++hist[rep[i]];
      }
      page_rep_.insert(page_rep_.end(), rep + pos, rep + end);
    }
    if (values > 0) FLOE_RETURN_IF_ERROR(AppendValues(value_pos, values));
    value_pos += values;
    page_levels_ += end - pos;
    page_values_ += values;
    page_rows_ += rows;
    pos = end;

    if (DictionaryFull()) {
      FLOE_RETURN_IF_ERROR(FlushPage());
      FallBack();
    } else if (page_rows_ >= options_.page_rows ||
               EstimatedValueBytes() + page_levels_ * (def_bit_width_ + rep_bit_width_) / 8 >= options_.page_bytes) {
      FLOE_RETURN_IF_ERROR(FlushPage());
    }
  }
  leaf_ = nullptr;
  return Status::OK();
}

int64_t ColumnChunkWriterBase::buffered_bytes() const {
  return static_cast<int64_t>(pages_.size()) + DictionaryBytes() + EstimatedValueBytes() +
         page_levels_ * (def_bit_width_ + rep_bit_width_) / 8;
}

Result<std::span<const uint8_t>> ColumnChunkWriterBase::Compress(std::span<const uint8_t> in) {
  if (options_.codec == compression::Codec::kUncompressed) return in;
  FLOE_ASSIGN_OR_RETURN(const int64_t max, compression::MaxCompressedLength(options_.codec, static_cast<int64_t>(in.size())));
  if (compressed_.size() < static_cast<size_t>(max)) compressed_.resize(static_cast<size_t>(max));
  FLOE_ASSIGN_OR_RETURN(const int64_t size,
                        compression::CompressInto(options_.codec, in, compressed_, options_.compression_level));
  return std::span<const uint8_t>(compressed_.data(), static_cast<size_t>(size));
}

Result<ModuleEncryptor*> ColumnChunkWriterBase::ChunkEncryptor() {
  if (!options_.encryption) return nullptr;
  if (!encryptor_) {
    if (chunks_finished_ > INT16_MAX) {
      return Status::Unsupported(StrCat("column ", Quote(column_.dotted_path()),
                                        ": an encrypted file holds at most 32768 row groups (16-bit AAD ordinals)"));
    }
    const ChunkEncryption& e = *options_.encryption;
    FLOE_ASSIGN_OR_RETURN(encryptor_, ModuleEncryptor::Make(e.key, e.file_aad, e.ctr_pages,
                                                            static_cast<int16_t>(chunks_finished_), e.column));
  }
  return &*encryptor_;
}

Status ColumnChunkWriterBase::AppendPage(const PageHeader& header, std::span<const uint8_t> data,
                                         std::vector<uint8_t>* out) {
  const bool data_page = header.type != PageType::DICTIONARY_PAGE;
  // spec 4.4: only data pages and their headers carry a page ordinal.
  const int32_t page_ordinal = data_page ? chunk_data_pages_ : 0;
  FLOE_ASSIGN_OR_RETURN(ModuleEncryptor* const encryptor, ChunkEncryptor());
  if (encryptor != nullptr) {
    encrypted_.clear();
    FLOE_RETURN_IF_ERROR(encryptor->Append(data_page ? ModuleType::kDataPage : ModuleType::kDictionaryPage, data,
                                           page_ordinal, &encrypted_));
    data = encrypted_;
  }
  PageHeader h = header;
  h.compressed_page_size = static_cast<int32_t>(data.size());
  if (options_.page_checksums) {
    // spec: "The CRC is computed on the serialization binary representation
    // of the page (as written to disk), excluding the page header."
    h.crc = std::bit_cast<int32_t>(Crc32(0, data));
  }
  header_.clear();
  // Every field of a page header fits the wire: encoding cannot fail.
  static_cast<void>(EncodePageHeader(h, &header_));
  if (encryptor != nullptr) {
    std::string plain_header = std::move(header_);
    header_.clear();
    FLOE_RETURN_IF_ERROR(encryptor->Append(data_page ? ModuleType::kDataPageHeader : ModuleType::kDictionaryPageHeader,
                                           AsBytes(plain_header), page_ordinal, &header_));
  }
  if (data_page) ++chunk_data_pages_;
  out->insert(out->end(), header_.begin(), header_.end());
  out->insert(out->end(), data.begin(), data.end());
  total_uncompressed_ += static_cast<int64_t>(header_.size()) + h.uncompressed_page_size;
  total_compressed_ += static_cast<int64_t>(header_.size() + data.size());
  return Status::OK();
}

void ColumnChunkWriterBase::CountEncoding(PageType type, Encoding encoding) {
  for (auto& s : encoding_stats_) {
    if (s.page_type == type && s.encoding == encoding) {
      ++s.count;
      return;
    }
  }
  encoding_stats_.push_back({type, encoding, 1});
}

void ColumnChunkWriterBase::AddColumnIndexEntry(const StatisticsAccumulator& page) {
  const bool floating = IsFloatingPoint(column_);
  const bool null_page = !page.has_bounds;
  // spec (ColumnIndex, TYPE_ORDER): a page whose non-null values are all NaN
  // has no valid bounds, so the chunk gets no column index.
  if (floating && null_page && page_values_ > 0) column_index_valid_ = false;
  column_index_.null_pages.push_back(null_page);
  column_index_.null_counts->push_back(page.null_count);
  if (floating) column_index_.nan_counts->push_back(page.nan_count);
  if (null_page) {
    column_index_.min_values.emplace_back();
    column_index_.max_values.emplace_back();
    return;
  }
  if (column_.physical_type != Type::BYTE_ARRAY) {
    column_index_.min_values.push_back(page.min);
    column_index_.max_values.push_back(page.max);
    return;
  }
  const bool utf8 = column_.type->id() == TypeId::kString;
  column_index_.min_values.push_back(TruncateLowerBound(page.min, options_.statistics_truncate_length, utf8).value);
  auto max = TruncateUpperBound(page.max, options_.statistics_truncate_length, utf8);
  column_index_.max_values.push_back(max ? std::move(max->value) : page.max);
}

BoundaryOrder ColumnChunkWriterBase::ComputeBoundaryOrder() const {
  bool ascending = true;
  bool descending = true;
  const std::string* prev_min = nullptr;
  const std::string* prev_max = nullptr;
  for (size_t i = 0; i < column_index_.null_pages.size(); ++i) {
    if (column_index_.null_pages[i]) continue;
    const std::string& min = column_index_.min_values[i];
    const std::string& max = column_index_.max_values[i];
    if (prev_min != nullptr) {
      const int cmin = CompareStatisticsValues(column_.physical_type, sort_order_, *prev_min, min);
      const int cmax = CompareStatisticsValues(column_.physical_type, sort_order_, *prev_max, max);
      if (cmin > 0 || cmax > 0) ascending = false;
      if (cmin < 0 || cmax < 0) descending = false;
    }
    prev_min = &min;
    prev_max = &max;
  }
  if (ascending) return BoundaryOrder::ASCENDING;
  if (descending) return BoundaryOrder::DESCENDING;
  return BoundaryOrder::UNORDERED;
}

Status ColumnChunkWriterBase::FlushPage() {
  if (page_levels_ == 0) return Status::OK();
  StatisticsAccumulator page;
  TakePageStatistics(&page);
  // No order, no bounds (INT96, INTERVAL, GEOMETRY, GEOGRAPHY): counts only.
  if (sort_order_ == ColumnSortOrder::kUndefined) page.has_bounds = false;
  page.null_count = page_levels_ - page_values_;

  Encoding value_encoding = Encoding::PLAIN;
  body_.clear();
  PageHeader header;
  std::span<const uint8_t> data;
  if (options_.data_page_version == 1) {
    if (rep_bit_width_ > 0) {
      FLOE_RETURN_IF_ERROR(encoding::EncodeRleBitPackedHybridWithLengthPrefix<int16_t>(page_rep_, rep_bit_width_, &body_));
    }
    if (def_bit_width_ > 0) {
      FLOE_RETURN_IF_ERROR(encoding::EncodeRleBitPackedHybridWithLengthPrefix<int16_t>(page_def_, def_bit_width_, &body_));
    }
    // The values go straight after the levels: v1 compresses them together.
    FLOE_RETURN_IF_ERROR(EncodePageValues(&body_, &value_encoding));
    FLOE_ASSIGN_OR_RETURN(data, Compress(body_));
    header.type = PageType::DATA_PAGE;
    header.uncompressed_page_size = static_cast<int32_t>(body_.size());
    DataPageHeader dph;
    dph.num_values = static_cast<int32_t>(page_levels_);
    dph.encoding = value_encoding;
    dph.definition_level_encoding = Encoding::RLE;
    dph.repetition_level_encoding = Encoding::RLE;
    header.data_page_header = dph;
  } else {
    values_.clear();
    FLOE_RETURN_IF_ERROR(EncodePageValues(&values_, &value_encoding));
    // spec (DataPageHeaderV2): levels are not compressed and carry no length prefix.
    if (rep_bit_width_ > 0) FLOE_RETURN_IF_ERROR(encoding::EncodeRleBitPackedHybrid<int16_t>(page_rep_, rep_bit_width_, &body_));
    const size_t rep_length = body_.size();
    if (def_bit_width_ > 0) FLOE_RETURN_IF_ERROR(encoding::EncodeRleBitPackedHybrid<int16_t>(page_def_, def_bit_width_, &body_));
    const size_t levels_length = body_.size();
    const bool compressed = options_.codec != compression::Codec::kUncompressed;
    FLOE_ASSIGN_OR_RETURN(std::span<const uint8_t> values, Compress(values_));
    body_.insert(body_.end(), values.begin(), values.end());
    data = body_;
    header.type = PageType::DATA_PAGE_V2;
    header.uncompressed_page_size = static_cast<int32_t>(levels_length + values_.size());
    DataPageHeaderV2 v2;
    v2.num_values = static_cast<int32_t>(page_levels_);
    v2.num_nulls = static_cast<int32_t>(page_levels_ - page_values_);
    v2.num_rows = static_cast<int32_t>(page_rows_);
    v2.encoding = value_encoding;
    v2.definition_levels_byte_length = static_cast<int32_t>(levels_length - rep_length);
    v2.repetition_levels_byte_length = static_cast<int32_t>(rep_length);
    v2.is_compressed = compressed;
    header.data_page_header_v2 = v2;
  }

  const auto offset = static_cast<int64_t>(pages_.size());
  FLOE_RETURN_IF_ERROR(AppendPage(header, data, &pages_));
  offset_index_.page_locations.push_back(
      {offset, static_cast<int32_t>(static_cast<int64_t>(pages_.size()) - offset), chunk_rows_});
  AddColumnIndexEntry(page);
  chunk_stats_.Merge(page, column_.physical_type, sort_order_);
  CountEncoding(header.type, value_encoding);
  AddUnique(value_encoding, &encodings_);
  // Size statistics: the page's into the page index, then into the chunk's.
  if (offset_index_.unencoded_byte_array_data_bytes) {
    offset_index_.unencoded_byte_array_data_bytes->push_back(page_unencoded_bytes_);
  }
  chunk_unencoded_bytes_ += page_unencoded_bytes_;
  page_unencoded_bytes_ = 0;
  const auto fold = [](std::vector<int64_t>* page, std::vector<int64_t>* chunk, std::optional<std::vector<int64_t>>* index) {
    for (size_t i = 0; i < page->size(); ++i) (*chunk)[i] += (*page)[i];
    // spec (ColumnIndex): "(number of pages * (max_level + 1)) elements", page after page.
    if (*index) (*index)->insert((*index)->end(), page->begin(), page->end());
    std::fill(page->begin(), page->end(), 0);
  };
  fold(&page_def_histogram_, &chunk_def_histogram_, &column_index_.definition_level_histograms);
  fold(&page_rep_histogram_, &chunk_rep_histogram_, &column_index_.repetition_level_histograms);
  if (def_bit_width_ > 0 || rep_bit_width_ > 0) AddUnique(Encoding::RLE, &encodings_);

  chunk_levels_ += page_levels_;
  chunk_rows_ += page_rows_;
  page_def_.clear();
  page_rep_.clear();
  page_levels_ = page_values_ = page_rows_ = 0;
  return Status::OK();
}

Status ColumnChunkWriterBase::Finish(FinishedColumnChunk* out) {
  FLOE_RETURN_IF_ERROR(FlushPage());
  // The caller's previous pages buffer holds the next chunk's pages: a
  // fresh multi-MiB buffer per chunk costs a page fault per 4 KiB.
  std::vector<uint8_t> spare = std::move(out->data_pages);
  spare.clear();
  *out = FinishedColumnChunk{};
  std::vector<Encoding> encodings;
  std::vector<uint8_t> dictionary;
  int64_t entries = 0;
  if (TakeDictionary(&dictionary, &entries)) {
    FLOE_ASSIGN_OR_RETURN(std::span<const uint8_t> data, Compress(dictionary));
    PageHeader header;
    header.type = PageType::DICTIONARY_PAGE;
    header.uncompressed_page_size = static_cast<int32_t>(dictionary.size());
    DictionaryPageHeader dict;
    dict.num_values = static_cast<int32_t>(entries);
    dict.encoding = Encoding::PLAIN;
    header.dictionary_page_header = dict;
    FLOE_RETURN_IF_ERROR(AppendPage(header, data, &out->dictionary_page));
    encoding_stats_.insert(encoding_stats_.begin(), {PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1});
    encodings.push_back(Encoding::PLAIN);
  }
  for (Encoding e : encodings_) AddUnique(e, &encodings);
  const auto dict_size = static_cast<int64_t>(out->dictionary_page.size());

  ColumnMetaData& m = out->meta_data;
  m.type = column_.physical_type;
  m.encodings = std::move(encodings);
  m.path_in_schema = column_.path;
  m.codec = ToCompressionCodec(options_.codec);
  m.num_values = chunk_levels_;
  m.total_uncompressed_size = total_uncompressed_;
  m.total_compressed_size = total_compressed_;
  m.data_page_offset = dict_size;
  if (dict_size > 0) m.dictionary_page_offset = 0;
  m.statistics = MakeStatistics(column_, chunk_stats_, options_.statistics_truncate_length);
  m.encoding_stats = std::move(encoding_stats_);
  GeospatialStatistics geo;
  if (geospatial_ && geospatial_->Finish(&geo)) m.geospatial_statistics = std::move(geo);
  const bool byte_array = column_.physical_type == Type::BYTE_ARRAY;
  if (byte_array || !chunk_def_histogram_.empty() || !chunk_rep_histogram_.empty()) {
    SizeStatistics& size = m.size_statistics.emplace();
    // spec: "This field should only be set for types that use BYTE_ARRAY as their physical type."
    if (byte_array) size.unencoded_byte_array_data_bytes = chunk_unencoded_bytes_;
    if (!chunk_rep_histogram_.empty()) size.repetition_level_histogram = chunk_rep_histogram_;
    if (!chunk_def_histogram_.empty()) size.definition_level_histogram = chunk_def_histogram_;
  }

  for (auto& loc : offset_index_.page_locations) loc.offset += dict_size;
  out->offset_index = std::move(offset_index_);
  if (column_index_valid_) {
    column_index_.boundary_order = ComputeBoundaryOrder();
    out->column_index = std::move(column_index_);
  }
  out->data_pages = std::move(pages_);

  if (options_.bloom_filter) {
    if (!bloom_) {
      std::sort(bloom_hashes_.begin(), bloom_hashes_.end());
      bloom_hashes_.erase(std::unique(bloom_hashes_.begin(), bloom_hashes_.end()), bloom_hashes_.end());
      bloom_.emplace(SplitBlockBloomFilter::OptimalNumBytes(static_cast<int64_t>(bloom_hashes_.size()), options_.bloom_fpp));
      for (uint64_t h : bloom_hashes_) bloom_->Insert(h);
    }
    out->bloom_filter = std::move(bloom_);
  }

  // A new chunk.
  pages_ = std::move(spare);
  chunk_levels_ = chunk_rows_ = 0;
  total_uncompressed_ = total_compressed_ = 0;
  chunk_stats_ = {};
  column_index_ = {};
  column_index_.null_counts.emplace();
  if (IsFloatingPoint(column_)) column_index_.nan_counts.emplace();
  column_index_valid_ = sort_order_ != ColumnSortOrder::kUndefined;
  offset_index_ = {};
  encoding_stats_ = {};
  encodings_.clear();
  ResetBloom();
  ResetChunkSizeStatistics();
  if (geospatial_) geospatial_->Reset();
  ResetChunk();
  encryptor_.reset();
  ++chunks_finished_;
  chunk_data_pages_ = 0;
  return Status::OK();
}

}  // namespace internal

Result<std::unique_ptr<ColumnChunkWriter>> ColumnChunkWriter::Make(const WriterColumn& column,
                                                                    const ColumnChunkOptions& options) {
  const std::string name = Quote(column.dotted_path());
  if (options.data_page_version != 1 && options.data_page_version != 2) {
    return Status::InvalidArgument(StrCat("column ", name, ": data page version ", options.data_page_version,
                                          " (must be 1 or 2)"));
  }
  if (!internal::EncodingSupports(options.encoding, column.physical_type) ||
      (column.physical_type == Type::INT96 && options.encoding != Encoding::PLAIN)) {
    return Status::InvalidArgument(StrCat("column ", name, ": encoding ", EncodingName(options.encoding),
                                          " cannot encode ", TypeName(column.physical_type), " values"));
  }
  // BOOLEAN: exact min/max already tell which of the two values occur
  // (decision 0035). INT96: no hash is defined for it by the writers that
  // read bloom filters (parquet-mr, DuckDB).
  if (options.bloom_filter && (column.physical_type == Type::BOOLEAN || column.physical_type == Type::INT96)) {
    return Status::InvalidArgument(StrCat("column ", name, ": bloom filters are not written for ",
                                          TypeName(column.physical_type), " columns"));
  }
  if (options.bloom_filter && !(options.bloom_fpp > 0.0 && options.bloom_fpp < 1.0)) {
    return Status::InvalidArgument(StrCat("column ", name, ": bloom filter fpp ", options.bloom_fpp,
                                          " (must be between 0 and 1)"));
  }
  if (options.page_bytes <= 0 || options.page_rows <= 0) {
    return Status::InvalidArgument(StrCat("column ", name, ": page_bytes and page_rows must be positive"));
  }
  if (options.encryption) {
    const ChunkEncryption& e = *options.encryption;
    auto probe = ModuleEncryptor::Make(e.key, e.file_aad, e.ctr_pages, 0, e.column);
    if (!probe.ok()) return probe.status().WithContext(StrCat("column ", name));
  }
  if (options.codec != compression::Codec::kUncompressed) {
    // Checks the codec and level once, here, rather than at the first page.
    auto probe = compression::Compress(options.codec, {}, options.compression_level);
    if (!probe.ok()) return probe.status().WithContext(StrCat("column ", name));
  }
  auto writer = internal::MakeValueWriter(column, options);
  if (writer == nullptr) {
    return Status::Unsupported(StrCat("column ", name, ": floe does not write ", TypeName(column.physical_type)));
  }
  return writer;
}

}  // namespace floe::parquet
