#include "floe/iceberg/table_metadata_json.h"

#include <simdjson.h>

#include "floe/base/json_parse.h"
#include "floe/base/json_writer.h"
#include "floe/base/strings.h"
#include "floe/iceberg/json_reader.h"
#include "floe/iceberg/schema_json.h"

namespace floe::iceberg {

using internal::JsonObject;
using internal::JsonObjectReader;
using simdjson::dom::element;

namespace {

std::string Indexed(std::string_view key, size_t i) { return StrCat(key, "[", i, "]"); }

}  // namespace

namespace internal {

Result<Snapshot> ReadSnapshot(element e, const std::string& path, int format_version) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  Snapshot s;
  FLOE_ASSIGN_OR_RETURN(s.snapshot_id, obj.SnapshotId("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(s.parent_snapshot_id, obj.OptionalSnapshotId("parent-snapshot-id"));
  if (format_version >= 2) {
    FLOE_ASSIGN_OR_RETURN(s.sequence_number, obj.Int64("sequence-number"));
  }
  FLOE_ASSIGN_OR_RETURN(s.timestamp_ms, obj.Int64("timestamp-ms"));
  // spec v1: "manifest-list" is optional; "manifests" lists the manifests
  // inline when there is none.
  if (format_version >= 2 || obj.Has("manifest-list")) {
    FLOE_ASSIGN_OR_RETURN(s.manifest_list, obj.String("manifest-list"));
  } else {
    FLOE_ASSIGN_OR_RETURN(s.manifests, obj.StringList("manifests"));
  }
  if (format_version >= 2 || obj.Has("summary")) {
    FLOE_ASSIGN_OR_RETURN(s.summary, obj.StringMap("summary"));
    if (!obj.Has("summary")) return obj.Missing("summary");
    auto op = s.summary.find("operation");
    if (op == s.summary.end())
      return Status::Corrupt(StrCat("field ", Quote(obj.PathOf("summary.operation")), " is missing"));
    s.operation = op->second;
    s.summary.erase(op);
  }
  FLOE_ASSIGN_OR_RETURN(s.schema_id, obj.OptionalInt32("schema-id"));
  FLOE_ASSIGN_OR_RETURN(s.first_row_id, obj.OptionalInt64("first-row-id"));
  FLOE_ASSIGN_OR_RETURN(s.added_rows, obj.OptionalInt64("added-rows"));
  if (s.first_row_id && !s.added_rows) return obj.Missing("added-rows");
  FLOE_ASSIGN_OR_RETURN(s.key_id, obj.OptionalString("key-id"));
  return s;
}

Result<SnapshotRef> ReadRef(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  SnapshotRef ref;
  FLOE_ASSIGN_OR_RETURN(ref.snapshot_id, obj.SnapshotId("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(std::string type, obj.String("type"));
  auto parsed = ParseSnapshotRefType(type);
  if (!parsed.ok())
    return Status::Corrupt(StrCat("field ", Quote(obj.PathOf("type")), ": ", parsed.status().message()));
  ref.type = *parsed;
  FLOE_ASSIGN_OR_RETURN(ref.min_snapshots_to_keep, obj.OptionalInt32("min-snapshots-to-keep"));
  FLOE_ASSIGN_OR_RETURN(ref.max_snapshot_age_ms, obj.OptionalInt64("max-snapshot-age-ms"));
  FLOE_ASSIGN_OR_RETURN(ref.max_ref_age_ms, obj.OptionalInt64("max-ref-age-ms"));
  return ref;
}

Result<StatisticsFile> ReadStatisticsFile(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  StatisticsFile f;
  FLOE_ASSIGN_OR_RETURN(f.snapshot_id, obj.SnapshotId("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(f.statistics_path, obj.String("statistics-path"));
  FLOE_ASSIGN_OR_RETURN(f.file_size_in_bytes, obj.Int64("file-size-in-bytes"));
  FLOE_ASSIGN_OR_RETURN(f.file_footer_size_in_bytes, obj.Int64("file-footer-size-in-bytes"));
  FLOE_ASSIGN_OR_RETURN(f.key_metadata, obj.OptionalString("key-metadata"));
  FLOE_ASSIGN_OR_RETURN(auto blobs, obj.Array("blob-metadata"));
  for (size_t i = 0; i < blobs.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader b, JsonObject(blobs[i], Indexed(obj.PathOf("blob-metadata"), i)));
    BlobMetadata blob;
    FLOE_ASSIGN_OR_RETURN(blob.type, b.String("type"));
    FLOE_ASSIGN_OR_RETURN(blob.source_snapshot_id, b.SnapshotId("snapshot-id"));
    FLOE_ASSIGN_OR_RETURN(blob.source_snapshot_sequence_number, b.Int64("sequence-number"));
    FLOE_ASSIGN_OR_RETURN(blob.fields, b.Int32List("fields"));
    FLOE_ASSIGN_OR_RETURN(blob.properties, b.StringMap("properties"));
    f.blob_metadata.push_back(std::move(blob));
  }
  return f;
}

Result<PartitionStatisticsFile> ReadPartitionStatisticsFile(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  PartitionStatisticsFile f;
  FLOE_ASSIGN_OR_RETURN(f.snapshot_id, obj.SnapshotId("snapshot-id"));
  FLOE_ASSIGN_OR_RETURN(f.statistics_path, obj.String("statistics-path"));
  FLOE_ASSIGN_OR_RETURN(f.file_size_in_bytes, obj.Int64("file-size-in-bytes"));
  return f;
}

Result<EncryptedKey> ReadEncryptedKey(element e, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, path));
  EncryptedKey k;
  FLOE_ASSIGN_OR_RETURN(k.key_id, obj.String("key-id"));
  FLOE_ASSIGN_OR_RETURN(k.encrypted_key_metadata, obj.String("encrypted-key-metadata"));
  FLOE_ASSIGN_OR_RETURN(k.encrypted_by_id, obj.OptionalString("encrypted-by-id"));
  FLOE_ASSIGN_OR_RETURN(k.properties, obj.StringMap("properties"));
  return k;
}

}  // namespace internal

namespace {

using internal::ReadEncryptedKey;
using internal::ReadPartitionStatisticsFile;
using internal::ReadRef;
using internal::ReadSnapshot;
using internal::ReadStatisticsFile;
using internal::WriteRef;
using internal::WriteSnapshot;
using internal::WriteStringMap;

// Reads every element of the array `key` with `read(element, path)`.
template <typename T, typename ReadFn>
Status ReadList(const JsonObjectReader& obj, std::string_view key, bool required, std::vector<T>* out, ReadFn read) {
  FLOE_ASSIGN_OR_RETURN(auto items, obj.Array(key, required));
  out->clear();
  out->reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(T item, read(items[i], Indexed(obj.PathOf(key), i)));
    out->push_back(std::move(item));
  }
  return Status::OK();
}

Status ReadSchemas(const JsonObjectReader& root, TableMetadata* m) {
  if (root.Has("schemas")) {
    FLOE_RETURN_IF_ERROR(ReadList(root, "schemas", true, &m->schemas, internal::ReadSchema));
    FLOE_ASSIGN_OR_RETURN(m->current_schema_id, root.Int32("current-schema-id"));
    // Checked here, before later fields, so a file whose schema is missing
    // says so (as Java reports it) rather than naming a later problem.
    if (m->current_schema() == nullptr) {
      return Status::Corrupt(
          StrCat("field 'current-schema-id' is ", m->current_schema_id, ", which is not a schema id"));
    }
    return Status::OK();
  }
  if (m->format_version >= 2) return root.Missing("schemas");
  FLOE_ASSIGN_OR_RETURN(element legacy, root.Get("schema"));
  FLOE_ASSIGN_OR_RETURN(Schema schema, internal::ReadSchema(legacy, "schema"));
  m->current_schema_id = schema.schema_id();
  m->schemas = {std::move(schema)};
  return Status::OK();
}

Status ReadPartitionSpecs(const JsonObjectReader& root, TableMetadata* m) {
  const bool v2 = m->format_version >= 2;
  if (root.Has("partition-specs")) {
    FLOE_RETURN_IF_ERROR(
        ReadList(root, "partition-specs", true, &m->partition_specs, [v2](element e, const std::string& path) {
          return internal::ReadPartitionSpec(e, path, /*require_field_ids=*/v2, /*require_spec_id=*/true);
        }));
    FLOE_ASSIGN_OR_RETURN(m->default_spec_id, root.Int32("default-spec-id"));
  } else {
    if (v2) return root.Missing("partition-specs");
    FLOE_ASSIGN_OR_RETURN(element legacy, root.Get("partition-spec"));
    PartitionSpec spec;
    spec.spec_id = PartitionSpec::kInitialSpecId;
    FLOE_ASSIGN_OR_RETURN(spec.fields, internal::ReadPartitionFields(legacy, "partition-spec", false));
    m->default_spec_id = spec.spec_id;
    m->partition_specs = {std::move(spec)};
  }
  if (root.Has("last-partition-id")) {
    FLOE_ASSIGN_OR_RETURN(m->last_partition_id, root.Int32("last-partition-id"));
  } else {
    if (v2) return root.Missing("last-partition-id");
    // spec v1: derived as the highest field id of the specs.
    m->last_partition_id = PartitionSpec::kUnpartitionedLastAssignedId;
    for (const auto& spec : m->partition_specs) {
      m->last_partition_id = std::max(m->last_partition_id, spec.LastAssignedFieldId());
    }
  }
  return Status::OK();
}

Status ReadSortOrders(const JsonObjectReader& root, TableMetadata* m) {
  if (root.Has("sort-orders")) {
    FLOE_RETURN_IF_ERROR(ReadList(root, "sort-orders", true, &m->sort_orders, internal::ReadSortOrder));
    FLOE_ASSIGN_OR_RETURN(m->default_sort_order_id, root.Int32("default-sort-order-id"));
    return Status::OK();
  }
  if (m->format_version >= 2) return root.Missing("sort-orders");
  // spec v1: tables without sort orders are unsorted.
  m->sort_orders = {SortOrder{}};
  m->default_sort_order_id = SortOrder::kUnsortedOrderId;
  return Status::OK();
}

Status ReadSnapshotsAndRefs(const JsonObjectReader& root, TableMetadata* m) {
  FLOE_ASSIGN_OR_RETURN(auto current, root.OptionalSnapshotId("current-snapshot-id"));
  // spec: "-1" marks a table without a current snapshot (Java writes it).
  if (current && *current != -1) m->current_snapshot_id = *current;
  const int version = m->format_version;
  FLOE_RETURN_IF_ERROR(ReadList(root, "snapshots", false, &m->snapshots,
                                [version](element e, const std::string& p) { return ReadSnapshot(e, p, version); }));
  if (auto refs = root.Find("refs")) {
    FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(*refs, "refs"));
    for (auto [name, value] : obj.object()) {
      FLOE_ASSIGN_OR_RETURN(SnapshotRef ref, ReadRef(value, obj.PathOf(name)));
      if (!m->refs.emplace(std::string(name), ref).second) {
        return Status::Corrupt(StrCat("field ", Quote(obj.PathOf(name)), " appears twice"));
      }
    }
  } else if (m->current_snapshot_id) {
    // Files written before refs existed: the current snapshot is main's head.
    m->refs.emplace(std::string(kMainBranch),
                    SnapshotRef{*m->current_snapshot_id, SnapshotRefType::kBranch, {}, {}, {}});
  }
  FLOE_RETURN_IF_ERROR(ReadList(root, "snapshot-log", false, &m->snapshot_log,
                                [](element e, const std::string& p) -> Result<SnapshotLogEntry> {
                                  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, p));
                                  SnapshotLogEntry entry;
                                  FLOE_ASSIGN_OR_RETURN(entry.timestamp_ms, obj.Int64("timestamp-ms"));
                                  FLOE_ASSIGN_OR_RETURN(entry.snapshot_id, obj.SnapshotId("snapshot-id"));
                                  return entry;
                                }));
  FLOE_RETURN_IF_ERROR(ReadList(root, "metadata-log", false, &m->metadata_log,
                                [](element e, const std::string& p) -> Result<MetadataLogEntry> {
                                  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(e, p));
                                  MetadataLogEntry entry;
                                  FLOE_ASSIGN_OR_RETURN(entry.timestamp_ms, obj.Int64("timestamp-ms"));
                                  FLOE_ASSIGN_OR_RETURN(entry.metadata_file, obj.String("metadata-file"));
                                  return entry;
                                }));
  return Status::OK();
}

}  // namespace

