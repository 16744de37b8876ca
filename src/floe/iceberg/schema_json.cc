#include "floe/iceberg/schema_json.h"

#include "floe/base/json_parse.h"
#include "floe/base/strings.h"
#include "floe/iceberg/json_reader.h"

namespace floe::iceberg {

using simdjson::dom::element;
using simdjson::dom::element_type;

namespace internal {
namespace {

bool IsInteger(element e) { return e.type() == element_type::INT64 || e.type() == element_type::UINT64; }

// spec Appendix D: the JSON kind of a default value follows its type
// (booleans as true/false, int/long as integers, float/double as numbers,
// decimals, dates, times, timestamps, strings, uuids and binary as strings,
// structs and maps as objects, lists as arrays). The value itself is kept as
// JSON text; it is decoded where it is used.
Status CheckDefault(const Type& type, element value, const std::string& path) {
  auto bad = [&](std::string_view expected) {
    return Status::Corrupt(StrCat("field ", Quote(path), " is ", JsonSnippet(value), ", expected ", expected,
                                  " for type ", type.ToString()));
  };
  switch (type.id()) {
    case TypeId::kBoolean: return value.type() == element_type::BOOL ? Status::OK() : bad("true or false");
    case TypeId::kInt: {
      if (!IsInteger(value)) return bad("an integer");
      return JsonInt32(value, path).status();
    }
    case TypeId::kLong:
      if (!IsInteger(value)) return bad("an integer");
      return JsonInt64(value, path).status();
    case TypeId::kFloat:
    case TypeId::kDouble: return value.is_number() ? Status::OK() : bad("a number");
    case TypeId::kStruct:
    case TypeId::kMap: return value.type() == element_type::OBJECT ? Status::OK() : bad("an object");
    case TypeId::kList: return value.type() == element_type::ARRAY ? Status::OK() : bad("an array");
    case TypeId::kUnknown:
    case TypeId::kVariant:
    case TypeId::kGeometry:
    case TypeId::kGeography:
      // spec: these types' defaults must be null.
      return bad("null");
    default: return value.type() == element_type::STRING ? Status::OK() : bad("a string");
  }
}

Result<NestedField> ReadField(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  NestedField field;
  FLOE_ASSIGN_OR_RETURN(field.field_id, obj.Int32("id"));
  FLOE_ASSIGN_OR_RETURN(field.name, obj.String("name"));
  FLOE_ASSIGN_OR_RETURN(field.required, obj.Bool("required"));
  FLOE_ASSIGN_OR_RETURN(element type, obj.Get("type"));
  FLOE_ASSIGN_OR_RETURN(field.type, ReadType(type, obj.PathOf("type")));
  FLOE_ASSIGN_OR_RETURN(auto doc, obj.OptionalString("doc"));
  field.doc = doc.value_or("");
  for (auto [key, out] :
       {std::pair{"initial-default", &field.initial_default}, std::pair{"write-default", &field.write_default}}) {
    if (auto value = obj.Find(key)) {
      FLOE_RETURN_IF_ERROR(CheckDefault(*field.type, *value, obj.PathOf(key)));
      *out = MinifiedJson(*value);
    }
  }
  return field;
}

}  // namespace

Result<TypePtr> ReadType(element e, const std::string& path) {
  if (e.type() == element_type::STRING) {
    auto type = ParsePrimitiveType(e.get_string().value_unsafe());
    if (!type.ok()) {
      return Status::Corrupt(StrCat("field ", Quote(path), " is ", JsonSnippet(e), ", not an Iceberg type"));
    }
    return type;
  }
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  FLOE_ASSIGN_OR_RETURN(std::string kind, obj.String("type"));
  if (kind == "struct") {
    FLOE_ASSIGN_OR_RETURN(auto items, obj.Array("fields"));
    std::vector<NestedField> fields;
    fields.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(NestedField f, ReadField(items[i], StrCat(obj.PathOf("fields"), "[", i, "]")));
      fields.push_back(std::move(f));
    }
    return Type::Struct(std::move(fields));
  }
  if (kind == "list") {
    FLOE_ASSIGN_OR_RETURN(int32_t element_id, obj.Int32("element-id"));
    FLOE_ASSIGN_OR_RETURN(element element_json, obj.Get("element"));
    FLOE_ASSIGN_OR_RETURN(TypePtr element_type, ReadType(element_json, obj.PathOf("element")));
    FLOE_ASSIGN_OR_RETURN(bool required, obj.Bool("element-required"));
    return Type::List(element_id, std::move(element_type), required);
  }
  if (kind == "map") {
    FLOE_ASSIGN_OR_RETURN(int32_t key_id, obj.Int32("key-id"));
    FLOE_ASSIGN_OR_RETURN(element key_json, obj.Get("key"));
    FLOE_ASSIGN_OR_RETURN(TypePtr key, ReadType(key_json, obj.PathOf("key")));
    FLOE_ASSIGN_OR_RETURN(int32_t value_id, obj.Int32("value-id"));
    FLOE_ASSIGN_OR_RETURN(element value_json, obj.Get("value"));
    FLOE_ASSIGN_OR_RETURN(TypePtr value, ReadType(value_json, obj.PathOf("value")));
    FLOE_ASSIGN_OR_RETURN(bool required, obj.Bool("value-required"));
    return Type::Map(key_id, std::move(key), value_id, std::move(value), required);
  }
  return Status::Corrupt(
      StrCat("field ", Quote(obj.PathOf("type")), " is ", Quote(kind), ", expected 'struct', 'list' or 'map'"));
}

Result<Schema> ReadSchema(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  FLOE_ASSIGN_OR_RETURN(std::string kind, obj.String("type"));
  if (kind != "struct") {
    return Status::Corrupt(StrCat("field ", Quote(obj.PathOf("type")), " is ", Quote(kind), ", expected 'struct'"));
  }
  FLOE_ASSIGN_OR_RETURN(auto schema_id, obj.OptionalInt32("schema-id"));
  FLOE_ASSIGN_OR_RETURN(auto identifier_field_ids, obj.Int32List("identifier-field-ids", /*required=*/false));
  FLOE_ASSIGN_OR_RETURN(TypePtr as_struct, ReadType(e, path));
  auto schema =
      Schema::Make(schema_id.value_or(Schema::kInitialSchemaId), as_struct->fields(), std::move(identifier_field_ids));
  if (!schema.ok()) {
    if (path.empty()) return Status::Corrupt(schema.status().message());
    return Status::Corrupt(StrCat("field ", Quote(path), ": ", schema.status().message()));
  }
  return schema;
}

Result<std::vector<PartitionField>> ReadPartitionFields(element array, const std::string& path,
                                                        bool require_field_ids) {
  if (array.type() != element_type::ARRAY) {
    return Status::Corrupt(StrCat("field ", Quote(path), " is ", JsonKindName(array), ", expected an array"));
  }
  std::vector<PartitionField> fields;
  int32_t next_id = PartitionSpec::kFirstFieldId;
  size_t i = 0;
  simdjson::dom::array items;
  if (array.get_array().get(items) != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat("field ", Quote(path), " is not an array"));
  }
  for (element item : items) {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(item, StrCat(path, "[", i++, "]")));
    PartitionField f;
    FLOE_ASSIGN_OR_RETURN(f.name, obj.String("name"));
    FLOE_ASSIGN_OR_RETURN(std::string transform, obj.String("transform"));
    auto parsed = Transform::Parse(transform);
    if (!parsed.ok()) {
      return Status::Corrupt(StrCat("field ", Quote(obj.PathOf("transform")), ": ", parsed.status().message()));
    }
    f.transform = *parsed;
    // spec v3: "source-ids" for multi-argument transforms, else "source-id".
    if (obj.Has("source-ids")) {
      FLOE_ASSIGN_OR_RETURN(f.source_ids, obj.Int32List("source-ids"));
      if (f.source_ids.empty()) return Status::Corrupt(StrCat("field ", Quote(obj.PathOf("source-ids")), " is empty"));
    } else {
      FLOE_ASSIGN_OR_RETURN(int32_t source_id, obj.Int32("source-id"));
      f.source_ids = {source_id};
    }
    std::optional<int32_t> field_id;
    if (require_field_ids) {
      FLOE_ASSIGN_OR_RETURN(field_id, obj.Int32("field-id"));
    } else {
      FLOE_ASSIGN_OR_RETURN(field_id, obj.OptionalInt32("field-id"));
    }
    f.field_id = field_id.value_or(next_id);
    next_id = std::max(next_id, f.field_id) + 1;
    fields.push_back(std::move(f));
  }
  return fields;
}

