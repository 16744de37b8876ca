// Parsing (with simdjson's DOM) and printing of Avro schema JSON.

#include "floe/formats/avro/schema.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "floe/base/strings.h"
#include "floe/columnar/value_format.h"

namespace floe::avro {

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kNull: return "null";
    case Type::kBoolean: return "boolean";
    case Type::kInt: return "int";
    case Type::kLong: return "long";
    case Type::kFloat: return "float";
    case Type::kDouble: return "double";
    case Type::kBytes: return "bytes";
    case Type::kString: return "string";
    case Type::kRecord: return "record";
    case Type::kEnum: return "enum";
    case Type::kArray: return "array";
    case Type::kMap: return "map";
    case Type::kUnion: return "union";
    case Type::kFixed: return "fixed";
  }
  return "?";
}

std::string_view LogicalTypeName(LogicalType type) {
  switch (type) {
    case LogicalType::kNone: return "";
    case LogicalType::kDecimal: return "decimal";
    case LogicalType::kUuid: return "uuid";
    case LogicalType::kDate: return "date";
    case LogicalType::kTimeMillis: return "time-millis";
    case LogicalType::kTimeMicros: return "time-micros";
    case LogicalType::kTimestampMillis: return "timestamp-millis";
    case LogicalType::kTimestampMicros: return "timestamp-micros";
    case LogicalType::kTimestampNanos: return "timestamp-nanos";
    case LogicalType::kLocalTimestampMillis: return "local-timestamp-millis";
    case LogicalType::kLocalTimestampMicros: return "local-timestamp-micros";
    case LogicalType::kLocalTimestampNanos: return "local-timestamp-nanos";
    case LogicalType::kDuration: return "duration";
  }
  return "";
}

