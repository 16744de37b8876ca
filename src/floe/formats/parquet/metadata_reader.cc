// Decoders for the file-level structs of parquet.thrift (FileMetaData down to
// ColumnMetaData and its statistics, logical types, encryption metadata).
// Pages, page index and bloom filter headers: metadata_reader_pages.cc.

#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/metadata_reader_internal.h"

namespace floe::parquet {
namespace metadata_internal {

// ---- statistics ------------------------------------------------------------------

bool ReadStruct(Reader& r, Statistics* out) {
  StructScope s(r, "Statistics");
  return s.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "max", &out->max);
      case 2: return s.Field(f, "min", &out->min);
      case 3: return s.Field(f, "null_count", &out->null_count);
      case 4: return s.Field(f, "distinct_count", &out->distinct_count);
      case 5: return s.Field(f, "max_value", &out->max_value);
      case 6: return s.Field(f, "min_value", &out->min_value);
      case 7: return s.Field(f, "is_max_value_exact", &out->is_max_value_exact);
      case 8: return s.Field(f, "is_min_value_exact", &out->is_min_value_exact);
      case 9: return s.Field(f, "nan_count", &out->nan_count);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, SizeStatistics* out) {
  StructScope s(r, "SizeStatistics");
  return s.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "unencoded_byte_array_data_bytes", &out->unencoded_byte_array_data_bytes);
      case 2: return s.Field(f, "repetition_level_histogram", &out->repetition_level_histogram);
      case 3: return s.Field(f, "definition_level_histogram", &out->definition_level_histogram);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, BoundingBox* out) {
  StructScope s(r, "BoundingBox");
  static constexpr RequiredField kRequired[] = {{1, "xmin"}, {2, "xmax"}, {3, "ymin"}, {4, "ymax"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "xmin", &out->xmin);
      case 2: return s.Field(f, "xmax", &out->xmax);
      case 3: return s.Field(f, "ymin", &out->ymin);
      case 4: return s.Field(f, "ymax", &out->ymax);
      case 5: return s.Field(f, "zmin", &out->zmin);
      case 6: return s.Field(f, "zmax", &out->zmax);
      case 7: return s.Field(f, "mmin", &out->mmin);
      case 8: return s.Field(f, "mmax", &out->mmax);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, GeospatialStatistics* out) {
  StructScope s(r, "GeospatialStatistics");
  return s.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "bbox", &out->bbox);
      case 2: return s.Field(f, "geospatial_types", &out->geospatial_types);
      default: return s.Skip(f);
    }
  });
}

// ---- logical types -----------------------------------------------------------------

bool ReadStruct(Reader& r, DecimalType* out) {
  StructScope s(r, "DecimalType");
  static constexpr RequiredField kRequired[] = {{1, "scale"}, {2, "precision"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "scale", &out->scale);
      case 2: return s.Field(f, "precision", &out->precision);
      default: return s.Skip(f);
    }
  });
}