Result<PartitionSpec> ReadPartitionSpec(element e, const std::string& path, bool require_field_ids,
                                        bool require_spec_id) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  PartitionSpec spec;
  if (require_spec_id) {
    FLOE_ASSIGN_OR_RETURN(spec.spec_id, obj.Int32("spec-id"));
  } else {
    FLOE_ASSIGN_OR_RETURN(auto spec_id, obj.OptionalInt32("spec-id"));
    spec.spec_id = spec_id.value_or(0);
  }
  FLOE_ASSIGN_OR_RETURN(element fields, obj.Get("fields"));
  FLOE_ASSIGN_OR_RETURN(spec.fields, ReadPartitionFields(fields, obj.PathOf("fields"), require_field_ids));
  return spec;
}

Result<SortOrder> ReadSortOrder(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  SortOrder order;
  FLOE_ASSIGN_OR_RETURN(order.order_id, obj.Int32("order-id"));
  FLOE_ASSIGN_OR_RETURN(auto items, obj.Array("fields"));
  for (size_t i = 0; i < items.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader f, JsonObject(items[i], StrCat(obj.PathOf("fields"), "[", i, "]")));
    SortField field;
    FLOE_ASSIGN_OR_RETURN(std::string transform, f.String("transform"));
    auto parsed = Transform::Parse(transform);
    if (!parsed.ok()) {
      return Status::Corrupt(StrCat("field ", Quote(f.PathOf("transform")), ": ", parsed.status().message()));
    }
    field.transform = *parsed;
    if (f.Has("source-ids")) {
      FLOE_ASSIGN_OR_RETURN(field.source_ids, f.Int32List("source-ids"));
      if (field.source_ids.empty())
        return Status::Corrupt(StrCat("field ", Quote(f.PathOf("source-ids")), " is empty"));
    } else {
      FLOE_ASSIGN_OR_RETURN(int32_t source_id, f.Int32("source-id"));
      field.source_ids = {source_id};
    }
    FLOE_ASSIGN_OR_RETURN(std::string direction, f.String("direction"));
    auto dir = ParseSortDirection(direction);
    if (!dir.ok()) return Status::Corrupt(StrCat("field ", Quote(f.PathOf("direction")), ": ", dir.status().message()));
    field.direction = *dir;
    FLOE_ASSIGN_OR_RETURN(std::string null_order, f.String("null-order"));
    auto nulls = ParseNullOrder(null_order);
    if (!nulls.ok()) {
      return Status::Corrupt(StrCat("field ", Quote(f.PathOf("null-order")), ": ", nulls.status().message()));
    }
    field.null_order = *nulls;
    order.fields.push_back(std::move(field));
  }
  return order;
}

}  // namespace internal

