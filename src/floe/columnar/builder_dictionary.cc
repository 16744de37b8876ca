#include "floe/columnar/builder_dictionary.h"

#include <limits>

#include "floe/base/strings.h"

namespace floe {
namespace {

constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();

Status TooManyValues(const DataType& type, int64_t count) {
  return Status::InvalidArgument(
      StrCat(type.ToString(), " array: dictionary of ", count, " values passes the int32 index limit"));
}

// Appends every value of `source` (nulls stay null) to `values`.
Status CopyValues(const Array& source, BinaryBuilder* values) {
  const bool has_nulls = source.null_count() > 0;
  int64_t bytes = 0;
  for (int64_t j = 0; j < source.length(); ++j) {
    if (!has_nulls || source.IsValid(j)) bytes += static_cast<int64_t>(source.GetString(j).size());
  }
  FLOE_RETURN_IF_ERROR(values->Reserve(source.length()));
  FLOE_RETURN_IF_ERROR(values->ReserveData(bytes));
  for (int64_t j = 0; j < source.length(); ++j) {
    if (has_nulls && source.IsNull(j)) {
      FLOE_RETURN_IF_ERROR(values->AppendNull());
    } else {
      values->UnsafeAppend(source.GetString(j));
    }
  }
  return Status::OK();
}

}  // namespace

DictionaryBuilder::DictionaryBuilder(TypePtr type) : ArrayBuilder(std::move(type)) {
  if (type_->id() != TypeId::kDictionary) AbortWrongType("DictionaryBuilder", type_);
}

Status DictionaryBuilder::Append(std::string_view value) {
  FLOE_RETURN_IF_ERROR(Reserve(1));
  if (values_ == nullptr) FLOE_RETURN_IF_ERROR(StartOwnDictionary());
  auto found = memo_.find(value);
  if (found != memo_.end()) {
    AppendIndex(found->second);
    return Status::OK();
  }
  const int64_t index = values_->length();
  if (index >= kMaxIndex) return TooManyValues(*type_, index + 1);
  FLOE_RETURN_IF_ERROR(values_->Append(value));
  memo_.emplace(std::string(value), static_cast<int32_t>(index));
  AppendIndex(static_cast<int32_t>(index));
  return Status::OK();
}

Status DictionaryBuilder::CheckSource(const Array& array) const {
  if (!TypeEquals(array.type(), type_)) {
    return Status::InvalidArgument(
        StrCat(type_->ToString(), " builder: cannot append elements of a ", array.type()->ToString(), " array"));
  }
  return Status::OK();
}

Status DictionaryBuilder::AppendFrom(const Array& array, int64_t i) {
  FLOE_RETURN_IF_ERROR(CheckSource(array));
  FLOE_RETURN_IF_ERROR(Reserve(1));
  return AppendFromUnchecked(array, i);
}

Status DictionaryBuilder::AppendFrom(const Array& array, std::span<const int64_t> positions) {
  FLOE_RETURN_IF_ERROR(CheckSource(array));
  FLOE_RETURN_IF_ERROR(Reserve(static_cast<int64_t>(positions.size())));
  for (const int64_t i : positions) FLOE_RETURN_IF_ERROR(AppendFromUnchecked(array, i));
  return Status::OK();
}

Status DictionaryBuilder::AppendFromUnchecked(const Array& array, int64_t i) {
  if (array.IsNull(i)) return AppendNull();
  const std::shared_ptr<const ArrayData>& source = array.data()->dictionary;
  const int32_t index = array.DictionaryIndices()[i];
  if (values_ == nullptr) {
    if (shared_ == nullptr) shared_ = source;
    if (shared_ == source) {
      AppendIndex(index);
      return Status::OK();
    }
    FLOE_RETURN_IF_ERROR(StartOwnDictionary());
  }
  FLOE_ASSIGN_OR_RETURN(const int32_t base, BaseOf(source));
  // BaseOf checked that base + the source's length fits an int32.
  AppendIndex(base + index);
  return Status::OK();
}

Status DictionaryBuilder::StartOwnDictionary() {
  values_ = std::make_unique<BinaryBuilder>(type_->value_type());
  if (shared_ != nullptr) {
    FLOE_RETURN_IF_ERROR(BaseOf(shared_).status());
    shared_.reset();
  }
  return Status::OK();
}

Result<int32_t> DictionaryBuilder::BaseOf(const std::shared_ptr<const ArrayData>& source) {
  if (source.get() == last_source_) return last_base_;
  auto found = bases_.find(source.get());
  if (found == bases_.end()) {
    const int64_t base = values_->length();
    if (source->length > kMaxIndex - base) return TooManyValues(*type_, base + source->length);
    FLOE_RETURN_IF_ERROR(CopyValues(Array(source), values_.get()));
    found = bases_.emplace(source.get(), std::make_pair(source, static_cast<int32_t>(base))).first;
  }
  last_source_ = source.get();
  last_base_ = found->second.second;
  return last_base_;
}

Status DictionaryBuilder::AppendNulls(int64_t n) {
  FLOE_RETURN_IF_ERROR(Reserve(n));
  FLOE_RETURN_IF_ERROR(validity_.AppendNull(n));
  return indices_.AppendZeros(n * static_cast<int64_t>(sizeof(int32_t)));
}

Status DictionaryBuilder::Reserve(int64_t additional) {
  FLOE_RETURN_IF_ERROR(CheckCount(additional));
  FLOE_RETURN_IF_ERROR(validity_.Reserve(additional));
  return indices_.Reserve(additional * static_cast<int64_t>(sizeof(int32_t)));
}

Result<Array> DictionaryBuilder::Finish() {
  std::shared_ptr<const ArrayData> dictionary;
  if (values_ != nullptr) {
    FLOE_ASSIGN_OR_RETURN(Array values, values_->Finish());
    dictionary = values.data();
  } else if (shared_ != nullptr) {
    dictionary = shared_;
  } else {  // nulls only, or nothing: an empty dictionary
    FLOE_ASSIGN_OR_RETURN(Array values, BinaryBuilder(type_->value_type()).Finish());
    dictionary = values.data();
  }
  const int64_t length = validity_.length();
  const int64_t null_count = validity_.null_count();
  std::vector<Buffer> buffers;
  buffers.push_back(validity_.Finish());
  buffers.push_back(indices_.Finish());
  auto data = std::make_shared<ArrayData>(type_, length, std::move(buffers),
                                          std::vector<std::shared_ptr<const ArrayData>>{}, null_count);
  data->dictionary = std::move(dictionary);
  shared_.reset();
  values_.reset();
  bases_.clear();
  last_source_ = nullptr;
  memo_.clear();
  return Array(std::move(data));
}

}  // namespace floe
