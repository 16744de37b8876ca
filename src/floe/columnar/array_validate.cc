// Array::Validate: the layout checks that make an untrusted array safe to read
// with the unchecked accessors of array.h.

#include "floe/base/strings.h"
#include "floe/columnar/array.h"
#include "floe/columnar/layout.h"

namespace floe {
namespace {

class Validator {
 public:
  Validator(const ArrayData& data, std::string path) : data_(data), type_(*data.type), path_(std::move(path)) {}

  Status Run() {
    FLOE_RETURN_IF_ERROR(CheckShape());
    FLOE_RETURN_IF_ERROR(CheckValidity());
    switch (type_.id()) {
      case TypeId::kNull:
        return Status::OK();
      case TypeId::kBool:
        return CheckBufferSize(1, "values bitmap", bit_util::BytesForBits(end_));
      case TypeId::kString:
      case TypeId::kBinary: {
        FLOE_RETURN_IF_ERROR(CheckOffsets(data_.buffers[2].size(), "data buffer size"));
        return Status::OK();
      }
      case TypeId::kList:
      case TypeId::kMap:
        return CheckListLike();
      case TypeId::kStruct:
        return CheckStruct();
      case TypeId::kDictionary: return CheckDictionary();
      default:
        return CheckFixedWidth();
    }
  }

 private:
  template <typename... Args>
  Status Error(const Args&... args) const {
    const std::string where = path_.empty() ? StrCat("array of type ", type_.ToString())
                                            : StrCat("array ", Quote(path_), " of type ", type_.ToString());
    return Status::Corrupt(StrCat(where, ": ", args...));
  }

  Status CheckShape() {
    if (data_.length < 0) return Error("length ", data_.length, " is negative");
    if (data_.offset < 0) return Error("offset ", data_.offset, " is negative");
    if (__builtin_add_overflow(data_.offset, data_.length, &end_)) {
      return Error("offset ", data_.offset, " + length ", data_.length, " overflows");
    }
    const size_t want_buffers = static_cast<size_t>(layout::NumBuffers(type_.id()));
    if (data_.buffers.size() != want_buffers) {
      return Error("has ", data_.buffers.size(), " buffers, the layout has ", want_buffers);
    }
    if (type_.id() != TypeId::kDictionary && data_.dictionary != nullptr) {
      return Error("has a dictionary but its type is not dictionary-encoded");
    }
    if (data_.children.size() != type_.fields().size()) {
      return Error("has ", data_.children.size(), " children, the type has ", type_.fields().size());
    }
    for (size_t i = 0; i < data_.children.size(); ++i) {
      if (data_.children[i] == nullptr) return Error("child ", i, " is missing");
      if (!TypeEquals(data_.children[i]->type, type_.fields()[i].type)) {
        return Error("child ", i, " has type ",
                     data_.children[i]->type ? data_.children[i]->type->ToString() : "<none>", ", the type says ",
                     type_.fields()[i].type->ToString());
      }
    }
    return Status::OK();
  }

  Status CheckValidity() {
    const int64_t null_count = data_.null_count.load(std::memory_order_relaxed);
    if (null_count < -1 || null_count > data_.length) {
      return Error("null_count ", null_count, " is outside -1..", data_.length);
    }
    if (type_.id() == TypeId::kNull) {
      if (null_count != -1 && null_count != data_.length) {
        return Error("null_count ", null_count, " differs from length ", data_.length);
      }
      return Status::OK();
    }
    const Buffer& validity = data_.buffers[0];
    if (validity.empty()) {
      if (null_count > 0) return Error("null_count ", null_count, " but no validity bitmap");
      return Status::OK();
    }
    FLOE_RETURN_IF_ERROR(CheckBufferSize(0, "validity bitmap", bit_util::BytesForBits(end_)));
    if (null_count >= 0) {
      const int64_t actual = data_.length - bit_util::CountSetBits(validity.data(), data_.offset, data_.length);
      if (actual != null_count) return Error("null_count ", null_count, " but the validity bitmap has ", actual);
    }
    return Status::OK();
  }

  Status CheckBufferSize(size_t index, std::string_view what, int64_t needed) const {
    const int64_t size = data_.buffers[index].size();
    if (size < needed) {
      return Error(what, " has ", size, " bytes, ", needed, " needed for offset ", data_.offset, " + length ",
                   data_.length);
    }
    return Status::OK();
  }

  Status CheckAlignment(size_t index, std::string_view what, int64_t alignment) const {
    const auto address = reinterpret_cast<uintptr_t>(data_.buffers[index].data());
    if (address % static_cast<uintptr_t>(alignment) != 0) {
      return Error(what, " is not aligned to ", alignment, " bytes");
    }
    return Status::OK();
  }

  Status CheckFixedWidth() const {
    int64_t needed;
    if (__builtin_mul_overflow(end_, static_cast<int64_t>(type_.byte_width()), &needed)) {
      return Error(end_, " values of ", type_.byte_width(), " bytes overflow");
    }
    FLOE_RETURN_IF_ERROR(CheckBufferSize(1, "values buffer", needed));
    return CheckAlignment(1, "values buffer", layout::ValueAlignment(type_));
  }

