// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY columns.

#include <algorithm>
#include <cstring>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/byte_stream_split.h"
#include "floe/formats/parquet/encoding/delta_byte_array.h"
#include "floe/formats/parquet/encoding/delta_length_byte_array.h"
#include "floe/formats/parquet/encoding/dictionary.h"
#include "floe/formats/parquet/encoding/plain.h"
#include "floe/formats/parquet/reader/dictionary_gather.h"
#include "floe/formats/parquet/reader/value_conversion.h"
#include "floe/formats/parquet/reader/value_decoder.h"

namespace floe::parquet {
namespace {

using encoding::ByteArrayBatch;
using encoding::ByteArrayView;

// Marks `out` full, noting that `fit` more values would have fit: the scan
// reads the batch again with fewer rows, and returns this error only when a
// single row is already too much.
Status BatchTooLarge(int64_t bytes, int64_t fit, LeafBatch* out) {
  out->data_full = true;
  out->values_fit = (out->offsets.size() == 0 ? 0 : out->offsets.size() / 4 - 1) + fit;
  return Status::Unsupported(StrCat("a batch of one column holds ", bytes, " bytes of byte arrays, more than the ",
                                    out->max_data_bytes, " a batch may hold"));
}

// Appends byte arrays to a batch's offsets and data, rebasing the offsets.
Status AppendByteArrays(const ByteArrayView& values, LeafBatch* out) {
  if (values.num_values == 0) return Status::OK();
  const int32_t first = values.offsets[0];
  const int64_t bytes = values.offsets[values.num_values] - first;
  const int64_t base = out->data.size();
  if (base + bytes > out->max_data_bytes) {
    // The values whose ends stay within the limit.
    const int32_t* ends = values.offsets + 1;
    const int64_t room = out->max_data_bytes - base + first;
    const int64_t fit =
        std::upper_bound(ends, ends + values.num_values, room, [](int64_t limit, int32_t end) { return limit < end; }) -
        ends;
    return BatchTooLarge(base + bytes, fit, out);
  }
  const bool first_append = out->offsets.size() == 0;
  FLOE_RETURN_IF_ERROR(out->offsets.Reserve((values.num_values + (first_append ? 1 : 0)) * 4));
  if (first_append) out->offsets.UnsafeAppend(int32_t{0});
  const int32_t shift = static_cast<int32_t>(base) - first;
  for (int64_t i = 1; i <= values.num_values; ++i) out->offsets.UnsafeAppend(values.offsets[i] + shift);
  return out->data.Append(values.data + first, bytes);
}

class ByteArrayValueDecoder final : public ValueDecoder {
 public:
  explicit ByteArrayValueDecoder(const ColumnDescriptor& column)
      : column_(column), decimal_(column.conversion == ValueConversion::kDecimalFromBytes) {}

  Status SetDictionary(Encoding encoding, std::span<const uint8_t> data, int64_t num_values) override {
    FLOE_ASSIGN_OR_RETURN(dictionary_, DecodeByteArrayDictionaryPage(column_, encoding, data, num_values));
    short_dictionary_ = false;
    if (!decimal_) {
      int32_t longest = 0;
      const ByteArrayView view = dictionary_.view();
      for (int64_t i = 0; i < num_values; ++i) longest = std::max(longest, view.length(i));
      if (longest <= kShortValue) {
        FLOE_ASSIGN_OR_RETURN(padded_dictionary_, Buffer::Allocate(dictionary_.data.size() + kShortValue));
        std::memcpy(padded_dictionary_.mutable_data(), dictionary_.data.data(),
                    static_cast<size_t>(dictionary_.data.size()));
        std::memset(padded_dictionary_.mutable_data() + dictionary_.data.size(), 0, kShortValue);
        short_dictionary_ = true;
      }
    }
    if (decimal_) {
      FLOE_ASSIGN_OR_RETURN(decimal_dictionary_, Buffer::Allocate(num_values * 16));
      FLOE_RETURN_IF_ERROR(ConvertByteArrayDecimals(column_, dictionary_.view(), decimal_dictionary_.mutable_data()));
    }
    has_dictionary_ = true;
    return Status::OK();
  }

