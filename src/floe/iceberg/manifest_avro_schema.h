// The Avro schemas of Iceberg manifests (`manifest_entry` with its
// `data_file` and partition struct) and manifest lists (`manifest_file` with
// its `field_summary`), per format version 1–3 (spec: "Manifests",
// "Manifest Lists", "Appendix A: Format-specific Requirements / Avro").
//
// The schemas follow the spec's tables field by field: which fields a
// version has, which are required (a plain Avro type) and which optional (a
// ["null", T] union with default null); maps with int keys are arrays of
// two-field key/value records with `logicalType: "map"`; every field carries
// its `field-id`, every array its `element-id`. Record names are the ones
// Java writes (`r2`, `r102`, `k117_v118`, `r508`), so files diff cleanly
// against other engines'. Partition fields use Appendix A's type mapping.
//
// Thread safety: free functions; the schemas are immutable.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/formats/avro/schema.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg {

// Field ids of manifest_entry, data_file and manifest_file (spec tables).
namespace manifest_field_id {
inline constexpr int32_t kStatus = 0;
inline constexpr int32_t kSnapshotId = 1;
inline constexpr int32_t kDataFile = 2;
inline constexpr int32_t kSequenceNumber = 3;
inline constexpr int32_t kFileSequenceNumber = 4;
inline constexpr int32_t kFilePath = 100;
inline constexpr int32_t kFileFormat = 101;
inline constexpr int32_t kPartition = 102;
inline constexpr int32_t kRecordCount = 103;
inline constexpr int32_t kFileSizeInBytes = 104;
inline constexpr int32_t kBlockSizeInBytes = 105;  // v1 only, deprecated
inline constexpr int32_t kColumnSizes = 108;       // map<117, 118>
inline constexpr int32_t kValueCounts = 109;       // map<119, 120>
inline constexpr int32_t kNullValueCounts = 110;   // map<121, 122>
inline constexpr int32_t kLowerBounds = 125;       // map<126, 127>
inline constexpr int32_t kUpperBounds = 128;       // map<129, 130>
inline constexpr int32_t kKeyMetadata = 131;
inline constexpr int32_t kSplitOffsets = 132;  // list<133>
inline constexpr int32_t kContent = 134;
inline constexpr int32_t kEqualityIds = 135;     // list<136>
inline constexpr int32_t kNanValueCounts = 137;  // map<138, 139>
inline constexpr int32_t kSortOrderId = 140;
inline constexpr int32_t kFirstRowId = 142;
inline constexpr int32_t kReferencedDataFile = 143;
inline constexpr int32_t kContentOffset = 144;
inline constexpr int32_t kContentSizeInBytes = 145;

inline constexpr int32_t kManifestPath = 500;
inline constexpr int32_t kManifestLength = 501;
inline constexpr int32_t kPartitionSpecId = 502;
inline constexpr int32_t kAddedSnapshotId = 503;
inline constexpr int32_t kAddedFilesCount = 504;
inline constexpr int32_t kExistingFilesCount = 505;
inline constexpr int32_t kDeletedFilesCount = 506;
inline constexpr int32_t kPartitions = 507;  // list<508: field_summary>
inline constexpr int32_t kContainsNull = 509;
inline constexpr int32_t kLowerBound = 510;
inline constexpr int32_t kUpperBound = 511;
inline constexpr int32_t kAddedRowsCount = 512;
inline constexpr int32_t kExistingRowsCount = 513;
inline constexpr int32_t kDeletedRowsCount = 514;
inline constexpr int32_t kManifestSequenceNumber = 515;
inline constexpr int32_t kMinSequenceNumber = 516;
inline constexpr int32_t kManifestContent = 517;
inline constexpr int32_t kContainsNan = 518;
inline constexpr int32_t kManifestKeyMetadata = 519;
inline constexpr int32_t kManifestFirstRowId = 520;
}  // namespace manifest_field_id

// The spec's v1 `block_size_in_bytes` ("always write a default in v1"), the
// value Java writes.
inline constexpr int64_t kV1BlockSizeInBytes = int64_t{64} << 20;

// The oldest and newest format versions manifests are read and written in.
inline constexpr int kMinManifestFormatVersion = 1;
inline constexpr int kMaxManifestFormatVersion = 3;

// The manifest_entry schema of `format_version` whose data_file.partition is
// a record of `partition_type`'s fields (PartitionSpec::PartitionType), each
// optional, named after the partition field (made a valid Avro name the way
// Java does: "1x" -> "_1x", "a-b" -> "a_x2Db"). InvalidArgument for a format
// version outside 1..3, a partition type that is not a struct, or a
// partition field whose type has no Avro form (nested, variant, geometry).
Result<std::shared_ptr<const avro::Schema>> ManifestEntryAvroSchema(int format_version, const Type& partition_type);

// The manifest_file schema of `format_version`. InvalidArgument outside 1..3.
Result<std::shared_ptr<const avro::Schema>> ManifestFileAvroSchema(int format_version);

// Appendix A's Avro type for a primitive Iceberg type, as JSON (e.g.
// {"type":"long","logicalType":"timestamp-micros","adjust-to-utc":true});
// fixed types are named `fixed_L`, `uuid_fixed`, `decimal_P_S`.
// InvalidArgument for types without an Avro form here.
Result<std::string> AvroTypeJson(const Type& type);

// The byte size of the Avro fixed holding a decimal of `precision` (1..38):
// the fewest bytes whose two's complement range holds 10^precision - 1.
int DecimalFixedSize(int32_t precision);

// `name` made a valid Avro name: each character other than [A-Za-z0-9_]
// becomes "_x" and its code in upper-case hex, and a leading digit gets a
// "_" before it.
std::string AvroCompatibleName(std::string_view name);

}  // namespace floe::iceberg
