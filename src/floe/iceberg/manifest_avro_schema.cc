#include "floe/iceberg/manifest_avro_schema.h"

#include <cmath>
#include <set>

#include "floe/base/json_writer.h"
#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

namespace id = manifest_field_id;

Status CheckVersion(int format_version) {
  if (format_version < kMinManifestFormatVersion || format_version > kMaxManifestFormatVersion) {
    return Status::InvalidArgument(StrCat("manifest format version ", format_version, " is not 1, 2 or 3"));
  }
  return Status::OK();
}

// Emits the Avro type of a primitive Iceberg type. Named fixed types are
// defined once per schema and referenced by name afterwards (Avro forbids
// redefining a name); `defined` holds the names already written.
Status WriteAvroType(JsonWriter& w, const Type& type, std::set<std::string>* defined) {
  auto logical = [&](const char* avro_type, const char* logical_type) {
    w.BeginObject();
    w.Member("type", avro_type);
    w.Member("logicalType", logical_type);
  };
  auto fixed = [&](const std::string& name, int64_t size, const char* logical_type) {
    if (defined->count(name) > 0) {
      w.String(name);
      return false;
    }
    defined->insert(name);
    w.BeginObject();
    w.Member("type", "fixed");
    w.Member("name", name);
    w.Member("size", size);
    if (logical_type != nullptr) w.Member("logicalType", logical_type);
    return true;
  };
  switch (type.id()) {
    case TypeId::kBoolean: w.String("boolean"); return Status::OK();
    case TypeId::kInt: w.String("int"); return Status::OK();
    case TypeId::kLong: w.String("long"); return Status::OK();
    case TypeId::kFloat: w.String("float"); return Status::OK();
    case TypeId::kDouble: w.String("double"); return Status::OK();
    case TypeId::kString: w.String("string"); return Status::OK();
    case TypeId::kBinary: w.String("bytes"); return Status::OK();
    case TypeId::kUnknown: w.String("null"); return Status::OK();
    case TypeId::kDate:
      logical("int", "date");
      w.EndObject();
      return Status::OK();
    case TypeId::kTime:
      logical("long", "time-micros");
      w.EndObject();
      return Status::OK();
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      // spec: "adjust-to-utc is an Iceberg convention; default value is false".
      logical("long", "timestamp-micros");
      w.Member("adjust-to-utc", type.id() == TypeId::kTimestampTz);
      w.EndObject();
      return Status::OK();
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      logical("long", "timestamp-nanos");
      w.Member("adjust-to-utc", type.id() == TypeId::kTimestampTzNs);
      w.EndObject();
      return Status::OK();
    case TypeId::kUuid:
      if (fixed("uuid_fixed", 16, "uuid")) w.EndObject();
      return Status::OK();
    case TypeId::kFixed:
      if (fixed(StrCat("fixed_", type.length()), type.length(), nullptr)) w.EndObject();
      return Status::OK();
    case TypeId::kDecimal:
      if (fixed(StrCat("decimal_", type.precision(), "_", type.scale()), DecimalFixedSize(type.precision()),
                "decimal")) {
        w.Member("precision", type.precision());
        w.Member("scale", type.scale());
        w.EndObject();
      }
      return Status::OK();
    default: return Status::InvalidArgument(StrCat("type ", Quote(type.ToString()), " has no Avro form in a manifest"));
  }
}

// A field {"name", "type", ["default": null,] "field-id"}; `optional` wraps
// the type in ["null", T] with a null default, as the spec requires.
template <typename WriteType>
void Field(JsonWriter& w, std::string_view name, int32_t field_id, bool optional, WriteType write_type) {
  w.BeginObject();
  w.Member("name", name);
  w.Key("type");
  if (optional) {
    w.BeginArray();
    w.String("null");
  }
  write_type();
  if (optional) {
    w.EndArray();
    w.Key("default");
    w.Null();
  }
  w.Member("field-id", field_id);
  w.EndObject();
}

void Primitive(JsonWriter& w, std::string_view name, int32_t field_id, bool optional, const char* avro_type) {
  Field(w, name, field_id, optional, [&] { w.String(avro_type); });
}

// An optional map<int, V> in Iceberg's array form.
void IntMap(JsonWriter& w, std::string_view name, int32_t field_id, int32_t key_id, const char* value_type) {
  Field(w, name, field_id, /*optional=*/true, [&] {
    w.BeginObject();
    w.Member("type", "array");
    w.Key("items");
    w.BeginObject();
    w.Member("type", "record");
    w.Member("name", StrCat("k", key_id, "_v", key_id + 1));
    w.Key("fields");
    w.BeginArray();
    Primitive(w, "key", key_id, false, "int");
    Primitive(w, "value", key_id + 1, false, value_type);
    w.EndArray();
    w.EndObject();
    w.Member("logicalType", "map");
    w.EndObject();
  });
}

