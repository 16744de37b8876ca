#include "floe/formats/parquet/projection.h"

#include <algorithm>
#include <optional>
#include <set>

#include "floe/base/strings.h"

namespace floe::parquet {
namespace {

// Keeps `plan` whole when its node is selected, else the selected parts of
// its children; nullopt when nothing under it is selected.
std::optional<FieldPlan> Prune(const FieldPlan& plan, const std::set<int>& selected) {
  if (selected.count(plan.node)) return plan;
  if (plan.kind == FieldPlan::Kind::kPrimitive) return std::nullopt;
  std::vector<std::optional<FieldPlan>> kept;
  bool any = false;
  for (const FieldPlan& child : plan.children) {
    kept.push_back(Prune(child, selected));
    any |= kept.back().has_value();
  }
  if (!any) return std::nullopt;
  FieldPlan out = plan;
  out.children.clear();
  switch (plan.kind) {
    case FieldPlan::Kind::kStruct: {
      std::vector<Field> fields;
      for (auto& child : kept) {
        if (!child) continue;
        fields.push_back(child->field);
        out.children.push_back(std::move(*child));
      }
      out.field.type = DataType::Struct(std::move(fields));
      return out;
    }
    case FieldPlan::Kind::kList:
      out.children.push_back(std::move(*kept[0]));
      out.field.type = DataType::List(out.children[0].field);
      return out;
    case FieldPlan::Kind::kMap: {
      // The key stays whole: entries are addressed by it.
      out.children.push_back(plan.children[0]);
      out.children.push_back(kept[1] ? std::move(*kept[1]) : plan.children[1]);
      auto type = DataType::Map(out.children[0].field, out.children[1].field);
      if (!type.ok()) return plan;  // cannot happen: the key field is unchanged
      out.field.type = *type;
      return out;
    }
    case FieldPlan::Kind::kPrimitive: break;
  }
  return std::nullopt;
}

std::vector<FieldPlan> PruneAll(const ParquetSchema& schema, const std::set<int>& selected,
                                const std::vector<int>& top_level_order) {
  std::vector<FieldPlan> out;
  for (const int top : top_level_order) {
    if (auto plan = Prune(schema.fields()[static_cast<size_t>(top)], selected)) out.push_back(std::move(*plan));
  }
  return out;
}

// Finds the plan whose node has field id `id` under `plan`.
const FieldPlan* FindById(const FieldPlan& plan, int32_t id) {
  if (plan.field.field_id == id) return &plan;
  for (const FieldPlan& child : plan.children) {
    if (const FieldPlan* found = FindById(child, id)) return found;
  }
  return nullptr;
}

}  // namespace

Result<std::vector<FieldPlan>> ProjectByPaths(const ParquetSchema& schema, const std::vector<std::string>& paths) {
  std::set<int> selected;
  std::vector<int> order;
  for (const std::string& path : paths) {
    const std::vector<std::string_view> names = Split(path, '.');
    const std::vector<FieldPlan>& top = schema.fields();
    const FieldPlan* plan = nullptr;
    int top_index = -1;
    for (size_t i = 0; i < top.size(); ++i) {
      if (top[i].field.name == names[0]) {
        plan = &top[i];
        top_index = static_cast<int>(i);
        break;
      }
    }
    for (size_t depth = 1; plan != nullptr && depth < names.size(); ++depth) {
      const FieldPlan* next = nullptr;
      for (const FieldPlan& child : plan->children) {
        if (child.field.name == names[depth]) next = &child;
      }
      plan = next;
    }
    if (plan == nullptr) {
      return Status::InvalidArgument(StrCat("no column ", Quote(path), " (the file has: ", schema.schema().ToString(),
                                            ")"));
    }
    selected.insert(plan->node);
    if (std::find(order.begin(), order.end(), top_index) == order.end()) order.push_back(top_index);
  }
  return PruneAll(schema, selected, order);
}

std::vector<FieldPlan> ProjectByFieldIds(const ParquetSchema& schema, const std::vector<int32_t>& ids) {
  std::set<int> selected;
  std::vector<int> order;
  for (const int32_t id : ids) {
    for (size_t i = 0; i < schema.fields().size(); ++i) {
      if (const FieldPlan* found = FindById(schema.fields()[i], id)) {
        selected.insert(found->node);
        if (std::find(order.begin(), order.end(), static_cast<int>(i)) == order.end()) {
          order.push_back(static_cast<int>(i));
        }
        break;
      }
    }
  }
  return PruneAll(schema, selected, order);
}

}  // namespace floe::parquet