  Status StartPage(Encoding encoding, std::span<const uint8_t> data, const Buffer& /*owner*/) override {
    encoding_ = encoding;
    switch (encoding) {
      case Encoding::PLAIN:
        plain_.Init(data);
        plain_pos_ = data.data();
        plain_end_ = data.data() + data.size();
        return Status::OK();
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        if (!has_dictionary_) return MissingDictionary();
        return indices_.Init(data, dictionary_.num_values);
      case Encoding::DELTA_LENGTH_BYTE_ARRAY: return delta_length_.Init(data);
      case Encoding::DELTA_BYTE_ARRAY: return delta_.Init(data);
      default: return UnsupportedEncoding(column_, encoding);
    }
  }

  Status Decode(int64_t n, LeafBatch* out) override {
    if (IsDictionaryEncoding(encoding_)) return decimal_ ? GatherDecimals(n, out) : GatherByteArrays(n, out);
    if (encoding_ == Encoding::PLAIN && !decimal_) return DecodePlainInto(n, out);
    ByteArrayBatch batch;
    if (encoding_ == Encoding::PLAIN) {
      FLOE_ASSIGN_OR_RETURN(batch, plain_.Decode(n));
    } else if (encoding_ == Encoding::DELTA_LENGTH_BYTE_ARRAY) {
      FLOE_ASSIGN_OR_RETURN(batch, delta_length_.Decode(n));
    } else {
      FLOE_ASSIGN_OR_RETURN(batch, delta_.Decode(n));
    }
    if (!decimal_) return AppendByteArrays(batch.view(), out);
    FLOE_RETURN_IF_ERROR(out->ReserveValues(n * 16));
    FLOE_RETURN_IF_ERROR(
        ConvertByteArrayDecimals(column_, batch.view(), out->values.mutable_data() + out->values.size()));
    out->values.UnsafeAdvance(n * 16);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    switch (encoding_) {
      case Encoding::PLAIN:
        if (!decimal_) return SkipPlain(n);
        return plain_.Skip(n);
      case Encoding::DELTA_LENGTH_BYTE_ARRAY: return delta_length_.Skip(n);
      case Encoding::DELTA_BYTE_ARRAY: return delta_.Skip(n);
      default: return indices_.Skip(n);
    }
  }

 private:
  // PLAIN values copied once, straight into the batch (the lengths
  // interleave with the bytes, so they cannot be shared with the page).
  // A value of at most kShortPlainValue bytes, most strings, is copied as a
  // fixed kShortPlainValue bytes (two 16-byte loads and stores, not a memcpy
  // call per value). That copy may read past the value into the page's next
  // length and bytes, and write past it into the batch's reserved room, where
  // the next value overwrites it. Within kShortPlainValue of the page's end,
  // values take the exact copy.
  Status DecodePlainInto(int64_t n, LeafBatch* out) {
    const bool first_append = out->offsets.size() == 0;
    const int64_t base = out->data.size();
    FLOE_RETURN_IF_ERROR(out->offsets.Reserve((n + 1) * 4));
    // Every copy ends within both bounds reserved: what is left of the page
    // (a fixed copy is taken only where kShortPlainValue bytes of page
    // remain after the value's 4-byte length, so it ends at least 4 bytes
    // short of what the page could still give), and the byte limit plus a
    // fixed copy (the limit is checked before each value is copied), so a
    // page of 300 MB reserves no more than the limit allows.
    FLOE_RETURN_IF_ERROR(
        out->data.Reserve(std::min<int64_t>(plain_end_ - plain_pos_, out->max_data_bytes - base + kShortPlainValue)));
    if (first_append) out->offsets.UnsafeAppend(int32_t{0});
    uint8_t* const data = out->data.mutable_data() + base;
    int32_t* const offsets = reinterpret_cast<int32_t*>(out->offsets.mutable_data() + out->offsets.size());
    const uint8_t* pos = plain_pos_;
    const uint8_t* const end = plain_end_;  // a local: the stores below may alias members
    int64_t written = 0;
    for (int64_t i = 0; i < n; ++i) {
      uint32_t length;
      if (end - pos < 4) return PlainTruncated(i, n);
      std::memcpy(&length, pos, 4);
      pos += 4;
      if (length > static_cast<uint64_t>(end - pos)) return PlainTruncated(i, n);
      if (base + written + length > out->max_data_bytes) return BatchTooLarge(base + written + length, i, out);
      if (length <= kShortPlainValue && end - pos >= kShortPlainValue) {
        std::memcpy(data + written, pos, kShortPlainValue);
      } else {
        std::memcpy(data + written, pos, length);
      }
      pos += length;
      written += length;
      offsets[i] = static_cast<int32_t>(base + written);
    }
    out->offsets.UnsafeAdvance(n * 4);
    out->data.UnsafeAdvance(written);
    plain_pos_ = pos;
    return Status::OK();
  }