// An optional list<T> with required elements.
void List(JsonWriter& w, std::string_view name, int32_t field_id, int32_t element_id, const char* item_type) {
  Field(w, name, field_id, /*optional=*/true, [&] {
    w.BeginObject();
    w.Member("type", "array");
    w.Member("items", item_type);
    w.Member("element-id", element_id);
    w.EndObject();
  });
}

Result<std::shared_ptr<const avro::Schema>> Parse(const std::string& json, std::string_view what) {
  Result<std::shared_ptr<const avro::Schema>> schema = avro::Schema::Parse(json);
  if (!schema.ok()) return Status::Internal(StrCat(what, " schema does not parse: ", schema.status().message()));
  return schema;
}

}  // namespace

int DecimalFixedSize(int32_t precision) {
  // The largest unscaled value 10^P - 1 needs floor(log2(10^P - 1)) + 1
  // magnitude bits plus a sign bit. 10^P - 1 is never a power of two, so
  // P * log2(10) gives the same bit count.
  const double bits = static_cast<double>(precision) * std::log2(10.0) + 1.0;
  return static_cast<int>(std::ceil(bits / 8.0));
}

std::string AvroCompatibleName(std::string_view name) {
  auto valid_first = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  auto valid = [&](char c) { return valid_first(c) || (c >= '0' && c <= '9'); };
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (i == 0 ? valid_first(c) : valid(c)) {
      out.push_back(c);
    } else if (i == 0 && c >= '0' && c <= '9') {
      out.push_back('_');
      out.push_back(c);
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto u = static_cast<uint8_t>(c);
      out += "_x";
      if (u >= 16) out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 15]);
    }
  }
  if (out.empty()) out = "_";
  return out;
}

Result<std::string> AvroTypeJson(const Type& type) {
  JsonWriter w;
  std::set<std::string> defined;
  FLOE_RETURN_IF_ERROR(WriteAvroType(w, type, &defined));
  return w.Take();
}

Result<std::shared_ptr<const avro::Schema>> ManifestEntryAvroSchema(int format_version, const Type& partition_type) {
  FLOE_RETURN_IF_ERROR(CheckVersion(format_version));
  if (partition_type.id() != TypeId::kStruct) {
    return Status::InvalidArgument(StrCat("partition type ", Quote(partition_type.ToString()), " is not a struct"));
  }
  const int v = format_version;
  JsonWriter w;
  w.BeginObject();
  w.Member("type", "record");
  w.Member("name", "manifest_entry");
  w.Key("fields");
  w.BeginArray();
  Primitive(w, "status", id::kStatus, false, "int");
  // spec: snapshot_id is required in v1, optional (inherited) from v2.
  Primitive(w, "snapshot_id", id::kSnapshotId, v >= 2, "long");
  if (v >= 2) {
    Primitive(w, "sequence_number", id::kSequenceNumber, true, "long");
    Primitive(w, "file_sequence_number", id::kFileSequenceNumber, true, "long");
  }
  Status partition_status;
  Field(w, "data_file", id::kDataFile, false, [&] {
    w.BeginObject();
    w.Member("type", "record");
    w.Member("name", "r2");
    w.Key("fields");
    w.BeginArray();
    if (v >= 2) Primitive(w, "content", id::kContent, false, "int");
    Primitive(w, "file_path", id::kFilePath, false, "string");
    Primitive(w, "file_format", id::kFileFormat, false, "string");
    Field(w, "partition", id::kPartition, false, [&] {
      w.BeginObject();
      w.Member("type", "record");
      w.Member("name", "r102");
      w.Key("fields");
      w.BeginArray();
      std::set<std::string> defined;
      for (const NestedField& f : partition_type.fields()) {
        if (!partition_status.ok()) break;
        // Unknown-typed values are always null: the type is "null" itself
        // (a ["null", "null"] union is not valid Avro).
        const bool optional = f.type->id() != TypeId::kUnknown;
        Field(w, AvroCompatibleName(f.name), f.field_id, optional, [&] {
          Status s = WriteAvroType(w, *f.type, &defined);
          if (!s.ok()) {
            partition_status = s.WithContext(StrCat("partition field ", Quote(f.name)));
            w.Null();  // keeps the document balanced; the result is discarded
          }
        });
      }
      w.EndArray();
      w.EndObject();
    });
    Primitive(w, "record_count", id::kRecordCount, false, "long");
    Primitive(w, "file_size_in_bytes", id::kFileSizeInBytes, false, "long");
    if (v == 1) Primitive(w, "block_size_in_bytes", id::kBlockSizeInBytes, false, "long");
    IntMap(w, "column_sizes", id::kColumnSizes, 117, "long");
    IntMap(w, "value_counts", id::kValueCounts, 119, "long");
    IntMap(w, "null_value_counts", id::kNullValueCounts, 121, "long");
    IntMap(w, "nan_value_counts", id::kNanValueCounts, 138, "long");
    IntMap(w, "lower_bounds", id::kLowerBounds, 126, "bytes");
    IntMap(w, "upper_bounds", id::kUpperBounds, 129, "bytes");
    Primitive(w, "key_metadata", id::kKeyMetadata, true, "bytes");
    List(w, "split_offsets", id::kSplitOffsets, 133, "long");
    if (v >= 2) List(w, "equality_ids", id::kEqualityIds, 136, "int");
    Primitive(w, "sort_order_id", id::kSortOrderId, true, "int");
    if (v >= 3) Primitive(w, "first_row_id", id::kFirstRowId, true, "long");
    if (v >= 2) Primitive(w, "referenced_data_file", id::kReferencedDataFile, true, "string");
    if (v >= 3) {
      Primitive(w, "content_offset", id::kContentOffset, true, "long");
      Primitive(w, "content_size_in_bytes", id::kContentSizeInBytes, true, "long");
    }
    w.EndArray();
    w.EndObject();
  });
  w.EndArray();
  w.EndObject();
  std::string json = w.Take();
  FLOE_RETURN_IF_ERROR(partition_status);
  return Parse(json, "manifest_entry");
}

