// The page machinery every ColumnChunkWriter shares (levels, page cutting,
// compression, checksums, headers, page index entries, chunk metadata), and
// the hooks the typed value writers (column_value_writers.cc) fill in.
// Private to column_chunk_writer.cc and column_value_writers.cc.

#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/columnar/bit_util.h"
#include "floe/formats/parquet/column_chunk_writer.h"
#include "floe/formats/parquet/encryption.h"
#include "floe/formats/parquet/geospatial_statistics.h"
#include "floe/formats/parquet/statistics_writer.h"

namespace floe::parquet::internal {

class ColumnChunkWriterBase : public ColumnChunkWriter {
 public:
  ColumnChunkWriterBase(const WriterColumn& column, const ColumnChunkOptions& options);

  Status Write(const ShreddedLeaf& leaf) final;
  int64_t buffered_bytes() const final;
  Status Finish(FinishedColumnChunk* out) final;

 protected:
  // Gathers values [first, first + n) of the current leaf's selection into
  // the open page, updating statistics, bloom hashes and the dictionary.
  virtual Status AppendValues(int64_t first, int64_t n) = 0;
  // The open page's values, encoded, in bytes (an estimate).
  virtual int64_t EstimatedValueBytes() const = 0;
  // The dictionary's PLAIN size; 0 without one.
  virtual int64_t DictionaryBytes() const = 0;
  // True when the dictionary passed its limit: the page is cut and FallBack() called.
  virtual bool DictionaryFull() const = 0;
  virtual void FallBack() = 0;
  // Appends the open page's values in their encoding and empties them.
  virtual Status EncodePageValues(std::vector<uint8_t>* out, Encoding* encoding) = 0;
  // Moves the open page's bounds and NaN count to *page and resets them.
  virtual void TakePageStatistics(StatisticsAccumulator* page) = 0;
  // The dictionary page body and its entry count; false when no page used it.
  virtual bool TakeDictionary(std::vector<uint8_t>* body, int64_t* num_entries) = 0;
  // Starts a new chunk: a new dictionary, dictionary mode per the options.
  virtual void ResetChunk() = 0;

  // Calls f(k, index) for k in [0, n): the absolute index in leaf_->values of
  // value first + k. Values are consumed in order.
  template <typename F>
  void ForEachValue(int64_t first, int64_t n, F&& f) {
    if (leaf_->has_indices) {
      const int64_t* idx = leaf_->indices.data() + first;
      for (int64_t k = 0; k < n; ++k) f(k, idx[k]);
      return;
    }
    if (validity_ == nullptr) {
      for (int64_t k = 0; k < n; ++k) f(k, cursor_ + k);
      cursor_ += n;
      return;
    }
    for (int64_t k = 0; k < n; ++cursor_) {
      if (bit_util::GetBit(validity_, cursor_)) f(k++, cursor_);
    }
  }
  // True when values [first, first + n) are the contiguous elements starting
  // at the returned index (no nulls, no gaps); consumes them.
  std::optional<int64_t> TakeContiguous(int64_t n) {
    if (leaf_->has_indices || validity_ != nullptr) return std::nullopt;
    const int64_t start = cursor_;
    cursor_ += n;
    return start;
  }

  void AddBloomHash(uint64_t hash) {
    if (bloom_) {
      bloom_->Insert(hash);
    } else {
      bloom_hashes_.push_back(hash);
    }
  }
  bool bloom_enabled() const { return options_.bloom_filter; }
  // BYTE_ARRAY writers report the bytes of the values they append (no
  // length prefixes): SizeStatistics.unencoded_byte_array_data_bytes.
  void AddUnencodedBytes(int64_t bytes) { page_unencoded_bytes_ += bytes; }

  const WriterColumn& column_;
  const ColumnChunkOptions options_;
  const ColumnSortOrder sort_order_;
  const ShreddedLeaf* leaf_ = nullptr;  // during Write()
  // GEOMETRY and GEOGRAPHY columns: the chunk's bounding box and types,
  // which the BYTE_ARRAY writer feeds with every value.
  std::optional<GeospatialStatisticsBuilder> geospatial_;

 private:
  Status FlushPage();
  Result<std::span<const uint8_t>> Compress(std::span<const uint8_t> in);
  Status AppendPage(const PageHeader& header, std::span<const uint8_t> data, std::vector<uint8_t>* out);
  // The chunk's encryptor, made at its first page; null when not encrypting.
  Result<ModuleEncryptor*> ChunkEncryptor();
  void CountEncoding(PageType type, Encoding encoding);
  void AddColumnIndexEntry(const StatisticsAccumulator& page);
  BoundaryOrder ComputeBoundaryOrder() const;
  void ResetBloom();
  void ResetChunkSizeStatistics();

  const int def_bit_width_;
  const int rep_bit_width_;

  // Selection cursor for flat leaves.
  const uint8_t* validity_ = nullptr;
  int64_t cursor_ = 0;

  // The open page.
  std::vector<int16_t> page_def_;
  std::vector<int16_t> page_rep_;
  int64_t page_levels_ = 0;
  int64_t page_values_ = 0;
  int64_t page_rows_ = 0;
  int64_t page_unencoded_bytes_ = 0;
  // Level histograms of the open page (spec: SizeStatistics; one count per
  // level 0..max), empty when the column's max level is 0.
  std::vector<int64_t> page_def_histogram_;
  std::vector<int64_t> page_rep_histogram_;

  // The chunk so far.
  std::vector<uint8_t> pages_;
  int64_t chunk_levels_ = 0;
  int64_t chunk_rows_ = 0;
  int64_t total_uncompressed_ = 0;
  int64_t total_compressed_ = 0;
  StatisticsAccumulator chunk_stats_;
  int64_t chunk_unencoded_bytes_ = 0;
  std::vector<int64_t> chunk_def_histogram_;
  std::vector<int64_t> chunk_rep_histogram_;
  ColumnIndex column_index_;
  bool column_index_valid_ = true;
  OffsetIndex offset_index_;
  std::vector<PageEncodingStats> encoding_stats_;
  std::vector<Encoding> encodings_;
  std::optional<SplitBlockBloomFilter> bloom_;  // when bloom_ndv sizes it up front
  std::vector<uint64_t> bloom_hashes_;          // otherwise

  // Encryption: the open chunk's encryptor, the chunks finished before it
  // (its row group ordinal) and its data pages so far (the page ordinal).
  std::optional<ModuleEncryptor> encryptor_;
  int64_t chunks_finished_ = 0;
  int32_t chunk_data_pages_ = 0;

  // Scratch, reused page to page.
  std::vector<uint8_t> body_;
  std::vector<uint8_t> values_;
  std::vector<uint8_t> compressed_;
  std::string header_;
  std::vector<uint8_t> encrypted_;
};

// The typed writer for `column`'s physical type; options already checked.
std::unique_ptr<ColumnChunkWriter> MakeValueWriter(const WriterColumn& column, const ColumnChunkOptions& options);
// The two legacy or narrow forms (column_value_writers_legacy.cc): INT96
// timestamps and FLOAT16 from float32.
std::unique_ptr<ColumnChunkWriter> MakeInt96Writer(const WriterColumn& column, const ColumnChunkOptions& options);
std::unique_ptr<ColumnChunkWriter> MakeFloat16Writer(const WriterColumn& column, const ColumnChunkOptions& options);

// Whether `encoding` can encode `physical` values (besides dictionary pages).
bool EncodingSupports(Encoding encoding, Type physical);

}  // namespace floe::parquet::internal
