// The typed halves of ColumnChunkWriter: per physical type, how values are
// gathered from the leaf array (with the floe -> Parquet value conversion),
// measured for statistics, hashed for bloom filters, put through the
// dictionary and encoded a page at a time. One type switch per mini-batch;
// the per-value loops are templates, with no virtual call inside.

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "floe/base/strings.h"
#include "floe/columnar/value_format.h"
#include "floe/formats/parquet/column_chunk_writer_internal.h"
#include "floe/formats/parquet/encoding/byte_stream_split.h"
#include "floe/formats/parquet/encoding/delta_binary_packed.h"
#include "floe/formats/parquet/encoding/delta_byte_array.h"
#include "floe/formats/parquet/encoding/delta_length_byte_array.h"
#include "floe/formats/parquet/encoding/dictionary.h"
#include "floe/formats/parquet/encoding/dictionary_builder.h"
#include "floe/formats/parquet/encoding/plain.h"
#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"
#include "floe/formats/parquet/statistics.h"

namespace floe::parquet::internal {
namespace {

// The early give-up on a chunk's dictionary (docs/decisions/0046): once the
// chunk's first page has put kDictionaryProbeValues values through it and
// more than 31 in 32 of them were new, the dictionary is dropped there, as
// the page-end rule would drop it, without hashing the rest of the page.
// Such a dictionary saves at most 1/32 of the probed values' PLAIN bytes.
constexpr int64_t kDictionaryProbeValues = 4096;

bool DictionaryHopeless(int64_t distinct, int64_t values) {
  return values >= kDictionaryProbeValues && distinct * 32 > values * 31;
}

// A decimal's unscaled value as `width` (1..16) bytes of big-endian two's
// complement (spec: DECIMAL on FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY).
void StoreBigEndian(Decimal128Value value, int width, uint8_t* out) {
  for (int b = width - 1; b >= 0; --b) {
    out[b] = static_cast<uint8_t>(value);
    value >>= 8;  // arithmetic: the sign extends
  }
}

// INT32, INT64, FLOAT and DOUBLE.
template <typename T>
class FixedWidthWriter final : public ColumnChunkWriterBase {
  using Unsigned = std::make_unsigned_t<std::conditional_t<std::is_integral_v<T>, T, int32_t>>;

 public:
  FixedWidthWriter(const WriterColumn& column, const ColumnChunkOptions& options)
      : ColumnChunkWriterBase(column, options) {
    NewDictionary();
  }

 protected:
  Status AppendValues(int64_t first, int64_t n) override {
    T* dst;
    if (dictionary_active_) {
      scratch_.resize(static_cast<size_t>(n));
      dst = scratch_.data();
    } else {
      const size_t old = values_.size();
      values_.resize(old + static_cast<size_t>(n));
      dst = values_.data() + old;
    }
    FLOE_RETURN_IF_ERROR(Gather(first, n, dst));
    UpdateStatistics(dst, n);
    if (bloom_enabled()) {
      for (int64_t i = 0; i < n; ++i) AddBloomHash(BloomHash(dst[i]));
    }
    if (dictionary_active_) {
      const size_t old = indices_.size();
      indices_.resize(old + static_cast<size_t>(n));
      FLOE_RETURN_IF_ERROR(dictionary_->Put(std::span<const T>(dst, static_cast<size_t>(n)), indices_.data() + old));
      plain_bytes_ += n * static_cast<int64_t>(sizeof(T));
      if (!dictionary_used_ && DictionaryHopeless(dictionary_->size(), static_cast<int64_t>(indices_.size()))) {
        DropFirstPageDictionary();
      }
    }
    return Status::OK();
  }

  int64_t EstimatedValueBytes() const override {
    if (dictionary_active_) {
      return static_cast<int64_t>(indices_.size()) * dictionary_->index_bit_width() / 8 + 1;
    }
    return static_cast<int64_t>(values_.size() * sizeof(T));
  }
  int64_t DictionaryBytes() const override { return dictionary_ ? dictionary_->dictionary_bytes() : 0; }
  bool DictionaryFull() const override { return dictionary_active_ && dictionary_->ShouldFallBack(); }
  void FallBack() override { dictionary_active_ = false; }

