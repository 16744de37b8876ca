#include "floe/columnar/builder_binary.h"

#include "floe/base/strings.h"

namespace floe {

BinaryBuilder::BinaryBuilder(TypePtr type) : ArrayBuilder(std::move(type)) {
  if (type_->id() != TypeId::kBinary && type_->id() != TypeId::kString) AbortWrongType("BinaryBuilder", type_);
}

Status BinaryBuilder::DataOverflow(int64_t bytes) const {
  return Status::InvalidArgument(StrCat(type_->ToString(), " array: ", data_.size(), " + ", bytes,
                                        " bytes of data exceed the int32 offset limit ", kMaxData));
}

Status BinaryBuilder::AppendValues(std::span<const std::string_view> values, const uint8_t* valid_bytes) {
  int64_t bytes = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (valid_bytes == nullptr || valid_bytes[i] != 0) bytes += static_cast<int64_t>(values[i].size());
  }
  FLOE_RETURN_IF_ERROR(Reserve(static_cast<int64_t>(values.size())));
  FLOE_RETURN_IF_ERROR(ReserveData(bytes));
  for (size_t i = 0; i < values.size(); ++i) {
    if (valid_bytes != nullptr && valid_bytes[i] == 0) {
      FLOE_RETURN_IF_ERROR(validity_.AppendNull());
      offsets_.UnsafeAppend(static_cast<int32_t>(data_.size()));
    } else {
      UnsafeAppend(values[i]);
    }
  }
  return Status::OK();
}

Status BinaryBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(Reserve(n));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  const auto end = static_cast<int32_t>(data_.size());
  for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppend(end);
  return Status::OK();
}

Status BinaryBuilder::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  return offsets_.Reserve(additional * static_cast<int64_t>(sizeof(int32_t)));
}

Result<Array> BinaryBuilder::Finish() {
  // The offset that ends the last value (the only one for an empty array).
  FLOE_RETURN_IF_ERROR(offsets_.Reserve(sizeof(int32_t)));
  offsets_.UnsafeAppend(static_cast<int32_t>(data_.size()));
  std::vector<Buffer> buffers;
  buffers.push_back(offsets_.Finish());
  buffers.push_back(data_.Finish());
  return FinishArray(std::move(buffers));
}

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(TypePtr type)
    : ArrayBuilder(std::move(type)), byte_width_(type_->byte_width()) {
  if (type_->id() != TypeId::kFixedSizeBinary && type_->id() != TypeId::kUuid) {
    AbortWrongType("FixedSizeBinaryBuilder", type_);
  }
}

Status FixedSizeBinaryBuilder::Append(std::string_view value) {
  if (static_cast<int64_t>(value.size()) != byte_width_) {
    return Status::InvalidArgument(
        StrCat(type_->ToString(), " array: value of ", value.size(), " bytes, expected ", byte_width_));
  }
  FLOE_RETURN_IF_ERROR(Reserve(1));
  UnsafeAppend(value.data());
  return Status::OK();
}

Status FixedSizeBinaryBuilder::AppendValues(const uint8_t* values, int64_t count, const uint8_t* valid_bytes) {
  FLOE_RETURN_IF_ERROR(Reserve(count));
  if (valid_bytes == nullptr) {
    FLOE_RETURN_IF_ERROR(validity_.AppendValid(count));
  } else {
    FLOE_RETURN_IF_ERROR(validity_.AppendValidBytes(valid_bytes, count));
  }
  values_.UnsafeAppend(values, count * byte_width_);
  return Status::OK();
}

Status FixedSizeBinaryBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(Reserve(n));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  return values_.AppendZeros(n * byte_width_);
}

Status FixedSizeBinaryBuilder::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  int64_t bytes;
  if (__builtin_mul_overflow(additional, byte_width_, &bytes)) {
    return Status::InvalidArgument(StrCat(type_->ToString(), " array: ", additional, " values overflow"));
  }
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  return values_.Reserve(bytes);
}

Result<Array> FixedSizeBinaryBuilder::Finish() {
  std::vector<Buffer> buffers;
  buffers.push_back(values_.Finish());
  return FinishArray(std::move(buffers));
}

}  // namespace floe
