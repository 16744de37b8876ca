// The metadata structs of parquet.thrift as plain C++ values.
//
// spec: apache/parquet-format src/main/thrift/parquet.thrift. Struct and field
// names are the spec's own (including its camelCase ones: logicalType,
// isAdjustedToUTC, numBytes), so a reader of the spec recognises every line.
// A `required` field is a plain member; an `optional` one is std::optional,
// so presence is explicit (the spec insists readers tell a missing null_count
// from 0); optional lists are std::optional<std::vector<...>>. Enum values are
// kept as read (see metadata_enums.h). Unions with members that carry data
// are std::variant; one whose member this version of floe does not know holds
// an UnknownUnionMember with the member's bytes, so re-encoding keeps it.
//
// A footer holds one ColumnChunk per column per row group, tens of
// thousands in a large file, so ColumnChunk and what it holds are laid out
// for decoding speed (docs/decisions/0042-footer-decode-speed.md): the short
// lists are SmallVectors with their usual lengths inline (no allocation to
// build, nothing to free), path_in_schema is one packed ColumnPath, and the
// large members few writers set are Boxed (an optional on the heap: eight
// bytes when unset). Both read like std::optional / std::vector.
//
// Constructors: the structs a footer holds many of (Statistics, SizeStatistics,
// SchemaElement, ColumnMetaData, ColumnChunk, RowGroup) have an empty
// user-provided default constructor rather than none: value-initialization
// (`emplace_back()`, `optional::emplace()`) of a class without one zeroes
// every byte before running the member initializers, which cost the footer
// decoder more than the decoding. They are therefore not aggregates: set
// members by name.
//
// Decode and encode: metadata_codec.h. Thread safety: plain values.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "floe/base/boxed.h"
#include "floe/base/small_vector.h"
#include "floe/formats/parquet/column_path.h"
#include "floe/formats/parquet/metadata_enums.h"

