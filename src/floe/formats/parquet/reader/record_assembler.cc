#include "floe/formats/parquet/reader/record_assembler.h"

#include <cstring>
#include <memory>
#include <utility>

#include "floe/base/strings.h"
#include "floe/columnar/bit_util.h"
#include "floe/formats/parquet/encoding/byte_array.h"

namespace floe::parquet {
namespace {

// The levels that are slots of a node: repetition <= rep, definition >= def.
struct SlotContext {
  int16_t rep = 0;
  int16_t def = 0;
};

// A validity bitmap being filled slot by slot.
class ValidityWriter {
 public:
  Status Init(int64_t length) {
    FLOE_ASSIGN_OR_RETURN(bitmap_, Buffer::Allocate(bit_util::BytesForBits(length)));
    std::memset(bitmap_.mutable_data(), 0, static_cast<size_t>(bitmap_.size()));
    return Status::OK();
  }
  void Set(int64_t i, bool valid) {
    if (valid) {
      bit_util::SetBitTo(bitmap_.mutable_data(), i, true);
    } else {
      ++null_count_;
    }
  }
  int64_t null_count() const { return null_count_; }
  // The bitmap, or none when every slot is valid.
  Buffer Finish() { return null_count_ == 0 ? Buffer() : std::move(bitmap_); }

 private:
  Buffer bitmap_;
  int64_t null_count_ = 0;
};

class Assembler {
 public:
  Assembler(const std::vector<LeafBatch*>& leaves, const std::vector<ColumnDescriptor>& columns)
      : leaves_(leaves), columns_(columns) {}

  Result<Array> Build(const FieldPlan& plan, SlotContext ctx) {
    switch (plan.kind) {
      case FieldPlan::Kind::kPrimitive: return Primitive(plan, ctx);
      case FieldPlan::Kind::kStruct: return Struct(plan, ctx);
      case FieldPlan::Kind::kList:
      case FieldPlan::Kind::kMap: return Repeated(plan, ctx);
    }
    return Status::Internal("unknown field plan kind");
  }

 private:
  static int FirstColumn(const FieldPlan& plan) {
    return plan.kind == FieldPlan::Kind::kPrimitive ? plan.column : FirstColumn(plan.children.front());
  }

  // The levels of the node's first leaf: definition and repetition level of
  // level i. Without stored definition levels every level is the column's
  // maximum (0 when it has none, LeafBatch::def_levels); without repetition
  // levels, 0.
  struct Levels {
    const int16_t* def = nullptr;
    const int16_t* rep = nullptr;
    int64_t count = 0;
    int16_t max_def = 0;
    int16_t Def(int64_t i) const { return def ? def[i] : max_def; }
    int16_t Rep(int64_t i) const { return rep ? rep[i] : 0; }
  };
  Levels LevelsOf(const FieldPlan& plan) const {
    const int column = FirstColumn(plan);
    const LeafBatch& leaf = *leaves_[static_cast<size_t>(column)];
    return Levels{leaf.def_levels.empty() ? nullptr : leaf.def_levels.data(),
                  leaf.rep_levels.empty() ? nullptr : leaf.rep_levels.data(), leaf.num_levels,
                  columns_[static_cast<size_t>(column)].max_definition_level};
  }

  static bool IsSlot(const Levels& levels, int64_t i, SlotContext ctx) {
    return levels.Rep(i) <= ctx.rep && levels.Def(i) >= ctx.def;
  }

  Status Mismatch(const FieldPlan& plan, int64_t expected, int64_t actual) const {
    return Status::Corrupt(StrCat("field ", Quote(plan.field.name), ": its columns disagree about the records (",
                                  expected, " vs ", actual, " values)"));
  }