Result<std::shared_ptr<const avro::Schema>> ManifestFileAvroSchema(int format_version) {
  FLOE_RETURN_IF_ERROR(CheckVersion(format_version));
  const int v = format_version;
  // spec: counts are optional in v1 and required from v2.
  const bool counts_optional = v == 1;
  JsonWriter w;
  w.BeginObject();
  w.Member("type", "record");
  w.Member("name", "manifest_file");
  w.Key("fields");
  w.BeginArray();
  Primitive(w, "manifest_path", id::kManifestPath, false, "string");
  Primitive(w, "manifest_length", id::kManifestLength, false, "long");
  Primitive(w, "partition_spec_id", id::kPartitionSpecId, false, "int");
  if (v >= 2) {
    Primitive(w, "content", id::kManifestContent, false, "int");
    Primitive(w, "sequence_number", id::kManifestSequenceNumber, false, "long");
    Primitive(w, "min_sequence_number", id::kMinSequenceNumber, false, "long");
  }
  Primitive(w, "added_snapshot_id", id::kAddedSnapshotId, false, "long");
  Primitive(w, "added_files_count", id::kAddedFilesCount, counts_optional, "int");
  Primitive(w, "existing_files_count", id::kExistingFilesCount, counts_optional, "int");
  Primitive(w, "deleted_files_count", id::kDeletedFilesCount, counts_optional, "int");
  Primitive(w, "added_rows_count", id::kAddedRowsCount, counts_optional, "long");
  Primitive(w, "existing_rows_count", id::kExistingRowsCount, counts_optional, "long");
  Primitive(w, "deleted_rows_count", id::kDeletedRowsCount, counts_optional, "long");
  Field(w, "partitions", id::kPartitions, true, [&] {
    w.BeginObject();
    w.Member("type", "array");
    w.Key("items");
    w.BeginObject();
    w.Member("type", "record");
    w.Member("name", "r508");
    w.Key("fields");
    w.BeginArray();
    Primitive(w, "contains_null", id::kContainsNull, false, "boolean");
    Primitive(w, "contains_nan", id::kContainsNan, true, "boolean");
    Primitive(w, "lower_bound", id::kLowerBound, true, "bytes");
    Primitive(w, "upper_bound", id::kUpperBound, true, "bytes");
    w.EndArray();
    w.EndObject();
    w.Member("element-id", int32_t{508});
    w.EndObject();
  });
  Primitive(w, "key_metadata", id::kManifestKeyMetadata, true, "bytes");
  if (v >= 3) Primitive(w, "first_row_id", id::kManifestFirstRowId, true, "long");
  w.EndArray();
  w.EndObject();
  return Parse(w.Take(), "manifest_file");
}

}  // namespace floe::iceberg
