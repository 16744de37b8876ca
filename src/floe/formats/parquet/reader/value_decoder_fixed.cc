// INT32, INT64, INT96, FLOAT and DOUBLE columns.

#include <cstdint>
#include <type_traits>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/byte_stream_split.h"
#include "floe/formats/parquet/encoding/delta_binary_packed.h"
#include "floe/formats/parquet/encoding/dictionary.h"
#include "floe/formats/parquet/encoding/plain.h"
#include "floe/formats/parquet/reader/dictionary_gather.h"
#include "floe/formats/parquet/reader/value_conversion.h"
#include "floe/formats/parquet/reader/value_decoder.h"

namespace floe::parquet {
namespace {

using encoding::Int96;

template <typename T>
constexpr bool kIsInteger = std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;
template <typename T>
constexpr bool kHasByteStreamSplit = !std::is_same_v<T, Int96>;

// DELTA_BINARY_PACKED exists for INT32 and INT64 only; other types get a
// placeholder that is never initialised.
struct NoDeltaDecoder {};
template <typename T>
using DeltaDecoderFor = std::conditional_t<kIsInteger<T>, encoding::DeltaBinaryPackedDecoder<T>, NoDeltaDecoder>;

template <typename T>
class FixedValueDecoder final : public ValueDecoder {
 public:
  explicit FixedValueDecoder(const ColumnDescriptor& column)
      : column_(column),
        out_width_(OutputValueWidth(column)),
        identity_(column.conversion == ValueConversion::kNone && out_width_ == sizeof(T)) {}

  Status SetDictionary(Encoding encoding, std::span<const uint8_t> data, int64_t num_values) override {
    if (encoding != Encoding::PLAIN && encoding != Encoding::PLAIN_DICTIONARY) {
      return UnsupportedEncoding(column_, encoding);
    }
    if (num_values > static_cast<int64_t>(data.size() / sizeof(T))) {
      return Status::Corrupt(StrCat("dictionary page declares ", num_values, " values in ", data.size(), " bytes"));
    }
    encoding::PlainDecoder<T> plain;
    plain.Init(data);
    std::vector<T> values(static_cast<size_t>(num_values));
    FLOE_RETURN_IF_ERROR(plain.Decode(num_values, values.data()));
    FLOE_ASSIGN_OR_RETURN(dictionary_, Buffer::Allocate(num_values * out_width_));
    FLOE_RETURN_IF_ERROR(ConvertValues<T>(column_, values.data(), num_values, dictionary_.mutable_data()));
    dictionary_size_ = num_values;
    return Status::OK();
  }

  Status StartPage(Encoding encoding, std::span<const uint8_t> data, const Buffer& owner) override {
    encoding_ = encoding;
    owner_ = nullptr;
    switch (encoding) {
      case Encoding::PLAIN:
        plain_.Init(data);
        if (identity_ && !data.empty() && data.data() >= owner.data() &&
            data.data() + data.size() <= owner.data() + owner.size()) {
          owner_ = &owner;
        }
        return Status::OK();
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        if (dictionary_size_ < 0) return MissingDictionary();
        return indices_.Init(data, dictionary_size_);
      case Encoding::DELTA_BINARY_PACKED:
        if constexpr (kIsInteger<T>) return delta_.Init(data);
        break;
      case Encoding::BYTE_STREAM_SPLIT:
        if constexpr (kHasByteStreamSplit<T>) return split_.Init(data, sizeof(T));
        break;
      default: break;
    }
    return UnsupportedEncoding(column_, encoding);
  }

  Status Decode(int64_t n, LeafBatch* out) override {
    const int64_t bytes = n * out_width_;
    if (n > 0 && owner_ != nullptr && out->values.size() == 0 && out->borrowed_values.empty() &&
        n <= plain_.values_left() &&
        reinterpret_cast<uintptr_t>(plain_.position()) % alignof(T) == 0) {
      // The page's bytes are the batch's values: share them instead of
      // copying (the batch then keeps the page's buffer alive).
      out->borrowed_values = owner_->Slice(plain_.position() - owner_->data(), bytes);
      return plain_.Skip(n);
    }
    FLOE_RETURN_IF_ERROR(out->OwnBorrowedValues());
    FLOE_RETURN_IF_ERROR(out->ReserveValues(bytes));
    uint8_t* dst = out->values.mutable_data() + out->values.size();
    if (IsDictionaryEncoding(encoding_)) {
      FLOE_RETURN_IF_ERROR(GatherFixedWidth(indices_, n, dictionary_.data(), out_width_, &index_scratch_, dst));
    } else if (identity_) {
      // The batch's memory is 64-byte aligned and filled in whole values.
      FLOE_RETURN_IF_ERROR(DecodePhysical(n, reinterpret_cast<T*>(dst)));
    } else {
      scratch_.resize(static_cast<size_t>(n));
      FLOE_RETURN_IF_ERROR(DecodePhysical(n, scratch_.data()));
      FLOE_RETURN_IF_ERROR(ConvertValues<T>(column_, scratch_.data(), n, dst));
    }
    out->values.UnsafeAdvance(bytes);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    switch (encoding_) {
      case Encoding::PLAIN: return plain_.Skip(n);
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY: return indices_.Skip(n);
      case Encoding::DELTA_BINARY_PACKED:
        if constexpr (kIsInteger<T>) return delta_.Skip(n);
        break;
      case Encoding::BYTE_STREAM_SPLIT:
        if constexpr (kHasByteStreamSplit<T>) return split_.Skip(n);
        break;
      default: break;
    }
    return UnsupportedEncoding(column_, encoding_);
  }