  Status EncodePageValues(std::vector<uint8_t>* out, Encoding* encoding) override {
    if (dictionary_active_) {
      const size_t start = out->size();
      *encoding = Encoding::RLE_DICTIONARY;
      FLOE_RETURN_IF_ERROR(encoding::EncodeDictionaryIndices(indices_, dictionary_->index_bit_width(), out));
      if (dictionary_used_ ||
          static_cast<int64_t>(out->size() - start) + dictionary_->dictionary_bytes() < plain_bytes_) {
        indices_.clear();
        dictionary_used_ = true;
        return Status::OK();
      }
      // As parquet-mr's FallbackValuesWriter: a dictionary that does not beat
      // PLAIN on the chunk's first page is dropped, and that page too is
      // written in the fallback encoding (no dictionary page is written).
      out->resize(start);
      DropFirstPageDictionary();
    }
    *encoding = options_.encoding;
    const std::span<const T> values(values_);
    switch (options_.encoding) {
      case Encoding::DELTA_BINARY_PACKED:
        if constexpr (std::is_integral_v<T>) {
          encoding::EncodeDeltaBinaryPacked<T>(values, out);
          break;
        }
        [[fallthrough]];
      case Encoding::BYTE_STREAM_SPLIT:
        if (options_.encoding == Encoding::BYTE_STREAM_SPLIT) {
          encoding::EncodeByteStreamSplit<T>(values, out);
          break;
        }
        [[fallthrough]];
      default: encoding::EncodePlain<T>(values, out); *encoding = Encoding::PLAIN;
    }
    values_.clear();
    return Status::OK();
  }

  void TakePageStatistics(StatisticsAccumulator* page) override {
    page->nan_count = nan_count_;
    page->has_bounds = has_bounds_;
    if (has_bounds_) {
      T min = min_;
      T max = max_;
      if constexpr (std::is_floating_point_v<T>) {
        // spec (ColumnOrder, TYPE_ORDER): a zero minimum is written -0.0, a zero maximum +0.0.
        if (min == 0) min = -T{0};
        if (max == 0) max = T{0};
      }
      page->min = PlainValue(min);
      page->max = PlainValue(max);
    }
    has_bounds_ = false;
    nan_count_ = 0;
  }

  bool TakeDictionary(std::vector<uint8_t>* body, int64_t* num_entries) override {
    if (!dictionary_used_) return false;
    dictionary_->WriteDictionaryPage(body);
    *num_entries = dictionary_->size();
    return true;
  }

  void ResetChunk() override { NewDictionary(); }

 private:
  void NewDictionary() {
    dictionary_active_ = options_.dictionary && column_.type->id() != TypeId::kNull;
    dictionary_used_ = false;
    plain_bytes_ = 0;
    if (!dictionary_active_) return;
    // The previous chunk's builder is reused: its table is already grown.
    if (dictionary_) {
      dictionary_->Clear();
    } else {
      dictionary_ = std::make_unique<encoding::DictionaryBuilder<T>>(options_.dictionary_page_size_limit);
    }
  }

  // The open (first) page's values, looked up from its dictionary indices,
  // back in values_; the chunk goes on without a dictionary.
  void DropFirstPageDictionary() {
    const std::span<const T> entries = dictionary_->values();
    values_.resize(indices_.size());
    for (size_t k = 0; k < indices_.size(); ++k) values_[k] = entries[indices_[k]];
    indices_.clear();
    dictionary_active_ = false;
    dictionary_->Clear();
  }

  template <typename Src, typename Convert>
  void GatherFrom(int64_t first, int64_t n, T* dst, Convert convert) {
    const Src* src = reinterpret_cast<const Src*>(leaf_->values->buffers[1].data());
    if constexpr (std::is_same_v<Src, T>) {
      if (auto start = TakeContiguous(n)) {
        std::memcpy(dst, src + *start, static_cast<size_t>(n) * sizeof(T));
        return;
      }
    }
    ForEachValue(first, n, [&](int64_t k, int64_t i) { dst[k] = convert(src[i]); });
  }

