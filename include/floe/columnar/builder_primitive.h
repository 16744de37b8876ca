// Builders of fixed-width and bit arrays: PrimitiveBuilder<T>, BoolBuilder,
// NullBuilder. See array_builder.h for the contract common to all builders.

#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "floe/columnar/array_builder.h"

namespace floe {

namespace builder_internal {

// The type ids whose values buffer holds C values of type T.
template <typename T>
constexpr bool HoldsCType(TypeId id) {
  if constexpr (std::is_same_v<T, int8_t>) return id == TypeId::kInt8;
  if constexpr (std::is_same_v<T, int16_t>) return id == TypeId::kInt16;
  if constexpr (std::is_same_v<T, int32_t>) return id == TypeId::kInt32 || id == TypeId::kDate32;
  if constexpr (std::is_same_v<T, int64_t>) {
    return id == TypeId::kInt64 || id == TypeId::kTime64 || id == TypeId::kTimestamp;
  }
  if constexpr (std::is_same_v<T, uint8_t>) return id == TypeId::kUInt8;
  if constexpr (std::is_same_v<T, uint16_t>) return id == TypeId::kUInt16;
  if constexpr (std::is_same_v<T, uint32_t>) return id == TypeId::kUInt32;
  if constexpr (std::is_same_v<T, uint64_t>) return id == TypeId::kUInt64;
  if constexpr (std::is_same_v<T, float>) return id == TypeId::kFloat32;
  if constexpr (std::is_same_v<T, double>) return id == TypeId::kFloat64;
  if constexpr (std::is_same_v<T, Decimal128Value>) return id == TypeId::kDecimal128;
  if constexpr (std::is_same_v<T, MonthDayNano>) return id == TypeId::kInterval;
  return false;
}

// The one type a C type stands for when no type is given (ints and floats).
template <typename T>
TypePtr CanonicalType() {
  if constexpr (std::is_same_v<T, int8_t>) {
    return DataType::Int8();
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return DataType::Int16();
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return DataType::Int32();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return DataType::Int64();
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return DataType::UInt8();
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    return DataType::UInt16();
  } else if constexpr (std::is_same_v<T, uint32_t>) {
    return DataType::UInt32();
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return DataType::UInt64();
  } else if constexpr (std::is_same_v<T, float>) {
    return DataType::Float32();
  } else if constexpr (std::is_same_v<T, double>) {
    return DataType::Float64();
  } else {
    // Never used: the only caller is constrained to HasCanonicalType<T>, but
    // explicit instantiation of PrimitiveBuilder<Decimal128Value> (and of
    // MonthDayNano) still compiles this body.
    return TypePtr();
  }
}

template <typename T>
concept HasCanonicalType = std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> ||
                           std::is_same_v<T, int64_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                           std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t> || std::is_same_v<T, float> ||
                           std::is_same_v<T, double>;

}  // namespace builder_internal

// Builds arrays of ints, floats, date32 (int32_t days), time64 and timestamp
// (int64_t), decimal128 (Decimal128Value, the unscaled value), interval
// (MonthDayNano). Instantiated for those C types only.
template <typename T>
class PrimitiveBuilder final : public ArrayBuilder {
 public:
  using value_type = T;

  // The builder of T's own type (int64_t: int64, double: float64, ...).
  PrimitiveBuilder()
    requires builder_internal::HasCanonicalType<T>
      : PrimitiveBuilder(builder_internal::CanonicalType<T>()) {}
  // `type` must hold T values (date32 for int32_t, timestamp for int64_t, ...).
  explicit PrimitiveBuilder(TypePtr type);

  Status Append(T value) {
    FLOE_RETURN_IF_ERROR(validity_.Reserve(1));
    FLOE_RETURN_IF_ERROR(values_.Reserve(sizeof(T)));
    UnsafeAppend(value);
    return Status::OK();
  }
  // Requires room from Reserve().
  void UnsafeAppend(T value) {
    values_.UnsafeAppend(value);
    validity_.UnsafeAppendValid();
  }
  // Appends `values`; element i is null where valid_bytes[i] == 0 (when given).
  Status AppendValues(std::span<const T> values, const uint8_t* valid_bytes = nullptr);

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  BufferBuilder values_;
};

extern template class PrimitiveBuilder<int8_t>;
extern template class PrimitiveBuilder<int16_t>;
extern template class PrimitiveBuilder<int32_t>;
extern template class PrimitiveBuilder<int64_t>;
extern template class PrimitiveBuilder<uint8_t>;
extern template class PrimitiveBuilder<uint16_t>;
extern template class PrimitiveBuilder<uint32_t>;
extern template class PrimitiveBuilder<uint64_t>;
extern template class PrimitiveBuilder<float>;
extern template class PrimitiveBuilder<double>;
extern template class PrimitiveBuilder<Decimal128Value>;
extern template class PrimitiveBuilder<MonthDayNano>;

using Int8Builder = PrimitiveBuilder<int8_t>;
using Int16Builder = PrimitiveBuilder<int16_t>;
using Int32Builder = PrimitiveBuilder<int32_t>;
using Int64Builder = PrimitiveBuilder<int64_t>;
using UInt8Builder = PrimitiveBuilder<uint8_t>;
using UInt16Builder = PrimitiveBuilder<uint16_t>;
using UInt32Builder = PrimitiveBuilder<uint32_t>;
using UInt64Builder = PrimitiveBuilder<uint64_t>;
using Float32Builder = PrimitiveBuilder<float>;
using Float64Builder = PrimitiveBuilder<double>;
// Need their type: Decimal128Builder(DataType::Decimal128(18, 2).value()),
// Date32Builder(DataType::Date32()), TemporalBuilder(DataType::Timestamp(...)).
using Decimal128Builder = PrimitiveBuilder<Decimal128Value>;
using Date32Builder = PrimitiveBuilder<int32_t>;
using TemporalBuilder = PrimitiveBuilder<int64_t>;
using IntervalBuilder = PrimitiveBuilder<MonthDayNano>;  // IntervalBuilder(DataType::Interval())

class BoolBuilder final : public ArrayBuilder {
 public:
  BoolBuilder();

  Status Append(bool value) {
    FLOE_RETURN_IF_ERROR(validity_.Reserve(1));
    FLOE_RETURN_IF_ERROR(values_.Reserve(1));
    UnsafeAppend(value);
    return Status::OK();
  }
  void UnsafeAppend(bool value) {
    values_.UnsafeAppend(value);
    validity_.UnsafeAppendValid();
  }
  // Appends one value per byte (nonzero = true); null where valid_bytes[i] == 0.
  Status AppendValues(std::span<const uint8_t> values, const uint8_t* valid_bytes = nullptr);

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  BitmapBuilder values_;
};

// Builds arrays of the null type: only a count.
class NullBuilder final : public ArrayBuilder {
 public:
  NullBuilder();

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override { return CheckCount(additional); }
  Result<Array> Finish() override;
};

}  // namespace floe
