// JSON forms of types, schemas, partition specs and sort orders (spec:
// "Appendix C: JSON serialization"), as table metadata, manifests' Avro
// metadata and the REST catalog carry them.
//
// Parsers return Corrupt naming the field's path ("field 'fields[0].type'
// is missing"); writers emit the spec's form. Thread safety: free functions
// on values.

#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "floe/base/json_writer.h"
#include "floe/base/result.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/iceberg/sort_order.h"

namespace floe::iceberg {

// A schema object {"type": "struct", "schema-id": ..., "fields": [...]}.
// `schema-id` may be absent (reads as 0). Corrupt for malformed JSON, an
// invalid type or an invalid schema (see Schema::Make).
Result<Schema> SchemaFromJson(std::string_view json);
std::string SchemaToJson(const Schema& schema);
void WriteSchema(JsonWriter& w, const Schema& schema);
void WriteType(JsonWriter& w, const Type& type);

// A partition spec object {"spec-id": N, "fields": [...]}, or a bare fields
// array (as v1 metadata and manifest headers carry it), which takes
// `spec_id`. Field ids absent in the array form are assigned from 1000.
Result<PartitionSpec> PartitionSpecFromJson(std::string_view json, int32_t spec_id = PartitionSpec::kInitialSpecId);
std::string PartitionSpecToJson(const PartitionSpec& spec);
void WritePartitionSpec(JsonWriter& w, const PartitionSpec& spec);
// The bare fields array.
void WritePartitionFields(JsonWriter& w, const PartitionSpec& spec);

void WriteSortOrder(JsonWriter& w, const SortOrder& order);

// Readers on an already parsed document, for table_metadata_json.cc.
namespace internal {
Result<TypePtr> ReadType(simdjson::dom::element e, const std::string& path);
Result<Schema> ReadSchema(simdjson::dom::element e, const std::string& path);
// `require_field_ids`: v2+ specs must carry every partition field's id; v1
// ones get ids from 1000 in order when absent. Without `require_spec_id` a
// missing "spec-id" reads as 0: REST requests may leave it out (spec:
// PartitionSpec's "spec-id" is readOnly; the catalog assigns it).
Result<PartitionSpec> ReadPartitionSpec(simdjson::dom::element e, const std::string& path, bool require_field_ids,
                                        bool require_spec_id);
Result<std::vector<PartitionField>> ReadPartitionFields(simdjson::dom::element array, const std::string& path,
                                                        bool require_field_ids);
Result<SortOrder> ReadSortOrder(simdjson::dom::element e, const std::string& path);
}  // namespace internal

}  // namespace floe::iceberg