  // TIME and TIMESTAMP in a coarser unit than the floe type's
  // (WriterColumn::unit_divisor): values are divided, never rounded.
  Status GatherCoarser(int64_t first, int64_t n, T* dst) {
    const int64_t divisor = column_.unit_divisor;
    const auto* src = reinterpret_cast<const int64_t*>(leaf_->values->buffers[1].data());
    std::optional<int64_t> bad;
    ForEachValue(first, n, [&](int64_t k, int64_t i) {
      const int64_t v = src[i];
      const int64_t q = v / divisor;
      bool fits = v % divisor == 0;
      if constexpr (std::is_same_v<T, int32_t>) fits = fits && q >= int64_t{INT32_MIN} && q <= int64_t{INT32_MAX};  // TIME(MILLIS)
      if (!fits && !bad) bad = v;
      dst[k] = static_cast<T>(q);
    });
    if (!bad) return Status::OK();
    return Status::InvalidArgument(StrCat("column ", Quote(column_.dotted_path()), ": ", column_.type->ToString(),
                                          " value ", *bad, " is no whole number of the annotation's unit (",
                                          divisor, " times coarser)"));
  }

  Status Gather(int64_t first, int64_t n, T* dst) {
    const auto same = [](auto v) { return static_cast<T>(v); };
    const TypeId id = column_.type->id();
    if constexpr (std::is_integral_v<T>) {
      if (column_.unit_divisor != 1 && (id == TypeId::kTime64 || id == TypeId::kTimestamp)) {
        return GatherCoarser(first, n, dst);
      }
    }
    if constexpr (std::is_same_v<T, int32_t>) {
      switch (id) {
        case TypeId::kInt8: GatherFrom<int8_t>(first, n, dst, same); return Status::OK();
        case TypeId::kInt16: GatherFrom<int16_t>(first, n, dst, same); return Status::OK();
        case TypeId::kUInt8: GatherFrom<uint8_t>(first, n, dst, same); return Status::OK();
        case TypeId::kUInt16: GatherFrom<uint16_t>(first, n, dst, same); return Status::OK();
        case TypeId::kInt32:
        case TypeId::kDate32: GatherFrom<int32_t>(first, n, dst, same); return Status::OK();
        case TypeId::kUInt32: GatherFrom<int32_t>(first, n, dst, same); return Status::OK();  // same bits
        case TypeId::kDecimal128: GatherFrom<Decimal128Value>(first, n, dst, same); return Status::OK();
        default: break;
      }
    } else if constexpr (std::is_same_v<T, int64_t>) {
      switch (id) {
        case TypeId::kInt64:
        case TypeId::kUInt64:  // same bits
        case TypeId::kTime64:
        case TypeId::kTimestamp: GatherFrom<int64_t>(first, n, dst, same); return Status::OK();
        case TypeId::kDecimal128: GatherFrom<Decimal128Value>(first, n, dst, same); return Status::OK();
        default: break;
      }
    } else if constexpr (std::is_same_v<T, float>) {
      if (id == TypeId::kFloat32) {
        GatherFrom<float>(first, n, dst, same);
        return Status::OK();
      }
    } else {
      if (id == TypeId::kFloat64) {
        GatherFrom<double>(first, n, dst, same);
        return Status::OK();
      }
    }
    return Status::Internal(StrCat("column ", Quote(column_.dotted_path()), ": no ", TypeName(column_.physical_type),
                                   " conversion for ", column_.type->ToString()));
  }

