#include "floe/iceberg/update/schema_update.h"

#include <algorithm>

#include "floe/base/strings.h"

namespace floe::iceberg {

bool IsAllowedPromotion(const Type& from, const Type& to, int format_version) {
  if (from.Equals(to)) return true;
  switch (from.id()) {
    case TypeId::kInt:
      return to.id() == TypeId::kLong;
    case TypeId::kFloat:
      return to.id() == TypeId::kDouble;
    case TypeId::kDecimal:
      return to.id() == TypeId::kDecimal && to.scale() == from.scale() && to.precision() > from.precision();
    case TypeId::kDate:
      // spec (v3): date → timestamp, timestamp_ns.
      return format_version >= 3 && (to.id() == TypeId::kTimestamp || to.id() == TypeId::kTimestampNs);
    case TypeId::kUnknown:
      return format_version >= 3;  // v3: unknown may become any type
    default:
      return false;
  }
}

SchemaUpdate::SchemaUpdate(Schema base, int32_t last_column_id, int format_version)
    : base_(std::move(base)),
      last_column_id_(std::max(last_column_id, base_.HighestFieldId())),
      format_version_(format_version) {}

void SchemaUpdate::Fail(std::string message) {
  if (error_.ok()) error_ = Status::InvalidArgument(std::move(message));
}

int32_t SchemaUpdate::FindId(const std::string& name, const char* what) {
  const NestedField* field = base_.FindFieldByName(name);
  if (field == nullptr) {
    Fail(StrCat("cannot ", what, " column '", name, "': no such column"));
    return -1;
  }
  return field->field_id;
}

TypePtr SchemaUpdate::AssignFreshIds(const TypePtr& type) {
  switch (type->id()) {
    case TypeId::kStruct: {
      std::vector<NestedField> fields;
      for (const NestedField& f : type->fields()) {
        NestedField copy = f;
        copy.field_id = ++last_column_id_;
        copy.type = AssignFreshIds(f.type);
        fields.push_back(std::move(copy));
      }
      return Type::Struct(std::move(fields));
    }
    case TypeId::kList: {
      const int32_t element_id = ++last_column_id_;
      return Type::List(element_id, AssignFreshIds(type->element_field().type), type->element_field().required);
    }
    case TypeId::kMap: {
      const int32_t key_id = ++last_column_id_;
      const int32_t value_id = ++last_column_id_;
      return Type::Map(key_id, AssignFreshIds(type->key_field().type), value_id,
                       AssignFreshIds(type->value_field().type), type->value_field().required);
    }
    default:
      return type;
  }
}

SchemaUpdate& SchemaUpdate::AddColumn(const std::string& name, TypePtr type, std::string doc) {
  const size_t dot = name.rfind('.');
  const std::string parent_name = dot == std::string::npos ? "" : name.substr(0, dot);
  const std::string leaf = dot == std::string::npos ? name : name.substr(dot + 1);
  if (leaf.empty() || type == nullptr) {
    Fail(StrCat("cannot add column '", name, "': empty name or no type"));
    return *this;
  }
  int32_t parent_id = -1;
  if (!parent_name.empty()) {
    const NestedField* parent = base_.FindFieldByName(parent_name);
    if (parent == nullptr) {
      Fail(StrCat("cannot add column '", name, "': no parent column '", parent_name, "'"));
      return *this;
    }
    // As Java: a list's element struct and a map's value struct take the
    // new field.
    const NestedField* container = parent;
    if (parent->type->id() == TypeId::kList) container = &parent->type->element_field();
    if (parent->type->id() == TypeId::kMap) container = &parent->type->value_field();
    if (container->type->id() != TypeId::kStruct) {
      Fail(StrCat("cannot add column '", name, "': '", parent_name, "' is not a struct"));
      return *this;
    }
    parent_id = container->field_id;
  }
  const NestedField* existing = base_.FindFieldByName(name);
  if (existing != nullptr && !deletes_.contains(existing->field_id)) {
    Fail(StrCat("cannot add column '", name, "': it already exists"));
    return *this;
  }
  for (const Addition& a : additions_) {
    if (a.parent_id == parent_id && a.field.name == leaf) {
      Fail(StrCat("cannot add column '", name, "' twice"));
      return *this;
    }
  }
  NestedField field;
  field.field_id = ++last_column_id_;
  field.name = leaf;
  field.type = AssignFreshIds(type);
  field.doc = std::move(doc);
  additions_.push_back(Addition{parent_id, std::move(field)});
  return *this;
}

SchemaUpdate& SchemaUpdate::AddRequiredColumn(const std::string& name, TypePtr type, std::string initial_default) {
  if (format_version_ < 3) {
    Fail(StrCat("cannot add required column '", name, "': old rows have no value (needs format version 3 and a default)"));
    return *this;
  }
  const size_t before = additions_.size();
  AddColumn(name, std::move(type));
  if (additions_.size() > before) {
    NestedField& field = additions_.back().field;
    field.required = true;
    field.initial_default = initial_default;
    field.write_default = std::move(initial_default);
  }
  return *this;
}

SchemaUpdate& SchemaUpdate::RenameColumn(const std::string& name, const std::string& new_name) {
  const int32_t id = FindId(name, "rename");
  if (id < 0) return *this;
  if (new_name.empty() || new_name.find('.') != std::string::npos) {
    Fail(StrCat("cannot rename column '", name, "' to '", new_name, "': a new name is one non-empty level"));
    return *this;
  }
  if (deletes_.contains(id)) Fail(StrCat("cannot rename column '", name, "': it is being deleted"));
  renames_[id] = new_name;
  return *this;
}

SchemaUpdate& SchemaUpdate::DeleteColumn(const std::string& name) {
  const int32_t id = FindId(name, "delete");
  if (id < 0) return *this;
  if (renames_.contains(id) || type_updates_.contains(id)) {
    Fail(StrCat("cannot delete column '", name, "': it has other changes in this update"));
  }
  deletes_.insert(id);
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumnType(const std::string& name, TypePtr new_type) {
  const int32_t id = FindId(name, "update");
  if (id < 0) return *this;
  const NestedField* field = base_.FindFieldById(id);
  if (new_type == nullptr || !new_type->is_primitive() || !field->type->is_primitive() ||
      !IsAllowedPromotion(*field->type, *new_type, format_version_)) {
    Fail(StrCat("cannot change column '", name, "' from ", field->type->ToString(), " to ",
                new_type ? new_type->ToString() : "nothing", ": not an allowed type promotion"));
    return *this;
  }
  if (deletes_.contains(id)) Fail(StrCat("cannot update column '", name, "': it is being deleted"));
  type_updates_[id] = std::move(new_type);
  return *this;
}

SchemaUpdate& SchemaUpdate::MakeColumnOptional(const std::string& name) {
  const int32_t id = FindId(name, "update");
  if (id >= 0) make_optional_.insert(id);
  return *this;
}

SchemaUpdate& SchemaUpdate::UpdateColumnDoc(const std::string& name, std::string doc) {
  const int32_t id = FindId(name, "update");
  if (id >= 0) doc_updates_[id] = std::move(doc);
  return *this;
}

SchemaUpdate& SchemaUpdate::MoveFirst(const std::string& name) {
  const int32_t id = FindId(name, "move");
  if (id >= 0) moves_.push_back(Move{id, Move::Kind::kFirst, 0});
  return *this;
}

SchemaUpdate& SchemaUpdate::MoveBefore(const std::string& name, const std::string& before) {
  const int32_t id = FindId(name, "move");
  const int32_t reference = FindId(before, "move before");
  if (id >= 0 && reference >= 0) {
    if (id == reference) Fail(StrCat("cannot move column '", name, "' before itself"));
    moves_.push_back(Move{id, Move::Kind::kBefore, reference});
  }
  return *this;
}

SchemaUpdate& SchemaUpdate::MoveAfter(const std::string& name, const std::string& after) {
  const int32_t id = FindId(name, "move");
  const int32_t reference = FindId(after, "move after");
  if (id >= 0 && reference >= 0) {
    if (id == reference) Fail(StrCat("cannot move column '", name, "' after itself"));
    moves_.push_back(Move{id, Move::Kind::kAfter, reference});
  }
  return *this;
}

SchemaUpdate& SchemaUpdate::SetIdentifierFields(std::vector<std::string> names) {
  identifier_names_ = std::move(names);
  return *this;
}

Result<NestedField> SchemaUpdate::RebuildField(const NestedField& field) const {
  NestedField out = field;
  if (auto it = renames_.find(field.field_id); it != renames_.end()) out.name = it->second;
  if (auto it = type_updates_.find(field.field_id); it != type_updates_.end()) out.type = it->second;
  if (make_optional_.contains(field.field_id)) out.required = false;
  if (auto it = doc_updates_.find(field.field_id); it != doc_updates_.end()) out.doc = it->second;
  switch (field.type->id()) {
    case TypeId::kStruct: {
      FLOE_ASSIGN_OR_RETURN(out.type, RebuildStruct(field.type, field.field_id));
      break;
    }
    case TypeId::kList: {
      FLOE_ASSIGN_OR_RETURN(NestedField element, RebuildField(field.type->element_field()));
      out.type = Type::List(element.field_id, element.type, element.required);
      break;
    }
    case TypeId::kMap: {
      FLOE_ASSIGN_OR_RETURN(NestedField key, RebuildField(field.type->key_field()));
      FLOE_ASSIGN_OR_RETURN(NestedField value, RebuildField(field.type->value_field()));
      out.type = Type::Map(key.field_id, key.type, value.field_id, value.type, value.required);
      break;
    }
    default:
      break;
  }
  return out;
}

Result<TypePtr> SchemaUpdate::RebuildStruct(const TypePtr& type, int32_t struct_id) const {
  std::vector<NestedField> fields;
  for (const NestedField& field : type->fields()) {
    if (deletes_.contains(field.field_id)) continue;
    FLOE_ASSIGN_OR_RETURN(NestedField rebuilt, RebuildField(field));
    fields.push_back(std::move(rebuilt));
  }
  for (const Addition& addition : additions_) {
    if (addition.parent_id == struct_id) fields.push_back(addition.field);
  }
  for (const Move& move : moves_) {
    auto position = [&](int32_t id) {
      return std::find_if(fields.begin(), fields.end(), [&](const NestedField& f) { return f.field_id == id; });
    };
    auto it = position(move.field_id);
    if (it == fields.end()) continue;  // the column lives in another struct
    if (move.kind != Move::Kind::kFirst && position(move.reference_id) == fields.end()) {
      return Status::InvalidArgument(StrCat("cannot move column '", base_.FindColumnName(move.field_id),
                                            "' next to '", base_.FindColumnName(move.reference_id),
                                            "': they are in different structs"));
    }
    NestedField moving = std::move(*it);
    fields.erase(it);
    auto target = fields.begin();
    if (move.kind == Move::Kind::kBefore) target = position(move.reference_id);
    if (move.kind == Move::Kind::kAfter) target = position(move.reference_id) + 1;
    fields.insert(target, std::move(moving));
  }
  return Type::Struct(std::move(fields));
}

Result<SchemaUpdate::Applied> SchemaUpdate::Apply() const {
  FLOE_RETURN_IF_ERROR(error_);
  FLOE_ASSIGN_OR_RETURN(TypePtr root, RebuildStruct(base_.as_struct(), -1));
  std::vector<int32_t> identifier_ids;
  if (identifier_names_) {
    // Identifier names refer to the new schema (added columns included).
    FLOE_ASSIGN_OR_RETURN(Schema probe, Schema::Make(base_.schema_id() + 1, root->fields()));
    for (const std::string& name : *identifier_names_) {
      const NestedField* field = probe.FindFieldByName(name);
      if (field == nullptr) return Status::InvalidArgument(StrCat("identifier field '", name, "' does not exist"));
      identifier_ids.push_back(field->field_id);
    }
  } else {
    for (int32_t id : base_.identifier_field_ids()) {
      if (deletes_.contains(id)) {
        return Status::InvalidArgument(
            StrCat("cannot delete identifier field '", base_.FindColumnName(id), "' without changing the identifier fields"));
      }
      identifier_ids.push_back(id);
    }
  }
  auto schema = Schema::Make(base_.schema_id() + 1, root->fields(), identifier_ids);
  if (!schema.ok()) return Status::InvalidArgument("schema update: " + schema.status().message());
  return Applied{std::move(*schema), last_column_id_};
}

}  // namespace floe::iceberg