namespace {

const std::string* FindIn(const std::vector<Attribute>& attrs, std::string_view name) {
  for (const Attribute& a : attrs) {
    if (a.name == name) return &a.json;
  }
  return nullptr;
}

std::optional<int64_t> ParseIntJson(const std::string* json) {
  if (json == nullptr) return std::nullopt;
  int64_t v = 0;
  const char* end = json->data() + json->size();
  auto [p, ec] = std::from_chars(json->data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<Type> PrimitiveType(std::string_view name) {
  static constexpr std::pair<std::string_view, Type> kPrimitives[] = {
      {"null", Type::kNull},   {"boolean", Type::kBoolean}, {"int", Type::kInt},       {"long", Type::kLong},
      {"float", Type::kFloat}, {"double", Type::kDouble},   {"bytes", Type::kBytes}, {"string", Type::kString},
  };
  for (const auto& [n, t] : kPrimitives) {
    if (n == name) return t;
  }
  return std::nullopt;
}

// spec: names start with [A-Za-z_] and continue with [A-Za-z0-9_].
bool ValidName(std::string_view n) {
  if (n.empty()) return false;
  for (size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    const bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool ValidFullName(std::string_view n) {
  for (std::string_view part : Split(n, '.')) {
    if (!ValidName(part)) return false;
  }
  return true;
}

std::string Minify(simdjson::dom::element e) { return simdjson::minify(e); }

}  // namespace

const std::string* Field::FindAttribute(std::string_view attr) const { return FindIn(attributes, attr); }

std::optional<int32_t> Field::field_id() const {
  const std::optional<int64_t> v = ParseIntJson(FindAttribute("field-id"));
  if (!v || *v < INT32_MIN || *v > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(*v);
}

int Node::FieldIndex(std::string_view field) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == field) return static_cast<int>(i);
  }
  return -1;
}

int Node::NullBranch() const {
  for (size_t i = 0; i < branches_.size(); ++i) {
    if (branches_[i]->type() == Type::kNull) return static_cast<int>(i);
  }
  return -1;
}

const std::string* Node::FindAttribute(std::string_view attr) const { return FindIn(attributes_, attr); }

std::optional<int64_t> Node::IntAttribute(std::string_view attr) const { return ParseIntJson(FindAttribute(attr)); }

const Node* Schema::FindNamed(std::string_view full_name) const {
  for (const auto& n : nodes_) {
    if (n->is_named() && n->full_name() == full_name) return n.get();
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Parsing

class SchemaParser {
 public:
  explicit SchemaParser(Schema* schema) : schema_(schema) {}

  Result<const Node*> ParseType(simdjson::dom::element e, const std::string& ns, int depth, const std::string& where) {
    if (depth > kMaxNestingDepth) {
      return Status::Corrupt(StrCat(where, ": schema nests deeper than ", kMaxNestingDepth, " levels"));
    }
    switch (e.type()) {
      case simdjson::dom::element_type::STRING: return ParseName(std::string_view(e.get_string().value_unsafe()), ns, where);
      case simdjson::dom::element_type::ARRAY: return ParseUnion(e.get_array().value_unsafe(), ns, depth, where);
      case simdjson::dom::element_type::OBJECT: return ParseObject(e.get_object().value_unsafe(), ns, depth, where);
      default: return Status::Corrupt(StrCat(where, ": a type must be a string, an object or an array, not ", Minify(e)));
    }
  }

  Node* NewNode(Type type) {
    schema_->nodes_.push_back(std::make_unique<Node>());
    Node* n = schema_->nodes_.back().get();
    n->type_ = type;
    return n;
  }

 private:
  Result<const Node*> ParseName(std::string_view name, const std::string& ns, const std::string& where) {
    if (std::optional<Type> t = PrimitiveType(name)) return NewNode(*t);
    if (name.find('.') == std::string_view::npos && !ns.empty()) {
      auto it = named_.find(StrCat(ns, ".", name));
      if (it != named_.end()) return it->second;
    }
    auto it = named_.find(std::string(name));
    if (it != named_.end()) return it->second;
    return Status::Corrupt(StrCat(where, ": unknown type ", Quote(name)));
  }

  Result<const Node*> ParseUnion(simdjson::dom::array arr, const std::string& ns, int depth, const std::string& where) {
    Node* u = NewNode(Type::kUnion);
    std::set<std::string> seen;
    for (simdjson::dom::element b : arr) {
      FLOE_ASSIGN_OR_RETURN(const Node* branch, ParseType(b, ns, depth + 1, where));
      if (branch->type() == Type::kUnion) return Status::Corrupt(StrCat(where, ": a union may not contain a union"));
      std::string key = branch->is_named() ? branch->full_name() : std::string(TypeName(branch->type()));
      if (!seen.insert(key).second) return Status::Corrupt(StrCat(where, ": union has two branches of type ", Quote(key)));
      u->branches_.push_back(branch);
    }
    if (u->branches_.empty()) return Status::Corrupt(StrCat(where, ": empty union"));
    return u;
  }

  // Splits a named type's name and namespace per the spec's rules and
  // registers it.
  Status NameNode(Node* n, simdjson::dom::object obj, const std::string& ns, const std::string& where) {
    std::string_view name;
    if (obj["name"].get_string().get(name) != simdjson::SUCCESS) {
      return Status::Corrupt(StrCat(where, ": ", TypeName(n->type_), " without a string \"name\""));
    }
    if (const size_t dot = name.rfind('.'); dot != std::string_view::npos) {
      n->namespace_ = std::string(name.substr(0, dot));
      n->name_ = std::string(name.substr(dot + 1));
    } else {
      n->name_ = std::string(name);
      std::string_view explicit_ns;
      if (obj["namespace"].get_string().get(explicit_ns) == simdjson::SUCCESS) {
        n->namespace_ = std::string(explicit_ns);
      } else {
        n->namespace_ = ns;
      }
    }
    if (!ValidName(n->name_) || (!n->namespace_.empty() && !ValidFullName(n->namespace_))) {
      return Status::Corrupt(StrCat(where, ": invalid name ", Quote(n->full_name())));
    }
    if (PrimitiveType(n->name_)) return Status::Corrupt(StrCat(where, ": a named type may not be called ", Quote(n->name_)));
    if (!named_.emplace(n->full_name(), n).second) {
      return Status::Corrupt(StrCat(where, ": type ", Quote(n->full_name()), " is defined twice"));
    }
    std::string_view doc;
    if (obj["doc"].get_string().get(doc) == simdjson::SUCCESS) n->doc_ = std::string(doc);
    simdjson::dom::array aliases;
    if (obj["aliases"].get_array().get(aliases) == simdjson::SUCCESS) {
      for (simdjson::dom::element a : aliases) {
        std::string_view s;
        if (a.get_string().get(s) != simdjson::SUCCESS) return Status::Corrupt(StrCat(where, ": an alias is not a string"));
        n->aliases_.emplace_back(s);
      }
    }
    return Status::OK();
  }

  static void KeepAttributes(Node* n, simdjson::dom::object obj, std::initializer_list<std::string_view> spec_keys) {
    for (auto [key, value] : obj) {
      if (std::find(spec_keys.begin(), spec_keys.end(), key) != spec_keys.end()) continue;
      n->attributes_.push_back({std::string(key), Minify(value)});
    }
  }

  Result<const Node*> ParseObject(simdjson::dom::object obj, const std::string& ns, int depth, const std::string& where) {
    simdjson::dom::element type_el;
    if (obj["type"].get(type_el) != simdjson::SUCCESS) {
      return Status::Corrupt(StrCat(where, ": type object without \"type\""));
    }
    if (type_el.type() != simdjson::dom::element_type::STRING) return ParseType(type_el, ns, depth + 1, where);
    const std::string_view type_name = type_el.get_string().value_unsafe();
    Node* n = nullptr;
    if (std::optional<Type> t = PrimitiveType(type_name)) {
      n = NewNode(*t);
      KeepAttributes(n, obj, {"type"});
    } else if (type_name == "record" || type_name == "error") {
      n = NewNode(Type::kRecord);
      FLOE_RETURN_IF_ERROR(NameNode(n, obj, ns, where));
      KeepAttributes(n, obj, {"type", "name", "namespace", "doc", "aliases", "fields"});
      FLOE_RETURN_IF_ERROR(ParseFields(n, obj, depth, where));
    } else if (type_name == "enum") {
      n = NewNode(Type::kEnum);
      FLOE_RETURN_IF_ERROR(NameNode(n, obj, ns, where));
      KeepAttributes(n, obj, {"type", "name", "namespace", "doc", "aliases", "symbols", "default"});
      simdjson::dom::array symbols;
      if (obj["symbols"].get_array().get(symbols) != simdjson::SUCCESS) {
        return Status::Corrupt(StrCat(where, ": enum ", Quote(n->full_name()), " without \"symbols\""));
      }
      std::set<std::string_view> seen;
      for (simdjson::dom::element s : symbols) {
        std::string_view sym;
        if (s.get_string().get(sym) != simdjson::SUCCESS || !ValidName(sym) || !seen.insert(sym).second) {
          return Status::Corrupt(StrCat(where, ": enum ", Quote(n->full_name()), " has an invalid or repeated symbol ",
                                        Minify(s)));
        }
        n->symbols_.emplace_back(sym);
      }
      std::string_view def;
      if (obj["default"].get_string().get(def) == simdjson::SUCCESS) {
        if (!seen.count(def)) {
          return Status::Corrupt(StrCat(where, ": enum ", Quote(n->full_name()), " default ", Quote(def), " is not a symbol"));
        }
        n->enum_default_ = std::string(def);
      }
    } else if (type_name == "array" || type_name == "map") {
      const bool is_array = type_name == "array";
      n = NewNode(is_array ? Type::kArray : Type::kMap);
      KeepAttributes(n, obj, {"type", is_array ? "items" : "values"});
      simdjson::dom::element child;
      if (obj[is_array ? "items" : "values"].get(child) != simdjson::SUCCESS) {
        return Status::Corrupt(StrCat(where, ": ", type_name, " without \"", is_array ? "items" : "values", "\""));
      }
      FLOE_ASSIGN_OR_RETURN(n->child_, ParseType(child, ns, depth + 1, where));
    } else if (type_name == "fixed") {
      n = NewNode(Type::kFixed);
      FLOE_RETURN_IF_ERROR(NameNode(n, obj, ns, where));
      KeepAttributes(n, obj, {"type", "name", "namespace", "doc", "aliases", "size"});
      int64_t size;
      if (obj["size"].get_int64().get(size) != simdjson::SUCCESS || size < 0 || size > (int64_t{1} << 30)) {
        return Status::Corrupt(StrCat(where, ": fixed ", Quote(n->full_name()), " needs a \"size\" in [0, 2^30]"));
      }
      n->fixed_size_ = size;
    } else {
      return ParseName(type_name, ns, where);
    }
    ApplyLogicalType(n);
    return n;
  }

  Status ParseFields(Node* rec, simdjson::dom::object obj, int depth, const std::string& where) {
    simdjson::dom::array fields;
    if (obj["fields"].get_array().get(fields) != simdjson::SUCCESS) {
      return Status::Corrupt(StrCat(where, ": record ", Quote(rec->full_name()), " without a \"fields\" array"));
    }
    const std::string ns = rec->namespace_;
    for (simdjson::dom::element fe : fields) {
      simdjson::dom::object fo;
      if (fe.get_object().get(fo) != simdjson::SUCCESS) {
        return Status::Corrupt(StrCat(where, ": record ", Quote(rec->full_name()), " has a field that is not an object"));
      }
      Field f;
      std::string_view name;
      if (fo["name"].get_string().get(name) != simdjson::SUCCESS || !ValidName(name)) {
        return Status::Corrupt(StrCat(where, ": record ", Quote(rec->full_name()), " has a field without a valid name"));
      }
      f.name = std::string(name);
      if (rec->FieldIndex(f.name) >= 0) {
        return Status::Corrupt(StrCat(where, ": record ", Quote(rec->full_name()), " has two fields named ", Quote(name)));
      }
      const std::string field_where = StrCat(where.empty() ? "" : where + ".", "field ", Quote(name));
      simdjson::dom::element type_el;
      if (fo["type"].get(type_el) != simdjson::SUCCESS) return Status::Corrupt(StrCat(field_where, ": no \"type\""));
      FLOE_ASSIGN_OR_RETURN(f.type, ParseType(type_el, ns, depth + 1, field_where));
      for (auto [key, value] : fo) {
        if (key == "name" || key == "type") continue;
        if (key == "default") {
          f.default_json = Minify(value);
        } else if (key == "doc" && value.is_string()) {
          f.doc = std::string(value.get_string().value_unsafe());
        } else if (key == "aliases" && value.is_array()) {
          const simdjson::dom::array alias_list = value.get_array().value_unsafe();
          for (simdjson::dom::element a : alias_list) {
            if (a.is_string()) f.aliases.emplace_back(a.get_string().value_unsafe());
          }
        } else {
          f.attributes.push_back({std::string(key), Minify(value)});
        }
      }
      // Readers resolve by field id (Iceberg), so two fields of one record
      // with the same id would be ambiguous.
      if (const auto id = f.field_id()) {
        for (const Field& other : rec->fields_) {
          if (other.field_id() == id) {
            return Status::Corrupt(StrCat(where, ": record ", Quote(rec->full_name()), " has two fields with field-id ",
                                          *id, " (", Quote(other.name), " and ", Quote(f.name), ")"));
          }
        }
      }
      rec->fields_.push_back(std::move(f));
    }
    return Status::OK();
  }

  // spec: an invalid logical type (wrong underlying type, bad precision) is
  // ignored and the underlying type used.
  static void ApplyLogicalType(Node* n) {
    const std::string* lt = n->FindAttribute("logicalType");
    if (lt == nullptr) return;
    const std::string_view name = std::string_view(*lt).substr(lt->size() >= 2 ? 1 : 0, lt->size() >= 2 ? lt->size() - 2 : 0);
    const Type t = n->type_;
    LogicalType out = LogicalType::kNone;
    if (name == "decimal" && (t == Type::kBytes || t == Type::kFixed)) {
      const std::optional<int64_t> p = n->IntAttribute("precision");
      const int64_t s = n->IntAttribute("scale").value_or(0);
      const int64_t max_p = t == Type::kFixed ? static_cast<int64_t>((n->fixed_size_ * 8 - 1) * 0.30103) : INT32_MAX;
      if (p && *p > 0 && *p <= max_p && s >= 0 && s <= *p) {
        out = LogicalType::kDecimal;
        n->precision_ = static_cast<int32_t>(*p);
        n->scale_ = static_cast<int32_t>(s);
      }
    } else if (name == "uuid" && (t == Type::kString || (t == Type::kFixed && n->fixed_size_ == 16))) {
      out = LogicalType::kUuid;
    } else if (name == "date" && t == Type::kInt) {
      out = LogicalType::kDate;
    } else if (name == "time-millis" && t == Type::kInt) {
      out = LogicalType::kTimeMillis;
    } else if (name == "duration" && t == Type::kFixed && n->fixed_size_ == 12) {
      out = LogicalType::kDuration;
    } else if (t == Type::kLong) {
      static constexpr std::pair<std::string_view, LogicalType> kLongTypes[] = {
          {"time-micros", LogicalType::kTimeMicros},
          {"timestamp-millis", LogicalType::kTimestampMillis},
          {"timestamp-micros", LogicalType::kTimestampMicros},
          {"timestamp-nanos", LogicalType::kTimestampNanos},
          {"local-timestamp-millis", LogicalType::kLocalTimestampMillis},
          {"local-timestamp-micros", LogicalType::kLocalTimestampMicros},
          {"local-timestamp-nanos", LogicalType::kLocalTimestampNanos},
      };
      for (const auto& [n2, l] : kLongTypes) {
        if (n2 == name) out = l;
      }
    }
    n->logical_type_ = out;
  }

  Schema* schema_;
  std::map<std::string, const Node*> named_;
};

Result<std::shared_ptr<const Schema>> Schema::Parse(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (auto err = parser.parse(padded).get(root); err != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat("Avro schema is not valid JSON: ", simdjson::error_message(err)));
  }
  auto schema = std::make_shared<Schema>();
  SchemaParser p(schema.get());
  Result<const Node*> r = p.ParseType(root, "", 0, "schema");
  if (!r.ok()) return r.status();
  schema->root_ = *r;
  return std::shared_ptr<const Schema>(std::move(schema));
}

// ---------------------------------------------------------------------------
// Printing

namespace {

void AppendAttributes(std::string* out, const std::vector<Attribute>& attrs) {
  for (const Attribute& a : attrs) {
    out->push_back(',');
    floe::value_format::AppendJsonString(a.name, out);
    out->push_back(':');
    out->append(a.json);
  }
}

void AppendNamed(std::string* out, const Node& n, const std::string& ns) {
  out->append(",\"name\":");
  floe::value_format::AppendJsonString(n.name(), out);
  if (n.name_space() != ns) {
    out->append(",\"namespace\":");
    floe::value_format::AppendJsonString(n.name_space(), out);
  }
  if (!n.doc().empty()) {
    out->append(",\"doc\":");
    floe::value_format::AppendJsonString(n.doc(), out);
  }
  if (!n.aliases().empty()) {
    out->append(",\"aliases\":[");
    for (size_t i = 0; i < n.aliases().size(); ++i) {
      if (i) out->push_back(',');
      floe::value_format::AppendJsonString(n.aliases()[i], out);
    }
    out->push_back(']');
  }
}

void AppendType(std::string* out, const Node& n, const std::string& ns, std::set<const Node*>* defined) {
  if (n.is_named() && defined->count(&n)) {
    floe::value_format::AppendJsonString(n.full_name(), out);
    return;
  }
  switch (n.type()) {
    case Type::kUnion:
      out->push_back('[');
      for (size_t i = 0; i < n.branches().size(); ++i) {
        if (i) out->push_back(',');
        AppendType(out, *n.branches()[i], ns, defined);
      }
      out->push_back(']');
      return;
    case Type::kRecord: {
      defined->insert(&n);
      out->append("{\"type\":\"record\"");
      AppendNamed(out, n, ns);
      out->append(",\"fields\":[");
      for (size_t i = 0; i < n.fields().size(); ++i) {
        const Field& f = n.fields()[i];
        if (i) out->push_back(',');
        out->append("{\"name\":");
        floe::value_format::AppendJsonString(f.name, out);
        out->append(",\"type\":");
        AppendType(out, *f.type, n.name_space(), defined);
        if (f.default_json) {
          out->append(",\"default\":");
          out->append(*f.default_json);
        }
        if (!f.doc.empty()) {
          out->append(",\"doc\":");
          floe::value_format::AppendJsonString(f.doc, out);
        }
        if (!f.aliases.empty()) {
          out->append(",\"aliases\":[");
          for (size_t a = 0; a < f.aliases.size(); ++a) {
            if (a) out->push_back(',');
            floe::value_format::AppendJsonString(f.aliases[a], out);
          }
          out->push_back(']');
        }
        AppendAttributes(out, f.attributes);
        out->push_back('}');
      }
      out->push_back(']');
      AppendAttributes(out, n.attributes());
      out->push_back('}');
      return;
    }
    case Type::kEnum:
      defined->insert(&n);
      out->append("{\"type\":\"enum\"");
      AppendNamed(out, n, ns);
      out->append(",\"symbols\":[");
      for (size_t i = 0; i < n.symbols().size(); ++i) {
        if (i) out->push_back(',');
        floe::value_format::AppendJsonString(n.symbols()[i], out);
      }
      out->push_back(']');
      if (n.enum_default()) {
        out->append(",\"default\":");
        floe::value_format::AppendJsonString(*n.enum_default(), out);
      }
      AppendAttributes(out, n.attributes());
      out->push_back('}');
      return;
    case Type::kFixed:
      defined->insert(&n);
      out->append("{\"type\":\"fixed\"");
      AppendNamed(out, n, ns);
      out->append(StrCat(",\"size\":", n.fixed_size()));
      AppendAttributes(out, n.attributes());
      out->push_back('}');
      return;
    case Type::kArray:
    case Type::kMap:
      out->append(n.type() == Type::kArray ? "{\"type\":\"array\",\"items\":" : "{\"type\":\"map\",\"values\":");
      AppendType(out, *n.items(), ns, defined);
      AppendAttributes(out, n.attributes());
      out->push_back('}');
      return;
    default:
      if (n.attributes().empty()) {
        floe::value_format::AppendJsonString(TypeName(n.type()), out);
      } else {
        out->append("{\"type\":");
        floe::value_format::AppendJsonString(TypeName(n.type()), out);
        AppendAttributes(out, n.attributes());
        out->push_back('}');
      }
  }
}

}  // namespace

std::string Schema::ToJson() const {
  std::string out;
  std::set<const Node*> defined;
  AppendType(&out, *root_, "", &defined);
  return out;
}

// ---------------------------------------------------------------------------
// Building

SchemaBuilder::SchemaBuilder() : schema_(std::make_unique<Schema>()) {}

Node* SchemaBuilder::NewNode(Type type) {
  schema_->nodes_.push_back(std::make_unique<Node>());
  Node* n = schema_->nodes_.back().get();
  n->type_ = type;
  return n;
}

namespace {
std::string QuotedJson(std::string_view s) {
  std::string out;
  floe::value_format::AppendJsonString(s, &out);
  return out;
}
void SplitFullName(Node* n, std::string full, std::string* name, std::string* ns) {
  (void)n;
  const size_t dot = full.rfind('.');
  if (dot == std::string::npos) {
    *name = std::move(full);
  } else {
    *ns = full.substr(0, dot);
    *name = full.substr(dot + 1);
  }
}
}  // namespace

const Node* SchemaBuilder::Primitive(Type type, LogicalType logical) {
  Node* n = NewNode(type);
  if (logical != LogicalType::kNone) {
    n->logical_type_ = logical;
    n->attributes_.push_back({"logicalType", QuotedJson(LogicalTypeName(logical))});
  }
  return n;
}

const Node* SchemaBuilder::Decimal(const Node* underlying, int32_t precision, int32_t scale) {
  Node* n = NewNode(underlying->type());
  if (underlying->is_named()) {
    n->name_ = underlying->name();
    n->namespace_ = underlying->name_space();
    n->fixed_size_ = underlying->fixed_size();
  }
  n->logical_type_ = LogicalType::kDecimal;
  n->precision_ = precision;
  n->scale_ = scale;
  n->attributes_ = {{"logicalType", "\"decimal\""}, {"precision", StrCat(precision)}, {"scale", StrCat(scale)}};
  return n;
}

const Node* SchemaBuilder::Array(const Node* items, std::vector<Attribute> attributes) {
  Node* n = NewNode(Type::kArray);
  n->child_ = items;
  n->attributes_ = std::move(attributes);
  return n;
}

const Node* SchemaBuilder::Map(const Node* values, std::vector<Attribute> attributes) {
  Node* n = NewNode(Type::kMap);
  n->child_ = values;
  n->attributes_ = std::move(attributes);
  return n;
}

const Node* SchemaBuilder::Union(std::vector<const Node*> branches) {
  Node* n = NewNode(Type::kUnion);
  n->branches_ = std::move(branches);
  return n;
}

const Node* SchemaBuilder::Fixed(std::string full_name, int64_t size, LogicalType logical) {
  Node* n = NewNode(Type::kFixed);
  SplitFullName(n, std::move(full_name), &n->name_, &n->namespace_);
  n->fixed_size_ = size;
  if (logical != LogicalType::kNone) {
    n->logical_type_ = logical;
    n->attributes_.push_back({"logicalType", QuotedJson(LogicalTypeName(logical))});
  }
  return n;
}

const Node* SchemaBuilder::Enum(std::string full_name, std::vector<std::string> symbols) {
  Node* n = NewNode(Type::kEnum);
  SplitFullName(n, std::move(full_name), &n->name_, &n->namespace_);
  n->symbols_ = std::move(symbols);
  return n;
}

const Node* SchemaBuilder::Record(std::string full_name, std::vector<Field> fields, std::vector<Attribute> attributes) {
  Node* n = NewNode(Type::kRecord);
  SplitFullName(n, std::move(full_name), &n->name_, &n->namespace_);
  n->fields_ = std::move(fields);
  n->attributes_ = std::move(attributes);
  return n;
}

Field SchemaBuilder::IdField(std::string name, const Node* type, int32_t field_id) {
  Field f;
  f.name = std::move(name);
  f.type = type;
  if (type->type() == Type::kUnion && !type->branches().empty() && type->branches()[0]->type() == Type::kNull) {
    f.default_json = "null";
  }
  f.attributes.push_back({"field-id", StrCat(field_id)});
  return f;
}

Result<std::shared_ptr<const Schema>> SchemaBuilder::Build(const Node* root) {
  // Printing and parsing again checks every rule the parser checks, once.
  schema_->root_ = root;
  const std::string json = schema_->ToJson();
  Result<std::shared_ptr<const Schema>> parsed = Schema::Parse(json);
  if (!parsed.ok()) return Status::InvalidArgument(StrCat("built Avro schema is invalid: ", parsed.status().message()));
  return parsed;
}

}  // namespace floe::avro