  void UpdateStatistics(const T* v, int64_t n) {
    if constexpr (std::is_floating_point_v<T>) {
      T lo = std::numeric_limits<T>::infinity();
      T hi = -std::numeric_limits<T>::infinity();
      int64_t nans = 0;
      for (int64_t i = 0; i < n; ++i) {
        const T x = v[i];
        if (std::isnan(x)) {
          ++nans;
          continue;
        }
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
      }
      nan_count_ += nans;
      if (nans == n) return;
      Fold(lo, hi);
    } else {
      if (sort_order_ == ColumnSortOrder::kUnsigned) {
        Unsigned lo = std::numeric_limits<Unsigned>::max();
        Unsigned hi = 0;
        for (int64_t i = 0; i < n; ++i) {
          const auto x = static_cast<Unsigned>(v[i]);
          lo = x < lo ? x : lo;
          hi = x > hi ? x : hi;
        }
        if (!has_bounds_) {
          min_ = static_cast<T>(lo);
          max_ = static_cast<T>(hi);
          has_bounds_ = true;
        } else {
          if (lo < static_cast<Unsigned>(min_)) min_ = static_cast<T>(lo);
          if (hi > static_cast<Unsigned>(max_)) max_ = static_cast<T>(hi);
        }
        return;
      }
      T lo = std::numeric_limits<T>::max();
      T hi = std::numeric_limits<T>::min();
      for (int64_t i = 0; i < n; ++i) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
      }
      Fold(lo, hi);
    }
  }

  void Fold(T lo, T hi) {
    if (!has_bounds_) {
      min_ = lo;
      max_ = hi;
      has_bounds_ = true;
      return;
    }
    if (lo < min_) min_ = lo;
    if (hi > max_) max_ = hi;
  }

  std::vector<T> values_;  // the open page, when not dictionary-encoded
  std::vector<T> scratch_;
  std::vector<uint32_t> indices_;  // the open page, when dictionary-encoded
  std::unique_ptr<encoding::DictionaryBuilder<T>> dictionary_;
  bool dictionary_active_ = false;
  bool dictionary_used_ = false;
  int64_t plain_bytes_ = 0;  // PLAIN size of the values put through the dictionary
  bool has_bounds_ = false;
  T min_{};
  T max_{};
  int64_t nan_count_ = 0;
};

// BOOLEAN: PLAIN (bit-packed) or RLE, no dictionary.
class BooleanWriter final : public ColumnChunkWriterBase {
 public:
  using ColumnChunkWriterBase::ColumnChunkWriterBase;

 protected:
  Status AppendValues(int64_t first, int64_t n) override {
    const uint8_t* bits = leaf_->values->buffers[1].data();
    const size_t old = values_.size();
    values_.resize(old + static_cast<size_t>(n));
    uint8_t* dst = values_.data() + old;
    uint8_t any_true = 0;
    uint8_t all_true = 1;
    ForEachValue(first, n, [&](int64_t k, int64_t i) {
      const uint8_t b = bit_util::GetBit(bits, i) ? 1 : 0;
      dst[k] = b;
      any_true |= b;
      all_true &= b;
    });
    has_true_ = has_true_ || any_true;
    has_false_ = has_false_ || !all_true;
    return Status::OK();
  }
  int64_t EstimatedValueBytes() const override { return static_cast<int64_t>(values_.size() / 8 + 1); }
  int64_t DictionaryBytes() const override { return 0; }
  bool DictionaryFull() const override { return false; }
  void FallBack() override {}
  Status EncodePageValues(std::vector<uint8_t>* out, Encoding* encoding) override {
    if (options_.encoding == Encoding::RLE) {
      // spec (Encodings.md, RLE): booleans at bit width 1, with the 4-byte
      // length prefix in data pages v1 and v2 alike.
      *encoding = Encoding::RLE;
      FLOE_RETURN_IF_ERROR(encoding::EncodeRleBitPackedHybridWithLengthPrefix<uint8_t>(values_, 1, out));
      values_.clear();
      return Status::OK();
    }
    *encoding = Encoding::PLAIN;
    // PLAIN BOOLEAN: bits, least significant first.
    const size_t start = out->size();
    out->resize(start + (values_.size() + 7) / 8, 0);
    uint8_t* bytes = out->data() + start;
    for (size_t i = 0; i < values_.size(); ++i) bytes[i >> 3] |= static_cast<uint8_t>(values_[i] << (i & 7));
    values_.clear();
    return Status::OK();
  }
  void TakePageStatistics(StatisticsAccumulator* page) override {
    page->has_bounds = has_true_ || has_false_;
    if (page->has_bounds) {
      page->min = std::string(1, has_false_ ? '\0' : '\1');
      page->max = std::string(1, has_true_ ? '\1' : '\0');
    }
    has_true_ = has_false_ = false;
  }
  bool TakeDictionary(std::vector<uint8_t>*, int64_t*) override { return false; }
  void ResetChunk() override {}

