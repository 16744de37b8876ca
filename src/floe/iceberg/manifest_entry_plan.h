// The decoding plan of a manifest_entry writer schema (internal to
// manifest_entry_decoder): which writer field feeds which ManifestEntry
// member and how its Avro type is read. PlanManifestEntry compiles it once
// per file, checking every writer type against the member it feeds.
//
// Thread safety: a plan is immutable after it is made.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/schema.h"
#include "floe/iceberg/literal.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg::internal {

// What a writer field feeds.
enum class Target : uint8_t {
  kSkip,
  kStatus,
  kSnapshotId,
  kSequenceNumber,
  kFileSequenceNumber,
  kDataFile,
  kContent,
  kFilePath,
  kFileFormat,
  kPartition,
  kRecordCount,
  kFileSizeInBytes,
  kColumnSizes,
  kValueCounts,
  kNullValueCounts,
  kNanValueCounts,
  kLowerBounds,
  kUpperBounds,
  kKeyMetadata,
  kSplitOffsets,
  kEqualityIds,
  kSortOrderId,
  kFirstRowId,
  kReferencedDataFile,
  kContentOffset,
  kContentSizeInBytes,
  kCount,
};

// The Avro shape a target needs.
enum class Shape : uint8_t { kInteger, kText, kRecord, kPartition, kCountMap, kBytesMap, kLongList, kIntList };

// How to read one scalar: a plain Avro value, a ["null", T] union, or the
// "null" type (always null, no bytes).
struct Scalar {
  int null_branch = -1;  // the union's null branch, -1 when not a union
  avro::Type type = avro::Type::kNull;
  const avro::Node* node = nullptr;  // the non-null type
};

// One writer field of manifest_entry or data_file.
struct Step {
  Target target = Target::kSkip;
  Shape shape = Shape::kInteger;
  const avro::Node* node = nullptr;  // the writer's field type (for skipping)
  Scalar scalar;                     // the field itself
  Scalar key, value;                 // maps: the key/value record's fields
  bool key_first = true;
  Scalar item;  // lists
  std::string path;
};

// Converts one writer partition value to a Literal of the partition type.
enum class Conv : uint8_t { kSkip, kBoolean, kInt32, kInt64, kFloat, kDouble, kBytes, kUuidText };

struct PartitionStep {
  int index = -1;  // in the partition tuple; -1: skip
  const avro::Node* node = nullptr;
  Scalar scalar;
  Conv conv = Conv::kSkip;
  TypePtr type;
  Literal (*make_int)(int32_t) = nullptr;
  Literal (*make_long)(int64_t) = nullptr;
  std::string path;
};

struct ManifestEntryPlan {
  std::vector<Step> entry_steps;      // manifest_entry's fields, in writer order
  std::vector<Step> data_file_steps;  // data_file's fields, in writer order
  std::vector<PartitionStep> partition_steps;
  size_t partition_size = 0;             // fields of the partition type
  std::vector<size_t> partition_absent;  // partition fields the writer lacks
  std::vector<Target> absent;            // members the writer lacks
};

// Plans decoding rows of `writer` (a manifest_entry record) with partition
// tuples of `partition_type` (a struct). Corrupt, naming the field, for a
// schema that is not a manifest entry (see ManifestEntryDecoder::Make).
Result<ManifestEntryPlan> PlanManifestEntry(const avro::Node& writer, const Type& partition_type, int format_version);

// Whether an Avro type holds an Iceberg integer (int or long) or text.
inline bool IsInteger(avro::Type t) { return t == avro::Type::kInt || t == avro::Type::kLong; }
inline bool IsText(avro::Type t) { return t == avro::Type::kString || t == avro::Type::kBytes; }

}  // namespace floe::iceberg::internal
