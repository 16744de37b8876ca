// Array builders for every floe type, and MakeBuilder for any type.
//
//   Int64Builder ids;
//   FLOE_RETURN_IF_ERROR(ids.Reserve(n));
//   for (int64_t v : values) ids.UnsafeAppend(v);
//   FLOE_ASSIGN_OR_RETURN(Array array, ids.Finish());
//
// Which class builds which type (the class MakeBuilder returns, and the B of
// ArrayBuilder::As<B>() that succeeds on it):
//   null NullBuilder; bool BoolBuilder; int8..uint64, float32, float64
//   PrimitiveBuilder<C type>; decimal128 PrimitiveBuilder<Decimal128Value>;
//   date32 PrimitiveBuilder<int32_t>; time64, timestamp PrimitiveBuilder<int64_t>;
//   string StringBuilder (a BinaryBuilder); binary BinaryBuilder;
//   fixed_size_binary, uuid FixedSizeBinaryBuilder; list ListBuilder;
//   map MapBuilder; struct StructBuilder; dictionary DictionaryBuilder.

#pragma once

#include <memory>

#include "floe/columnar/array_builder.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_dictionary.h"
#include "floe/columnar/builder_nested.h"
#include "floe/columnar/builder_primitive.h"

namespace floe {

// A builder for `type`, with builders for its children when nested.
std::unique_ptr<ArrayBuilder> MakeBuilder(const TypePtr& type);

}  // namespace floe