 private:
  std::vector<uint8_t> values_;  // one byte per value, 0 or 1
  bool has_true_ = false;
  bool has_false_ = false;
};

// BYTE_ARRAY (string, binary) and FIXED_LEN_BYTE_ARRAY (fixed_size_binary,
// uuid, wide decimals). Values of the open page are kept as Arrow-layout
// offsets and bytes (fixed width: bytes only).
template <bool kFixed>
class BytesWriter final : public ColumnChunkWriterBase {
  using Dictionary =
      std::conditional_t<kFixed, encoding::FixedLenByteArrayDictionaryBuilder, encoding::ByteArrayDictionaryBuilder>;

 public:
  BytesWriter(const WriterColumn& column, const ColumnChunkOptions& options)
      : ColumnChunkWriterBase(column, options), width_(column.type_length) {
    NewDictionary();
  }

 protected:
  Status AppendValues(int64_t first, int64_t n) override {
    std::vector<int32_t>& offsets = dictionary_active_ ? scratch_offsets_ : offsets_;
    std::vector<uint8_t>& data = dictionary_active_ ? scratch_data_ : data_;
    if (dictionary_active_) {
      scratch_offsets_.assign(1, 0);
      scratch_data_.clear();
    }
    const size_t first_byte = data.size();
    const size_t first_offset = offsets.size() - 1;
    if constexpr (kFixed) {
      FLOE_RETURN_IF_ERROR(GatherFixed(first, n, &data));
    } else {
      FLOE_RETURN_IF_ERROR(GatherVariable(first, n, &offsets, &data));
      AddUnencodedBytes(static_cast<int64_t>(data.size() - first_byte));
    }

    // Statistics and bloom hashes over the new values.
    const uint8_t* base = data.data();
    const auto value = [&](int64_t k) -> std::string_view {
      if constexpr (kFixed) {
        return {reinterpret_cast<const char*>(base + first_byte) + k * width_, static_cast<size_t>(width_)};
      } else {
        const int32_t* o = offsets.data() + first_offset;
        return {reinterpret_cast<const char*>(base) + o[k], static_cast<size_t>(o[k + 1] - o[k])};
      }
    };
    if (n > 0) {
      std::string_view lo = value(0);
      std::string_view hi = lo;
      for (int64_t k = 1; k < n; ++k) {
        const std::string_view v = value(k);
        if (Less(v, lo)) lo = v;
        if (Less(hi, v)) hi = v;
      }
      if (!has_bounds_ || Less(lo, min_)) min_.assign(lo);
      if (!has_bounds_ || Less(max_, hi)) max_.assign(hi);
      has_bounds_ = true;
    }
    if (bloom_enabled()) {
      for (int64_t k = 0; k < n; ++k) AddBloomHash(BloomHash(value(k)));
    }
    if (geospatial_) {
      for (int64_t k = 0; k < n; ++k) geospatial_->Add(value(k));
    }

    if (dictionary_active_) {
      plain_bytes_ += static_cast<int64_t>(scratch_data_.size()) + (kFixed ? 0 : 4 * n);
      const size_t old = indices_.size();
      indices_.resize(old + static_cast<size_t>(n));
      if constexpr (kFixed) {
        FLOE_RETURN_IF_ERROR(dictionary_->Put(scratch_data_, indices_.data() + old));
      } else {
        FLOE_RETURN_IF_ERROR(dictionary_->Put(
            encoding::ByteArrayView{scratch_offsets_.data(), scratch_data_.data(), n}, indices_.data() + old));
      }
      if (!dictionary_used_ && DictionaryHopeless(dictionary_->size(), static_cast<int64_t>(indices_.size()))) {
        RestorePageValues();
        indices_.clear();
        dictionary_active_ = false;
        dictionary_->Clear();
      }
    }
    return Status::OK();
  }