  Result<Array> Primitive(const FieldPlan& plan, SlotContext ctx) {
    LeafBatch& leaf = *leaves_[static_cast<size_t>(plan.column)];
    const ColumnDescriptor& column = columns_[static_cast<size_t>(plan.column)];
    const Levels levels = LevelsOf(plan);
    const TypePtr& type = plan.field.type;

    // Flat columns: every level is a slot.
    const bool all_slots = ctx.rep == 0 && ctx.def == 0 && column.max_repetition_level == 0;
    const int64_t slots = all_slots ? levels.count : CountSlots(levels, ctx);
    if (type->id() == TypeId::kNull) return MakeArrayOfNull(type, slots);

    ValidityWriter validity;
    const bool dense = slots == leaf.num_values;  // no null slot: values are already in place
    if (!dense) {
      FLOE_RETURN_IF_ERROR(validity.Init(slots));
      int64_t s = 0;
      for (int64_t i = 0; i < levels.count; ++i) {
        if (!all_slots && !IsSlot(levels, i, ctx)) continue;
        validity.Set(s++, levels.Def(i) >= plan.def_level);
      }
      if (slots - validity.null_count() != leaf.num_values) return Mismatch(plan, slots - validity.null_count(), leaf.num_values);
    }
    Buffer bitmap = validity.Finish();
    const int64_t null_count = dense ? 0 : slots - leaf.num_values;

    if (type->id() == TypeId::kString || type->id() == TypeId::kBinary) {
      Buffer data = leaf.data.Finish();
      Buffer dense_offsets = leaf.offsets.Finish();
      Buffer offsets;
      if (dense_offsets.empty()) {  // no value at all
        FLOE_ASSIGN_OR_RETURN(offsets, AllocateZeroOffsets(slots));
      } else if (dense) {
        offsets = std::move(dense_offsets);
      } else {
        FLOE_ASSIGN_OR_RETURN(offsets, Buffer::Allocate((slots + 1) * 4));
        const int32_t* in = reinterpret_cast<const int32_t*>(dense_offsets.data());
        int32_t* out = reinterpret_cast<int32_t*>(offsets.mutable_data());
        out[0] = 0;
        int64_t v = 0;
        for (int64_t s = 0; s < slots; ++s) {
          const bool valid = bitmap.empty() || bit_util::GetBit(bitmap.data(), s);
          if (valid) ++v;
          out[s + 1] = valid ? in[v] : out[s];
        }
      }
      return Make(type, slots, {std::move(bitmap), std::move(offsets), std::move(data)}, null_count);
    }

    Buffer dense_values = leaf.TakeValues();
    if (type->id() == TypeId::kBool) {
      FLOE_ASSIGN_OR_RETURN(Buffer bits, Buffer::Allocate(bit_util::BytesForBits(slots)));
      std::memset(bits.mutable_data(), 0, static_cast<size_t>(bits.size()));
      const uint8_t* in = dense_values.data();
      int64_t v = 0;
      for (int64_t s = 0; s < slots; ++s) {
        if (!bitmap.empty() && !bit_util::GetBit(bitmap.data(), s)) continue;
        if (in[v++]) bit_util::SetBitTo(bits.mutable_data(), s, true);
      }
      return Make(type, slots, {std::move(bitmap), std::move(bits)}, null_count);
    }

    if (type->id() == TypeId::kDictionary) {
      FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const ArrayData> dictionary, BatchDictionary(type, &leaf));
      Buffer indices;
      if (dense) {
        indices = std::move(dense_values);
      } else {
        FLOE_ASSIGN_OR_RETURN(indices, Buffer::Allocate(slots * 4));
        Spread(dense_values.data(), bitmap.data(), slots, 4, indices.mutable_data());
      }
      auto data = std::make_shared<ArrayData>(type, slots, std::vector<Buffer>{std::move(bitmap), std::move(indices)},
                                              std::vector<std::shared_ptr<const ArrayData>>{}, null_count);
      data->dictionary = std::move(dictionary);
      return Array(std::move(data));
    }

    const int64_t width = type->byte_width();
    if (dense) return Make(type, slots, {std::move(bitmap), std::move(dense_values)}, 0);
    FLOE_ASSIGN_OR_RETURN(Buffer values, Buffer::Allocate(slots * width));
    Spread(dense_values.data(), bitmap.data(), slots, width, values.mutable_data());
    return Make(type, slots, {std::move(bitmap), std::move(values)}, null_count);
  }

