// The typed writers for the two storage forms a leaf takes only when asked
// (schema_writer.h, LeafStorage): INT96 timestamps, as Spark and Impala
// write them, and FLOAT16 from float32. Both write PLAIN pages (FLOAT16 also
// BYTE_STREAM_SPLIT and DELTA_BYTE_ARRAY) and no dictionary.

#include <cmath>
#include <cstring>
#include <limits>

#include "floe/formats/parquet/column_chunk_writer_internal.h"
#include "floe/formats/parquet/encoding/byte_stream_split.h"
#include "floe/formats/parquet/encoding/delta_byte_array.h"
#include "floe/formats/parquet/encoding/float16.h"

namespace floe::parquet::internal {
namespace {

// spec (parquet.thrift, INT96 "deprecated, only used by legacy
// implementations"); the layout all of them use: nanoseconds within the day
// (int64) then the Julian day number (int32), both little-endian. Its sort
// order is undefined, so pages and chunks get null counts only.
class Int96Writer final : public ColumnChunkWriterBase {
 public:
  using ColumnChunkWriterBase::ColumnChunkWriterBase;

 protected:
  Status AppendValues(int64_t first, int64_t n) override {
    const auto* src = reinterpret_cast<const int64_t*>(leaf_->values->buffers[1].data());
    const bool nanos = column_.type->unit() == floe::TimeUnit::kNano;
    const int64_t per_day = nanos ? kNanosPerDay : kNanosPerDay / 1000;
    const size_t old = values_.size();
    values_.resize(old + static_cast<size_t>(n) * 12);
    uint8_t* dst = values_.data() + old;
    ForEachValue(first, n, [&](int64_t k, int64_t i) {
      // Floor division: instants before 1970 fall on earlier days.
      int64_t day = src[i] / per_day;
      int64_t in_day = src[i] % per_day;
      if (in_day < 0) {
        in_day += per_day;
        --day;
      }
      const int64_t nanos_of_day = nanos ? in_day : in_day * 1000;
      // Julian day of 1970-01-01; int64 microseconds stay within +-1.1e8 days.
      const auto julian_day = static_cast<int32_t>(day + kJulianDayOfEpoch);
      std::memcpy(dst + k * 12, &nanos_of_day, 8);
      std::memcpy(dst + k * 12 + 8, &julian_day, 4);
    });
    return Status::OK();
  }
  int64_t EstimatedValueBytes() const override { return static_cast<int64_t>(values_.size()); }
  int64_t DictionaryBytes() const override { return 0; }
  bool DictionaryFull() const override { return false; }
  void FallBack() override {}
  Status EncodePageValues(std::vector<uint8_t>* out, Encoding* encoding) override {
    *encoding = Encoding::PLAIN;  // PLAIN INT96: the 12 bytes of each value
    out->insert(out->end(), values_.begin(), values_.end());
    values_.clear();
    return Status::OK();
  }
  void TakePageStatistics(StatisticsAccumulator* page) override { page->has_bounds = false; }
  bool TakeDictionary(std::vector<uint8_t>*, int64_t*) override { return false; }
  void ResetChunk() override {}

 private:
  static constexpr int64_t kNanosPerDay = int64_t{86400} * 1'000'000'000;
  static constexpr int64_t kJulianDayOfEpoch = 2440588;
  std::vector<uint8_t> values_;
};

// FLOAT16: the float32 values rounded to halves. Bounds follow the
// floating-point rules of TYPE_ORDER on the halves' values (statistics_writer.h):
// NaN is never a bound but counted, a zero minimum is -0, a zero maximum +0.
class Float16Writer final : public ColumnChunkWriterBase {
 public:
  using ColumnChunkWriterBase::ColumnChunkWriterBase;

 protected:
  Status AppendValues(int64_t first, int64_t n) override {
    const auto* src = reinterpret_cast<const float*>(leaf_->values->buffers[1].data());
    const size_t old = values_.size();
    values_.resize(old + static_cast<size_t>(n) * 2);
    uint8_t* dst = values_.data() + old;
    ForEachValue(first, n, [&](int64_t k, int64_t i) {
      const uint16_t h = encoding::FloatToHalf(src[i]);
      std::memcpy(dst + k * 2, &h, 2);
      const float v = encoding::HalfToFloat(h);
      if (std::isnan(v)) {
        ++nan_count_;
      } else {
        if (!has_bounds_ || v < min_) min_ = v;
        if (!has_bounds_ || v > max_) max_ = v;
        has_bounds_ = true;
      }
      if (bloom_enabled()) AddBloomHash(BloomHash(std::string_view(reinterpret_cast<const char*>(dst + k * 2), 2)));
    });
    return Status::OK();
  }
  int64_t EstimatedValueBytes() const override { return static_cast<int64_t>(values_.size()); }
  int64_t DictionaryBytes() const override { return 0; }
  bool DictionaryFull() const override { return false; }
  void FallBack() override {}
  Status EncodePageValues(std::vector<uint8_t>* out, Encoding* encoding) override {
    *encoding = options_.encoding;
    switch (options_.encoding) {
      case Encoding::BYTE_STREAM_SPLIT: FLOE_RETURN_IF_ERROR(encoding::EncodeByteStreamSplit(values_, 2, out)); break;
      case Encoding::DELTA_BYTE_ARRAY: FLOE_RETURN_IF_ERROR(encoding::EncodeDeltaByteArray(values_, 2, out)); break;
      default:
        *encoding = Encoding::PLAIN;
        out->insert(out->end(), values_.begin(), values_.end());
    }
    values_.clear();
    return Status::OK();
  }
  void TakePageStatistics(StatisticsAccumulator* page) override {
    page->nan_count = nan_count_;
    page->has_bounds = has_bounds_;
    if (has_bounds_) {
      // spec (ColumnOrder, TYPE_ORDER): a zero minimum is written -0.0, a zero maximum +0.0.
      page->min = Half(min_ == 0 ? -0.0f : min_);
      page->max = Half(max_ == 0 ? 0.0f : max_);
    }
    has_bounds_ = false;
    nan_count_ = 0;
  }
  bool TakeDictionary(std::vector<uint8_t>*, int64_t*) override { return false; }
  void ResetChunk() override {}

 private:
  static std::string Half(float v) {
    const uint16_t h = encoding::FloatToHalf(v);  // exact: v came from a half
    std::string s(2, '\0');
    std::memcpy(s.data(), &h, 2);
    return s;
  }

  std::vector<uint8_t> values_;  // the open page, PLAIN
  bool has_bounds_ = false;
  float min_ = 0;
  float max_ = 0;
  int64_t nan_count_ = 0;
};

}  // namespace

std::unique_ptr<ColumnChunkWriter> MakeInt96Writer(const WriterColumn& column, const ColumnChunkOptions& options) {
  return std::make_unique<Int96Writer>(column, options);
}

std::unique_ptr<ColumnChunkWriter> MakeFloat16Writer(const WriterColumn& column, const ColumnChunkOptions& options) {
  return std::make_unique<Float16Writer>(column, options);
}

}  // namespace floe::parquet::internal