  int64_t EstimatedValueBytes() const override {
    if (dictionary_active_) {
      return static_cast<int64_t>(indices_.size()) * dictionary_->index_bit_width() / 8 + 1;
    }
    const int64_t count = kFixed ? 0 : static_cast<int64_t>(offsets_.size()) - 1;
    return static_cast<int64_t>(data_.size()) + 4 * count;
  }
  int64_t DictionaryBytes() const override { return dictionary_ ? dictionary_->dictionary_bytes() : 0; }
  bool DictionaryFull() const override { return dictionary_active_ && dictionary_->ShouldFallBack(); }
  void FallBack() override { dictionary_active_ = false; }

  Status EncodePageValues(std::vector<uint8_t>* out, Encoding* encoding) override {
    if (dictionary_active_) {
      const size_t start = out->size();
      *encoding = Encoding::RLE_DICTIONARY;
      FLOE_RETURN_IF_ERROR(encoding::EncodeDictionaryIndices(indices_, dictionary_->index_bit_width(), out));
      if (dictionary_used_ ||
          static_cast<int64_t>(out->size() - start) + dictionary_->dictionary_bytes() < plain_bytes_) {
        indices_.clear();
        dictionary_used_ = true;
        return Status::OK();
      }
      // As parquet-mr: a dictionary that does not beat PLAIN on the chunk's
      // first page is dropped, that page included (see FixedWidthWriter).
      out->resize(start);
      RestorePageValues();
      indices_.clear();
      dictionary_active_ = false;
      dictionary_->Clear();
    }
    *encoding = options_.encoding;
    if constexpr (kFixed) {
      switch (options_.encoding) {
        case Encoding::DELTA_BYTE_ARRAY: FLOE_RETURN_IF_ERROR(encoding::EncodeDeltaByteArray(data_, width_, out)); break;
        case Encoding::BYTE_STREAM_SPLIT: FLOE_RETURN_IF_ERROR(encoding::EncodeByteStreamSplit(data_, width_, out)); break;
        default:
          *encoding = Encoding::PLAIN;
          FLOE_RETURN_IF_ERROR(encoding::EncodePlainFixedLenByteArray(data_, width_, out));
      }
      data_.clear();
    } else {
      const encoding::ByteArrayView view{offsets_.data(), data_.data(), static_cast<int64_t>(offsets_.size()) - 1};
      switch (options_.encoding) {
        case Encoding::DELTA_LENGTH_BYTE_ARRAY: encoding::EncodeDeltaLengthByteArray(view, out); break;
        case Encoding::DELTA_BYTE_ARRAY: encoding::EncodeDeltaByteArray(view, out); break;
        default: *encoding = Encoding::PLAIN; encoding::EncodePlainByteArray(view, out);
      }
      offsets_.assign(1, 0);
      data_.clear();
    }
    return Status::OK();
  }

  void TakePageStatistics(StatisticsAccumulator* page) override {
    page->has_bounds = has_bounds_;
    if (has_bounds_) {
      page->min = std::move(min_);
      page->max = std::move(max_);
    }
    min_.clear();
    max_.clear();
    has_bounds_ = false;
  }

  bool TakeDictionary(std::vector<uint8_t>* body, int64_t* num_entries) override {
    if (!dictionary_used_) return false;
    dictionary_->WriteDictionaryPage(body);
    *num_entries = dictionary_->size();
    return true;
  }

  void ResetChunk() override { NewDictionary(); }

 private:
  void NewDictionary() {
    dictionary_active_ = options_.dictionary;
    dictionary_used_ = false;
    plain_bytes_ = 0;
    if (dictionary_active_ && dictionary_) {
      dictionary_->Clear();  // the previous chunk's builder, its table already grown
    } else if (dictionary_active_) {
      if constexpr (kFixed) {
        dictionary_ = std::make_unique<Dictionary>(width_, options_.dictionary_page_size_limit);
      } else {
        dictionary_ = std::make_unique<Dictionary>(options_.dictionary_page_size_limit);
      }
    }
  }