  // Offsets [offset, offset + length] must exist, start at >= 0, never
  // decrease and end at or before `limit` (data bytes or child elements).
  Status CheckOffsets(int64_t limit, std::string_view limit_name) const {
    int64_t needed;
    if (__builtin_mul_overflow(end_ + 1, int64_t{4}, &needed)) return Error("offsets for ", end_, " values overflow");
    FLOE_RETURN_IF_ERROR(CheckBufferSize(1, "offsets buffer", needed));
    FLOE_RETURN_IF_ERROR(CheckAlignment(1, "offsets buffer", 4));
    const int32_t* offsets = reinterpret_cast<const int32_t*>(data_.buffers[1].data());
    if (offsets[data_.offset] < 0) return Error("offset ", data_.offset, " is ", offsets[data_.offset]);
    for (int64_t i = data_.offset; i < end_; ++i) {
      if (offsets[i + 1] < offsets[i]) {
        return Error("offset ", i + 1, " is ", offsets[i + 1], ", less than offset ", i, " (", offsets[i], ")");
      }
    }
    if (offsets[end_] > limit) return Error("offset ", end_, " is ", offsets[end_], ", past the ", limit_name, " ", limit);
    return Status::OK();
  }

  Status CheckChild(size_t i) const {
    const ArrayData& child = *data_.children[i];
    const std::string& name = type_.fields()[i].name;
    return Validator(child, path_.empty() ? name : path_ + "." + name).Run();
  }

  Status CheckListLike() const {
    const ArrayData& values = *data_.children[0];
    FLOE_RETURN_IF_ERROR(CheckOffsets(values.length, "child length"));
    FLOE_RETURN_IF_ERROR(CheckChild(0));
    if (type_.id() != TypeId::kMap) return Status::OK();
    // spec: "the entries struct is non-nullable" and "keys are not nullable".
    if (values.GetNullCount() != 0) return Error("entries struct has ", values.GetNullCount(), " nulls");
    const ArrayData& keys = *values.children[0];
    const Array key_range = Array(values.children[0]).Slice(values.offset, values.length);
    if (key_range.null_count() != 0) {
      return Error("map keys have ", key_range.null_count(), " nulls (", keys.type->ToString(), " keys)");
    }
    if (keys.type->id() == TypeId::kDictionary) {  // a valid index may still name a null value
      for (int64_t i = 0; i < values.length; ++i) {
        if (layout::IsNullAt(keys, values.offset + i)) {
          return Error("map key ", i, " is null through its dictionary (", keys.type->ToString(), " keys)");
        }
      }
    }
    return Status::OK();
  }

  Status CheckStruct() const {
    for (size_t i = 0; i < data_.children.size(); ++i) {
      const ArrayData& child = *data_.children[i];
      if (child.length < end_) {
        return Error("field ", Quote(type_.fields()[i].name), " has ", child.length, " elements, ", end_,
                     " needed for offset ", data_.offset, " + length ", data_.length);
      }
      FLOE_RETURN_IF_ERROR(CheckChild(i));
    }
    return Status::OK();
  }

  // The indices must exist and every valid one must refer to a value of the
  // dictionary, itself a valid array of the value type (which may hold nulls,
  // as Arrow allows).
  Status CheckDictionary() const {
    int64_t needed;
    if (__builtin_mul_overflow(end_, int64_t{4}, &needed)) return Error(end_, " indices overflow");
    FLOE_RETURN_IF_ERROR(CheckBufferSize(1, "indices buffer", needed));
    FLOE_RETURN_IF_ERROR(CheckAlignment(1, "indices buffer", 4));
    if (data_.dictionary == nullptr) return Error("dictionary is missing");
    const ArrayData& dictionary = *data_.dictionary;
    if (!TypeEquals(dictionary.type, type_.value_type())) {
      return Error("dictionary has type ", dictionary.type ? dictionary.type->ToString() : "<none>", ", the type says ",
                   type_.value_type()->ToString());
    }
    if (const Status status = Validator(dictionary, "").Run(); !status.ok()) {
      return Error("dictionary: ", status.message());
    }
    const int32_t* indices = reinterpret_cast<const int32_t*>(data_.buffers[1].data());
    const uint8_t* validity = data_.buffers[0].empty() ? nullptr : data_.buffers[0].data();
    for (int64_t i = data_.offset; i < end_; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, i)) continue;  // a null's index is unspecified
      if (indices[i] < 0 || indices[i] >= dictionary.length) {
        return Error("element ", i - data_.offset, " has index ", indices[i], ", outside the dictionary of ",
                     dictionary.length, " values");
      }
    }
    return Status::OK();
  }

  const ArrayData& data_;
  const DataType& type_;
  std::string path_;
  int64_t end_ = 0;  // offset + length
};

}  // namespace

Status Array::Validate() const {
  if (data_->type == nullptr) return Status::Corrupt("array has no type");
  return Validator(*data_, "").Run();
}

}  // namespace floe
