// Builders of nested arrays: ListBuilder, MapBuilder, StructBuilder. Each owns
// the builders of its children; the caller appends child values through them
// (typed: `list.value_builder()->As<Int64Builder>()`). See array_builder.h for
// the contract common to all builders.

#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/columnar/array_builder.h"

namespace floe {

// Builds a list array: StartList() opens element i, then the values appended
// to value_builder() until the next StartList() / AppendNull() / Finish()
// are its items. A null or an empty list has no items.
class ListBuilder final : public ArrayBuilder {
 public:
  // `type` must be a list whose item type is value_builder's type.
  ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder);

  // InvalidArgument when the child already holds 2^31 - 1 values (int32 offsets).
  Status StartList();
  ArrayBuilder* value_builder() const { return values_.get(); }

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  BufferBuilder offsets_;
  std::unique_ptr<ArrayBuilder> values_;
};

// Builds a map array: StartMap() opens element i, then each entry is one
// value appended to key_builder() and one to item_builder(). Finish() returns
// InvalidArgument when the key and item counts differ or a key is null.
class MapBuilder final : public ArrayBuilder {
 public:
  // `type` must be a map whose key and value types are those of the builders.
  MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> key_builder, std::unique_ptr<ArrayBuilder> item_builder);

  // InvalidArgument when the keys already number 2^31 - 1 (int32 offsets).
  Status StartMap();
  ArrayBuilder* key_builder() const { return keys_.get(); }
  ArrayBuilder* item_builder() const { return items_.get(); }

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  BufferBuilder offsets_;
  std::unique_ptr<ArrayBuilder> keys_;
  std::unique_ptr<ArrayBuilder> items_;
};

// Builds a struct array: AppendRow() adds a valid row, for which the caller
// appends exactly one value to every field builder; AppendNulls() adds null
// rows and appends the nulls to the field builders itself. Finish() returns
// InvalidArgument naming a field whose builder has the wrong count.
class StructBuilder final : public ArrayBuilder {
 public:
  // `type` must be a struct with one field per builder, types in order.
  StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders);

  Status AppendRow() {
    FLOE_RETURN_IF_ERROR(validity_.Reserve(1));
    validity_.UnsafeAppendValid();
    return Status::OK();
  }
  ArrayBuilder* field_builder(int i) const { return fields_[static_cast<size_t>(i)].get(); }
  int num_fields() const { return static_cast<int>(fields_.size()); }

  Status AppendNulls(int64_t n) override;
  Status Reserve(int64_t additional) override;
  Result<Array> Finish() override;

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> fields_;
};

}  // namespace floe