  // The dictionary a dictionary column's batch indexes: the chunk's; or,
  // when pages without the dictionary added values, those values (a chunk
  // without a dictionary page) or a copy of the chunk's followed by them.
  static Result<std::shared_ptr<const ArrayData>> BatchDictionary(const TypePtr& type, LeafBatch* leaf) {
    std::shared_ptr<const ArrayData> chunk = std::move(leaf->dictionary);
    Buffer added_offsets = leaf->offsets.Finish();
    Buffer added_data = leaf->data.Finish();
    if (chunk != nullptr && added_offsets.empty()) return chunk;
    const int64_t chunk_values = chunk == nullptr ? 0 : chunk->length;
    const int64_t added_values = added_offsets.empty() ? 0 : added_offsets.size() / 4 - 1;
    if (chunk_values == 0 && added_values > 0) {  // a chunk without a dictionary: the values are it
      return std::make_shared<const ArrayData>(
          type->value_type(), added_values,
          std::vector<Buffer>{Buffer(), std::move(added_offsets), std::move(added_data)},
          std::vector<std::shared_ptr<const ArrayData>>{}, 0);
    }
    const int32_t* chunk_offsets = nullptr;
    int64_t chunk_bytes = 0;
    if (chunk_values > 0) {
      chunk_offsets = reinterpret_cast<const int32_t*>(chunk->buffers[1].data()) + chunk->offset;
      chunk_bytes = chunk_offsets[chunk_values] - chunk_offsets[0];
    }
    if (chunk_bytes + added_data.size() > encoding::kMaxByteArrayDataSize) {
      // The decoder keeps the added values below what the chunk's leave.
      return Status::Internal(StrCat("a batch's dictionary of ", chunk_bytes + added_data.size(),
                                     " bytes, more than int32 offsets address"));
    }
    FLOE_ASSIGN_OR_RETURN(Buffer offsets, Buffer::Allocate((chunk_values + added_values + 1) * 4));
    FLOE_ASSIGN_OR_RETURN(Buffer data, Buffer::Allocate(chunk_bytes + added_data.size()));
    auto* out = reinterpret_cast<int32_t*>(offsets.mutable_data());
    out[0] = 0;
    for (int64_t i = 0; i < chunk_values; ++i) out[i + 1] = chunk_offsets[i + 1] - chunk_offsets[0];
    if (chunk_bytes > 0) std::memcpy(data.mutable_data(), chunk->buffers[2].data() + chunk_offsets[0], chunk_bytes);
    const auto* added = reinterpret_cast<const int32_t*>(added_offsets.data());
    for (int64_t i = 0; i < added_values; ++i) {
      out[chunk_values + i + 1] = static_cast<int32_t>(chunk_bytes + added[i + 1]);
    }
    if (added_data.size() > 0) {
      std::memcpy(data.mutable_data() + chunk_bytes, added_data.data(), static_cast<size_t>(added_data.size()));
    }
    return std::make_shared<const ArrayData>(type->value_type(), chunk_values + added_values,
                                             std::vector<Buffer>{Buffer(), std::move(offsets), std::move(data)},
                                             std::vector<std::shared_ptr<const ArrayData>>{}, 0);
  }

  // Copies dense values to their slots; null slots are zeroed.
  static void Spread(const uint8_t* in, const uint8_t* bitmap, int64_t slots, int64_t width, uint8_t* out) {
    switch (width) {
      case 1: SpreadN<1>(in, bitmap, slots, out); return;
      case 2: SpreadN<2>(in, bitmap, slots, out); return;
      case 4: SpreadN<4>(in, bitmap, slots, out); return;
      case 8: SpreadN<8>(in, bitmap, slots, out); return;
      case 16: SpreadN<16>(in, bitmap, slots, out); return;
      default:
        for (int64_t s = 0; s < slots; ++s) {
          if (bit_util::GetBit(bitmap, s)) {
            std::memcpy(out + s * width, in, static_cast<size_t>(width));
            in += width;
          } else {
            std::memset(out + s * width, 0, static_cast<size_t>(width));
          }
        }
    }
  }
  template <int kWidth>
  static void SpreadN(const uint8_t* in, const uint8_t* bitmap, int64_t slots, uint8_t* out) {
    for (int64_t s = 0; s < slots; ++s) {
      if (bit_util::GetBit(bitmap, s)) {
        std::memcpy(out + s * kWidth, in, kWidth);
        in += kWidth;
      } else {
        std::memset(out + s * kWidth, 0, kWidth);
      }
    }
  }

  static Result<Buffer> AllocateZeroOffsets(int64_t slots) {
    FLOE_ASSIGN_OR_RETURN(Buffer offsets, Buffer::Allocate((slots + 1) * 4));
    std::memset(offsets.mutable_data(), 0, static_cast<size_t>(offsets.size()));
    return offsets;
  }

  static Array Make(const TypePtr& type, int64_t length, std::vector<Buffer> buffers, int64_t null_count,
                    std::vector<std::shared_ptr<const ArrayData>> children = {}) {
    return Array(std::make_shared<const ArrayData>(type, length, std::move(buffers), std::move(children), null_count));
  }