template <typename T>
bool ReadTimeLike(Reader& r, const char* name, T* out) {
  StructScope s(r, name);
  static constexpr RequiredField kRequired[] = {{1, "isAdjustedToUTC"}, {2, "unit"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "isAdjustedToUTC", &out->isAdjustedToUTC);
      case 2: return s.Field(f, "unit", &out->unit);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, TimeType* out) { return ReadTimeLike(r, "TimeType", out); }
bool ReadStruct(Reader& r, TimestampType* out) { return ReadTimeLike(r, "TimestampType", out); }

bool ReadStruct(Reader& r, IntType* out) {
  StructScope s(r, "IntType");
  static constexpr RequiredField kRequired[] = {{1, "bitWidth"}, {2, "isSigned"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "bitWidth", &out->bitWidth);
      case 2: return s.Field(f, "isSigned", &out->isSigned);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, VariantType* out) {
  StructScope s(r, "VariantType");
  return s.Read([&](const ThriftField& f) {
    return f.id == 1 ? s.Field(f, "specification_version", &out->specification_version) : s.Skip(f);
  });
}

bool ReadStruct(Reader& r, GeometryType* out) {
  StructScope s(r, "GeometryType");
  return s.Read([&](const ThriftField& f) { return f.id == 1 ? s.Field(f, "crs", &out->crs) : s.Skip(f); });
}

bool ReadStruct(Reader& r, GeographyType* out) {
  StructScope s(r, "GeographyType");
  return s.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "crs", &out->crs);
      case 2: return s.Field(f, "algorithm", &out->algorithm);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, LogicalType* out) {
  UnionScope u(r, "LogicalType", out);
  return u.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return u.template Member<StringType>(f, "STRING");
      case 2: return u.template Member<MapType>(f, "MAP");
      case 3: return u.template Member<ListType>(f, "LIST");
      case 4: return u.template Member<EnumType>(f, "ENUM");
      case 5: return u.template Member<DecimalType>(f, "DECIMAL");
      case 6: return u.template Member<DateType>(f, "DATE");
      case 7: return u.template Member<TimeType>(f, "TIME");
      case 8: return u.template Member<TimestampType>(f, "TIMESTAMP");
      case 10: return u.template Member<IntType>(f, "INTEGER");
      case 11: return u.template Member<NullType>(f, "UNKNOWN");
      case 12: return u.template Member<JsonType>(f, "JSON");
      case 13: return u.template Member<BsonType>(f, "BSON");
      case 14: return u.template Member<UUIDType>(f, "UUID");
      case 15: return u.template Member<Float16Type>(f, "FLOAT16");
      case 16: return u.template Member<VariantType>(f, "VARIANT");
      case 17: return u.template Member<GeometryType>(f, "GEOMETRY");
      case 18: return u.template Member<GeographyType>(f, "GEOGRAPHY");
      case 19: return u.template Member<VectorType>(f, "VECTOR");
      default: return u.Unknown(f);
    }
  });
}