  // The open page's values, looked up from its dictionary indices, back in
  // offsets_ / data_ (the layout of a page that is not dictionary-encoded).
  void RestorePageValues() {
    offsets_.assign(1, 0);
    data_.clear();
    if constexpr (kFixed) {
      const std::span<const uint8_t> entries = dictionary_->values();
      const auto w = static_cast<size_t>(width_);
      data_.resize(indices_.size() * w);
      for (size_t k = 0; w > 0 && k < indices_.size(); ++k) {
        std::memcpy(data_.data() + k * w, entries.data() + indices_[k] * w, w);
      }
    } else {
      const encoding::ByteArrayView entries = dictionary_->values();
      for (const uint32_t index : indices_) {
        const std::string_view v = entries.Value(index);
        data_.insert(data_.end(), v.begin(), v.end());
        offsets_.push_back(static_cast<int32_t>(data_.size()));
      }
    }
  }

  bool Less(std::string_view a, std::string_view b) const {
    if (sort_order_ == ColumnSortOrder::kSignedBytes) return CompareStatisticsValues(column_.physical_type, sort_order_, a, b) < 0;
    return a < b;  // unsigned byte-wise
  }

  Status GatherVariable(int64_t first, int64_t n, std::vector<int32_t>* offsets, std::vector<uint8_t>* data) {
    const ArrayData& a = *leaf_->values;
    if (column_.type->id() == TypeId::kDecimal128) {
      // All in the precision's width, so that bounds compare at one size.
      const auto* src = reinterpret_cast<const Decimal128Value*>(a.buffers[1].data());
      const int width = DecimalByteWidth(column_.type->precision());
      ForEachValue(first, n, [&](int64_t, int64_t i) {
        const size_t at = data->size();
        data->resize(at + static_cast<size_t>(width));
        StoreBigEndian(src[i], width, data->data() + at);
        offsets->push_back(static_cast<int32_t>(data->size()));
      });
      return CheckSize(data->size(), 0);
    }
    const int32_t* src_offsets = reinterpret_cast<const int32_t*>(a.buffers[1].data());
    const uint8_t* src = a.buffers[2].data();
    if (auto start = TakeContiguous(n)) {
      const int64_t begin = src_offsets[*start];
      const int64_t bytes = src_offsets[*start + n] - begin;
      FLOE_RETURN_IF_ERROR(CheckSize(data->size(), bytes));
      const int32_t shift = static_cast<int32_t>(static_cast<int64_t>(data->size()) - begin);
      for (int64_t k = 1; k <= n; ++k) offsets->push_back(src_offsets[*start + k] + shift);
      data->insert(data->end(), src + begin, src + begin + bytes);
      return Status::OK();
    }
    ForEachValue(first, n, [&](int64_t, int64_t i) {
      data->insert(data->end(), src + src_offsets[i], src + src_offsets[i + 1]);
      // Past 2^31 - 1 bytes the offsets wrap; CheckSize() rejects the page below.
      offsets->push_back(static_cast<int32_t>(data->size()));
    });
    return CheckSize(data->size(), 0);
  }

  Status CheckSize(size_t have, int64_t more) const {
    if (static_cast<int64_t>(have) + more <= encoding::kMaxByteArrayDataSize) return Status::OK();
    return Status::InvalidArgument(StrCat("column ", Quote(column_.dotted_path()),
                                          ": a page's values pass 2 GiB; lower page_bytes"));
  }