namespace internal {

Result<TableMetadata> ReadTableMetadata(element root_element) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader root, JsonObject(root_element, ""));
  TableMetadata m;
  FLOE_ASSIGN_OR_RETURN(int64_t version, root.Int64("format-version"));
  if (version > kMaxFormatVersion) {
    return Status::Unsupported(
        StrCat("field 'format-version' is ", version, ", floe reads versions 1 to ", kMaxFormatVersion));
  }
  if (version < kMinFormatVersion) return Status::Corrupt(StrCat("field 'format-version' is ", version));
  m.format_version = static_cast<int>(version);
  const bool v2 = m.format_version >= 2;
  if (v2 || root.Has("table-uuid")) {
    FLOE_ASSIGN_OR_RETURN(m.table_uuid, root.String("table-uuid"));
  }
  FLOE_ASSIGN_OR_RETURN(m.location, root.String("location"));
  if (v2) {
    FLOE_ASSIGN_OR_RETURN(m.last_sequence_number, root.Int64("last-sequence-number"));
  }
  FLOE_ASSIGN_OR_RETURN(m.last_updated_ms, root.Int64("last-updated-ms"));
  FLOE_ASSIGN_OR_RETURN(m.last_column_id, root.Int32("last-column-id"));
  FLOE_RETURN_IF_ERROR(ReadSchemas(root, &m));
  FLOE_RETURN_IF_ERROR(ReadPartitionSpecs(root, &m));
  FLOE_RETURN_IF_ERROR(ReadSortOrders(root, &m));
  FLOE_ASSIGN_OR_RETURN(m.properties, root.StringMap("properties"));
  FLOE_RETURN_IF_ERROR(ReadSnapshotsAndRefs(root, &m));
  FLOE_RETURN_IF_ERROR(ReadList(root, "statistics", false, &m.statistics, ReadStatisticsFile));
  FLOE_RETURN_IF_ERROR(
      ReadList(root, "partition-statistics", false, &m.partition_statistics, ReadPartitionStatisticsFile));
  if (m.format_version >= 3) {
    FLOE_ASSIGN_OR_RETURN(int64_t next_row_id, root.Int64("next-row-id"));
    m.next_row_id = next_row_id;
    FLOE_RETURN_IF_ERROR(ReadList(root, "encryption-keys", false, &m.encryption_keys, ReadEncryptedKey));
  }
  Status valid = m.Validate();
  if (!valid.ok()) {
    return valid.IsUnsupported() ? valid : Status::Corrupt(valid.message());
  }
  return m;
}

