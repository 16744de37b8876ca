// Builders of byte arrays: BinaryBuilder (string, binary), StringBuilder and
// FixedSizeBinaryBuilder (fixed_size_binary, uuid). See array_builder.h for
// the contract common to all builders.

#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include "floe/columnar/array_builder.h"

namespace floe {

// Variable-width values with int32 offsets: the data of one array is limited
// to 2^31 - 1 bytes (InvalidArgument past it).
class BinaryBuilder : public ArrayBuilder {
 public:
  // `type` must be binary or string.
  explicit BinaryBuilder(TypePtr type = DataType::Binary());

  Status Append(std::string_view value) {
    FLOE_RETURN_IF_ERROR(validity_.Reserve(1));
    FLOE_RETURN_IF_ERROR(offsets_.Reserve(sizeof(int32_t)));
    FLOE_RETURN_IF_ERROR(ReserveData(static_cast<int64_t>(value.size())));
    UnsafeAppend(value);
    return Status::OK();
  }
  // Requires room from Reserve() and ReserveData().
  void UnsafeAppend(std::string_view value) {
    offsets_.UnsafeAppend(static_cast<int32_t>(data_.size()));
    data_.UnsafeAppend(value.data(), static_cast<int64_t>(value.size()));
    validity_.UnsafeAppendValid();
  }
  // Appends `values`; element i is null where valid_bytes[i] == 0 (when given).
  Status AppendValues(std::span<const std::string_view> values, const uint8_t* valid_bytes = nullptr);

  // Makes room for `bytes` more bytes of value data.
  Status ReserveData(int64_t bytes) {
    if (bytes > kMaxData - data_.size()) return DataOverflow(bytes);
    return data_.Reserve(bytes);
  }
  // Bytes of value data appended so far.
  int64_t data_size() const { return data_.size(); }

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  static constexpr int64_t kMaxData = std::numeric_limits<int32_t>::max();
  Status DataOverflow(int64_t bytes) const;

  BufferBuilder offsets_;
  BufferBuilder data_;
};

// A BinaryBuilder of UTF-8 strings (contents are not checked to be UTF-8).
class StringBuilder final : public BinaryBuilder {
 public:
  StringBuilder() : BinaryBuilder(DataType::Utf8()) {}
};

class FixedSizeBinaryBuilder final : public ArrayBuilder {
 public:
  // `type` must be fixed_size_binary or uuid.
  explicit FixedSizeBinaryBuilder(TypePtr type);

  // InvalidArgument when value is not byte_width() bytes long.
  Status Append(std::string_view value);
  // Appends byte_width() bytes from `value`; requires room from Reserve().
  void UnsafeAppend(const void* value) {
    values_.UnsafeAppend(value, byte_width_);
    validity_.UnsafeAppendValid();
  }
  // Appends `count` values stored back to back at `values` (count *
  // byte_width() bytes); element i is null where valid_bytes[i] == 0.
  Status AppendValues(const uint8_t* values, int64_t count, const uint8_t* valid_bytes = nullptr);

  int32_t byte_width() const { return static_cast<int32_t>(byte_width_); }

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  int64_t byte_width_;
  BufferBuilder values_;
};

}  // namespace floe