  static int64_t CountSlots(const Levels& levels, SlotContext ctx) {
    int64_t slots = 0;
    for (int64_t i = 0; i < levels.count; ++i) slots += IsSlot(levels, i, ctx);
    return slots;
  }

  Result<Array> Struct(const FieldPlan& plan, SlotContext ctx) {
    const Levels levels = LevelsOf(plan);
    const int64_t slots = CountSlots(levels, ctx);
    ValidityWriter validity;
    FLOE_RETURN_IF_ERROR(validity.Init(slots));
    int64_t s = 0;
    for (int64_t i = 0; i < levels.count; ++i) {
      if (IsSlot(levels, i, ctx)) validity.Set(s++, levels.Def(i) >= plan.def_level);
    }
    std::vector<std::shared_ptr<const ArrayData>> children;
    for (const FieldPlan& child : plan.children) {
      FLOE_ASSIGN_OR_RETURN(Array array, Build(child, ctx));
      if (array.length() != slots) return Mismatch(plan, slots, array.length());
      children.push_back(array.data());
    }
    const int64_t null_count = validity.null_count();
    return Make(plan.field.type, slots, {validity.Finish()}, null_count, std::move(children));
  }

  // Lists and maps: offsets from the slots of the node and of its elements.
  Result<Array> Repeated(const FieldPlan& plan, SlotContext ctx) {
    const Levels levels = LevelsOf(plan);
    const int64_t slots = CountSlots(levels, ctx);
    ValidityWriter validity;
    FLOE_RETURN_IF_ERROR(validity.Init(slots));
    FLOE_ASSIGN_OR_RETURN(Buffer offsets_buffer, Buffer::Allocate((slots + 1) * 4));
    int32_t* offsets = reinterpret_cast<int32_t*>(offsets_buffer.mutable_data());
    int64_t elements = 0;
    int64_t s = 0;
    for (int64_t i = 0; i < levels.count; ++i) {
      const int16_t rep = levels.Rep(i);
      const int16_t def = levels.Def(i);
      if (rep <= ctx.rep) {
        if (def < ctx.def) continue;  // inside an absent outer element
        offsets[s] = static_cast<int32_t>(elements);
        validity.Set(s++, def >= plan.def_level);
      }
      if (rep <= plan.rep_level && def >= plan.repeated_def_level) ++elements;
    }
    if (elements > INT32_MAX) return Status::Unsupported("a batch holds more than 2^31 list elements");
    offsets[slots] = static_cast<int32_t>(elements);

    const SlotContext element_ctx{plan.rep_level, plan.repeated_def_level};
    std::shared_ptr<const ArrayData> child;
    if (plan.kind == FieldPlan::Kind::kList) {
      FLOE_ASSIGN_OR_RETURN(Array values, Build(plan.children[0], element_ctx));
      if (values.length() != elements) return Mismatch(plan, elements, values.length());
      child = values.data();
    } else {
      FLOE_ASSIGN_OR_RETURN(Array keys, Build(plan.children[0], element_ctx));
      FLOE_ASSIGN_OR_RETURN(Array values, Build(plan.children[1], element_ctx));
      if (keys.length() != elements) return Mismatch(plan, elements, keys.length());
      if (values.length() != elements) return Mismatch(plan, elements, values.length());
      if (keys.null_count() > 0) {
        return Status::Corrupt(StrCat("map ", Quote(plan.field.name), ": ", keys.null_count(), " null keys"));
      }
      child = std::make_shared<const ArrayData>(plan.field.type->field(0).type, elements, std::vector<Buffer>{Buffer()},
                                                std::vector<std::shared_ptr<const ArrayData>>{keys.data(), values.data()},
                                                0);
    }
    const int64_t null_count = validity.null_count();
    return Make(plan.field.type, slots, {validity.Finish(), std::move(offsets_buffer)}, null_count, {std::move(child)});
  }

  const std::vector<LeafBatch*>& leaves_;
  const std::vector<ColumnDescriptor>& columns_;
};

}  // namespace

Result<Array> AssembleField(const FieldPlan& plan, const std::vector<LeafBatch*>& leaves,
                            const std::vector<ColumnDescriptor>& columns, int64_t num_records) {
  Assembler assembler(leaves, columns);
  FLOE_ASSIGN_OR_RETURN(Array array, assembler.Build(plan, SlotContext{}));
  if (array.length() != num_records) {
    return Status::Corrupt(StrCat("field ", Quote(plan.field.name), ": ", array.length(), " values for ",
                                  num_records, " rows"));
  }
  return array;
}

}  // namespace floe::parquet
