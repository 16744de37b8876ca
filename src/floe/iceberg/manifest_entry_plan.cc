#include "floe/iceberg/manifest_entry_plan.h"

#include <optional>
#include <span>

#include "floe/base/strings.h"
#include "floe/iceberg/manifest_avro_schema.h"

namespace floe::iceberg::internal {
namespace {

namespace id = manifest_field_id;

struct Known {
  int32_t field_id;
  const char* name;
  Target target;
  Shape shape;
  int required_from;  // format version from which the field is required; 0: never
};

constexpr Known kEntryFields[] = {
    {id::kStatus, "status", Target::kStatus, Shape::kInteger, 1},
    {id::kSnapshotId, "snapshot_id", Target::kSnapshotId, Shape::kInteger, 0},
    {id::kSequenceNumber, "sequence_number", Target::kSequenceNumber, Shape::kInteger, 0},
    {id::kFileSequenceNumber, "file_sequence_number", Target::kFileSequenceNumber, Shape::kInteger, 0},
    {id::kDataFile, "data_file", Target::kDataFile, Shape::kRecord, 1},
};

constexpr Known kDataFileFields[] = {
    {id::kContent, "content", Target::kContent, Shape::kInteger, 2},
    {id::kFilePath, "file_path", Target::kFilePath, Shape::kText, 1},
    {id::kFileFormat, "file_format", Target::kFileFormat, Shape::kText, 1},
    {id::kPartition, "partition", Target::kPartition, Shape::kPartition, 1},
    {id::kRecordCount, "record_count", Target::kRecordCount, Shape::kInteger, 1},
    {id::kFileSizeInBytes, "file_size_in_bytes", Target::kFileSizeInBytes, Shape::kInteger, 1},
    {id::kColumnSizes, "column_sizes", Target::kColumnSizes, Shape::kCountMap, 0},
    {id::kValueCounts, "value_counts", Target::kValueCounts, Shape::kCountMap, 0},
    {id::kNullValueCounts, "null_value_counts", Target::kNullValueCounts, Shape::kCountMap, 0},
    {id::kNanValueCounts, "nan_value_counts", Target::kNanValueCounts, Shape::kCountMap, 0},
    {id::kLowerBounds, "lower_bounds", Target::kLowerBounds, Shape::kBytesMap, 0},
    {id::kUpperBounds, "upper_bounds", Target::kUpperBounds, Shape::kBytesMap, 0},
    {id::kKeyMetadata, "key_metadata", Target::kKeyMetadata, Shape::kText, 0},
    {id::kSplitOffsets, "split_offsets", Target::kSplitOffsets, Shape::kLongList, 0},
    {id::kEqualityIds, "equality_ids", Target::kEqualityIds, Shape::kIntList, 0},
    {id::kSortOrderId, "sort_order_id", Target::kSortOrderId, Shape::kInteger, 0},
    {id::kFirstRowId, "first_row_id", Target::kFirstRowId, Shape::kInteger, 0},
    {id::kReferencedDataFile, "referenced_data_file", Target::kReferencedDataFile, Shape::kText, 0},
    {id::kContentOffset, "content_offset", Target::kContentOffset, Shape::kInteger, 0},
    {id::kContentSizeInBytes, "content_size_in_bytes", Target::kContentSizeInBytes, Shape::kInteger, 0},
};

Status Mismatch(const std::string& path, const avro::Node& node, std::string_view expected) {
  return Status::Corrupt(
      StrCat("field ", Quote(path), " has Avro type ", avro::TypeName(node.type()), ", expected ", expected));
}

// `node` as a scalar: T, ["null", T] or ["T", "null"].
Result<Scalar> MakeScalar(const avro::Node& node, const std::string& path) {
  Scalar s;
  const avro::Node* value = &node;
  if (node.type() == avro::Type::kUnion) {
    const auto& branches = node.branches();
    if (branches.size() != 2 || node.NullBranch() < 0) {
      return Status::Corrupt(StrCat("field ", Quote(path), " is a union of ", branches.size(),
                                    " types; Iceberg allows only [\"null\", T]"));
    }
    s.null_branch = node.NullBranch();
    value = branches[static_cast<size_t>(1 - s.null_branch)];
  }
  s.type = value->type();
  s.node = value;
  return s;
}

Result<Conv> PartitionConv(const Type& type, const Scalar& s, const std::string& path) {
  const avro::Type t = s.type;
  if (t == avro::Type::kNull || type.id() == TypeId::kUnknown) return Conv::kSkip;
  bool fits = false;
  Conv conv = Conv::kBytes;
  switch (type.id()) {
    case TypeId::kBoolean: fits = t == avro::Type::kBoolean, conv = Conv::kBoolean; break;
    case TypeId::kInt:
    case TypeId::kDate: fits = IsInteger(t), conv = Conv::kInt32; break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: fits = IsInteger(t), conv = Conv::kInt64; break;
    case TypeId::kFloat: fits = t == avro::Type::kFloat, conv = Conv::kFloat; break;
    case TypeId::kDouble: fits = t == avro::Type::kFloat || t == avro::Type::kDouble, conv = Conv::kDouble; break;
    case TypeId::kString: fits = IsText(t); break;
    case TypeId::kUuid:
      fits = t == avro::Type::kFixed || t == avro::Type::kBytes || t == avro::Type::kString;
      if (t == avro::Type::kString) conv = Conv::kUuidText;
      break;
    case TypeId::kDecimal:
      fits = t == avro::Type::kFixed || t == avro::Type::kBytes;
      if (fits && s.node->logical_type() == avro::LogicalType::kDecimal && s.node->scale() != type.scale()) {
        return Status::Corrupt(StrCat("partition field ", Quote(path), " is a decimal of scale ", s.node->scale(),
                                      ", the partition type ", type.ToString(), " has scale ", type.scale()));
      }
      break;
    case TypeId::kFixed:
    case TypeId::kBinary: fits = t == avro::Type::kFixed || IsText(t); break;
    default: break;
  }
  if (!fits) {
    return Status::Corrupt(StrCat("partition field ", Quote(path), " has Avro type ", avro::TypeName(t),
                                  ", which cannot hold a ", type.ToString()));
  }
  return conv;
}

Literal (*IntMaker(TypeId t))(int32_t) { return t == TypeId::kDate ? &Literal::Date : &Literal::Int; }

Literal (*LongMaker(TypeId t))(int64_t) {
  switch (t) {
    case TypeId::kTime: return &Literal::Time;
    case TypeId::kTimestamp: return &Literal::Timestamp;
    case TypeId::kTimestampTz: return &Literal::TimestampTz;
    case TypeId::kTimestampNs: return &Literal::TimestampNs;
    case TypeId::kTimestampTzNs: return &Literal::TimestampTzNs;
    default: return &Literal::Long;
  }
}

}  // namespace

Result<ManifestEntryPlan> PlanManifestEntry(const avro::Node& writer, const Type& partition_type, int format_version) {
  ManifestEntryPlan out;
  std::vector<bool> present(static_cast<size_t>(Target::kCount), false);

  // Plans one record's fields against the known fields of that record.
  auto plan_record = [&](const avro::Node& record, std::span<const Known> known, const std::string& prefix,
                         std::vector<Step>* steps) -> Status {
    if (record.type() != avro::Type::kRecord) {
      return Status::Corrupt(StrCat(prefix.empty() ? "manifest entry" : "field " + Quote(prefix), " has Avro type ",
                                    avro::TypeName(record.type()), ", expected a record"));
    }
    for (const avro::Field& f : record.fields()) {
      const std::optional<int32_t> fid = f.field_id();
      const Known* k = nullptr;
      for (const Known& cand : known) {
        if (fid.has_value() ? cand.field_id == *fid : f.name == cand.name) k = &cand;
      }
      Step s;
      s.node = f.type;
      s.path = prefix.empty() ? f.name : prefix + "." + f.name;
      if (k == nullptr) {
        steps->push_back(std::move(s));  // a field floe does not model: skipped
        continue;
      }
      if (present[static_cast<size_t>(k->target)]) {
        return Status::Corrupt(StrCat("field ", Quote(s.path), ": field id ", k->field_id, " appears twice"));
      }
      present[static_cast<size_t>(k->target)] = true;
      s.target = k->target;
      s.shape = k->shape;
      FLOE_ASSIGN_OR_RETURN(s.scalar, MakeScalar(*f.type, s.path));
      const avro::Node& v = *s.scalar.node;
      switch (k->shape) {
        case Shape::kInteger:
          if (!IsInteger(s.scalar.type)) return Mismatch(s.path, v, "int or long");
          break;
        case Shape::kText:
          if (!IsText(s.scalar.type)) return Mismatch(s.path, v, "string or bytes");
          break;
        case Shape::kRecord:
        case Shape::kPartition:
          if (s.scalar.type != avro::Type::kRecord) return Mismatch(s.path, v, "record");
          break;
        case Shape::kCountMap:
        case Shape::kBytesMap: {
          // spec (Appendix A): "Array storage must use logical type name map
          // and must store elements that are 2-field records. The first field
          // is a non-null key and the second field is the value."
          if (s.scalar.type != avro::Type::kArray || v.items()->type() != avro::Type::kRecord ||
              v.items()->fields().size() != 2) {
            return Mismatch(s.path, v, "an array of key/value records");
          }
          const auto& kv = v.items()->fields();
          s.key_first = kv[0].name != "value";
          const avro::Field& key = kv[s.key_first ? 0 : 1];
          const avro::Field& value = kv[s.key_first ? 1 : 0];
          FLOE_ASSIGN_OR_RETURN(s.key, MakeScalar(*key.type, s.path + ".key"));
          FLOE_ASSIGN_OR_RETURN(s.value, MakeScalar(*value.type, s.path + ".value"));
          if (!IsInteger(s.key.type) || s.key.null_branch >= 0) return Mismatch(s.path + ".key", *key.type, "int");
          const bool counts = k->shape == Shape::kCountMap;
          if (counts ? !IsInteger(s.value.type) : !IsText(s.value.type)) {
            return Mismatch(s.path + ".value", *value.type, counts ? "long" : "bytes");
          }
          break;
        }
        case Shape::kLongList:
        case Shape::kIntList:
          if (s.scalar.type != avro::Type::kArray) return Mismatch(s.path, v, "array");
          FLOE_ASSIGN_OR_RETURN(s.item, MakeScalar(*v.items(), s.path + "[]"));
          if (!IsInteger(s.item.type)) return Mismatch(s.path + "[]", *v.items(), "int or long");
          break;
      }
      steps->push_back(std::move(s));
    }
    for (const Known& k : known) {
      if (!present[static_cast<size_t>(k.target)] && k.required_from != 0 && format_version >= k.required_from) {
        return Status::Corrupt(StrCat("field ", Quote(prefix.empty() ? k.name : prefix + "." + k.name), " (id ",
                                      k.field_id, ") is missing"));
      }
    }
    return Status::OK();
  };

  FLOE_RETURN_IF_ERROR(plan_record(writer, kEntryFields, "", &out.entry_steps));
  for (const Step& s : out.entry_steps) {
    if (s.target == Target::kDataFile) {
      FLOE_RETURN_IF_ERROR(plan_record(*s.scalar.node, kDataFileFields, s.path, &out.data_file_steps));
    }
  }

  // The partition record: writer fields matched to the partition type's
  // fields by id (by name when the writer gave none).
  out.partition_size = partition_type.fields().size();
  std::vector<bool> matched(out.partition_size, false);
  for (const Step& s : out.data_file_steps) {
    if (s.target != Target::kPartition) continue;
    for (const avro::Field& f : s.scalar.node->fields()) {
      PartitionStep p;
      p.node = f.type;
      p.path = s.path + "." + f.name;
      const std::optional<int32_t> fid = f.field_id();
      const auto& fields = partition_type.fields();
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fid.has_value() ? fields[i].field_id == *fid
                            : (fields[i].name == f.name || AvroCompatibleName(fields[i].name) == f.name)) {
          p.index = static_cast<int>(i);
        }
      }
      if (p.index >= 0) {
        if (matched[static_cast<size_t>(p.index)]) {
          return Status::Corrupt(StrCat("field ", Quote(p.path), ": partition field appears twice"));
        }
        matched[static_cast<size_t>(p.index)] = true;
        const NestedField& target = fields[static_cast<size_t>(p.index)];
        p.type = target.type;
        FLOE_ASSIGN_OR_RETURN(p.scalar, MakeScalar(*f.type, p.path));
        FLOE_ASSIGN_OR_RETURN(p.conv, PartitionConv(*target.type, p.scalar, p.path));
        p.make_int = IntMaker(target.type->id());
        p.make_long = LongMaker(target.type->id());
        if (p.conv == Conv::kSkip) p.index = -1;
      }
      out.partition_steps.push_back(std::move(p));
    }
  }
  for (size_t i = 0; i < matched.size(); ++i) {
    if (!matched[i]) out.partition_absent.push_back(i);
  }
  for (size_t t = 1; t < present.size(); ++t) {
    if (!present[t]) out.absent.push_back(static_cast<Target>(t));
  }
  return out;
}

}  // namespace floe::iceberg::internal