void WriteStringMap(JsonWriter& w, const std::map<std::string, std::string>& map) {
  w.BeginObject();
  for (const auto& [k, v] : map) w.Member(k, v);
  w.EndObject();
}

void WriteSnapshot(JsonWriter& w, const Snapshot& s, int format_version) {
  w.BeginObject();
  w.Member("snapshot-id", s.snapshot_id);
  if (s.parent_snapshot_id) w.Member("parent-snapshot-id", *s.parent_snapshot_id);
  if (format_version >= 2) w.Member("sequence-number", s.sequence_number);
  w.Member("timestamp-ms", s.timestamp_ms);
  if (s.operation) {
    w.Key("summary");
    w.BeginObject();
    w.Member("operation", *s.operation);
    for (const auto& [k, v] : s.summary) w.Member(k, v);
    w.EndObject();
  }
  if (!s.manifest_list.empty()) {
    w.Member("manifest-list", s.manifest_list);
  } else {
    w.Key("manifests");
    w.BeginArray();
    for (const auto& m : s.manifests) w.String(m);
    w.EndArray();
  }
  if (s.schema_id) w.Member("schema-id", *s.schema_id);
  if (s.first_row_id) w.Member("first-row-id", *s.first_row_id);
  if (s.added_rows) w.Member("added-rows", *s.added_rows);
  if (s.key_id) w.Member("key-id", *s.key_id);
  w.EndObject();
}