namespace floe::parquet {

// A union member unknown to this version of floe (from a newer
// parquet.thrift), or none at all (field_id 0, an empty union). `value` holds
// the member's compact-protocol bytes and `compact_type` its wire type id.
struct UnknownUnionMember {
  int16_t field_id = 0;
  uint8_t compact_type = 0;
  std::string value;
  bool operator==(const UnknownUnionMember&) const = default;
};

// A level histogram: one count per level 0..max_level. Two inline cover
// every flat optional column (max level 1).
using LevelHistogram = SmallVector<int64_t, 2>;

struct SizeStatistics {
  SizeStatistics() {}  // see "Constructors" above
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::optional<LevelHistogram> repetition_level_histogram;
  std::optional<LevelHistogram> definition_level_histogram;
  bool operator==(const SizeStatistics&) const = default;
};

struct BoundingBox {
  double xmin = 0;
  double xmax = 0;
  double ymin = 0;
  double ymax = 0;
  std::optional<double> zmin;
  std::optional<double> zmax;
  std::optional<double> mmin;
  std::optional<double> mmax;
  bool operator==(const BoundingBox&) const = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::optional<std::vector<int32_t>> geospatial_types;
  bool operator==(const GeospatialStatistics&) const = default;
};

// Values are PLAIN-encoded without a length prefix. `max`/`min` are the
// deprecated signed-order fields; `min_value`/`max_value` follow ColumnOrder.
struct Statistics {
  Statistics() {}  // see "Constructors" above
  std::optional<std::string> max;
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
  bool operator==(const Statistics&) const = default;
};

// ---- LogicalType (union) -----------------------------------------------------

struct StringType {
  bool operator==(const StringType&) const = default;
};
struct MapType {
  bool operator==(const MapType&) const = default;
};
struct ListType {
  bool operator==(const ListType&) const = default;
};
struct EnumType {
  bool operator==(const EnumType&) const = default;
};
struct DecimalType {
  int32_t scale = 0;
  int32_t precision = 0;
  bool operator==(const DecimalType&) const = default;
};
struct DateType {
  bool operator==(const DateType&) const = default;
};
struct TimeType {
  bool isAdjustedToUTC = false;
  TimeUnit unit = TimeUnit::MILLIS;
  bool operator==(const TimeType&) const = default;
};
struct TimestampType {
  bool isAdjustedToUTC = false;
  TimeUnit unit = TimeUnit::MILLIS;
  bool operator==(const TimestampType&) const = default;
};
struct IntType {
  int8_t bitWidth = 0;
  bool isSigned = false;
  bool operator==(const IntType&) const = default;
};
// The spec's member UNKNOWN: a column whose values are all null.
struct NullType {
  bool operator==(const NullType&) const = default;
};
struct JsonType {
  bool operator==(const JsonType&) const = default;
};
struct BsonType {
  bool operator==(const BsonType&) const = default;
};
struct UUIDType {
  bool operator==(const UUIDType&) const = default;
};
struct Float16Type {
  bool operator==(const Float16Type&) const = default;
};
struct VariantType {
  std::optional<int8_t> specification_version;
  bool operator==(const VariantType&) const = default;
};
struct GeometryType {
  std::optional<std::string> crs;
  bool operator==(const GeometryType&) const = default;
};
struct GeographyType {
  std::optional<std::string> crs;
  std::optional<EdgeInterpolationAlgorithm> algorithm;
  bool operator==(const GeographyType&) const = default;
};
struct VectorType {
  bool operator==(const VectorType&) const = default;
};

// Alternatives in field-id order: STRING(1) MAP(2) LIST(3) ENUM(4) DECIMAL(5)
// DATE(6) TIME(7) TIMESTAMP(8) INTEGER(10) UNKNOWN(11) JSON(12) BSON(13)
// UUID(14) FLOAT16(15) VARIANT(16) GEOMETRY(17) GEOGRAPHY(18) VECTOR(19). A
// reader meeting UnknownUnionMember falls back to converted_type.
using LogicalType = std::variant<StringType, MapType, ListType, EnumType, DecimalType, DateType, TimeType,
                                 TimestampType, IntType, NullType, JsonType, BsonType, UUIDType, Float16Type,
                                 VariantType, GeometryType, GeographyType, VectorType, UnknownUnionMember>;

// The spec's member name ("STRING", "TIMESTAMP", "UNKNOWN"), or
// "UNKNOWN_MEMBER(<field id>)" for a member this version of floe does not know.
std::string LogicalTypeName(const LogicalType& type);

// ---- schema ------------------------------------------------------------------

// One node of the depth-first flattened schema tree (the first is the root).
struct SchemaElement {
  SchemaElement() {}  // see "Constructors" above
  std::optional<Type> type;  // unset for groups
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;  // unset for the root
  std::string name;
  std::optional<int32_t> num_children;  // set for groups
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logicalType;
  std::optional<int32_t> vector_length;
  bool operator==(const SchemaElement&) const = default;
};

// ---- pages -------------------------------------------------------------------

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

struct IndexPageHeader {
  bool operator==(const IndexPageHeader&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  std::optional<bool> is_compressed;  // spec default: absent means true
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

struct BloomFilterHeader {
  int32_t numBytes = 0;
  BloomFilterAlgorithm algorithm = BloomFilterAlgorithm::BLOCK;
  BloomFilterHash hash = BloomFilterHash::XXHASH;
  BloomFilterCompression compression = BloomFilterCompression::UNCOMPRESSED;
  bool operator==(const BloomFilterHeader&) const = default;
};

// ---- column chunks and row groups --------------------------------------------

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::DATA_PAGE;
  Encoding encoding = Encoding::PLAIN;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};

// A chunk's encodings: writers list two to four (PLAIN_DICTIONARY, PLAIN,
// RLE, BIT_PACKED from parquet-mr), all inline.
using EncodingList = SmallVector<Encoding, 4>;
// A dictionary page and its data pages, plus a fallback to PLAIN, inline.
using PageEncodingStatsList = SmallVector<PageEncodingStats, 3>;

struct ColumnMetaData {
  ColumnMetaData() {}  // see "Constructors" above
  Type type = Type::BOOLEAN;
  EncodingList encodings;
  ColumnPath path_in_schema;
  CompressionCodec codec = CompressionCodec::UNCOMPRESSED;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  Boxed<std::vector<KeyValue>> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<PageEncodingStatsList> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  Boxed<GeospatialStatistics> geospatial_statistics;
  bool operator==(const ColumnMetaData&) const = default;
};

struct EncryptionWithFooterKey {
  bool operator==(const EncryptionWithFooterKey&) const = default;
};

struct EncryptionWithColumnKey {
  ColumnPath path_in_schema;
  std::optional<std::string> key_metadata;
  bool operator==(const EncryptionWithColumnKey&) const = default;
};

// ENCRYPTION_WITH_FOOTER_KEY(1) ENCRYPTION_WITH_COLUMN_KEY(2).
using ColumnCryptoMetaData = std::variant<EncryptionWithFooterKey, EncryptionWithColumnKey, UnknownUnionMember>;

struct ColumnChunk {
  ColumnChunk() {}  // see "Constructors" above
  Boxed<std::string> file_path;
  int64_t file_offset = 0;  // deprecated; required on the wire
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  Boxed<ColumnCryptoMetaData> crypto_metadata;
  Boxed<std::string> encrypted_column_metadata;
  bool operator==(const ColumnChunk&) const = default;
};

struct RowGroup {
  RowGroup() {}  // see "Constructors" above
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

// ---- page index --------------------------------------------------------------

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;  // including the page header
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::optional<std::vector<int64_t>> unencoded_byte_array_data_bytes;
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::UNORDERED;
  std::optional<std::vector<int64_t>> null_counts;
  std::optional<std::vector<int64_t>> repetition_level_histograms;
  std::optional<std::vector<int64_t>> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
  bool operator==(const ColumnIndex&) const = default;
};

// ---- encryption and the file -------------------------------------------------

struct AesGcmV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmV1&) const = default;
};

struct AesGcmCtrV1 {
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmCtrV1&) const = default;
};

// AES_GCM_V1(1) AES_GCM_CTR_V1(2).
using EncryptionAlgorithm = std::variant<AesGcmV1, AesGcmCtrV1, UnknownUnionMember>;

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  std::optional<EncryptionAlgorithm> encryption_algorithm;
  std::optional<std::string> footer_signing_key_metadata;
  bool operator==(const FileMetaData&) const = default;
};

// What precedes the encrypted footer of a file with the "PARE" magic.
struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string> key_metadata;
  bool operator==(const FileCryptoMetaData&) const = default;
};

}  // namespace floe::parquet
