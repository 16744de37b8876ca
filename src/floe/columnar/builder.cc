// ArrayBuilder's shared parts and MakeBuilder.

#include "floe/columnar/builder.h"

#include <cstdio>
#include <cstdlib>

#include "floe/base/check.h"
#include "floe/base/strings.h"

namespace floe {

ArrayBuilder::ArrayBuilder(TypePtr type)
    : type_(std::move(type)), validity_(/*bitmap=*/type_->id() != TypeId::kNull) {}

Array ArrayBuilder::FinishArray(std::vector<Buffer> buffers, std::vector<std::shared_ptr<const ArrayData>> children) {
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  buffers.insert(buffers.begin(), validity_.Finish());
  return Array(std::make_shared<ArrayData>(type_, length, std::move(buffers), std::move(children), null_count));
}

Status ArrayBuilder::CheckCount(int64_t n) {
  if (n < 0 || n > (int64_t{1} << 48)) return Status::InvalidArgument(StrCat("element count ", n, " is outside 0..2^48"));
  return Status::OK();
}

void ArrayBuilder::AbortWrongType(std::string_view builder, const TypePtr& type) {
  internal::CheckFailed(__FILE__, __LINE__,
                        StrCat(builder, " cannot build arrays of type ", type ? type->ToString() : "<null>"));
}

namespace {

template <typename T>
std::unique_ptr<ArrayBuilder> Primitive(const TypePtr& type) {
  return std::make_unique<PrimitiveBuilder<T>>(type);
}

}  // namespace

std::unique_ptr<ArrayBuilder> MakeBuilder(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kNull:
      return std::make_unique<NullBuilder>();
    case TypeId::kBool:
      return std::make_unique<BoolBuilder>();
    case TypeId::kInt8:
      return Primitive<int8_t>(type);
    case TypeId::kInt16:
      return Primitive<int16_t>(type);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return Primitive<int32_t>(type);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return Primitive<int64_t>(type);
    case TypeId::kUInt8:
      return Primitive<uint8_t>(type);
    case TypeId::kUInt16:
      return Primitive<uint16_t>(type);
    case TypeId::kUInt32:
      return Primitive<uint32_t>(type);
    case TypeId::kUInt64:
      return Primitive<uint64_t>(type);
    case TypeId::kFloat32:
      return Primitive<float>(type);
    case TypeId::kFloat64:
      return Primitive<double>(type);
    case TypeId::kDecimal128:
      return Primitive<Decimal128Value>(type);
    case TypeId::kInterval:
      return Primitive<MonthDayNano>(type);
    case TypeId::kString:
      return std::make_unique<StringBuilder>();
    case TypeId::kBinary:
      return std::make_unique<BinaryBuilder>(type);
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      return std::make_unique<FixedSizeBinaryBuilder>(type);
    case TypeId::kList:
      return std::make_unique<ListBuilder>(type, MakeBuilder(type->item_field().type));
    case TypeId::kMap:
      return std::make_unique<MapBuilder>(type, MakeBuilder(type->key_field().type),
                                          MakeBuilder(type->value_field().type));
    case TypeId::kStruct: {
      std::vector<std::unique_ptr<ArrayBuilder>> fields;
      fields.reserve(type->fields().size());
      for (const Field& field : type->fields()) fields.push_back(MakeBuilder(field.type));
      return std::make_unique<StructBuilder>(type, std::move(fields));
    }
    case TypeId::kDictionary: return std::make_unique<DictionaryBuilder>(type);
  }
  internal::CheckFailed(__FILE__, __LINE__, StrCat("MakeBuilder: unknown type id ", static_cast<int>(type->id())));
}

}  // namespace floe
