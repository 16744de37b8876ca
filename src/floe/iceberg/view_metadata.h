// ViewMetadata: the Iceberg view metadata model (apache/iceberg
// format/view-spec.md), the view's counterpart of TableMetadata: schemas,
// immutable versions (each a SELECT in one or more SQL dialects), the
// version log, and properties. Like a table, a view changes by writing a new
// metadata file and swapping the catalog's pointer to it; the changes are
// the REST catalog's view updates (view_update.h).
//
// Thread safety: plain values.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/schema.h"

namespace floe::iceberg {

// spec: "Each representation is an object with at least one common field,
// type". Only "sql" is defined; others are kept verbatim.
struct ViewRepresentation {
  std::string type = "sql";
  std::string sql;      // "sql": a SQL SELECT statement
  std::string dialect;  // "sql": e.g. "spark", "trino"
  // Another type: the representation's whole JSON object, written back as is.
  std::string unknown_json;

  bool operator==(const ViewRepresentation&) const = default;
};

// spec: "A storage table identifier" (materialized views).
struct ViewStorageTable {
  std::vector<std::string> ns;
  std::string name;

  bool operator==(const ViewStorageTable&) const = default;
};

struct ViewVersion {
  int32_t version_id = 0;
  int32_t schema_id = 0;  // -1 in an add-view-version update: the schema added last
  int64_t timestamp_ms = 0;
  std::map<std::string, std::string> summary;
  std::vector<ViewRepresentation> representations;
  std::optional<std::string> default_catalog;  // nullopt: the view's own catalog
  std::vector<std::string> default_namespace;  // may be empty
  std::optional<ViewStorageTable> storage_table;

  // The representation for `dialect` (compared ignoring ASCII case), or nullptr.
  const ViewRepresentation* SqlFor(std::string_view dialect) const;
  // Equal apart from version id and timestamp: the same definition (Java
  // reuses the id of such a version instead of adding a duplicate).
  bool SameDefinition(const ViewVersion& other) const;

  bool operator==(const ViewVersion&) const = default;
};

struct ViewHistoryEntry {
  int64_t timestamp_ms = 0;
  int32_t version_id = 0;

  bool operator==(const ViewHistoryEntry&) const = default;
};

struct ViewMetadata {
  // spec: "format-version ... must be 1".
  static constexpr int kSupportedFormatVersion = 1;
  // spec: "The number of versions to retain is controlled by the view
  // property: version.history.num-entries" (Java's default: 10).
  static constexpr std::string_view kVersionHistoryProperty = "version.history.num-entries";
  static constexpr int kDefaultVersionHistory = 10;

  std::string view_uuid;
  int format_version = kSupportedFormatVersion;
  std::string location;
  std::vector<Schema> schemas;
  int32_t current_version_id = 0;
  std::vector<ViewVersion> versions;
  std::vector<ViewHistoryEntry> version_log;
  std::map<std::string, std::string> properties;

  const ViewVersion* version(int32_t version_id) const;
  const ViewVersion* current_version() const { return version(current_version_id); }
  const Schema* schema(int32_t schema_id) const;
  // The current version's schema (nullptr when metadata is invalid).
  const Schema* current_schema() const;

  // Corrupt (naming the field) unless the metadata is whole: a uuid and a
  // location, format version 1, unique schema and version ids, a current
  // version that exists, versions whose schema exists, at least one
  // representation each and one SQL representation per dialect.
  Status Validate() const;

  bool operator==(const ViewMetadata&) const = default;
};

// A view as a catalog holds it: the current metadata file and its contents.
struct ViewState {
  std::string metadata_location;
  std::shared_ptr<const ViewMetadata> metadata;
};

}  // namespace floe::iceberg
