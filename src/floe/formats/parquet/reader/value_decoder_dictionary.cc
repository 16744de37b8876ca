// BYTE_ARRAY columns read as dictionary arrays (ScanOptions::read_dictionary):
// the chunk's dictionary page becomes the batches' dictionary once, and
// dictionary-encoded pages yield only their int32 indices. Pages a writer
// wrote without the dictionary (its fallback past a size limit, or a chunk
// that never had one) append their values to the batch's own extension of
// the dictionary, each under a new index: the plain decoder appends them to
// the batch, so a chunk without a dictionary costs the plain read and an
// index per value.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/encoding/dictionary.h"
#include "floe/formats/parquet/reader/value_decoder.h"

namespace floe::parquet {
namespace {

using encoding::ByteArrayBatch;

class ByteArrayDictionaryDecoder final : public ValueDecoder {
 public:
  explicit ByteArrayDictionaryDecoder(const ColumnDescriptor& column)
      : column_(column), plain_values_(MakeByteArrayValueDecoder(PlainColumn(column))) {}

  Status SetDictionary(Encoding encoding, std::span<const uint8_t> data, int64_t num_values) override {
    FLOE_ASSIGN_OR_RETURN(ByteArrayBatch values, DecodeByteArrayDictionaryPage(column_, encoding, data, num_values));
    dictionary_bytes_ = values.data.size();
    dictionary_ = std::make_shared<const ArrayData>(
        column_.type->value_type(), num_values,
        std::vector<Buffer>{Buffer(), std::move(values.offsets), std::move(values.data)},
        std::vector<std::shared_ptr<const ArrayData>>{}, 0);
    return Status::OK();
  }

  Status StartPage(Encoding encoding, std::span<const uint8_t> data, const Buffer& owner) override {
    encoding_ = encoding;
    if (!IsDictionaryEncoding(encoding)) return plain_values_->StartPage(encoding, data, owner);
    if (dictionary_ == nullptr) return MissingDictionary();
    return indices_.Init(data, dictionary_->length);
  }

  Status Decode(int64_t n, LeafBatch* out) override {
    out->dictionary = dictionary_;
    FLOE_RETURN_IF_ERROR(out->ReserveValues(n * 4));
    auto* indices = reinterpret_cast<int32_t*>(out->values.mutable_data() + out->values.size());
    if (IsDictionaryEncoding(encoding_)) {
      // Indices are checked against the dictionary's size, which int32 holds.
      FLOE_RETURN_IF_ERROR(indices_.DecodeIndices(n, reinterpret_cast<uint32_t*>(indices)));
      out->values.UnsafeAdvance(n * 4);
      return Status::OK();
    }
    // The values join the batch's extension of the dictionary
    // (LeafBatch::offsets and data), after the chunk's dictionary.
    const int64_t extended = out->offsets.size() == 0 ? 0 : out->offsets.size() / 4 - 1;
    const int64_t first = (dictionary_ == nullptr ? 0 : dictionary_->length) + extended;
    if (first + n > encoding::kMaxByteArrayDataSize) {
      return Status::Unsupported(StrCat("a dictionary of ", first + n, " values, more than int32 indices address"));
    }
    // A batch's dictionary holds the chunk's values and these: together
    // within int32 offsets, or the batch is read again, shorter.
    out->max_data_bytes = std::min(out->max_data_bytes, encoding::kMaxByteArrayDataSize - dictionary_bytes_);
    FLOE_RETURN_IF_ERROR(plain_values_->Decode(n, out));
    for (int64_t i = 0; i < n; ++i) indices[i] = static_cast<int32_t>(first + i);
    out->values.UnsafeAdvance(n * 4);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    return IsDictionaryEncoding(encoding_) ? indices_.Skip(n) : plain_values_->Skip(n);
  }

 private:
  // `column` as a plain string or binary column, for the pages without the dictionary.
  static ColumnDescriptor PlainColumn(ColumnDescriptor column) {
    column.type = column.type->value_type();
    return column;
  }

  const ColumnDescriptor column_;
  Encoding encoding_ = Encoding::PLAIN;
  std::shared_ptr<const ArrayData> dictionary_;  // the chunk's dictionary page, once read
  int64_t dictionary_bytes_ = 0;                 // the bytes of its values
  encoding::DictionaryIndexDecoder indices_;
  const std::unique_ptr<ValueDecoder> plain_values_;  // the pages without the dictionary
};

}  // namespace

std::unique_ptr<ValueDecoder> MakeByteArrayDictionaryDecoder(const ColumnDescriptor& column) {
  return std::make_unique<ByteArrayDictionaryDecoder>(column);
}

}  // namespace floe::parquet
