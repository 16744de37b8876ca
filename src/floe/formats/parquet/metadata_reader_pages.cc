// Decoders for the structs read beside the data: page headers, the page
// index (ColumnIndex, OffsetIndex) and bloom filter headers. The file-level
// structs are in metadata_reader.cc.

#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/metadata_reader_internal.h"

namespace floe::parquet {
namespace metadata_internal {

bool ReadStruct(Reader& r, DataPageHeader* out) {
  StructScope s(r, "DataPageHeader");
  static constexpr RequiredField kRequired[] = {
      {1, "num_values"}, {2, "encoding"}, {3, "definition_level_encoding"}, {4, "repetition_level_encoding"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "num_values", &out->num_values);
          case 2: return s.Field(f, "encoding", &out->encoding);
          case 3: return s.Field(f, "definition_level_encoding", &out->definition_level_encoding);
          case 4: return s.Field(f, "repetition_level_encoding", &out->repetition_level_encoding);
          case 5: return s.Field(f, "statistics", &out->statistics);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  return NonNegative(r, "DataPageHeader", "num_values", 1, out->num_values);
}

bool ReadStruct(Reader& r, DictionaryPageHeader* out) {
  StructScope s(r, "DictionaryPageHeader");
  static constexpr RequiredField kRequired[] = {{1, "num_values"}, {2, "encoding"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "num_values", &out->num_values);
          case 2: return s.Field(f, "encoding", &out->encoding);
          case 3: return s.Field(f, "is_sorted", &out->is_sorted);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  return NonNegative(r, "DictionaryPageHeader", "num_values", 1, out->num_values);
}

bool ReadStruct(Reader& r, DataPageHeaderV2* out) {
  constexpr const char* kName = "DataPageHeaderV2";
  StructScope s(r, kName);
  static constexpr RequiredField kRequired[] = {{1, "num_values"},
                                                {2, "num_nulls"},
                                                {3, "num_rows"},
                                                {4, "encoding"},
                                                {5, "definition_levels_byte_length"},
                                                {6, "repetition_levels_byte_length"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "num_values", &out->num_values);
          case 2: return s.Field(f, "num_nulls", &out->num_nulls);
          case 3: return s.Field(f, "num_rows", &out->num_rows);
          case 4: return s.Field(f, "encoding", &out->encoding);
          case 5: return s.Field(f, "definition_levels_byte_length", &out->definition_levels_byte_length);
          case 6: return s.Field(f, "repetition_levels_byte_length", &out->repetition_levels_byte_length);
          case 7: return s.Field(f, "is_compressed", &out->is_compressed);
          case 8: return s.Field(f, "statistics", &out->statistics);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  if (!NonNegative(r, kName, "num_values", 1, out->num_values)) return false;
  if (!NonNegative(r, kName, "num_nulls", 2, out->num_nulls)) return false;
  if (!NonNegative(r, kName, "num_rows", 3, out->num_rows)) return false;
  if (!NonNegative(r, kName, "definition_levels_byte_length", 5, out->definition_levels_byte_length)) return false;
  return NonNegative(r, kName, "repetition_levels_byte_length", 6, out->repetition_levels_byte_length);
}

bool ReadStruct(Reader& r, PageHeader* out) {
  constexpr const char* kName = "PageHeader";
  StructScope s(r, kName);
  static constexpr RequiredField kRequired[] = {
      {1, "type"}, {2, "uncompressed_page_size"}, {3, "compressed_page_size"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "type", &out->type);
          case 2: return s.Field(f, "uncompressed_page_size", &out->uncompressed_page_size);
          case 3: return s.Field(f, "compressed_page_size", &out->compressed_page_size);
          case 4: return s.Field(f, "crc", &out->crc);
          case 5: return s.Field(f, "data_page_header", &out->data_page_header);
          case 6: return s.Field(f, "index_page_header", &out->index_page_header);
          case 7: return s.Field(f, "dictionary_page_header", &out->dictionary_page_header);
          case 8: return s.Field(f, "data_page_header_v2", &out->data_page_header_v2);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  if (!NonNegative(r, kName, "uncompressed_page_size", 2, out->uncompressed_page_size)) return false;
  return NonNegative(r, kName, "compressed_page_size", 3, out->compressed_page_size);
}

bool ReadStruct(Reader& r, BloomFilterHeader* out) {
  StructScope s(r, "BloomFilterHeader");
  static constexpr RequiredField kRequired[] = {{1, "numBytes"}, {2, "algorithm"}, {3, "hash"}, {4, "compression"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "numBytes", &out->numBytes);
          case 2: return s.Field(f, "algorithm", &out->algorithm);
          case 3: return s.Field(f, "hash", &out->hash);
          case 4: return s.Field(f, "compression", &out->compression);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  return NonNegative(r, "BloomFilterHeader", "numBytes", 1, out->numBytes);
}

bool ReadStruct(Reader& r, PageLocation* out) {
  constexpr const char* kName = "PageLocation";
  StructScope s(r, kName);
  static constexpr RequiredField kRequired[] = {{1, "offset"}, {2, "compressed_page_size"}, {3, "first_row_index"}};
  if (!s.Read<kRequired>([&](const ThriftField& f) {
        switch (f.id) {
          case 1: return s.Field(f, "offset", &out->offset);
          case 2: return s.Field(f, "compressed_page_size", &out->compressed_page_size);
          case 3: return s.Field(f, "first_row_index", &out->first_row_index);
          default: return s.Skip(f);
        }
      })) {
    return false;
  }
  if (!NonNegative(r, kName, "offset", 1, out->offset)) return false;
  if (!NonNegative(r, kName, "compressed_page_size", 2, out->compressed_page_size)) return false;
  return NonNegative(r, kName, "first_row_index", 3, out->first_row_index);
}

bool ReadStruct(Reader& r, OffsetIndex* out) {
  StructScope s(r, "OffsetIndex");
  static constexpr RequiredField kRequired[] = {{1, "page_locations"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "page_locations", &out->page_locations);
      case 2: return s.Field(f, "unencoded_byte_array_data_bytes", &out->unencoded_byte_array_data_bytes);
      default: return s.Skip(f);
    }
  });
}

bool ReadStruct(Reader& r, ColumnIndex* out) {
  StructScope s(r, "ColumnIndex");
  static constexpr RequiredField kRequired[] = {
      {1, "null_pages"}, {2, "min_values"}, {3, "max_values"}, {4, "boundary_order"}};
  return s.Read<kRequired>([&](const ThriftField& f) {
    switch (f.id) {
      case 1: return s.Field(f, "null_pages", &out->null_pages);
      case 2: return s.Field(f, "min_values", &out->min_values);
      case 3: return s.Field(f, "max_values", &out->max_values);
      case 4: return s.Field(f, "boundary_order", &out->boundary_order);
      case 5: return s.Field(f, "null_counts", &out->null_counts);
      case 6: return s.Field(f, "repetition_level_histograms", &out->repetition_level_histograms);
      case 7: return s.Field(f, "definition_level_histograms", &out->definition_level_histograms);
      case 8: return s.Field(f, "nan_counts", &out->nan_counts);
      default: return s.Skip(f);
    }
  });
}

}  // namespace metadata_internal

Result<PageHeader> DecodePageHeader(std::span<const uint8_t> bytes, size_t* consumed) {
  return metadata_internal::DecodeStruct<PageHeader>(bytes, consumed);
}

Result<ColumnIndex> DecodeColumnIndex(std::span<const uint8_t> bytes, size_t* consumed) {
  return metadata_internal::DecodeStruct<ColumnIndex>(bytes, consumed);
}

Result<OffsetIndex> DecodeOffsetIndex(std::span<const uint8_t> bytes, size_t* consumed) {
  return metadata_internal::DecodeStruct<OffsetIndex>(bytes, consumed);
}

Result<BloomFilterHeader> DecodeBloomFilterHeader(std::span<const uint8_t> bytes, size_t* consumed) {
  return metadata_internal::DecodeStruct<BloomFilterHeader>(bytes, consumed);
}

}  // namespace floe::parquet