namespace {

template <typename T, typename ReadFn>
Result<T> ParseDocument(std::string_view json, std::string_view what, ReadFn read) {
  simdjson::dom::parser parser;
  element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat(what, ": not valid JSON: ", simdjson::error_message(error)));
  }
  auto result = read(root);
  if (!result.ok()) return result.status().WithContext(what);
  return result;
}

}  // namespace

Result<Schema> SchemaFromJson(std::string_view json) {
  return ParseDocument<Schema>(json, "schema", [](element root) { return internal::ReadSchema(root, ""); });
}

Result<PartitionSpec> PartitionSpecFromJson(std::string_view json, int32_t spec_id) {
  return ParseDocument<PartitionSpec>(json, "partition spec", [&](element root) -> Result<PartitionSpec> {
    if (root.type() == element_type::ARRAY) {
      PartitionSpec spec;
      spec.spec_id = spec_id;
      FLOE_ASSIGN_OR_RETURN(spec.fields, internal::ReadPartitionFields(root, "fields", false));
      return spec;
    }
    return internal::ReadPartitionSpec(root, "", false, /*require_spec_id=*/true);
  });
}

void WriteType(JsonWriter& w, const Type& type);

namespace {

void WriteFields(JsonWriter& w, const std::vector<NestedField>& fields) {
  w.Key("fields");
  w.BeginArray();
  for (const NestedField& f : fields) {
    w.BeginObject();
    w.Member("id", f.field_id);
    w.Member("name", f.name);
    w.Member("required", f.required);
    w.Key("type");
    WriteType(w, *f.type);
    if (!f.doc.empty()) w.Member("doc", f.doc);
    if (f.initial_default) {
      w.Key("initial-default");
      w.RawValue(*f.initial_default);
    }
    if (f.write_default) {
      w.Key("write-default");
      w.RawValue(*f.write_default);
    }
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void WriteType(JsonWriter& w, const Type& type) {
  switch (type.id()) {
    case TypeId::kStruct:
      w.BeginObject();
      w.Member("type", "struct");
      WriteFields(w, type.fields());
      w.EndObject();
      return;
    case TypeId::kList:
      w.BeginObject();
      w.Member("type", "list");
      w.Member("element-id", type.element_field().field_id);
      w.Key("element");
      WriteType(w, *type.element_field().type);
      w.Member("element-required", type.element_field().required);
      w.EndObject();
      return;
    case TypeId::kMap:
      w.BeginObject();
      w.Member("type", "map");
      w.Member("key-id", type.key_field().field_id);
      w.Key("key");
      WriteType(w, *type.key_field().type);
      w.Member("value-id", type.value_field().field_id);
      w.Key("value");
      WriteType(w, *type.value_field().type);
      w.Member("value-required", type.value_field().required);
      w.EndObject();
      return;
    default: w.String(type.ToString());
  }
}

void WriteSchema(JsonWriter& w, const Schema& schema) {
  w.BeginObject();
  w.Member("type", "struct");
  w.Member("schema-id", schema.schema_id());
  if (!schema.identifier_field_ids().empty()) {
    w.Key("identifier-field-ids");
    w.BeginArray();
    for (int32_t id : schema.identifier_field_ids()) w.Int(id);
    w.EndArray();
  }
  WriteFields(w, schema.fields());
  w.EndObject();
}

std::string SchemaToJson(const Schema& schema) {
  JsonWriter w;
  WriteSchema(w, schema);
  return w.Take();
}

void WritePartitionFields(JsonWriter& w, const PartitionSpec& spec) {
  w.BeginArray();
  for (const PartitionField& f : spec.fields) {
    w.BeginObject();
    w.Member("name", f.name);
    w.Member("transform", f.transform.ToString());
    if (f.source_ids.size() == 1) {
      w.Member("source-id", f.source_ids[0]);
    } else {
      w.Key("source-ids");
      w.BeginArray();
      for (int32_t id : f.source_ids) w.Int(id);
      w.EndArray();
    }
    w.Member("field-id", f.field_id);
    w.EndObject();
  }
  w.EndArray();
}

void WritePartitionSpec(JsonWriter& w, const PartitionSpec& spec) {
  w.BeginObject();
  w.Member("spec-id", spec.spec_id);
  w.Key("fields");
  WritePartitionFields(w, spec);
  w.EndObject();
}

std::string PartitionSpecToJson(const PartitionSpec& spec) {
  JsonWriter w;
  WritePartitionSpec(w, spec);
  return w.Take();
}

void WriteSortOrder(JsonWriter& w, const SortOrder& order) {
  w.BeginObject();
  w.Member("order-id", order.order_id);
  w.Key("fields");
  w.BeginArray();
  for (const SortField& f : order.fields) {
    w.BeginObject();
    w.Member("transform", f.transform.ToString());
    if (f.source_ids.size() == 1) {
      w.Member("source-id", f.source_ids[0]);
    } else {
      w.Key("source-ids");
      w.BeginArray();
      for (int32_t id : f.source_ids) w.Int(id);
      w.EndArray();
    }
    w.Member("direction", SortDirectionName(f.direction));
    w.Member("null-order", NullOrderName(f.null_order));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace floe::iceberg
