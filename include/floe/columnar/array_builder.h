// ArrayBuilder: the base of the builders that make Arrays (builder.h).
//
// The virtual methods serve generic code (MakeBuilder, nested builders, one
// call per value in a loop that is not hot). Hot paths hold the typed builder
// (PrimitiveBuilder<T>, BinaryBuilder, ...) and call its inline Append /
// UnsafeAppend, which are not virtual.
//
// Errors: appends return InvalidArgument when a value does not fit the type
// (wrong width, int32 offsets overflow) and Internal when memory runs out;
// after an error the builder holds the elements appended before it. A builder
// given a type its class does not build aborts at construction (a caller bug).
//
// Thread safety: a builder is used by one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/columnar/array.h"
#include "floe/columnar/buffer_builder.h"
#include "floe/columnar/data_type.h"

namespace floe {

class ArrayBuilder {
 public:
  virtual ~ArrayBuilder() = default;
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  const TypePtr& type() const { return type_; }
  // Elements appended since construction or the last Finish().
  int64_t length() const { return validity_.length(); }
  int64_t null_count() const { return validity_.null_count(); }

  Status AppendNull() { return AppendNulls(1); }
  // Appends `n` nulls (a struct also appends n nulls to each field builder).
  virtual Status AppendNulls(int64_t n) = 0;
  // Makes room for `additional` more elements of this array (not for a nested
  // builder's child values, nor for string bytes: see ReserveData()).
  virtual Status Reserve(int64_t additional) = 0;
  // The array of the elements appended so far; the builder is then empty and
  // may be reused. Nested builders return InvalidArgument when their children
  // disagree (a struct field with the wrong count, a map key that is null).
  virtual Result<Array> Finish() = 0;

  // This builder as the typed builder B, or null when it is not one; MakeBuilder
  // documents which class serves which type.
  template <typename B>
  B* As() {
    return dynamic_cast<B*>(this);
  }

 protected:
  explicit ArrayBuilder(TypePtr type);

  // Builds the array from the validity so far plus `buffers` (the buffers after
  // validity) and `children`, and resets the validity.
  Array FinishArray(std::vector<Buffer> buffers, std::vector<std::shared_ptr<const ArrayData>> children = {});

  // InvalidArgument unless 0 <= n <= 2^48, the bound that keeps every size
  // computed from an element count free of overflow.
  static Status CheckCount(int64_t n);

  // Aborts: `builder` cannot build `type` (a caller bug, caught at construction).
  [[noreturn]] static void AbortWrongType(std::string_view builder, const TypePtr& type);

  TypePtr type_;
  ValidityBuilder validity_;
};

}  // namespace floe