void WriteRef(JsonWriter& w, const SnapshotRef& ref) {
  w.BeginObject();
  w.Member("snapshot-id", ref.snapshot_id);
  w.Member("type", SnapshotRefTypeName(ref.type));
  if (ref.min_snapshots_to_keep) w.Member("min-snapshots-to-keep", *ref.min_snapshots_to_keep);
  if (ref.max_snapshot_age_ms) w.Member("max-snapshot-age-ms", *ref.max_snapshot_age_ms);
  if (ref.max_ref_age_ms) w.Member("max-ref-age-ms", *ref.max_ref_age_ms);
  w.EndObject();
}

void WriteStatisticsFile(JsonWriter& w, const StatisticsFile& f) {
  w.BeginObject();
  w.Member("snapshot-id", f.snapshot_id);
  w.Member("statistics-path", f.statistics_path);
  w.Member("file-size-in-bytes", f.file_size_in_bytes);
  w.Member("file-footer-size-in-bytes", f.file_footer_size_in_bytes);
  if (f.key_metadata) w.Member("key-metadata", *f.key_metadata);
  w.Key("blob-metadata");
  w.BeginArray();
  for (const auto& b : f.blob_metadata) {
    w.BeginObject();
    w.Member("type", b.type);
    w.Member("snapshot-id", b.source_snapshot_id);
    w.Member("sequence-number", b.source_snapshot_sequence_number);
    w.Key("fields");
    w.BeginArray();
    for (int32_t id : b.fields) w.Int(id);
    w.EndArray();
    if (!b.properties.empty()) {
      w.Key("properties");
      WriteStringMap(w, b.properties);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void WritePartitionStatisticsFile(JsonWriter& w, const PartitionStatisticsFile& f) {
  w.BeginObject();
  w.Member("snapshot-id", f.snapshot_id);
  w.Member("statistics-path", f.statistics_path);
  w.Member("file-size-in-bytes", f.file_size_in_bytes);
  w.EndObject();
}

void WriteEncryptedKey(JsonWriter& w, const EncryptedKey& k) {
  w.BeginObject();
  w.Member("key-id", k.key_id);
  w.Member("encrypted-key-metadata", k.encrypted_key_metadata);
  if (k.encrypted_by_id) w.Member("encrypted-by-id", *k.encrypted_by_id);
  if (!k.properties.empty()) {
    w.Key("properties");
    WriteStringMap(w, k.properties);
  }
  w.EndObject();
}

}  // namespace internal

namespace {

void WriteStatistics(JsonWriter& w, const TableMetadata& m) {
  w.Key("statistics");
  w.BeginArray();
  for (const auto& f : m.statistics) internal::WriteStatisticsFile(w, f);
  w.EndArray();
  w.Key("partition-statistics");
  w.BeginArray();
  for (const auto& f : m.partition_statistics) internal::WritePartitionStatisticsFile(w, f);
  w.EndArray();
}

}  // namespace

Result<TableMetadata> TableMetadataFromJson(std::string_view json, std::string_view name) {
  const std::string what = StrCat("table metadata", name.empty() ? "" : " ", name.empty() ? "" : Quote(name));
  if (json.empty()) return Status::Corrupt(StrCat(what, ": empty, expected a JSON object"));
  simdjson::dom::parser parser;
  element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::Corrupt(StrCat(what, ": not valid JSON (", simdjson::error_message(error), ")"));
  }
  auto result = internal::ReadTableMetadata(root);
  if (!result.ok()) return result.status().WithContext(what);
  return result;
}

Result<std::string> TableMetadataToJson(const TableMetadata& m, const TableMetadataJsonOptions& options) {
  Status valid = m.Validate();
  if (!valid.ok()) return valid.WithContext("table metadata");
  const bool v1 = m.format_version == 1;
  JsonWriter w(options.pretty);
  w.BeginObject();
  w.Member("format-version", int64_t{m.format_version});
  if (!m.table_uuid.empty()) w.Member("table-uuid", m.table_uuid);
  w.Member("location", m.location);
  if (!v1) w.Member("last-sequence-number", m.last_sequence_number);
  w.Member("last-updated-ms", m.last_updated_ms);
  w.Member("last-column-id", m.last_column_id);
  if (v1) {
    // v1 readers know only the legacy single schema and spec.
    w.Key("schema");
    WriteSchema(w, *m.current_schema());
  }
  w.Member("current-schema-id", m.current_schema_id);
  w.Key("schemas");
  w.BeginArray();
  for (const auto& s : m.schemas) WriteSchema(w, s);
  w.EndArray();
  if (v1) {
    w.Key("partition-spec");
    WritePartitionFields(w, *m.default_spec());
  }
  w.Member("default-spec-id", m.default_spec_id);
  w.Key("partition-specs");
  w.BeginArray();
  for (const auto& s : m.partition_specs) WritePartitionSpec(w, s);
  w.EndArray();
  w.Member("last-partition-id", m.last_partition_id);
  w.Member("default-sort-order-id", m.default_sort_order_id);
  w.Key("sort-orders");
  w.BeginArray();
  for (const auto& o : m.sort_orders) WriteSortOrder(w, o);
  w.EndArray();
  w.Key("properties");
  WriteStringMap(w, m.properties);
  w.Member("current-snapshot-id", m.current_snapshot_id.value_or(-1));
  w.Key("refs");
  w.BeginObject();
  for (const auto& [name, ref] : m.refs) {
    w.Key(name);
    WriteRef(w, ref);
  }
  w.EndObject();
  w.Key("snapshots");
  w.BeginArray();
  for (const auto& s : m.snapshots) WriteSnapshot(w, s, m.format_version);
  w.EndArray();
  WriteStatistics(w, m);
  w.Key("snapshot-log");
  w.BeginArray();
  for (const auto& e : m.snapshot_log) {
    w.BeginObject();
    w.Member("timestamp-ms", e.timestamp_ms);
    w.Member("snapshot-id", e.snapshot_id);
    w.EndObject();
  }
  w.EndArray();
  w.Key("metadata-log");
  w.BeginArray();
  for (const auto& e : m.metadata_log) {
    w.BeginObject();
    w.Member("timestamp-ms", e.timestamp_ms);
    w.Member("metadata-file", e.metadata_file);
    w.EndObject();
  }
  w.EndArray();
  if (m.format_version >= 3) {
    w.Member("next-row-id", *m.next_row_id);
    if (!m.encryption_keys.empty()) {
      w.Key("encryption-keys");
      w.BeginArray();
      for (const auto& k : m.encryption_keys) internal::WriteEncryptedKey(w, k);
      w.EndArray();
    }
  }
  w.EndObject();
  return w.Take();
}

}  // namespace floe::iceberg
