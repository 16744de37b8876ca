#include "floe/formats/parquet/level_shredder.h"

#include "floe/base/strings.h"
#include "floe/columnar/bit_util.h"

namespace floe::parquet {
namespace {

const uint8_t* ValidityOf(const ArrayData& a) {
  return a.buffers.empty() || a.buffers[0].empty() ? nullptr : a.buffers[0].data();
}

class Shredder {
 public:
  Shredder(const WriterColumn& leaf, ShreddedLeaf* out)
      : leaf_(leaf),
        out_(out),
        want_def_(leaf.max_definition_level > 0),
        want_rep_(leaf.max_repetition_level > 0) {}

  // Elements [begin, end) (absolute) of `a`, the array at steps[depth]. `def`
  // counts the defined levels above this node; the first element starts at
  // repetition level rep_first, the others at rep_cur (the innermost list's).
  Status Walk(size_t depth, const ArrayData& a, int64_t begin, int64_t end, int16_t def, int16_t rep_first,
              int16_t rep_cur) {
    const ShredStep& step = leaf_.steps[depth];
    const bool is_null_type = a.type->id() == TypeId::kNull;
    const uint8_t* validity = is_null_type ? nullptr : ValidityOf(a);
    if (!step.nullable && validity != nullptr &&
        bit_util::CountSetBits(validity, begin, end - begin) != end - begin) {
      return Status::InvalidArgument(
          StrCat("column ", Quote(leaf_.dotted_path()), ": null in a non-nullable field at depth ", depth));
    }
    if (!step.nullable) validity = nullptr;
    const int16_t d = static_cast<int16_t>(def + (step.nullable ? 1 : 0));

    switch (step.kind) {
      case ShredStep::Kind::kLeaf: {
        if (is_null_type) {
          for (int64_t i = begin; i < end; ++i) Emit(def, i == begin ? rep_first : rep_cur);
          return Status::OK();
        }
        for (int64_t i = begin; i < end; ++i) {
          const bool valid = validity == nullptr || bit_util::GetBit(validity, i);
          Emit(valid ? d : def, i == begin ? rep_first : rep_cur);
          if (valid) out_->indices.push_back(i);
        }
        return Status::OK();
      }
      case ShredStep::Kind::kStruct: {
        if (step.child >= static_cast<int>(a.children.size())) return Mismatch(depth);
        const ArrayData& child = *a.children[static_cast<size_t>(step.child)];
        int64_t run = begin;  // start of the current run of valid structs
        for (int64_t i = begin; i < end; ++i) {
          if (validity != nullptr && !bit_util::GetBit(validity, i)) {
            FLOE_RETURN_IF_ERROR(Run(depth, child, run, i, begin, d, rep_first, rep_cur));
            Emit(def, i == begin ? rep_first : rep_cur);
            run = i + 1;
          }
        }
        return Run(depth, child, run, end, begin, d, rep_first, rep_cur);
      }
      case ShredStep::Kind::kList: {
        if (a.children.size() != 1 || a.buffers.size() < 2) return Mismatch(depth);
        const ArrayData& child = *a.children[0];
        const int32_t* offsets = reinterpret_cast<const int32_t*>(a.buffers[1].data());
        const int16_t d_item = static_cast<int16_t>(d + 1);
        for (int64_t i = begin; i < end; ++i) {
          const int16_t r = i == begin ? rep_first : rep_cur;
          if (validity != nullptr && !bit_util::GetBit(validity, i)) {
            Emit(def, r);
            continue;
          }
          const int64_t s = offsets[i];
          const int64_t e = offsets[i + 1];
          if (s == e) {
            Emit(d, r);  // an empty list: defined, but no element
            continue;
          }
          FLOE_RETURN_IF_ERROR(Walk(depth + 1, child, child.offset + s, child.offset + e, d_item, r, step.rep_level));
        }
        return Status::OK();
      }
    }
    return Status::OK();
  }

 private:
  // A run [run, i) of valid struct elements, descended into the child.
  Status Run(size_t depth, const ArrayData& child, int64_t run, int64_t i, int64_t begin, int16_t d,
             int16_t rep_first, int16_t rep_cur) {
    if (run >= i) return Status::OK();
    return Walk(depth + 1, child, child.offset + run, child.offset + i, d, run == begin ? rep_first : rep_cur, rep_cur);
  }

  void Emit(int16_t def, int16_t rep) {
    if (want_def_) out_->def_levels.push_back(def);
    if (want_rep_) out_->rep_levels.push_back(rep);
    ++out_->num_levels;
  }

  Status Mismatch(size_t depth) const {
    return Status::InvalidArgument(
        StrCat("column ", Quote(leaf_.dotted_path()), ": array layout does not fit the schema at depth ", depth));
  }

  const WriterColumn& leaf_;
  ShreddedLeaf* out_;
  const bool want_def_;
  const bool want_rep_;
};

// The array at the leaf's end of the path, for ShreddedLeaf::values.
const ArrayData* LeafArray(const WriterColumn& leaf, const ArrayData* a) {
  for (size_t i = 0; i + 1 < leaf.steps.size(); ++i) {
    const ShredStep& s = leaf.steps[i];
    const size_t child = s.kind == ShredStep::Kind::kStruct ? static_cast<size_t>(s.child) : 0;
    if (child >= a->children.size()) return nullptr;
    a = a->children[child].get();
  }
  return a;
}

}  // namespace

Status ShredLeaf(const WriterColumn& leaf, const Array& column, ShreddedLeaf* out) {
  out->def_levels.clear();
  out->rep_levels.clear();
  out->indices.clear();
  out->num_levels = 0;
  out->num_values = 0;
  const ArrayData& a = *column.data();
  out->values = LeafArray(leaf, &a);
  if (out->values == nullptr) {
    return Status::InvalidArgument(StrCat("column ", Quote(leaf.dotted_path()), ": array has too few children"));
  }

  if (leaf.steps.size() == 1) {
    // Flat: the values are the array itself.
    const int64_t begin = a.offset;
    const int64_t end = a.offset + a.length;
    out->has_indices = false;
    out->begin = begin;
    out->end = end;
    out->num_levels = a.length;
    if (a.type->id() == TypeId::kNull) {
      out->def_levels.assign(static_cast<size_t>(a.length), 0);
      out->begin = out->end = begin;
      return Status::OK();
    }
    const uint8_t* validity = ValidityOf(a);
    if (!leaf.steps[0].nullable) {
      if (validity != nullptr && bit_util::CountSetBits(validity, begin, a.length) != a.length) {
        return Status::InvalidArgument(StrCat("column ", Quote(leaf.dotted_path()), ": null in a non-nullable field"));
      }
      out->num_values = a.length;
      return Status::OK();
    }
    out->def_levels.resize(static_cast<size_t>(a.length));
    int16_t* def = out->def_levels.data();
    if (validity == nullptr) {
      std::fill(def, def + a.length, int16_t{1});
      out->num_values = a.length;
      return Status::OK();
    }
    int64_t count = 0;
    for (int64_t i = 0; i < a.length; ++i) {
      const int16_t bit = static_cast<int16_t>(bit_util::GetBit(validity, begin + i));
      def[i] = bit;
      count += bit;
    }
    out->num_values = count;
    return Status::OK();
  }

  out->has_indices = true;
  Shredder shredder(leaf, out);
  FLOE_RETURN_IF_ERROR(shredder.Walk(0, a, a.offset, a.offset + a.length, 0, 0, 0));
  out->num_values = static_cast<int64_t>(out->indices.size());
  return Status::OK();
}

}  // namespace floe::parquet