  Status SkipPlain(int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      uint32_t length;
      if (plain_end_ - plain_pos_ < 4) return PlainTruncated(i, n);
      std::memcpy(&length, plain_pos_, 4);
      if (length > static_cast<uint64_t>(plain_end_ - plain_pos_ - 4)) return PlainTruncated(i, n);
      plain_pos_ += 4 + length;
    }
    return Status::OK();
  }

  static Status PlainTruncated(int64_t i, int64_t n) {
    return Status::Corrupt(StrCat("PLAIN: BYTE_ARRAY value ", i, " of ", n, " runs past the end of the page"));
  }

  Status GatherByteArrays(int64_t n, LeafBatch* out) {
    index_scratch_.resize(static_cast<size_t>(n));
    FLOE_RETURN_IF_ERROR(indices_.DecodeIndices(n, index_scratch_.data()));
    const ByteArrayView dict = dictionary_.view();
    if (short_dictionary_) return GatherShortByteArrays(n, out);
    int64_t bytes = 0;
    for (int64_t i = 0; i < n; ++i) bytes += dict.length(index_scratch_[static_cast<size_t>(i)]);
    const int64_t base = out->data.size();
    if (base + bytes > out->max_data_bytes) return BatchTooLarge(base + bytes, GatheredValuesThatFit(n, out), out);
    const bool first_append = out->offsets.size() == 0;
    FLOE_RETURN_IF_ERROR(out->offsets.Reserve((n + (first_append ? 1 : 0)) * 4));
    FLOE_RETURN_IF_ERROR(out->data.Reserve(bytes));
    if (first_append) out->offsets.UnsafeAppend(int32_t{0});
    int32_t offset = static_cast<int32_t>(base);
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t index = index_scratch_[static_cast<size_t>(i)];
      const int32_t length = dict.length(index);
      out->data.UnsafeAppend(dict.data + dict.offsets[index], length);
      offset += length;
      out->offsets.UnsafeAppend(offset);
    }
    return Status::OK();
  }

