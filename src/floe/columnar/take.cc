#include "floe/columnar/take.h"

#include <vector>

#include "floe/base/strings.h"
#include "floe/columnar/builder.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_dictionary.h"
#include "floe/columnar/builder_nested.h"
#include "floe/columnar/builder_primitive.h"

namespace floe {
namespace {

// Appends element `i` of `array` to `builder` (of the same type). Recursive
// for nested types; primitive runs go through TakeArray's typed loops.
Status AppendElement(ArrayBuilder* builder, const Array& array, int64_t i);

template <typename T>
Status TakePrimitive(const Array& array, std::span<const int64_t> indices, ArrayBuilder* out) {
  auto* builder = out->As<PrimitiveBuilder<T>>();
  FLOE_RETURN_IF_ERROR(builder->Reserve(static_cast<int64_t>(indices.size())));
  const T* values = array.Values<T>();
  const bool has_nulls = array.null_count() > 0;
  for (const int64_t i : indices) {
    if (has_nulls && array.IsNull(i)) {
      FLOE_RETURN_IF_ERROR(builder->AppendNull());
    } else {
      builder->UnsafeAppend(values[i]);
    }
  }
  return Status::OK();
}

Status AppendElements(ArrayBuilder* builder, const Array& array, std::span<const int64_t> indices) {
  switch (array.type_id()) {
    case TypeId::kInt8: return TakePrimitive<int8_t>(array, indices, builder);
    case TypeId::kInt16: return TakePrimitive<int16_t>(array, indices, builder);
    case TypeId::kInt32:
    case TypeId::kDate32: return TakePrimitive<int32_t>(array, indices, builder);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp: return TakePrimitive<int64_t>(array, indices, builder);
    case TypeId::kUInt8: return TakePrimitive<uint8_t>(array, indices, builder);
    case TypeId::kUInt16: return TakePrimitive<uint16_t>(array, indices, builder);
    case TypeId::kUInt32: return TakePrimitive<uint32_t>(array, indices, builder);
    case TypeId::kUInt64: return TakePrimitive<uint64_t>(array, indices, builder);
    case TypeId::kFloat32: return TakePrimitive<float>(array, indices, builder);
    case TypeId::kFloat64: return TakePrimitive<double>(array, indices, builder);
    case TypeId::kDecimal128: return TakePrimitive<Decimal128Value>(array, indices, builder);
    case TypeId::kInterval: return TakePrimitive<MonthDayNano>(array, indices, builder);
    case TypeId::kDictionary: return builder->As<DictionaryBuilder>()->AppendFrom(array, indices);
    default:
      for (const int64_t i : indices) FLOE_RETURN_IF_ERROR(AppendElement(builder, array, i));
      return Status::OK();
  }
}

Status AppendElement(ArrayBuilder* builder, const Array& array, int64_t i) {
  if (array.IsNull(i)) return builder->AppendNull();
  switch (array.type_id()) {
    case TypeId::kNull: return builder->AppendNull();
    case TypeId::kBool: return builder->As<BoolBuilder>()->Append(array.GetBool(i));
    case TypeId::kString:
    case TypeId::kBinary: return builder->As<BinaryBuilder>()->Append(array.GetString(i));
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid: return builder->As<FixedSizeBinaryBuilder>()->Append(array.GetFixedSizeBinary(i));
    case TypeId::kDictionary: return builder->As<DictionaryBuilder>()->AppendFrom(array, i);
    case TypeId::kList: {
      auto* list = builder->As<ListBuilder>();
      FLOE_RETURN_IF_ERROR(list->StartList());
      const int32_t* offsets = array.ValueOffsets();
      const Array values = array.list_values();
      for (int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        FLOE_RETURN_IF_ERROR(AppendElement(list->value_builder(), values, k));
      }
      return Status::OK();
    }
    case TypeId::kMap: {
      auto* map = builder->As<MapBuilder>();
      FLOE_RETURN_IF_ERROR(map->StartMap());
      const int32_t* offsets = array.ValueOffsets();
      const Array entries = array.list_values();
      const Array keys = entries.field(0);
      const Array items = entries.field(1);
      for (int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        FLOE_RETURN_IF_ERROR(AppendElement(map->key_builder(), keys, k));
        FLOE_RETURN_IF_ERROR(AppendElement(map->item_builder(), items, k));
      }
      return Status::OK();
    }
    case TypeId::kStruct: {
      auto* row = builder->As<StructBuilder>();
      FLOE_RETURN_IF_ERROR(row->AppendRow());
      for (int f = 0; f < row->num_fields(); ++f) {
        FLOE_RETURN_IF_ERROR(AppendElement(row->field_builder(f), array.field(f), i));
      }
      return Status::OK();
    }
    default: {
      const int64_t one[] = {i};
      return AppendElements(builder, array, one);
    }
  }
}

}  // namespace

Result<Array> TakeArray(const Array& array, std::span<const int64_t> indices) {
  for (const int64_t i : indices) {
    if (i < 0 || i >= array.length()) {
      return Status::InvalidArgument(StrCat("take: index ", i, " is outside an array of ", array.length()));
    }
  }
  auto builder = MakeBuilder(array.type());
  FLOE_RETURN_IF_ERROR(AppendElements(builder.get(), array, indices));
  return builder->Finish();
}

Result<RecordBatch> TakeRows(const RecordBatch& batch, std::span<const int64_t> indices) {
  std::vector<Array> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (const auto& column : batch.columns()) {
    FLOE_ASSIGN_OR_RETURN(auto taken, TakeArray(column, indices));
    columns.push_back(std::move(taken));
  }
  return RecordBatch::Make(batch.schema_ptr(), std::move(columns), static_cast<int64_t>(indices.size()));
}

Result<RecordBatch> FilterRows(const RecordBatch& batch, std::span<const uint8_t> keep) {
  if (static_cast<int64_t>(keep.size()) != batch.num_rows()) {
    return Status::InvalidArgument(
        StrCat("filter: ", keep.size(), " selection flags for a batch of ", batch.num_rows(), " rows"));
  }
  std::vector<int64_t> indices;
  indices.reserve(keep.size());
  for (size_t i = 0; i < keep.size(); ++i) {
    if (keep[i] != 0) indices.push_back(static_cast<int64_t>(i));
  }
  if (indices.size() == keep.size()) return batch;
  return TakeRows(batch, indices);
}

Result<RecordBatch> ConcatenateRows(std::span<const RecordBatch> batches) {
  if (batches.empty()) return Status::InvalidArgument("concatenate: no batches");
  if (batches.size() == 1) return batches[0];
  int64_t total = 0;
  for (const auto& batch : batches) {
    if (!batch.schema().Equals(batches[0].schema())) {
      return Status::InvalidArgument(StrCat("concatenate: batch schema (", batch.schema().ToString(),
                                            ") differs from the first (", batches[0].schema().ToString(), ")"));
    }
    total += batch.num_rows();
  }
  std::vector<Array> columns;
  for (int c = 0; c < batches[0].num_columns(); ++c) {
    auto builder = MakeBuilder(batches[0].column(c).type());
    FLOE_RETURN_IF_ERROR(builder->Reserve(total));
    for (const auto& batch : batches) {
      std::vector<int64_t> all(static_cast<size_t>(batch.num_rows()));
      for (int64_t i = 0; i < batch.num_rows(); ++i) all[static_cast<size_t>(i)] = i;
      FLOE_RETURN_IF_ERROR(AppendElements(builder.get(), batch.column(c), all));
    }
    FLOE_ASSIGN_OR_RETURN(auto column, builder->Finish());
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(batches[0].schema_ptr(), std::move(columns), total);
}

}  // namespace floe
