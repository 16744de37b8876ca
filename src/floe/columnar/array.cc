#include "floe/columnar/array.h"

#include <cstdio>
#include <cstdlib>

#include "floe/base/check.h"
#include "floe/base/strings.h"

namespace floe {

int64_t ArrayData::GetNullCount() const {
  int64_t count = null_count.load(std::memory_order_relaxed);
  if (count >= 0) return count;
  if (type->id() == TypeId::kNull) {
    count = length;
  } else if (buffers.empty() || buffers[0].empty()) {
    count = 0;
  } else {
    count = length - bit_util::CountSetBits(buffers[0].data(), offset, length);
  }
  // Racing threads compute the same value, so a plain store is enough.
  null_count.store(count, std::memory_order_relaxed);
  return count;
}

Array Array::Slice(int64_t offset, int64_t length) const {
  FLOE_CHECK(offset >= 0 && length >= 0 && offset <= data_->length && length <= data_->length - offset,
             "Array::Slice(", offset, ", ", length, ") outside an array of ", data_->length, " elements");
  auto sliced = std::make_shared<ArrayData>(*data_);
  sliced->offset = data_->offset + offset;
  sliced->length = length;
  // A slice of an array without nulls (or of only nulls) keeps its count for free.
  const int64_t parent_nulls = data_->null_count.load(std::memory_order_relaxed);
  if (parent_nulls == 0) {
    sliced->null_count = 0;
  } else if (parent_nulls == data_->length) {
    sliced->null_count = length;
  } else {
    sliced->null_count = -1;
  }
  return Array(std::move(sliced));
}

Array Array::field(int i) const {
  Array child(data_->children[static_cast<size_t>(i)]);
  if (data_->offset == 0 && child.length() == data_->length) return child;
  return child.Slice(data_->offset, data_->length);
}

void Array::CheckValueWidth(size_t width) const {
  FLOE_CHECK(static_cast<int64_t>(width) == data_->type->byte_width(), "Array::Values<T> with a ", width,
             "-byte T on an array of type ", data_->type->ToString());
}

namespace {

Result<Buffer> ZeroedBuffer(int64_t size) {
  FLOE_ASSIGN_OR_RETURN(Buffer buffer, Buffer::Allocate(size));
  if (size > 0) std::memset(buffer.mutable_data(), 0, static_cast<size_t>(size));
  return buffer;
}

Result<int64_t> CheckedProduct(int64_t a, int64_t b, const DataType& type) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) {
    return Status::InvalidArgument(StrCat("null array of type ", type.ToString(), ": ", a, " values overflow"));
  }
  return out;
}

}  // namespace

Result<Array> MakeArrayOfNull(const TypePtr& type, int64_t length) {
  if (length < 0) return Status::InvalidArgument(StrCat("null array length ", length, " is negative"));
  if (type->id() == TypeId::kNull) return Array(std::make_shared<ArrayData>(type, length, std::vector<Buffer>{}));

  std::vector<Buffer> buffers;
  std::vector<std::shared_ptr<const ArrayData>> children;
  FLOE_ASSIGN_OR_RETURN(Buffer validity, ZeroedBuffer(bit_util::BytesForBits(length)));
  buffers.push_back(std::move(validity));
  switch (type->id()) {
    case TypeId::kBool: {
      FLOE_ASSIGN_OR_RETURN(Buffer values, ZeroedBuffer(bit_util::BytesForBits(length)));
      buffers.push_back(std::move(values));
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kList:
    case TypeId::kMap: {
      FLOE_ASSIGN_OR_RETURN(int64_t bytes, CheckedProduct(length + 1, 4, *type));
      FLOE_ASSIGN_OR_RETURN(Buffer offsets, ZeroedBuffer(bytes));
      buffers.push_back(std::move(offsets));
      if (type->id() == TypeId::kString || type->id() == TypeId::kBinary) {
        buffers.emplace_back();
      } else {
        FLOE_ASSIGN_OR_RETURN(Array values, MakeArrayOfNull(type->field(0).type, 0));
        children.push_back(values.data());
      }
      break;
    }
    case TypeId::kStruct:
      for (const Field& field : type->fields()) {
        FLOE_ASSIGN_OR_RETURN(Array child, MakeArrayOfNull(field.type, length));
        children.push_back(child.data());
      }
      break;
    case TypeId::kDictionary: {
      FLOE_ASSIGN_OR_RETURN(int64_t bytes, CheckedProduct(length, 4, *type));
      FLOE_ASSIGN_OR_RETURN(Buffer indices, ZeroedBuffer(bytes));
      buffers.push_back(std::move(indices));
      FLOE_ASSIGN_OR_RETURN(Array values, MakeArrayOfNull(type->value_type(), 0));
      auto data = std::make_shared<ArrayData>(type, length, std::move(buffers), std::move(children), length);
      data->dictionary = values.data();
      return Array(std::move(data));
    }
    default: {
      FLOE_ASSIGN_OR_RETURN(int64_t bytes, CheckedProduct(length, type->byte_width(), *type));
      FLOE_ASSIGN_OR_RETURN(Buffer values, ZeroedBuffer(bytes));
      buffers.push_back(std::move(values));
      break;
    }
  }
  return Array(std::make_shared<ArrayData>(type, length, std::move(buffers), std::move(children), length));
}

}  // namespace floe