  // Every dictionary value is at most kShortValue bytes: copy a fixed
  // kShortValue bytes per value from the padded dictionary (one unaligned
  // load and store) and advance by the real length.
  Status GatherShortByteArrays(int64_t n, LeafBatch* out) {
    const ByteArrayView dict = dictionary_.view();
    const int64_t base = out->data.size();
    if (base + n * kShortValue > out->max_data_bytes) {
      // Near the limit, the values' real lengths decide (the fixed copies'
      // over-reach goes to reserved room, not past the limit): a batch cut
      // by a bound up to 16 times too high would be grown back and cut again.
      const int64_t fit = GatheredValuesThatFit(n, out);
      if (fit < n) return BatchTooLarge(base + n * kShortValue, fit, out);
    }
    const bool first_append = out->offsets.size() == 0;
    FLOE_RETURN_IF_ERROR(out->offsets.Reserve((n + 1) * 4));
    FLOE_RETURN_IF_ERROR(out->data.Reserve(n * kShortValue + kShortValue));
    if (first_append) out->offsets.UnsafeAppend(int32_t{0});
    uint8_t* data = out->data.mutable_data() + base;
    int32_t* offsets = reinterpret_cast<int32_t*>(out->offsets.mutable_data() + out->offsets.size());
    const uint8_t* padded = padded_dictionary_.data();
    int32_t offset = static_cast<int32_t>(base);
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t index = index_scratch_[static_cast<size_t>(i)];
      std::memcpy(data + (offset - base), padded + dict.offsets[index], kShortValue);
      offset += dict.length(index);
      offsets[i] = offset;
    }
    out->offsets.UnsafeAdvance(n * 4);
    out->data.UnsafeAdvance(offset - base);
    return Status::OK();
  }

  // How many of the n values whose indices index_scratch_ holds fit in
  // `out` within its byte limit.
  int64_t GatheredValuesThatFit(int64_t n, const LeafBatch* out) const {
    const ByteArrayView dict = dictionary_.view();
    int64_t fit = 0;
    for (int64_t end = out->data.size(); fit < n; ++fit) {
      end += dict.length(index_scratch_[static_cast<size_t>(fit)]);
      if (end > out->max_data_bytes) break;
    }
    return fit;
  }

  Status GatherDecimals(int64_t n, LeafBatch* out) {
    FLOE_RETURN_IF_ERROR(out->ReserveValues(n * 16));
    FLOE_RETURN_IF_ERROR(GatherFixedWidth(indices_, n, decimal_dictionary_.data(), 16, &index_scratch_,
                                          out->values.mutable_data() + out->values.size()));
    out->values.UnsafeAdvance(n * 16);
    return Status::OK();
  }

  static constexpr int32_t kShortValue = 16;  // dictionary values
  static constexpr int64_t kShortPlainValue = 32;

  const ColumnDescriptor column_;
  const bool decimal_;
  Encoding encoding_ = Encoding::PLAIN;
  encoding::PlainByteArrayDecoder plain_;  // decimals; other columns use plain_pos_
  const uint8_t* plain_pos_ = nullptr;
  const uint8_t* plain_end_ = nullptr;
  bool short_dictionary_ = false;
  Buffer padded_dictionary_;  // short dictionaries: the bytes and kShortValue zeros
  encoding::DeltaLengthByteArrayDecoder delta_length_;
  encoding::DeltaByteArrayDecoder delta_;
  encoding::DictionaryIndexDecoder indices_;
  ByteArrayBatch dictionary_;
  Buffer decimal_dictionary_;  // decimal columns: the dictionary as 16-byte values
  bool has_dictionary_ = false;
  std::vector<uint32_t> index_scratch_;
};

class FixedLenByteArrayValueDecoder final : public ValueDecoder {
 public:
  explicit FixedLenByteArrayValueDecoder(const ColumnDescriptor& column)
      : column_(column),
        width_(column.type_length),
        out_width_(OutputValueWidth(column)),
        identity_(column.conversion == ValueConversion::kNone) {}

  Status SetDictionary(Encoding encoding, std::span<const uint8_t> data, int64_t num_values) override {
    if (encoding != Encoding::PLAIN && encoding != Encoding::PLAIN_DICTIONARY) {
      return UnsupportedEncoding(column_, encoding);
    }
    if (num_values > static_cast<int64_t>(data.size()) / width_) {
      return Status::Corrupt(StrCat("dictionary page declares ", num_values, " values of ", width_, " bytes in ",
                                    data.size(), " bytes"));
    }
    FLOE_ASSIGN_OR_RETURN(dictionary_, Buffer::Allocate(num_values * out_width_));
    FLOE_RETURN_IF_ERROR(ConvertFixedLenByteArrays(column_, data.data(), num_values, dictionary_.mutable_data()));
    dictionary_size_ = num_values;
    return Status::OK();
  }

