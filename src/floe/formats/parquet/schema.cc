#include "floe/formats/parquet/schema.h"

#include <variant>

#include "floe/base/strings.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/schema_writer.h"

namespace floe::parquet {
namespace {

constexpr int kMaxDepth = 128;
// A FIXED_LEN_BYTE_ARRAY wider than this is not a real column; capping it
// bounds what a reader allocates per value.
constexpr int32_t kMaxFixedWidth = 1 << 24;

bool IsListAnnotated(const SchemaNode& n) {
  if (n.logical_type && std::holds_alternative<ListType>(*n.logical_type)) return true;
  return n.converted_type == ConvertedType::LIST;
}

bool IsMapAnnotated(const SchemaNode& n) {
  if (n.logical_type && std::holds_alternative<MapType>(*n.logical_type)) return true;
  return n.converted_type == ConvertedType::MAP || n.converted_type == ConvertedType::MAP_KEY_VALUE;
}

// The field annotation (field_annotation.h) of node `n` read as `type`:
// what the writer's default mapping of `type` would not reproduce.
KeyValueMetadata AnnotationOf(const SchemaNode& n, const TypePtr& type) {
  KeyValueMetadata out;
  const std::optional<LogicalType> logical = EffectiveLogicalType(n);
  if (!n.is_leaf()) {
    // A VARIANT group reads as the struct of its fields (metadata, value, typed_value).
    if (logical && std::holds_alternative<VariantType>(*logical)) {
      out.emplace_back(kLogicalTypeKey, LogicalTypeText(*logical));
    }
    return out;
  }
  if (*n.physical_type == Type::INT96) {
    out.emplace_back(kPhysicalTypeKey, TypeName(Type::INT96));  // INT96 has no annotation
    return out;
  }
  SchemaElement written;
  if (!DefaultLeafElement(*type, &written).ok()) return out;
  if (logical && logical != written.logicalType) {
    out.emplace_back(kLogicalTypeKey, LogicalTypeText(*logical));
    // The physical type the annotation implies (INT32 for TIME(MILLIS), ...).
    auto annotated = MakeWriterSchema(Schema({floe::Field(n.name, type, true, out)}));
    if (!annotated.ok()) return out;
    written = annotated->elements.back();
  }
  if (*n.physical_type != written.type ||
      (n.physical_type == Type::FIXED_LEN_BYTE_ARRAY && n.type_length != written.type_length)) {
    out.emplace_back(kPhysicalTypeKey, PhysicalTypeText(*n.physical_type, n.type_length));
  }
  return out;
}

class PlanBuilder {
 public:
  PlanBuilder(const std::vector<SchemaNode>& nodes, const std::vector<ColumnDescriptor>& columns)
      : nodes_(nodes), columns_(columns) {}

  // The plan of node `i` as a field of a struct (or of the root).
  Result<FieldPlan> Field(int i) {
    const SchemaNode& n = nodes_[static_cast<size_t>(i)];
    // spec: a repeated field that is not inside a LIST or MAP is a list of
    // required elements, nullable neither itself nor in its elements.
    if (n.repetition == FieldRepetitionType::REPEATED) {
      FLOE_ASSIGN_OR_RETURN(FieldPlan element, Value(i, /*as_required=*/true));
      return ListOf(n, i, n.max_definition_level - 1, /*nullable=*/false, n, std::move(element));
    }
    return Value(i, /*as_required=*/false);
  }

 private:
  // Node `i` as a value; `as_required` for repeated nodes that are elements.
  Result<FieldPlan> Value(int i, bool as_required) {
    const SchemaNode& n = nodes_[static_cast<size_t>(i)];
    const bool nullable = !as_required && n.repetition == FieldRepetitionType::OPTIONAL;
    if (n.is_leaf()) {
      const ColumnDescriptor& c = columns_[static_cast<size_t>(n.column)];
      FieldPlan p;
      p.kind = FieldPlan::Kind::kPrimitive;
      p.field = floe::Field(n.name, c.type, nullable, AnnotationOf(n, c.type), n.field_id);
      p.node = i;
      p.def_level = n.max_definition_level;
      p.column = n.column;
      return p;
    }
    if (IsListAnnotated(n)) return List(i, nullable);
    if (IsMapAnnotated(n)) return Map(i, nullable);
    return Struct(i, nullable);
  }

  Result<FieldPlan> Struct(int i, bool nullable) {
    const SchemaNode& n = nodes_[static_cast<size_t>(i)];
    FieldPlan p;
    p.kind = FieldPlan::Kind::kStruct;
    p.node = i;
    p.def_level = n.max_definition_level;
    std::vector<floe::Field> fields;
    for (int child : n.children) {
      FLOE_ASSIGN_OR_RETURN(FieldPlan c, Field(child));
      fields.push_back(c.field);
      p.children.push_back(std::move(c));
    }
    TypePtr type = DataType::Struct(std::move(fields));
    p.field = floe::Field(n.name, type, nullable, AnnotationOf(n, type), n.field_id);
    return p;
  }

