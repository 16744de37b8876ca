// Encoders for the structs of parquet.thrift: fields in id order, optional
// fields only when set, union members preserved verbatim when unknown.

#include <type_traits>
#include <variant>

#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/thrift_compact.h"

namespace floe::parquet {
namespace {

using Writer = ThriftCompactWriter;

void WriteStruct(Writer& w, const Statistics& v);
void WriteStruct(Writer& w, const SizeStatistics& v);
void WriteStruct(Writer& w, const BoundingBox& v);
void WriteStruct(Writer& w, const GeospatialStatistics& v);
void WriteStruct(Writer& w, const DecimalType& v);
void WriteStruct(Writer& w, const TimeType& v);
void WriteStruct(Writer& w, const TimestampType& v);
void WriteStruct(Writer& w, const IntType& v);
void WriteStruct(Writer& w, const VariantType& v);
void WriteStruct(Writer& w, const GeometryType& v);
void WriteStruct(Writer& w, const GeographyType& v);
void WriteStruct(Writer& w, const LogicalType& v);
void WriteStruct(Writer& w, const SchemaElement& v);
void WriteStruct(Writer& w, const DataPageHeader& v);
void WriteStruct(Writer& w, const DictionaryPageHeader& v);
void WriteStruct(Writer& w, const DataPageHeaderV2& v);
void WriteStruct(Writer& w, const KeyValue& v);
void WriteStruct(Writer& w, const SortingColumn& v);
void WriteStruct(Writer& w, const PageEncodingStats& v);
void WriteStruct(Writer& w, const ColumnMetaData& v);
void WriteStruct(Writer& w, const EncryptionWithColumnKey& v);
void WriteStruct(Writer& w, const ColumnCryptoMetaData& v);
void WriteStruct(Writer& w, const ColumnChunk& v);
void WriteStruct(Writer& w, const RowGroup& v);
void WriteStruct(Writer& w, const PageLocation& v);
void WriteStruct(Writer& w, const AesGcmV1& v);
void WriteStruct(Writer& w, const AesGcmCtrV1& v);
void WriteStruct(Writer& w, const EncryptionAlgorithm& v);

template <typename T>
requires std::is_empty_v<T>
void WriteStruct(Writer& w, const T&) {
  w.BeginStruct();
  w.EndStruct();
}

template <typename E, typename Underlying>
constexpr bool IsEnumOf() {
  if constexpr (std::is_enum_v<E>) {
    return std::is_same_v<std::underlying_type_t<E>, Underlying>;
  } else {
    return false;
  }
}
// Thrift enums are i32; unions of empty structs are held as the member's
// field id in an int16_t enum (metadata_enums.h).
template <typename E>
constexpr bool kIsThriftEnum = IsEnumOf<E, int32_t>();
template <typename E>
constexpr bool kIsUnionEnum = IsEnumOf<E, int16_t>();

// The wire type of a list element or non-bool field of C++ type T.
template <typename T>
constexpr CompactType WireType() {
  if constexpr (std::is_same_v<T, int8_t>)
    return CompactType::kI8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return CompactType::kI16;
  else if constexpr (std::is_same_v<T, int32_t> || kIsThriftEnum<T>)
    return CompactType::kI32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return CompactType::kI64;
  else if constexpr (std::is_same_v<T, double>)
    return CompactType::kDouble;
  else if constexpr (std::is_same_v<T, std::string>)
    return CompactType::kBinary;
  else
    return CompactType::kStruct;
}

void WriteValue(Writer& w, int8_t v) { w.WriteI8(v); }
void WriteValue(Writer& w, int16_t v) { w.WriteI16(v); }
void WriteValue(Writer& w, int32_t v) { w.WriteI32(v); }
void WriteValue(Writer& w, int64_t v) { w.WriteI64(v); }
void WriteValue(Writer& w, double v) { w.WriteDouble(v); }
void WriteValue(Writer& w, const std::string& v) { w.WriteBinary(v); }

template <typename E>
requires kIsThriftEnum<E>
void WriteValue(Writer& w, E v) { w.WriteI32(static_cast<int32_t>(v)); }

template <typename E>
requires kIsUnionEnum<E>
void WriteValue(Writer& w, E v) {
  w.BeginStruct();
  if (const auto id = static_cast<int16_t>(v); id != 0) {
    w.WriteFieldHeader(CompactType::kStruct, id);
    w.BeginStruct();
    w.EndStruct();
  }
  w.EndStruct();
}

template <typename T>
requires requires(Writer& w, const T& v) { WriteStruct(w, v); }
void WriteValue(Writer& w, const T& v) { WriteStruct(w, v); }

template <typename T>
void WriteValue(Writer& w, const std::vector<T>& v) {
  w.WriteListHeader(WireType<T>(), v.size());
  for (const T& e : v) WriteValue(w, e);
}

template <typename T, uint32_t N>
void WriteValue(Writer& w, const SmallVector<T, N>& v) {
  w.WriteListHeader(WireType<T>(), v.size());
  for (const T& e : v) WriteValue(w, e);
}

// The packed form is the list's element bytes (column_path.h).
void WriteValue(Writer& w, const ColumnPath& v) {
  w.WriteListHeader(CompactType::kBinary, v.size());
  w.WriteRaw(v.packed());
}

void WriteValue(Writer& w, const std::vector<bool>& v) {
  w.WriteListHeader(kBoolElementType, v.size());
  for (const bool e : v) w.WriteBoolElement(e);
}

template <typename T>
struct WireOf {
  static constexpr CompactType value = WireType<T>();
};
template <typename T>
struct WireOf<std::vector<T>> {
  static constexpr CompactType value = CompactType::kList;
};
template <typename T, uint32_t N>
struct WireOf<SmallVector<T, N>> {
  static constexpr CompactType value = CompactType::kList;
};
template <>
struct WireOf<ColumnPath> {
  static constexpr CompactType value = CompactType::kList;
};

template <typename T>
void Field(Writer& w, int16_t id, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    w.WriteBoolField(id, v);
  } else {
    w.WriteFieldHeader(WireOf<T>::value, id);
    WriteValue(w, v);
  }
}

template <typename T>
void Field(Writer& w, int16_t id, const std::optional<T>& v) {
  if (v) Field(w, id, *v);
}

template <typename T>
void Field(Writer& w, int16_t id, const Boxed<T>& v) {
  if (v) Field(w, id, *v);
}

// A union held as a std::variant whose alternative i is the member with
// field id ids[i]; the last alternative is UnknownUnionMember.
template <typename Variant, size_t N>
void WriteUnion(Writer& w, const Variant& v, const int16_t (&ids)[N]) {
  static_assert(N + 1 == std::variant_size_v<Variant>);
  w.BeginStruct();
  std::visit(
      [&](const auto& member) {
        using M = std::decay_t<decltype(member)>;
        if constexpr (std::is_same_v<M, UnknownUnionMember>) {
          if (member.field_id != 0) {
            w.WriteFieldHeader(static_cast<CompactType>(member.compact_type), member.field_id);
            w.WriteRaw(member.value);
          }
        } else {
          Field(w, ids[v.index()], member);
        }
      },
      v);
  w.EndStruct();
}

// ---- structs ---------------------------------------------------------------------

void WriteStruct(Writer& w, const Statistics& v) {
  w.BeginStruct();
  Field(w, 1, v.max);
  Field(w, 2, v.min);
  Field(w, 3, v.null_count);
  Field(w, 4, v.distinct_count);
  Field(w, 5, v.max_value);
  Field(w, 6, v.min_value);
  Field(w, 7, v.is_max_value_exact);
  Field(w, 8, v.is_min_value_exact);
  Field(w, 9, v.nan_count);
  w.EndStruct();
}

void WriteStruct(Writer& w, const SizeStatistics& v) {
  w.BeginStruct();
  Field(w, 1, v.unencoded_byte_array_data_bytes);
  Field(w, 2, v.repetition_level_histogram);
  Field(w, 3, v.definition_level_histogram);
  w.EndStruct();
}

void WriteStruct(Writer& w, const BoundingBox& v) {
  w.BeginStruct();
  Field(w, 1, v.xmin);
  Field(w, 2, v.xmax);
  Field(w, 3, v.ymin);
  Field(w, 4, v.ymax);
  Field(w, 5, v.zmin);
  Field(w, 6, v.zmax);
  Field(w, 7, v.mmin);
  Field(w, 8, v.mmax);
  w.EndStruct();
}

void WriteStruct(Writer& w, const GeospatialStatistics& v) {
  w.BeginStruct();
  Field(w, 1, v.bbox);
  Field(w, 2, v.geospatial_types);
  w.EndStruct();
}

void WriteStruct(Writer& w, const DecimalType& v) {
  w.BeginStruct();
  Field(w, 1, v.scale);
  Field(w, 2, v.precision);
  w.EndStruct();
}

void WriteStruct(Writer& w, const TimeType& v) {
  w.BeginStruct();
  Field(w, 1, v.isAdjustedToUTC);
  Field(w, 2, v.unit);
  w.EndStruct();
}

void WriteStruct(Writer& w, const TimestampType& v) {
  w.BeginStruct();
  Field(w, 1, v.isAdjustedToUTC);
  Field(w, 2, v.unit);
  w.EndStruct();
}

void WriteStruct(Writer& w, const IntType& v) {
  w.BeginStruct();
  Field(w, 1, v.bitWidth);
  Field(w, 2, v.isSigned);
  w.EndStruct();
}

void WriteStruct(Writer& w, const VariantType& v) {
  w.BeginStruct();
  Field(w, 1, v.specification_version);
  w.EndStruct();
}

void WriteStruct(Writer& w, const GeometryType& v) {
  w.BeginStruct();
  Field(w, 1, v.crs);
  w.EndStruct();
}

void WriteStruct(Writer& w, const GeographyType& v) {
  w.BeginStruct();
  Field(w, 1, v.crs);
  Field(w, 2, v.algorithm);
  w.EndStruct();
}

void WriteStruct(Writer& w, const LogicalType& v) {
  static constexpr int16_t kIds[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  WriteUnion(w, v, kIds);
}

void WriteStruct(Writer& w, const SchemaElement& v) {
  w.BeginStruct();
  Field(w, 1, v.type);
  Field(w, 2, v.type_length);
  Field(w, 3, v.repetition_type);
  Field(w, 4, v.name);
  Field(w, 5, v.num_children);
  Field(w, 6, v.converted_type);
  Field(w, 7, v.scale);
  Field(w, 8, v.precision);
  Field(w, 9, v.field_id);
  Field(w, 10, v.logicalType);
  Field(w, 11, v.vector_length);
  w.EndStruct();
}

void WriteStruct(Writer& w, const DataPageHeader& v) {
  w.BeginStruct();
  Field(w, 1, v.num_values);
  Field(w, 2, v.encoding);
  Field(w, 3, v.definition_level_encoding);
  Field(w, 4, v.repetition_level_encoding);
  Field(w, 5, v.statistics);
  w.EndStruct();
}

void WriteStruct(Writer& w, const DictionaryPageHeader& v) {
  w.BeginStruct();
  Field(w, 1, v.num_values);
  Field(w, 2, v.encoding);
  Field(w, 3, v.is_sorted);
  w.EndStruct();
}

void WriteStruct(Writer& w, const DataPageHeaderV2& v) {
  w.BeginStruct();
  Field(w, 1, v.num_values);
  Field(w, 2, v.num_nulls);
  Field(w, 3, v.num_rows);
  Field(w, 4, v.encoding);
  Field(w, 5, v.definition_levels_byte_length);
  Field(w, 6, v.repetition_levels_byte_length);
  Field(w, 7, v.is_compressed);
  Field(w, 8, v.statistics);
  w.EndStruct();
}

void WriteStruct(Writer& w, const PageHeader& v) {
  w.BeginStruct();
  Field(w, 1, v.type);
  Field(w, 2, v.uncompressed_page_size);
  Field(w, 3, v.compressed_page_size);
  Field(w, 4, v.crc);
  Field(w, 5, v.data_page_header);
  Field(w, 6, v.index_page_header);
  Field(w, 7, v.dictionary_page_header);
  Field(w, 8, v.data_page_header_v2);
  w.EndStruct();
}

void WriteStruct(Writer& w, const BloomFilterHeader& v) {
  w.BeginStruct();
  Field(w, 1, v.numBytes);
  Field(w, 2, v.algorithm);
  Field(w, 3, v.hash);
  Field(w, 4, v.compression);
  w.EndStruct();
}

void WriteStruct(Writer& w, const KeyValue& v) {
  w.BeginStruct();
  Field(w, 1, v.key);
  Field(w, 2, v.value);
  w.EndStruct();
}

void WriteStruct(Writer& w, const SortingColumn& v) {
  w.BeginStruct();
  Field(w, 1, v.column_idx);
  Field(w, 2, v.descending);
  Field(w, 3, v.nulls_first);
  w.EndStruct();
}

void WriteStruct(Writer& w, const PageEncodingStats& v) {
  w.BeginStruct();
  Field(w, 1, v.page_type);
  Field(w, 2, v.encoding);
  Field(w, 3, v.count);
  w.EndStruct();
}

void WriteStruct(Writer& w, const ColumnMetaData& v) {
  w.BeginStruct();
  Field(w, 1, v.type);
  Field(w, 2, v.encodings);
  Field(w, 3, v.path_in_schema);
  Field(w, 4, v.codec);
  Field(w, 5, v.num_values);
  Field(w, 6, v.total_uncompressed_size);
  Field(w, 7, v.total_compressed_size);
  Field(w, 8, v.key_value_metadata);
  Field(w, 9, v.data_page_offset);
  Field(w, 10, v.index_page_offset);
  Field(w, 11, v.dictionary_page_offset);
  Field(w, 12, v.statistics);
  Field(w, 13, v.encoding_stats);
  Field(w, 14, v.bloom_filter_offset);
  Field(w, 15, v.bloom_filter_length);
  Field(w, 16, v.size_statistics);
  Field(w, 17, v.geospatial_statistics);
  w.EndStruct();
}

void WriteStruct(Writer& w, const EncryptionWithColumnKey& v) {
  w.BeginStruct();
  Field(w, 1, v.path_in_schema);
  Field(w, 2, v.key_metadata);
  w.EndStruct();
}

void WriteStruct(Writer& w, const ColumnCryptoMetaData& v) {
  static constexpr int16_t kIds[] = {1, 2};
  WriteUnion(w, v, kIds);
}

void WriteStruct(Writer& w, const ColumnChunk& v) {
  w.BeginStruct();
  Field(w, 1, v.file_path);
  Field(w, 2, v.file_offset);
  Field(w, 3, v.meta_data);
  Field(w, 4, v.offset_index_offset);
  Field(w, 5, v.offset_index_length);
  Field(w, 6, v.column_index_offset);
  Field(w, 7, v.column_index_length);
  Field(w, 8, v.crypto_metadata);
  Field(w, 9, v.encrypted_column_metadata);
  w.EndStruct();
}

void WriteStruct(Writer& w, const RowGroup& v) {
  w.BeginStruct();
  Field(w, 1, v.columns);
  Field(w, 2, v.total_byte_size);
  Field(w, 3, v.num_rows);
  Field(w, 4, v.sorting_columns);
  Field(w, 5, v.file_offset);
  Field(w, 6, v.total_compressed_size);
  Field(w, 7, v.ordinal);
  w.EndStruct();
}

void WriteStruct(Writer& w, const PageLocation& v) {
  w.BeginStruct();
  Field(w, 1, v.offset);
  Field(w, 2, v.compressed_page_size);
  Field(w, 3, v.first_row_index);
  w.EndStruct();
}

void WriteStruct(Writer& w, const OffsetIndex& v) {
  w.BeginStruct();
  Field(w, 1, v.page_locations);
  Field(w, 2, v.unencoded_byte_array_data_bytes);
  w.EndStruct();
}

void WriteStruct(Writer& w, const ColumnIndex& v) {
  w.BeginStruct();
  Field(w, 1, v.null_pages);
  Field(w, 2, v.min_values);
  Field(w, 3, v.max_values);
  Field(w, 4, v.boundary_order);
  Field(w, 5, v.null_counts);
  Field(w, 6, v.repetition_level_histograms);
  Field(w, 7, v.definition_level_histograms);
  Field(w, 8, v.nan_counts);
  w.EndStruct();
}

template <typename T>
void WriteAesGcm(Writer& w, const T& v) {
  w.BeginStruct();
  Field(w, 1, v.aad_prefix);
  Field(w, 2, v.aad_file_unique);
  Field(w, 3, v.supply_aad_prefix);
  w.EndStruct();
}

void WriteStruct(Writer& w, const AesGcmV1& v) { WriteAesGcm(w, v); }
void WriteStruct(Writer& w, const AesGcmCtrV1& v) { WriteAesGcm(w, v); }

void WriteStruct(Writer& w, const EncryptionAlgorithm& v) {
  static constexpr int16_t kIds[] = {1, 2};
  WriteUnion(w, v, kIds);
}

void WriteStruct(Writer& w, const FileMetaData& v) {
  w.BeginStruct();
  Field(w, 1, v.version);
  Field(w, 2, v.schema);
  Field(w, 3, v.num_rows);
  Field(w, 4, v.row_groups);
  Field(w, 5, v.key_value_metadata);
  Field(w, 6, v.created_by);
  Field(w, 7, v.column_orders);
  Field(w, 8, v.encryption_algorithm);
  Field(w, 9, v.footer_signing_key_metadata);
  w.EndStruct();
}

void WriteStruct(Writer& w, const FileCryptoMetaData& v) {
  w.BeginStruct();
  Field(w, 1, v.encryption_algorithm);
  Field(w, 2, v.key_metadata);
  w.EndStruct();
}

template <typename T>
Status EncodeStruct(const T& value, std::string* out) {
  Writer w(out);
  WriteStruct(w, value);
  return w.status();
}

}  // namespace

Status EncodeFileMetaData(const FileMetaData& value, std::string* out) { return EncodeStruct(value, out); }
Status EncodePageHeader(const PageHeader& value, std::string* out) { return EncodeStruct(value, out); }
Status EncodeColumnIndex(const ColumnIndex& value, std::string* out) { return EncodeStruct(value, out); }
Status EncodeOffsetIndex(const OffsetIndex& value, std::string* out) { return EncodeStruct(value, out); }
Status EncodeBloomFilterHeader(const BloomFilterHeader& value, std::string* out) { return EncodeStruct(value, out); }
Status EncodeFileCryptoMetaData(const FileCryptoMetaData& value, std::string* out) { return EncodeStruct(value, out); }
Status EncodeColumnMetaData(const ColumnMetaData& value, std::string* out) { return EncodeStruct(value, out); }

}  // namespace floe::parquet
