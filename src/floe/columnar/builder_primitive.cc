#include "floe/columnar/builder_primitive.h"

#include <algorithm>

namespace floe {

template <typename T>
PrimitiveBuilder<T>::PrimitiveBuilder(TypePtr type) : ArrayBuilder(std::move(type)) {
  if (!builder_internal::HoldsCType<T>(type_->id())) AbortWrongType("PrimitiveBuilder", type_);
}

template <typename T>
Status PrimitiveBuilder<T>::AppendValues(std::span<const T> values, const uint8_t* valid_bytes) {
  const auto n = static_cast<int64_t>(values.size());
  FLOE_RETURN_IF_ERROR(Reserve(n));
  if (valid_bytes == nullptr) {
    FLOE_RETURN_IF_ERROR(validity_.AppendValid(n));
  } else {
    FLOE_RETURN_IF_ERROR(validity_.AppendValidBytes(valid_bytes, n));
  }
  values_.UnsafeAppend(values.data(), n * static_cast<int64_t>(sizeof(T)));
  return Status::OK();
}

template <typename T>
Status PrimitiveBuilder<T>::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(Reserve(n));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  // Null slots hold zeros, so no uninitialised byte ever leaves the process.
  return values_.AppendZeros(n * static_cast<int64_t>(sizeof(T)));
}

template <typename T>
Status PrimitiveBuilder<T>::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  return values_.Reserve(additional * static_cast<int64_t>(sizeof(T)));
}

template <typename T>
Result<Array> PrimitiveBuilder<T>::Finish() {
  std::vector<Buffer> buffers;
  buffers.push_back(values_.Finish());
  return FinishArray(std::move(buffers));
}

template class PrimitiveBuilder<int8_t>;
template class PrimitiveBuilder<int16_t>;
template class PrimitiveBuilder<int32_t>;
template class PrimitiveBuilder<int64_t>;
template class PrimitiveBuilder<uint8_t>;
template class PrimitiveBuilder<uint16_t>;
template class PrimitiveBuilder<uint32_t>;
template class PrimitiveBuilder<uint64_t>;
template class PrimitiveBuilder<float>;
template class PrimitiveBuilder<double>;
template class PrimitiveBuilder<Decimal128Value>;
template class PrimitiveBuilder<MonthDayNano>;

BoolBuilder::BoolBuilder() : ArrayBuilder(DataType::Bool()) {}

Status BoolBuilder::AppendValues(std::span<const uint8_t> values, const uint8_t* valid_bytes) {
  const auto n = static_cast<int64_t>(values.size());
  FLOE_RETURN_IF_ERROR(Reserve(n));
  if (valid_bytes == nullptr) {
    FLOE_RETURN_IF_ERROR(validity_.AppendValid(n));
  } else {
    FLOE_RETURN_IF_ERROR(validity_.AppendValidBytes(valid_bytes, n));
  }
  for (uint8_t v : values) values_.UnsafeAppend(v != 0);
  return Status::OK();
}

Status BoolBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(Reserve(n));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  return values_.AppendN(false, n);
}

Status BoolBuilder::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  return values_.Reserve(additional);
}

Result<Array> BoolBuilder::Finish() {
  std::vector<Buffer> buffers;
  buffers.push_back(values_.Finish());
  return FinishArray(std::move(buffers));
}

NullBuilder::NullBuilder() : ArrayBuilder(DataType::Null()) {}

Status NullBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  return validity_.AppendNull(n);
}

Result<Array> NullBuilder::Finish() {
  const int64_t length = validity_.length();
  validity_.Finish();
  return Array(std::make_shared<ArrayData>(type_, length, std::vector<Buffer>{}, std::vector<std::shared_ptr<const ArrayData>>{}, length));
}

}  // namespace floe