  // spec (LogicalTypes.md, Lists): the LIST group has one repeated child; the
  // element is decided by the backward-compatibility rules 1-4.
  Result<FieldPlan> List(int i, bool nullable) {
    const SchemaNode& list = nodes_[static_cast<size_t>(i)];
    if (list.children.size() != 1 ||
        nodes_[static_cast<size_t>(list.children[0])].repetition != FieldRepetitionType::REPEATED) {
      return Status::Corrupt(StrCat("LIST-annotated group ", Quote(list.name), " must have exactly one repeated child"));
    }
    const int r = list.children[0];
    const SchemaNode& repeated = nodes_[static_cast<size_t>(r)];
    FieldPlan element;
    const bool repeated_is_element =
        repeated.is_leaf() ||                                                          // rule 1
        repeated.children.size() > 1 ||                                                // rule 2
        repeated.name == "array" || repeated.name == list.name + "_tuple";             // rule 3
    if (repeated_is_element) {
      FLOE_ASSIGN_OR_RETURN(element, Value(r, /*as_required=*/true));
    } else {
      FLOE_ASSIGN_OR_RETURN(element, Field(repeated.children[0]));                     // rule 4: 3-level
    }
    return ListOf(list, i, list.max_definition_level, nullable, repeated, std::move(element));
  }

  FieldPlan ListOf(const SchemaNode& named, int node, int def_level, bool nullable, const SchemaNode& repeated,
                   FieldPlan element) {
    FieldPlan p;
    p.kind = FieldPlan::Kind::kList;
    p.node = node;
    p.def_level = static_cast<int16_t>(def_level);
    p.repeated_def_level = repeated.max_definition_level;
    p.rep_level = repeated.max_repetition_level;
    p.field = floe::Field(named.name, DataType::List(element.field), nullable, {},
                          named.repetition == FieldRepetitionType::REPEATED ? std::nullopt : named.field_id);
    p.children.push_back(std::move(element));
    return p;
  }

  // spec (LogicalTypes.md, Maps): MAP group -> repeated group key_value ->
  // required key, optional value. MAP_KEY_VALUE marks the same in old files.
  Result<FieldPlan> Map(int i, bool nullable) {
    const SchemaNode& map = nodes_[static_cast<size_t>(i)];
    const SchemaNode* kv = map.children.size() == 1 ? &nodes_[static_cast<size_t>(map.children[0])] : nullptr;
    if (kv == nullptr || kv->repetition != FieldRepetitionType::REPEATED || kv->is_leaf() || kv->children.empty() ||
        kv->children.size() > 2) {
      return Status::Corrupt(StrCat("MAP-annotated group ", Quote(map.name),
                                    " must hold one repeated group of a key and an optional value"));
    }
    FLOE_ASSIGN_OR_RETURN(FieldPlan key, Field(kv->children[0]));
    if (kv->children.size() == 1) {
      // A map without values (seen in the wild, e.g. map_no_value.parquet) is
      // the list of its keys: nothing is dropped and nothing is invented.
      return ListOf(map, i, map.max_definition_level, nullable, *kv, std::move(key));
    }
    FLOE_ASSIGN_OR_RETURN(FieldPlan value, Field(kv->children[1]));
    key.field.nullable = false;  // spec: keys are required; a null key is reported when read
    FieldPlan p;
    p.kind = FieldPlan::Kind::kMap;
    p.node = i;
    p.def_level = map.max_definition_level;
    p.repeated_def_level = kv->max_definition_level;
    p.rep_level = kv->max_repetition_level;
    auto type = DataType::Map(key.field, value.field);
    if (!type.ok()) return Status::Corrupt(StrCat("map ", Quote(map.name), ": ", type.status().message()));
    p.field = floe::Field(map.name, *type, nullable, {}, map.field_id);
    p.children.push_back(std::move(key));
    p.children.push_back(std::move(value));
    return p;
  }