bool ReadStruct(Reader& r, SchemaElement* out) {
  StructScope s(r, "SchemaElement");
  static constexpr RequiredField kRequired[] = {{4, "name"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "type", &out->type);
          case 2: return s.Field(f, "type_length", &out->type_length);
          case 3: return s.Field(f, "repetition_type", &out->repetition_type);
          case 4: return s.Field(f, "name", &out->name);
          case 5: return s.Field(f, "num_children", &out->num_children);
          case 6: return s.Field(f, "converted_type", &out->converted_type);
          case 7: return s.Field(f, "scale", &out->scale);
          case 8: return s.Field(f, "precision", &out->precision);
          case 9: return s.Field(f, "field_id", &out->field_id);
          case 10: return s.Field(f, "logicalType", &out->logicalType);
          case 11: return s.Field(f, "vector_length", &out->vector_length);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  return NonNegative(r, "SchemaElement", "num_children", 5, out->num_children);
}

// ---- column chunks -----------------------------------------------------------------

bool ReadStruct(Reader& r, KeyValue* out) {
  StructScope s(r, "KeyValue");
  static constexpr RequiredField kRequired[] = {{1, "key"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "key", &out->key);
      case 2: return s.Field(f, "value", &out->value);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, SortingColumn* out) {
  StructScope s(r, "SortingColumn");
  static constexpr RequiredField kRequired[] = {{1, "column_idx"}, {2, "descending"}, {3, "nulls_first"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "column_idx", &out->column_idx);
      case 2: return s.Field(f, "descending", &out->descending);
      case 3: return s.Field(f, "nulls_first", &out->nulls_first);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, PageEncodingStats* out) {
  StructScope s(r, "PageEncodingStats");
  static constexpr RequiredField kRequired[] = {{1, "page_type"}, {2, "encoding"}, {3, "count"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "page_type", &out->page_type);
      case 2: return s.Field(f, "encoding", &out->encoding);
      case 3: return s.Field(f, "count", &out->count);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, ColumnMetaData* out) {
  constexpr const char* kName = "ColumnMetaData";
  StructScope s(r, kName);
  static constexpr RequiredField kRequired[] = {{1, "type"},
                                                {2, "encodings"},
                                                {3, "path_in_schema"},
                                                {4, "codec"},
                                                {5, "num_values"},
                                                {6, "total_uncompressed_size"},
                                                {7, "total_compressed_size"},
                                                {9, "data_page_offset"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "type", &out->type);
          case 2: return s.Field(f, "encodings", &out->encodings);
          case 3: return s.Field(f, "path_in_schema", &out->path_in_schema);
          case 4: return s.Field(f, "codec", &out->codec);
          case 5: return s.Field(f, "num_values", &out->num_values);
          case 6: return s.Field(f, "total_uncompressed_size", &out->total_uncompressed_size);
          case 7: return s.Field(f, "total_compressed_size", &out->total_compressed_size);
          case 8: return s.Field(f, "key_value_metadata", &out->key_value_metadata);
          case 9: return s.Field(f, "data_page_offset", &out->data_page_offset);
          case 10: return s.Field(f, "index_page_offset", &out->index_page_offset);
          case 11: return s.Field(f, "dictionary_page_offset", &out->dictionary_page_offset);
          case 12: return s.Field(f, "statistics", &out->statistics);
          case 13: return s.Field(f, "encoding_stats", &out->encoding_stats);
          case 14: return s.Field(f, "bloom_filter_offset", &out->bloom_filter_offset);
          case 15: return s.Field(f, "bloom_filter_length", &out->bloom_filter_length);
          case 16: return s.Field(f, "size_statistics", &out->size_statistics);
          case 17: return s.Field(f, "geospatial_statistics", &out->geospatial_statistics);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  if (!NonNegative(r, kName, "num_values", 5, out->num_values)) return false;
  if (!NonNegative(r, kName, "total_uncompressed_size", 6, out->total_uncompressed_size)) return false;
  if (!NonNegative(r, kName, "total_compressed_size", 7, out->total_compressed_size)) return false;
  return NonNegative(r, kName, "bloom_filter_length", 15, out->bloom_filter_length);
}

bool ReadStruct(Reader& r, EncryptionWithColumnKey* out) {
  StructScope s(r, "EncryptionWithColumnKey");
  static constexpr RequiredField kRequired[] = {{1, "path_in_schema"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "path_in_schema", &out->path_in_schema);
      case 2: return s.Field(f, "key_metadata", &out->key_metadata);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, ColumnCryptoMetaData* out) {
  UnionScope u(r, "ColumnCryptoMetaData", out);
  return u.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return u.template Member<EncryptionWithFooterKey>(f, "ENCRYPTION_WITH_FOOTER_KEY");
      case 2: return u.template Member<EncryptionWithColumnKey>(f, "ENCRYPTION_WITH_COLUMN_KEY");
      default: return u.Unknown(f);
    }
  });
}

bool ReadStruct(Reader& r, ColumnChunk* out) {
  if (ReadColumnChunkFast(r, out)) [[likely]] {
    return true;
  }
  *out = ColumnChunk();  // the fast path may have filled some of it
  return ReadColumnChunkGeneric(r, out);
}

bool ReadColumnChunkGeneric(Reader& r, ColumnChunk* out) {
  constexpr const char* kName = "ColumnChunk";
  StructScope s(r, kName);
  static constexpr RequiredField kRequired[] = {{2, "file_offset"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "file_path", &out->file_path);
          case 2: return s.Field(f, "file_offset", &out->file_offset);
          case 3: return s.Field(f, "meta_data", &out->meta_data);
          case 4: return s.Field(f, "offset_index_offset", &out->offset_index_offset);
          case 5: return s.Field(f, "offset_index_length", &out->offset_index_length);
          case 6: return s.Field(f, "column_index_offset", &out->column_index_offset);
          case 7: return s.Field(f, "column_index_length", &out->column_index_length);
          case 8: return s.Field(f, "crypto_metadata", &out->crypto_metadata);
          case 9: return s.Field(f, "encrypted_column_metadata", &out->encrypted_column_metadata);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  if (!NonNegative(r, kName, "offset_index_length", 5, out->offset_index_length)) return false;
  return NonNegative(r, kName, "column_index_length", 7, out->column_index_length);
}

bool ReadStruct(Reader& r, RowGroup* out) {
  StructScope s(r, "RowGroup");
  static constexpr RequiredField kRequired[] = {{1, "columns"}, {2, "total_byte_size"}, {3, "num_rows"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "columns", &out->columns);
          case 2: return s.Field(f, "total_byte_size", &out->total_byte_size);
          case 3: return s.Field(f, "num_rows", &out->num_rows);
          case 4: return s.Field(f, "sorting_columns", &out->sorting_columns);
          case 5: return s.Field(f, "file_offset", &out->file_offset);
          case 6: return s.Field(f, "total_compressed_size", &out->total_compressed_size);
          case 7: return s.Field(f, "ordinal", &out->ordinal);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  return NonNegative(r, "RowGroup", "num_rows", 3, out->num_rows);
}

// ---- encryption and the file -------------------------------------------------------

template <typename T>
bool ReadAesGcm(Reader& r, const char* name, T* out) {
  StructScope s(r, name);
  return s.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "aad_prefix", &out->aad_prefix);
      case 2: return s.Field(f, "aad_file_unique", &out->aad_file_unique);
      case 3: return s.Field(f, "supply_aad_prefix", &out->supply_aad_prefix);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, AesGcmV1* out) { return ReadAesGcm(r, "AesGcmV1", out); }
bool ReadStruct(Reader& r, AesGcmCtrV1* out) { return ReadAesGcm(r, "AesGcmCtrV1", out); }

bool ReadStruct(Reader& r, EncryptionAlgorithm* out) {
  UnionScope u(r, "EncryptionAlgorithm", out);
  return u.Read([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return u.template Member<AesGcmV1>(f, "AES_GCM_V1");
      case 2: return u.template Member<AesGcmCtrV1>(f, "AES_GCM_CTR_V1");
      default: return u.Unknown(f);
    }
  });
}

bool ReadStruct(Reader& r, FileMetaData* out) {
  StructScope s(r, "FileMetaData");
  static constexpr RequiredField kRequired[] = {{1, "version"}, {2, "schema"}, {3, "num_rows"}, {4, "row_groups"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "version", &out->version);
          case 2: return s.Field(f, "schema", &out->schema);
          case 3: return s.Field(f, "num_rows", &out->num_rows);
          case 4: return s.Field(f, "row_groups", &out->row_groups);
          case 5: return s.Field(f, "key_value_metadata", &out->key_value_metadata);
          case 6: return s.Field(f, "created_by", &out->created_by);
          case 7: return s.Field(f, "column_orders", &out->column_orders);
          case 8: return s.Field(f, "encryption_algorithm", &out->encryption_algorithm);
          case 9: return s.Field(f, "footer_signing_key_metadata", &out->footer_signing_key_metadata);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  return NonNegative(r, "FileMetaData", "num_rows", 3, out->num_rows);
}

bool ReadStruct(Reader& r, FileCryptoMetaData* out) {
  StructScope s(r, "FileCryptoMetaData");
  static constexpr RequiredField kRequired[] = {{1, "encryption_algorithm"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "encryption_algorithm", &out->encryption_algorithm);
      case 2: return s.Field(f, "key_metadata", &out->key_metadata);
      default: return s.Skip(f);
    }
  });
}

}  // namespace metadata_internal

Result<FileMetaData> DecodeFileMetaData(std::span<const uint8_t> bytes, size_t* consumed) {
  return metadata_internal::DecodeStruct<FileMetaData>(bytes, consumed);
}

Result<FileCryptoMetaData> DecodeFileCryptoMetaData(std::span<const uint8_t> bytes, size_t* consumed) {
  return metadata_internal::DecodeStruct<FileCryptoMetaData>(bytes, consumed);
}

Result<ColumnMetaData> DecodeColumnMetaData(std::span<const uint8_t> bytes, size_t* consumed) {
  return metadata_internal::DecodeStruct<ColumnMetaData>(bytes, consumed);
}

}  // namespace floe::parquet
