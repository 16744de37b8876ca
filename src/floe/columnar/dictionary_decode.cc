// DecodeDictionaries: dictionary-encoded arrays, at any depth, as plain
// string and binary arrays. Parts without a dictionary are shared, not
// copied; a nested array holding one is rebuilt over the elements its slice
// spans only (offset 0), so decoding a small slice of a large batch costs the
// slice.

#include <algorithm>
#include <cstring>
#include <functional>

#include "floe/base/strings.h"
#include "floe/columnar/array.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/layout.h"
#include "floe/columnar/record_batch.h"

namespace floe {
namespace {

Result<Array> Decode(const Array& array);

// The validity bits [start, start + length) of `array` as a bitmap starting
// at bit 0; empty when it has none.
Result<Buffer> RebasedValidity(const Array& array) {
  const uint8_t* bits = array.validity_bitmap();
  if (bits == nullptr) return Buffer();
  const int64_t start = array.offset();
  const int64_t length = array.length();
  if (start % 8 == 0) return array.data()->buffers[0].Slice(start / 8, bit_util::BytesForBits(length));
  FLOE_ASSIGN_OR_RETURN(Buffer out, Buffer::Allocate(bit_util::BytesForBits(length)));
  if (length > 0) std::memset(out.mutable_data(), 0, static_cast<size_t>(bit_util::BytesForBits(length)));
  for (int64_t i = 0; i < length; ++i) bit_util::SetBitTo(out.mutable_data(), i, bit_util::GetBit(bits, start + i));
  return out;
}

// A dictionary array as its values.
Result<Array> DecodeLeaf(const Array& array) {
  const Array dictionary = array.dictionary();
  const int32_t* indices = array.DictionaryIndices();
  const int64_t length = array.length();
  const bool has_nulls = array.null_count() > 0;
  const bool dictionary_has_nulls = dictionary.null_count() > 0;
  // A valid element whose value is valid; checks the index on the way.
  auto value_valid = [&](int64_t i) -> Result<bool> {
    if (has_nulls && array.IsNull(i)) return false;
    if (indices[i] < 0 || indices[i] >= dictionary.length()) {
      return Status::InvalidArgument(StrCat(array.type()->ToString(), " array: element ", i, " has index ", indices[i],
                                            ", outside the dictionary of ", dictionary.length(), " values"));
    }
    return !dictionary_has_nulls || dictionary.IsValid(indices[i]);
  };
  int64_t bytes = 0;
  for (int64_t i = 0; i < length; ++i) {
    FLOE_ASSIGN_OR_RETURN(const bool valid, value_valid(i));
    if (valid) bytes += static_cast<int64_t>(dictionary.GetString(indices[i]).size());
  }
  BinaryBuilder builder(array.type()->value_type());
  FLOE_RETURN_IF_ERROR(builder.Reserve(length));
  FLOE_RETURN_IF_ERROR(builder.ReserveData(bytes));
  for (int64_t i = 0; i < length; ++i) {
    if (value_valid(i).value()) {
      builder.UnsafeAppend(dictionary.GetString(indices[i]));
    } else {
      FLOE_RETURN_IF_ERROR(builder.AppendNull());
    }
  }
  return builder.Finish();
}

// A list or map whose values hold a dictionary: the values it spans,
// decoded, under offsets rebased to start at 0.
Result<Array> DecodeListLike(const Array& array, const TypePtr& decoded_type) {
  const int32_t* offsets = array.ValueOffsets();
  const int64_t length = array.length();
  const int32_t first = offsets[0];
  FLOE_ASSIGN_OR_RETURN(Array values, Decode(array.list_values().Slice(first, offsets[length] - first)));
  std::vector<Buffer> buffers;
  FLOE_ASSIGN_OR_RETURN(Buffer validity, RebasedValidity(array));
  buffers.push_back(std::move(validity));
  if (array.offset() == 0 && first == 0) {
    buffers.push_back(array.data()->buffers[1]);
  } else {
    FLOE_ASSIGN_OR_RETURN(Buffer rebased, Buffer::Allocate((length + 1) * static_cast<int64_t>(sizeof(int32_t))));
    auto* out = reinterpret_cast<int32_t*>(rebased.mutable_data());
    for (int64_t i = 0; i <= length; ++i) out[i] = offsets[i] - first;
    buffers.push_back(std::move(rebased));
  }
  return Array(std::make_shared<ArrayData>(decoded_type, length, std::move(buffers),
                                           std::vector<std::shared_ptr<const ArrayData>>{values.data()},
                                           array.null_count()));
}

Result<Array> DecodeStruct(const Array& array, const TypePtr& decoded_type) {
  std::vector<std::shared_ptr<const ArrayData>> children;
  children.reserve(static_cast<size_t>(array.num_fields()));
  for (int f = 0; f < array.num_fields(); ++f) {
    FLOE_ASSIGN_OR_RETURN(Array child, Decode(array.field(f)));
    children.push_back(child.data());
  }
  std::vector<Buffer> buffers;
  FLOE_ASSIGN_OR_RETURN(Buffer validity, RebasedValidity(array));
  buffers.push_back(std::move(validity));
  return Array(std::make_shared<ArrayData>(decoded_type, array.length(), std::move(buffers), std::move(children),
                                           array.null_count()));
}

Result<Array> Decode(const Array& array) {
  const TypePtr& type = array.type();
  if (!HasDictionary(type)) return array;
  switch (type->id()) {
    case TypeId::kDictionary: return DecodeLeaf(array);
    case TypeId::kList:
    case TypeId::kMap: return DecodeListLike(array, WithoutDictionaries(type));
    default:  // struct: the only other type that holds children
      return DecodeStruct(array, WithoutDictionaries(type));
  }
}

}  // namespace

Result<Array> DecodeDictionaries(const Array& array) { return Decode(array); }

Status ForEachDecodedSlice(const RecordBatch& batch, int64_t max_rows,
                           const std::function<Status(const RecordBatch&)>& write) {
  if (max_rows < 1) return Status::InvalidArgument(StrCat("slices of ", max_rows, " rows"));
  std::vector<Field> fields = batch.schema().fields;
  for (Field& field : fields) field.type = WithoutDictionaries(field.type);
  const auto schema = std::make_shared<const Schema>(std::move(fields), batch.schema().metadata);
  for (int64_t start = 0; start < batch.num_rows();) {
    int64_t rows = std::min(max_rows, batch.num_rows() - start);
    std::vector<Array> columns;
    while (true) {
      const RecordBatch slice = batch.Slice(start, rows);
      columns.clear();
      Status decoded;
      for (int c = 0; c < slice.num_columns() && decoded.ok(); ++c) {
        Result<Array> column = DecodeDictionaries(slice.column(c));
        decoded = column.status();
        if (column.ok()) columns.push_back(std::move(*column));
      }
      if (decoded.ok()) break;
      if (!decoded.IsInvalidArgument() || rows == 1) return decoded;
      rows /= 2;
    }
    FLOE_ASSIGN_OR_RETURN(const RecordBatch plain, RecordBatch::Make(schema, std::move(columns), rows));
    FLOE_RETURN_IF_ERROR(write(plain));
    start += rows;
  }
  return Status::OK();
}

}  // namespace floe