  const std::vector<SchemaNode>& nodes_;
  const std::vector<ColumnDescriptor>& columns_;
};

void CollectColumns(const FieldPlan& plan, std::vector<int>* out) {
  if (plan.kind == FieldPlan::Kind::kPrimitive) out->push_back(plan.column);
  for (const auto& c : plan.children) CollectColumns(c, out);
}

}  // namespace

std::string ColumnDescriptor::dotted_path() const {
  std::string out;
  for (const auto& p : path) {
    if (!out.empty()) out += '.';
    out += p;
  }
  return out;
}

Result<ParquetSchema> ParquetSchema::Make(const std::vector<SchemaElement>& elements,
                                          const std::optional<std::vector<ColumnOrder>>& column_orders) {
  if (elements.empty()) return Status::Corrupt("schema: no elements (not even the root)");
  ParquetSchema s;
  s.nodes_.reserve(elements.size());
  // Depth-first: a stack of (node, children still to come).
  struct Open {
    int node;
    int remaining;
  };
  std::vector<Open> stack;
  for (size_t e = 0; e < elements.size(); ++e) {
    const SchemaElement& el = elements[e];
    if (e > 0 && stack.empty()) {
      return Status::Corrupt(StrCat("schema: element ", e, " (", Quote(el.name), ") lies outside the root"));
    }
    SchemaNode n;
    n.name = el.name;
    n.repetition = e == 0 ? FieldRepetitionType::REQUIRED : el.repetition_type.value_or(FieldRepetitionType::OPTIONAL);
    if (e > 0 && !el.repetition_type) {
      return Status::Corrupt(StrCat("schema: element ", Quote(el.name), " has no repetition_type"));
    }
    if (n.repetition != FieldRepetitionType::REQUIRED && n.repetition != FieldRepetitionType::OPTIONAL &&
        n.repetition != FieldRepetitionType::REPEATED) {
      return Status::Unsupported(StrCat("schema: element ", Quote(el.name), " has repetition ",
                                        FieldRepetitionTypeName(n.repetition)));
    }
    n.converted_type = el.converted_type;
    n.logical_type = el.logicalType;
    n.precision = el.precision.value_or(0);
    n.scale = el.scale.value_or(0);
    n.field_id = el.field_id;
    const bool group = el.num_children.has_value() && !(el.type.has_value() && *el.num_children == 0);
    if (!group) {
      if (!el.type) return Status::Corrupt(StrCat("schema: leaf ", Quote(el.name), " has no physical type"));
      if (e == 0) return Status::Corrupt("schema: the root is not a group");
      n.physical_type = el.type;
      if (*el.type == Type::FIXED_LEN_BYTE_ARRAY) {
        n.type_length = el.type_length.value_or(-1);
        if (n.type_length < 1 || n.type_length > kMaxFixedWidth) {
          return Status::Corrupt(StrCat("schema: column ", Quote(el.name), " has FIXED_LEN_BYTE_ARRAY width ",
                                        n.type_length));
        }
      }
    } else if (*el.num_children < 0 || static_cast<size_t>(*el.num_children) > elements.size() - e - 1) {
      return Status::Corrupt(StrCat("schema: group ", Quote(el.name), " claims ", *el.num_children,
                                    " children but ", elements.size() - e - 1, " elements follow"));
    }
    const int index = static_cast<int>(s.nodes_.size());
    if (!stack.empty()) {
      SchemaNode& parent = s.nodes_[static_cast<size_t>(stack.back().node)];
      n.parent = stack.back().node;
      n.max_definition_level = static_cast<int16_t>(parent.max_definition_level +
                                                    (n.repetition == FieldRepetitionType::REQUIRED ? 0 : 1));
      n.max_repetition_level = static_cast<int16_t>(parent.max_repetition_level +
                                                    (n.repetition == FieldRepetitionType::REPEATED ? 1 : 0));
      parent.children.push_back(index);
      --stack.back().remaining;
    }
    if (n.is_leaf()) {
      ColumnDescriptor c;
      c.node = index;
      c.physical_type = *n.physical_type;
      c.type_length = n.type_length;
      c.max_definition_level = n.max_definition_level;
      c.max_repetition_level = n.max_repetition_level;
      c.path.push_back(n.name);
      for (int p = n.parent; p > 0; p = s.nodes_[static_cast<size_t>(p)].parent) {
        c.path.insert(c.path.begin(), s.nodes_[static_cast<size_t>(p)].name);
      }
      FLOE_RETURN_IF_ERROR(LeafType(n, &c.type, &c.conversion));
      n.column = static_cast<int>(s.columns_.size());
      std::optional<ColumnOrder> order;
      if (column_orders) {
        // A list without this column's entry gives it no known order (0 is no ColumnOrder member).
        order = static_cast<size_t>(n.column) < column_orders->size() ? (*column_orders)[static_cast<size_t>(n.column)]
                                                                       : static_cast<ColumnOrder>(0);
      }
      c.statistics_order = StatisticsOrderOf(n, c, order);
      s.columns_.push_back(std::move(c));
    }
    s.nodes_.push_back(std::move(n));
    if (group) {
      if (stack.size() >= static_cast<size_t>(kMaxDepth)) {
        return Status::Corrupt(StrCat("schema: nesting deeper than ", kMaxDepth, " levels"));
      }
      stack.push_back({index, *el.num_children});
    }
    while (!stack.empty() && stack.back().remaining == 0) stack.pop_back();
  }
  if (!stack.empty()) {
    return Status::Corrupt(StrCat("schema: group ", Quote(s.nodes_[static_cast<size_t>(stack.back().node)].name),
                                  " is missing ", stack.back().remaining, " children"));
  }
  PlanBuilder builder(s.nodes_, s.columns_);
  std::vector<floe::Field> fields;
  for (int child : s.nodes_[0].children) {
    FLOE_ASSIGN_OR_RETURN(FieldPlan plan, builder.Field(child));
    fields.push_back(plan.field);
    s.fields_.push_back(std::move(plan));
  }
  s.schema_ = Schema(std::move(fields));
  return s;
}

std::vector<int> ParquetSchema::ColumnsOf(const FieldPlan& field) const {
  std::vector<int> out;
  CollectColumns(field, &out);
  return out;
}

}  // namespace floe::parquet