  Status GatherFixed(int64_t first, int64_t n, std::vector<uint8_t>* data) {
    const ArrayData& a = *leaf_->values;
    const size_t old = data->size();
    data->resize(old + static_cast<size_t>(n * width_));
    uint8_t* dst = data->data() + old;
    if (column_.type->id() == TypeId::kDecimal128) {
      const auto* src = reinterpret_cast<const Decimal128Value*>(a.buffers[1].data());
      const int w = width_;
      ForEachValue(first, n, [&](int64_t k, int64_t i) { StoreBigEndian(src[i], w, dst + k * w); });
      return Status::OK();
    }
    if (column_.type->id() == TypeId::kInterval) return GatherIntervals(first, n, dst);
    const uint8_t* src = a.buffers[1].data();
    const size_t w = static_cast<size_t>(width_);
    if (auto start = TakeContiguous(n)) {
      std::memcpy(dst, src + static_cast<size_t>(*start) * w, static_cast<size_t>(n) * w);
      return Status::OK();
    }
    ForEachValue(first, n, [&](int64_t k, int64_t i) { std::memcpy(dst + static_cast<size_t>(k) * w, src + static_cast<size_t>(i) * w, w); });
    return Status::OK();
  }

  // spec (ConvertedType INTERVAL): three little-endian unsigned 32-bit
  // integers, months, days and milliseconds. An interval with a negative
  // part or a fraction of a millisecond has no such form: InvalidArgument.
  Status GatherIntervals(int64_t first, int64_t n, uint8_t* dst) {
    constexpr int64_t kNanosPerMilli = 1'000'000;
    const auto* src = reinterpret_cast<const MonthDayNano*>(leaf_->values->buffers[1].data());
    std::optional<MonthDayNano> bad;
    ForEachValue(first, n, [&](int64_t k, int64_t i) {
      const MonthDayNano& v = src[i];
      const int64_t millis = v.nanoseconds / kNanosPerMilli;
      if (!bad && (v.months < 0 || v.days < 0 || v.nanoseconds < 0 || v.nanoseconds % kNanosPerMilli != 0 ||
                   millis > std::numeric_limits<uint32_t>::max())) {
        bad = v;
      }
      const uint32_t parts[3] = {static_cast<uint32_t>(v.months), static_cast<uint32_t>(v.days),
                                 static_cast<uint32_t>(millis)};
      std::memcpy(dst + k * 12, parts, 12);
    });
    if (!bad) return Status::OK();
    std::string text;
    value_format::AppendInterval(*bad, &text);
    return Status::InvalidArgument(StrCat("column ", Quote(column_.dotted_path()), ": interval ", Quote(text),
                                          " has no Parquet INTERVAL form (non-negative months, days and whole "
                                          "milliseconds below 2^32)"));
  }

  const int32_t width_;
  std::vector<int32_t> offsets_{0};  // the open page, when not dictionary-encoded
  std::vector<uint8_t> data_;
  std::vector<int32_t> scratch_offsets_{0};
  std::vector<uint8_t> scratch_data_;
  std::vector<uint32_t> indices_;
  std::unique_ptr<Dictionary> dictionary_;
  bool dictionary_active_ = false;
  bool dictionary_used_ = false;
  int64_t plain_bytes_ = 0;  // PLAIN size of the values put through the dictionary
  bool has_bounds_ = false;
  std::string min_;
  std::string max_;
};

}  // namespace

std::unique_ptr<ColumnChunkWriter> MakeValueWriter(const WriterColumn& column, const ColumnChunkOptions& options) {
  switch (column.physical_type) {
    case Type::BOOLEAN: return std::make_unique<BooleanWriter>(column, options);
    case Type::INT32: return std::make_unique<FixedWidthWriter<int32_t>>(column, options);
    case Type::INT64: return std::make_unique<FixedWidthWriter<int64_t>>(column, options);
    case Type::FLOAT: return std::make_unique<FixedWidthWriter<float>>(column, options);
    case Type::DOUBLE: return std::make_unique<FixedWidthWriter<double>>(column, options);
    case Type::BYTE_ARRAY: return std::make_unique<BytesWriter<false>>(column, options);
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (column.storage == LeafStorage::kFloat16) return MakeFloat16Writer(column, options);
      return std::make_unique<BytesWriter<true>>(column, options);
    case Type::INT96: return MakeInt96Writer(column, options);
  }
  return nullptr;
}

}  // namespace floe::parquet::internal
