#include "floe/columnar/builder_nested.h"

#include <limits>

#include "floe/base/strings.h"

namespace floe {
namespace {

constexpr int64_t kMaxOffset = std::numeric_limits<int32_t>::max();

Status OffsetOverflow(const DataType& type, int64_t child_length) {
  return Status::InvalidArgument(
      StrCat(type.ToString(), " array: child holds ", child_length, " values, past the int32 offset limit"));
}

// Appends `n` copies of `offset`.
Status AppendOffsets(BufferBuilder& offsets, int64_t offset, int64_t n) {
  FLOE_RETURN_IF_ERROR(offsets.Reserve(n * static_cast<int64_t>(sizeof(int32_t))));
  for (int64_t i = 0; i < n; ++i) offsets.UnsafeAppend(static_cast<int32_t>(offset));
  return Status::OK();
}

}  // namespace

ListBuilder::ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder)
    : ArrayBuilder(std::move(type)), values_(std::move(value_builder)) {
  if (type_->id() != TypeId::kList || values_ == nullptr || !TypeEquals(values_->type(), type_->item_field().type)) {
    AbortWrongType("ListBuilder (with this value builder)", type_);
  }
}

Status ListBuilder::StartList() {
  const int64_t start = values_->length();
  if (start > kMaxOffset) return OffsetOverflow(*type_, start);
  FLOE_RETURN_IF_ERROR(validity_.Reserve(1));
  FLOE_RETURN_IF_ERROR(AppendOffsets(offsets_, start, 1));
  validity_.UnsafeAppendValid();
  return Status::OK();
}

Status ListBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  const int64_t start = values_->length();
  if (start > kMaxOffset) return OffsetOverflow(*type_, start);
  FLOE_RETURN_IF_ERROR(offsets_.Reserve(n * static_cast<int64_t>(sizeof(int32_t))));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  return AppendOffsets(offsets_, start, n);
}

Status ListBuilder::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  return offsets_.Reserve(additional * static_cast<int64_t>(sizeof(int32_t)));
}

Result<Array> ListBuilder::Finish() {
  const int64_t end = values_->length();
  if (end > kMaxOffset) return OffsetOverflow(*type_, end);
  FLOE_RETURN_IF_ERROR(offsets_.Reserve(sizeof(int32_t)));
  FLOE_ASSIGN_OR_RETURN(Array values, values_->Finish());
  offsets_.UnsafeAppend(static_cast<int32_t>(end));
  std::vector<Buffer> buffers;
  buffers.push_back(offsets_.Finish());
  return FinishArray(std::move(buffers), {values.data()});
}

MapBuilder::MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> key_builder,
                       std::unique_ptr<ArrayBuilder> item_builder)
    : ArrayBuilder(std::move(type)), keys_(std::move(key_builder)), items_(std::move(item_builder)) {
  if (type_->id() != TypeId::kMap || keys_ == nullptr || items_ == nullptr ||
      !TypeEquals(keys_->type(), type_->key_field().type) || !TypeEquals(items_->type(), type_->value_field().type)) {
    AbortWrongType("MapBuilder (with these key and item builders)", type_);
  }
}

Status MapBuilder::StartMap() {
  const int64_t start = keys_->length();
  if (start > kMaxOffset) return OffsetOverflow(*type_, start);
  FLOE_RETURN_IF_ERROR(validity_.Reserve(1));
  FLOE_RETURN_IF_ERROR(AppendOffsets(offsets_, start, 1));
  validity_.UnsafeAppendValid();
  return Status::OK();
}

Status MapBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  const int64_t start = keys_->length();
  if (start > kMaxOffset) return OffsetOverflow(*type_, start);
  FLOE_RETURN_IF_ERROR(offsets_.Reserve(n * static_cast<int64_t>(sizeof(int32_t))));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  return AppendOffsets(offsets_, start, n);
}

Status MapBuilder::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  return offsets_.Reserve(additional * static_cast<int64_t>(sizeof(int32_t)));
}

Result<Array> MapBuilder::Finish() {
  const int64_t entries = keys_->length();
  if (items_->length() != entries) {
    return Status::InvalidArgument(
        StrCat(type_->ToString(), " array: ", entries, " keys but ", items_->length(), " items"));
  }
  if (keys_->null_count() != 0) {
    return Status::InvalidArgument(
        StrCat(type_->ToString(), " array: ", keys_->null_count(), " of ", entries, " keys are null"));
  }
  if (entries > kMaxOffset) return OffsetOverflow(*type_, entries);
  FLOE_RETURN_IF_ERROR(offsets_.Reserve(sizeof(int32_t)));
  FLOE_ASSIGN_OR_RETURN(Array keys, keys_->Finish());
  FLOE_ASSIGN_OR_RETURN(Array items, items_->Finish());
  offsets_.UnsafeAppend(static_cast<int32_t>(entries));
  // spec: "the entries struct is non-nullable": it has no validity bitmap.
  auto entries_data = std::make_shared<ArrayData>(
      type_->field(0).type, entries, std::vector<Buffer>{Buffer()},
      std::vector<std::shared_ptr<const ArrayData>>{keys.data(), items.data()}, /*null_count=*/0);
  std::vector<Buffer> buffers;
  buffers.push_back(offsets_.Finish());
  return FinishArray(std::move(buffers), {std::move(entries_data)});
}

StructBuilder::StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders)
    : ArrayBuilder(std::move(type)), fields_(std::move(field_builders)) {
  bool ok = type_->id() == TypeId::kStruct && fields_.size() == type_->fields().size();
  for (size_t i = 0; ok && i < fields_.size(); ++i) {
    ok = fields_[i] != nullptr && TypeEquals(fields_[i]->type(), type_->fields()[i].type);
  }
  if (!ok) AbortWrongType("StructBuilder (with these field builders)", type_);
}

Status StructBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  for (auto& field : fields_) FLOE_RETURN_IF_ERROR(field->AppendNulls(n));
  return Status::OK();
}

Status StructBuilder::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  // Each row has exactly one value per field, so the fields grow alike.
  for (auto& field : fields_) FLOE_RETURN_IF_ERROR(field->Reserve(additional));
  return Status::OK();
}

Result<Array> StructBuilder::Finish() {
  const int64_t rows = validity_.length();
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i]->length() != rows) {
      return Status::InvalidArgument(StrCat(type_->ToString(), " array: field ", Quote(type_->fields()[i].name),
                                            " has ", fields_[i]->length(), " values, the struct has ", rows,
                                            " rows"));
    }
  }
  std::vector<std::shared_ptr<const ArrayData>> children;
  children.reserve(fields_.size());
  for (auto& field : fields_) {
    FLOE_ASSIGN_OR_RETURN(Array child, field->Finish());
    children.push_back(child.data());
  }
  return FinishArray({}, std::move(children));
}

}  // namespace floe