  Status StartPage(Encoding encoding, std::span<const uint8_t> data, const Buffer& /*owner*/) override {
    encoding_ = encoding;
    switch (encoding) {
      case Encoding::PLAIN: return plain_.Init(data, width_);
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        if (dictionary_size_ < 0) return MissingDictionary();
        return indices_.Init(data, dictionary_size_);
      case Encoding::BYTE_STREAM_SPLIT: return split_.Init(data, width_);
      case Encoding::DELTA_BYTE_ARRAY: return delta_.Init(data);
      default: return UnsupportedEncoding(column_, encoding);
    }
  }

  Status Decode(int64_t n, LeafBatch* out) override {
    const int64_t bytes = n * out_width_;
    FLOE_RETURN_IF_ERROR(out->ReserveValues(bytes));
    uint8_t* dst = out->values.mutable_data() + out->values.size();
    if (IsDictionaryEncoding(encoding_)) {
      FLOE_RETURN_IF_ERROR(GatherFixedWidth(indices_, n, dictionary_.data(), out_width_, &index_scratch_, dst));
    } else if (identity_) {
      FLOE_RETURN_IF_ERROR(DecodePhysical(n, dst));
    } else {
      scratch_.resize(static_cast<size_t>(n * width_));
      FLOE_RETURN_IF_ERROR(DecodePhysical(n, scratch_.data()));
      FLOE_RETURN_IF_ERROR(ConvertFixedLenByteArrays(column_, scratch_.data(), n, dst));
    }
    out->values.UnsafeAdvance(bytes);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    switch (encoding_) {
      case Encoding::PLAIN: return plain_.Skip(n);
      case Encoding::BYTE_STREAM_SPLIT: return split_.Skip(n);
      case Encoding::DELTA_BYTE_ARRAY: return delta_.Skip(n);
      default: return indices_.Skip(n);
    }
  }

 private:
  Status DecodePhysical(int64_t n, uint8_t* out) {
    switch (encoding_) {
      case Encoding::PLAIN: return plain_.Decode(n, out);
      case Encoding::BYTE_STREAM_SPLIT: return split_.Decode(n, out);
      default: return delta_.DecodeFixedLenByteArray(n, width_, out);
    }
  }

  const ColumnDescriptor column_;
  const int32_t width_;
  const int32_t out_width_;
  const bool identity_;
  Encoding encoding_ = Encoding::PLAIN;
  encoding::PlainFixedLenByteArrayDecoder plain_;
  encoding::ByteStreamSplitDecoder split_;
  encoding::DeltaByteArrayDecoder delta_;
  encoding::DictionaryIndexDecoder indices_;
  Buffer dictionary_;
  int64_t dictionary_size_ = -1;
  std::vector<uint8_t> scratch_;
  std::vector<uint32_t> index_scratch_;
};

}  // namespace

Result<ByteArrayBatch> DecodeByteArrayDictionaryPage(const ColumnDescriptor& column, Encoding encoding,
                                                     std::span<const uint8_t> data, int64_t num_values) {
  if (encoding != Encoding::PLAIN && encoding != Encoding::PLAIN_DICTIONARY) {
    return UnsupportedEncoding(column, encoding);
  }
  // Every value takes at least its 4-byte length.
  if (num_values > static_cast<int64_t>(data.size() / 4)) {
    return Status::Corrupt(StrCat("dictionary page declares ", num_values, " values in ", data.size(), " bytes"));
  }
  encoding::PlainByteArrayDecoder plain;
  plain.Init(data);
  return plain.Decode(num_values);
}

std::unique_ptr<ValueDecoder> MakeByteArrayValueDecoder(const ColumnDescriptor& column) {
  return std::make_unique<ByteArrayValueDecoder>(column);
}

std::unique_ptr<ValueDecoder> MakeFixedLenByteArrayValueDecoder(const ColumnDescriptor& column) {
  return std::make_unique<FixedLenByteArrayValueDecoder>(column);
}

}  // namespace floe::parquet
