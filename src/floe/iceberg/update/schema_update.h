// SchemaUpdate: schema evolution with Iceberg's rules (spec: "Schema
// Evolution"; Java's UpdateSchema). Changes are collected, then Apply
// produces the new schema: new columns get fresh ids above the table's
// last-column-id, so old data files never match them by mistake; renames and
// reorders keep ids, so old files still read.
//
// Column names are full dotted names ("address.city"); a name refers to the
// schema as it was before this update (except that added parents can take
// added children).
//
// Thread safety: not thread-safe; one writer builds one update.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

class SchemaUpdate {
 public:
  // `last_column_id`: the table's last-column-id; `format_version` decides
  // whether required columns may be added (v3 with an initial default).
  SchemaUpdate(Schema base, int32_t last_column_id, int format_version);

  // Adds an optional column `name` (a top-level name, or "parent.child" for a
  // struct parent). Nested types get fresh ids for their fields too.
  // InvalidArgument when the name exists or the parent is not a struct.
  SchemaUpdate& AddColumn(const std::string& name, TypePtr type, std::string doc = "");
  // A required column: only v3 with `initial_default` (JSON text), which old
  // rows read. InvalidArgument otherwise.
  SchemaUpdate& AddRequiredColumn(const std::string& name, TypePtr type, std::string initial_default);
  SchemaUpdate& RenameColumn(const std::string& name, const std::string& new_name);
  SchemaUpdate& DeleteColumn(const std::string& name);
  // Type promotion the spec allows: int → long, float → double,
  // decimal(P,S) → decimal(P',S) with P' > P; v3 also date → timestamp,
  // timestamp_ns. InvalidArgument for anything else.
  SchemaUpdate& UpdateColumnType(const std::string& name, TypePtr new_type);
  SchemaUpdate& MakeColumnOptional(const std::string& name);
  SchemaUpdate& UpdateColumnDoc(const std::string& name, std::string doc);
  // Reordering within the column's struct.
  SchemaUpdate& MoveFirst(const std::string& name);
  SchemaUpdate& MoveBefore(const std::string& name, const std::string& before);
  SchemaUpdate& MoveAfter(const std::string& name, const std::string& after);
  SchemaUpdate& SetIdentifierFields(std::vector<std::string> names);

  // The new schema (schema id: base's + 1, the metadata builder reassigns
  // it) and the new last-column-id. The first error any change met, naming
  // the column: InvalidArgument.
  struct Applied {
    Schema schema;
    int32_t last_column_id = 0;
  };
  Result<Applied> Apply() const;

 private:
  struct Move {
    int32_t field_id = 0;
    enum class Kind { kFirst, kBefore, kAfter } kind = Kind::kFirst;
    int32_t reference_id = 0;
  };
  struct Addition {
    int32_t parent_id = -1;  // -1: top level
    NestedField field;
  };

  // The id of an existing column, or records an error.
  int32_t FindId(const std::string& name, const char* what);
  void Fail(std::string message);
  TypePtr AssignFreshIds(const TypePtr& type);
  Result<TypePtr> RebuildStruct(const TypePtr& type, int32_t struct_id) const;
  Result<NestedField> RebuildField(const NestedField& field) const;

  Schema base_;
  int32_t last_column_id_;
  int format_version_;
  Status error_;
  std::set<int32_t> deletes_;
  std::map<int32_t, std::string> renames_;
  std::map<int32_t, TypePtr> type_updates_;
  std::set<int32_t> make_optional_;
  std::map<int32_t, std::string> doc_updates_;
  std::vector<Addition> additions_;
  std::vector<Move> moves_;
  std::optional<std::vector<std::string>> identifier_names_;
};

// Whether the spec allows promoting a column of type `from` to `to` in
// tables of `format_version`.
bool IsAllowedPromotion(const Type& from, const Type& to, int format_version);

}  // namespace floe::iceberg