 private:
  Status DecodePhysical(int64_t n, T* out) {
    switch (encoding_) {
      case Encoding::PLAIN: return plain_.Decode(n, out);
      case Encoding::DELTA_BINARY_PACKED:
        if constexpr (kIsInteger<T>) return delta_.Decode(n, out);
        break;
      case Encoding::BYTE_STREAM_SPLIT:
        if constexpr (kHasByteStreamSplit<T>) return split_.Decode(n, out);
        break;
      default: break;
    }
    return UnsupportedEncoding(column_, encoding_);
  }

  const ColumnDescriptor column_;
  const int32_t out_width_;
  const bool identity_;  // physical values are floe's values: decode in place
  Encoding encoding_ = Encoding::PLAIN;
  encoding::PlainDecoder<T> plain_;
  // A PLAIN page's buffer when its values may be borrowed (identity_), else
  // null. Not a copy: the page reader reuses its buffer only when no one but
  // the current page holds it, and the current page outlives its Decode calls.
  const Buffer* owner_ = nullptr;
  encoding::DictionaryIndexDecoder indices_;
  DeltaDecoderFor<T> delta_;
  encoding::ByteStreamSplitDecoder split_;
  Buffer dictionary_;  // converted values, out_width_ bytes each
  int64_t dictionary_size_ = -1;
  std::vector<T> scratch_;
  std::vector<uint32_t> index_scratch_;
};

class BooleanValueDecoder final : public ValueDecoder {
 public:
  explicit BooleanValueDecoder(const ColumnDescriptor& column) : column_(column) {}

  Status SetDictionary(Encoding encoding, std::span<const uint8_t> data, int64_t num_values) override {
    if (encoding != Encoding::PLAIN && encoding != Encoding::PLAIN_DICTIONARY) {
      return UnsupportedEncoding(column_, encoding);
    }
    if (num_values > static_cast<int64_t>(data.size()) * 8) {
      return Status::Corrupt(StrCat("dictionary page declares ", num_values, " values in ", data.size(), " bytes"));
    }
    encoding::PlainBooleanDecoder plain;
    plain.Init(data);
    dictionary_.assign(static_cast<size_t>(num_values), 0);
    FLOE_RETURN_IF_ERROR(plain.Decode(num_values, reinterpret_cast<bool*>(dictionary_.data())));
    has_dictionary_ = true;
    return Status::OK();
  }

  Status StartPage(Encoding encoding, std::span<const uint8_t> data, const Buffer& /*owner*/) override {
    encoding_ = encoding;
    switch (encoding) {
      case Encoding::PLAIN: plain_.Init(data); return Status::OK();
      case Encoding::RLE: {
        // spec: RLE booleans carry the 4-byte length prefix in v1 and v2 pages.
        auto size = rle_.InitWithLengthPrefix(data, 1);
        return size.ok() ? Status::OK() : size.status();
      }
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY:
        if (!has_dictionary_) return MissingDictionary();
        return indices_.Init(data, static_cast<int64_t>(dictionary_.size()));
      default: return UnsupportedEncoding(column_, encoding);
    }
  }

  Status Decode(int64_t n, LeafBatch* out) override {
    FLOE_RETURN_IF_ERROR(out->ReserveValues(n));
    bool* dst = reinterpret_cast<bool*>(out->values.mutable_data() + out->values.size());
    switch (encoding_) {
      case Encoding::PLAIN: FLOE_RETURN_IF_ERROR(plain_.Decode(n, dst)); break;
      case Encoding::RLE: FLOE_RETURN_IF_ERROR(rle_.Decode(n, dst)); break;
      default:
        FLOE_RETURN_IF_ERROR(indices_.Decode(n, reinterpret_cast<const bool*>(dictionary_.data()), dst));
        break;
    }
    out->values.UnsafeAdvance(n);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    switch (encoding_) {
      case Encoding::PLAIN: return plain_.Skip(n);
      case Encoding::RLE: return rle_.Skip(n);
      default: return indices_.Skip(n);
    }
  }

 private:
  const ColumnDescriptor column_;
  Encoding encoding_ = Encoding::PLAIN;
  encoding::PlainBooleanDecoder plain_;
  encoding::RleBitPackedHybridDecoder rle_;
  encoding::DictionaryIndexDecoder indices_;
  std::vector<uint8_t> dictionary_;
  bool has_dictionary_ = false;
};

}  // namespace

std::unique_ptr<ValueDecoder> MakeFixedValueDecoder(const ColumnDescriptor& column) {
  switch (column.physical_type) {
    case Type::INT32: return std::make_unique<FixedValueDecoder<int32_t>>(column);
    case Type::INT64: return std::make_unique<FixedValueDecoder<int64_t>>(column);
    case Type::INT96: return std::make_unique<FixedValueDecoder<Int96>>(column);
    case Type::FLOAT: return std::make_unique<FixedValueDecoder<float>>(column);
    default: return std::make_unique<FixedValueDecoder<double>>(column);
  }
}

std::unique_ptr<ValueDecoder> MakeBooleanValueDecoder(const ColumnDescriptor& column) {
  return std::make_unique<BooleanValueDecoder>(column);
}

}  // namespace floe::parquet
