#include "floe/formats/parquet/metadata_codec.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "floe/formats/parquet/thrift_compact.h"
#include "formats/parquet_fixtures.h"

namespace floe::parquet {
namespace {

using testing::AsBytes;

template <typename T>
std::string Encode(const T& value, Status (*encode)(const T&, std::string*)) {
  std::string out;
  const Status s = encode(value, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

Statistics FullStatistics() {
  Statistics s;
  s.max = std::string("\x7f\x00\x00\x01", 4);
  s.min = std::string("\x00\x00\x00\x80", 4);
  s.null_count = 0;
  s.distinct_count = 12345678901;
  s.max_value = "zebra";
  s.min_value = "";
  s.is_max_value_exact = true;
  s.is_min_value_exact = false;
  s.nan_count = 3;
  return s;
}

SchemaElement Leaf(std::string name, Type type, LogicalType logical) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = FieldRepetitionType::OPTIONAL;
  e.logicalType = std::move(logical);
  return e;
}

ColumnMetaData FullColumnMetaData() {
  ColumnMetaData m;
  m.type = Type::BYTE_ARRAY;
  m.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY, Encoding::BYTE_STREAM_SPLIT};
  m.path_in_schema = {"a", "b", "element"};
  m.codec = CompressionCodec::ZSTD;
  m.num_values = 1000;
  m.total_uncompressed_size = 1 << 20;
  m.total_compressed_size = 1 << 19;
  m.key_value_metadata = std::vector<KeyValue>{{"k", "v"}, {"no-value", std::nullopt}};
  m.data_page_offset = 4;
  m.index_page_offset = 100;
  m.dictionary_page_offset = 4;
  m.statistics = FullStatistics();
  m.encoding_stats = std::vector<PageEncodingStats>{{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1},
                                                    {PageType::DATA_PAGE, Encoding::RLE_DICTIONARY, 7}};
  m.bloom_filter_offset = 1 << 20;
  m.bloom_filter_length = 1024 + 15;
  m.size_statistics.emplace();
  m.size_statistics->unencoded_byte_array_data_bytes = 77;
  m.size_statistics->repetition_level_histogram = LevelHistogram{1, 2, 3};
  m.size_statistics->definition_level_histogram = LevelHistogram{};
  m.geospatial_statistics =
      GeospatialStatistics{BoundingBox{-180, 180, -90, 90, 0, 100, -1, 1}, std::vector<int32_t>{1, 3, 1006}};
  return m;
}

// A FileMetaData with every optional field set somewhere, every logical
// type, both crypto unions and preserved unknown union members.
FileMetaData FullFileMetaData() {
  FileMetaData md;
  md.version = 2;
  SchemaElement root;
  root.name = "schema";
  md.schema.push_back(root);
  // A raw unknown member: a struct holding field 1 = i32 1.
  const UnknownUnionMember future_logical{30, static_cast<uint8_t>(CompactType::kStruct),
                                          std::string("\x15\x02\x00", 3)};
  const std::vector<LogicalType> logical = {
      StringType{},
      MapType{},
      ListType{},
      EnumType{},
      DecimalType{2, 9},
      DateType{},
      TimeType{true, TimeUnit::MICROS},
      TimestampType{false, TimeUnit::NANOS},
      IntType{-8, true},
      NullType{},
      JsonType{},
      BsonType{},
      UUIDType{},
      Float16Type{},
      VariantType{1},
      GeometryType{"OGC:CRS84"},
      GeographyType{"srid:4326", EdgeInterpolationAlgorithm::KARNEY},
      VectorType{},
      future_logical,
  };
  for (size_t i = 0; i < logical.size(); ++i)
    md.schema.push_back(Leaf("c" + std::to_string(i), Type::INT64, logical[i]));
  SchemaElement& full = md.schema[5];
  full.type = Type::FIXED_LEN_BYTE_ARRAY;
  full.type_length = 16;
  full.converted_type = ConvertedType::DECIMAL;
  full.scale = 2;
  full.precision = 9;
  full.field_id = -7;
  full.vector_length = 4;
  full.repetition_type = FieldRepetitionType::VECTOR;
  md.schema[0].num_children = static_cast<int32_t>(logical.size());
  md.num_rows = 1000;

  RowGroup rg;
  ColumnChunk with_key;
  with_key.file_path = "other.parquet";
  with_key.file_offset = 123;
  with_key.meta_data = FullColumnMetaData();
  with_key.offset_index_offset = 5000;
  with_key.offset_index_length = 50;
  with_key.column_index_offset = 6000;
  with_key.column_index_length = 60;
  with_key.crypto_metadata = EncryptionWithColumnKey{{"a", "b", "element"}, std::string("key\0id", 6)};
  with_key.encrypted_column_metadata = std::string(40, '\xee');
  ColumnChunk footer_key;
  footer_key.file_offset = 0;
  footer_key.meta_data = ColumnMetaData{};
  footer_key.meta_data->path_in_schema = {"x"};
  footer_key.crypto_metadata = EncryptionWithFooterKey{};
  ColumnChunk future_crypto;
  future_crypto.crypto_metadata =
      UnknownUnionMember{9, static_cast<uint8_t>(CompactType::kStruct), std::string(1, '\0')};
  rg.columns = {with_key, footer_key, future_crypto};
  rg.total_byte_size = 1 << 20;
  rg.num_rows = 1000;
  rg.sorting_columns = std::vector<SortingColumn>{{0, true, false}, {2, false, true}};
  rg.file_offset = 4;
  rg.total_compressed_size = 1 << 19;
  rg.ordinal = 0;
  md.row_groups = {rg};
  md.key_value_metadata = std::vector<KeyValue>{{"ARROW:schema", std::string(300, 'x')}, {"empty", ""}};
  md.created_by = "floe version 0.1.0 (build test)";
  md.column_orders = std::vector<ColumnOrder>{ColumnOrder::TYPE_ORDER, ColumnOrder::IEEE_754_TOTAL_ORDER,
                                              ColumnOrder::INT96_TIMESTAMP_ORDER, static_cast<ColumnOrder>(7)};
  md.encryption_algorithm = AesGcmCtrV1{"prefix", std::string("\x01\x02\x03", 3), true};
  md.footer_signing_key_metadata = "signing-key";
  return md;
}

TEST(MetadataCodecTest, RoundTripsFileMetaDataWithEveryOptionalSet) {
  const FileMetaData md = FullFileMetaData();
  const std::string bytes = Encode(md, EncodeFileMetaData);
  size_t consumed = 0;
  auto decoded = DecodeFileMetaData(AsBytes(bytes), &consumed);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(consumed, bytes.size());
  EXPECT_TRUE(*decoded == md);
  // Encoding is deterministic: the decoded value encodes to the same bytes.
  EXPECT_EQ(Encode(*decoded, EncodeFileMetaData), bytes);
  // Spot checks that equality did not hide a dropped field.
  const ColumnMetaData& m = *decoded->row_groups[0].columns[0].meta_data;
  EXPECT_EQ(m.statistics->distinct_count, 12345678901);
  EXPECT_EQ(m.statistics->min_value, "");
  EXPECT_EQ(m.geospatial_statistics->bbox->mmax, 1.0);
  EXPECT_EQ(std::get<GeographyType>(*decoded->schema[17].logicalType).algorithm, EdgeInterpolationAlgorithm::KARNEY);
  EXPECT_EQ(std::get<IntType>(*decoded->schema[9].logicalType).bitWidth, -8);
  EXPECT_EQ(LogicalTypeName(*decoded->schema[19].logicalType), "UNKNOWN_MEMBER(30)");
  EXPECT_EQ(decoded->schema[5].vector_length, 4);
  EXPECT_EQ(std::get<AesGcmCtrV1>(*decoded->encryption_algorithm).supply_aad_prefix, true);
  EXPECT_EQ((*decoded->column_orders)[3], static_cast<ColumnOrder>(7));
}

TEST(MetadataCodecTest, RoundTripsPageHeadersOfEveryKind) {
  PageHeader v1{PageType::DATA_PAGE,
                100,
                80,
                0x12345678,
                DataPageHeader{10, Encoding::PLAIN, Encoding::RLE, Encoding::BIT_PACKED, FullStatistics()},
                std::nullopt,
                std::nullopt,
                std::nullopt};
  PageHeader dict{PageType::DICTIONARY_PAGE,
                  5,
                  5,
                  std::nullopt,
                  std::nullopt,
                  std::nullopt,
                  DictionaryPageHeader{1, Encoding::PLAIN_DICTIONARY, false},
                  std::nullopt};
  PageHeader v2{PageType::DATA_PAGE_V2,
                0,
                0,
                -1,
                std::nullopt,
                std::nullopt,
                std::nullopt,
                DataPageHeaderV2{3, 1, 2, Encoding::DELTA_BYTE_ARRAY, 4, 5, false, Statistics{}}};
  PageHeader index{PageType::INDEX_PAGE, 1,           1, std::nullopt, std::nullopt, IndexPageHeader{},
                   std::nullopt,         std::nullopt};
  for (const PageHeader& h : {v1, dict, v2, index}) {
    const std::string bytes = Encode(h, EncodePageHeader);
    auto decoded = DecodePageHeader(AsBytes(bytes));
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_TRUE(*decoded == h) << PageTypeName(h.type);
  }
}

TEST(MetadataCodecTest, PageHeaderReportsItsSizeWhenPageDataFollows) {
  const PageHeader h{PageType::DATA_PAGE,
                     10,
                     8,
                     std::nullopt,
                     DataPageHeader{2, Encoding::PLAIN, Encoding::RLE, Encoding::RLE, std::nullopt},
                     std::nullopt,
                     std::nullopt,
                     std::nullopt};
  const std::string header = Encode(h, EncodePageHeader);
  const std::string page = header + "PAGEDATA";
  size_t consumed = 0;
  auto decoded = DecodePageHeader(AsBytes(page), &consumed);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(consumed, header.size());
  EXPECT_EQ(decoded->data_page_header->num_values, 2);
}

TEST(MetadataCodecTest, EncodesRequiredFieldsOnlyInIdOrder) {
  const PageHeader h{
      PageType::DICTIONARY_PAGE, 10, 8, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  // field 1 i32 2, field 2 i32 10, field 3 i32 8, stop (zigzag doubles the values).
  EXPECT_EQ(Encode(h, EncodePageHeader), std::string("\x15\x04\x15\x14\x15\x10\x00", 7));
}

TEST(MetadataCodecTest, RoundTripsPageIndexBloomCryptoAndColumnMetaData) {
  const ColumnIndex ci{{false, true, false},
                       {"a", "", "m"},
                       {"f", "", "z"},
                       BoundaryOrder::ASCENDING,
                       std::vector<int64_t>{0, 10, 2},
                       std::vector<int64_t>{1, 2, 3, 4, 5, 6},
                       std::vector<int64_t>{7, 8, 9},
                       std::vector<int64_t>{0, 0, 1}};
  auto ci2 = DecodeColumnIndex(AsBytes(Encode(ci, EncodeColumnIndex)));
  ASSERT_TRUE(ci2.ok()) << ci2.status().ToString();
  EXPECT_TRUE(*ci2 == ci);

  const OffsetIndex oi{{{4, 100, 0}, {104, 90, 50}}, std::vector<int64_t>{1000, 2000}};
  auto oi2 = DecodeOffsetIndex(AsBytes(Encode(oi, EncodeOffsetIndex)));
  ASSERT_TRUE(oi2.ok()) << oi2.status().ToString();
  EXPECT_TRUE(*oi2 == oi);

  const BloomFilterHeader bf{1024, BloomFilterAlgorithm::BLOCK, BloomFilterHash::XXHASH,
                             BloomFilterCompression::UNCOMPRESSED};
  auto bf2 = DecodeBloomFilterHeader(AsBytes(Encode(bf, EncodeBloomFilterHeader)));
  ASSERT_TRUE(bf2.ok()) << bf2.status().ToString();
  EXPECT_TRUE(*bf2 == bf);

  const FileCryptoMetaData crypto{AesGcmV1{std::nullopt, "unique", false}, "key"};
  auto crypto2 = DecodeFileCryptoMetaData(AsBytes(Encode(crypto, EncodeFileCryptoMetaData)));
  ASSERT_TRUE(crypto2.ok()) << crypto2.status().ToString();
  EXPECT_TRUE(*crypto2 == crypto);

  const ColumnMetaData cmd = FullColumnMetaData();
  auto cmd2 = DecodeColumnMetaData(AsBytes(Encode(cmd, EncodeColumnMetaData)));
  ASSERT_TRUE(cmd2.ok()) << cmd2.status().ToString();
  EXPECT_TRUE(*cmd2 == cmd);
}

// ---- hand-built malformed input ----------------------------------------------

void NoMoreFields(ThriftCompactWriter&) {}

// FileMetaData fields 1, 2 and 4, with field 3 written by `num_rows` and
// fields after 4 by `more`.
template <typename WriteNumRows, typename WriteMore = decltype(&NoMoreFields)>
std::string FileMetaDataBytes(WriteNumRows&& num_rows, WriteMore&& more = &NoMoreFields) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(1);
  w.WriteFieldHeader(CompactType::kList, 2);
  w.WriteListHeader(CompactType::kStruct, 1);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kBinary, 4);
  w.WriteBinary("schema");
  w.EndStruct();
  num_rows(w);
  w.WriteFieldHeader(CompactType::kList, 4);
  w.WriteListHeader(CompactType::kStruct, 0);
  more(w);
  w.EndStruct();
  EXPECT_TRUE(w.status().ok());
  return out;
}

TEST(MetadataCodecTest, MissingRequiredFieldIsCorruptNamingStructAndField) {
  const std::string bytes = FileMetaDataBytes([](ThriftCompactWriter&) {});
  auto r = DecodeFileMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
  EXPECT_EQ(r.status().message(), "FileMetaData: required field 'num_rows' (3) missing");
}

TEST(MetadataCodecTest, WrongWireTypeIsCorruptNamingTheField) {
  const std::string bytes = FileMetaDataBytes([](ThriftCompactWriter& w) {
    w.WriteFieldHeader(CompactType::kBinary, 3);
    w.WriteBinary("8");
  });
  auto r = DecodeFileMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(), "FileMetaData: field 'num_rows' (3): wire type binary where i64 is expected");
}

TEST(MetadataCodecTest, OptionalFieldWithAnotherWireTypeIsSkipped) {
  // As parquet-mr 1.12 snapshots wrote ColumnMetaData field 15 (now
  // bloom_filter_length, i32): a list.
  std::string bytes;
  ThriftCompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(1);
  w.WriteFieldHeader(CompactType::kList, 2);
  w.WriteListHeader(CompactType::kI32, 1);
  w.WriteI32(0);
  w.WriteFieldHeader(CompactType::kList, 3);
  w.WriteListHeader(CompactType::kBinary, 1);
  w.WriteBinary("c");
  w.WriteFieldHeader(CompactType::kI32, 4);
  w.WriteI32(1);
  for (int16_t id : {5, 6, 7, 9}) {
    w.WriteFieldHeader(CompactType::kI64, id);
    w.WriteI64(id);
  }
  w.WriteFieldHeader(CompactType::kList, 15);
  w.WriteListHeader(CompactType::kI64, 2);
  w.WriteI64(1);
  w.WriteI64(2);
  w.EndStruct();
  auto r = DecodeColumnMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->bloom_filter_length.has_value());
  EXPECT_EQ(r->data_page_offset, 9);
  EXPECT_EQ(r->codec, CompressionCodec::SNAPPY);
}

// The minimal ColumnMetaData fields 1 and 2, then `path` as field 3.
std::string ColumnMetaDataWithPath(const std::function<void(ThriftCompactWriter&)>& path) {
  std::string bytes;
  ThriftCompactWriter w(&bytes);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);
  w.WriteI32(1);
  w.WriteFieldHeader(CompactType::kList, 2);
  w.WriteListHeader(CompactType::kI32, 0);
  w.WriteFieldHeader(CompactType::kList, 3);
  path(w);
  w.WriteFieldHeader(CompactType::kI32, 4);
  w.WriteI32(1);
  for (int16_t id : {5, 6, 7, 9}) {
    w.WriteFieldHeader(CompactType::kI64, id);
    w.WriteI64(id);
  }
  w.EndStruct();
  return bytes;
}

TEST(MetadataCodecTest, PathInSchemaOfNonStringsIsCorruptNamingTheField) {
  const std::string bytes = ColumnMetaDataWithPath([](ThriftCompactWriter& w) {
    w.WriteListHeader(CompactType::kI32, 1);
    w.WriteI32(5);
  });
  auto r = DecodeColumnMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(),
            "ColumnMetaData: field 'path_in_schema' (3): wire type i32 where binary is expected");
}

TEST(MetadataCodecTest, PathInSchemaPartCutShortIsCorruptNamingTheElement) {
  std::string bytes = ColumnMetaDataWithPath([](ThriftCompactWriter& w) {
    w.WriteListHeader(CompactType::kBinary, 2);
    w.WriteBinary("a");
    w.WriteVarint32(1000);  // a length past the end of the input
  });
  auto r = DecodeColumnMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("ColumnMetaData: field 'path_in_schema' (3): element 1: thrift: binary length"),
            std::string::npos)
      << r.status().message();
}

TEST(MetadataCodecTest, ListsLongerThanTheirInlineCapacityRoundTrip) {
  ColumnChunk chunk;
  ColumnMetaData& m = chunk.meta_data.emplace();
  for (int e = 0; e < 9; ++e) m.encodings.push_back(static_cast<Encoding>(e));
  m.path_in_schema = {"a", std::string(300, 'p'), "c", "d"};
  m.encoding_stats.emplace();
  for (int i = 0; i < 7; ++i) m.encoding_stats->push_back({PageType::DATA_PAGE, Encoding::PLAIN, i});
  m.size_statistics.emplace().definition_level_histogram = LevelHistogram{1, 2, 3, 4, 5};
  FileMetaData md;
  SchemaElement root;
  root.name = "schema";
  md.schema.push_back(root);
  RowGroup rg;
  rg.columns.push_back(chunk);
  md.row_groups.push_back(rg);
  auto r = DecodeFileMetaData(AsBytes(Encode(md, EncodeFileMetaData)));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ColumnMetaData& got = *r->row_groups.at(0).columns.at(0).meta_data;
  EXPECT_EQ(got.encodings.size(), 9u);
  EXPECT_EQ(got.encodings[8], static_cast<Encoding>(8));
  EXPECT_EQ(got.path_in_schema[1], std::string(300, 'p'));
  EXPECT_EQ(got.path_in_schema.back(), "d");
  ASSERT_TRUE(got.encoding_stats.has_value());
  EXPECT_EQ(got.encoding_stats->back().count, 6);
  EXPECT_EQ(*got.size_statistics->definition_level_histogram, (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(*r, md);
}

TEST(MetadataCodecTest, NegativeEnumValueIsCorrupt) {
  PageHeader h{static_cast<PageType>(-1), 1, 1, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  auto r = DecodePageHeader(AsBytes(Encode(h, EncodePageHeader)));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(), "PageHeader: field 'type' (1): negative enum value -1");
}

TEST(MetadataCodecTest, NegativeRowCountIsCorrupt) {
  const std::string bytes = FileMetaDataBytes([](ThriftCompactWriter& w) {
    w.WriteFieldHeader(CompactType::kI64, 3);
    w.WriteI64(-3);
  });
  auto r = DecodeFileMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(), "FileMetaData: field 'num_rows' (3) is -3");
}

TEST(MetadataCodecTest, NegativePageSizeIsCorrupt) {
  const PageHeader h{PageType::DATA_PAGE, 10, -5, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  auto r = DecodePageHeader(AsBytes(Encode(h, EncodePageHeader)));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(), "PageHeader: field 'compressed_page_size' (3) is -5");
}

TEST(MetadataCodecTest, NegativeDictionaryValueCountIsCorruptWithPath) {
  const PageHeader h{PageType::DICTIONARY_PAGE,
                     10,
                     5,
                     std::nullopt,
                     std::nullopt,
                     std::nullopt,
                     DictionaryPageHeader{-1, Encoding::PLAIN, std::nullopt},
                     std::nullopt};
  auto r = DecodePageHeader(AsBytes(Encode(h, EncodePageHeader)));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(),
            "PageHeader: field 'dictionary_page_header' (7): DictionaryPageHeader: field 'num_values' (1) is -1");
}

TEST(MetadataCodecTest, SkipsUnknownFieldsIncludingTheExtensionId) {
  const std::string bytes = FileMetaDataBytes(
      [](ThriftCompactWriter& w) {
        w.WriteFieldHeader(CompactType::kI64, 3);
        w.WriteI64(8);
      },
      [](ThriftCompactWriter& w) {
        w.WriteFieldHeader(CompactType::kStruct, 40);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::kMap, 1);
        w.WriteMapHeader(CompactType::kBinary, CompactType::kList, 1);
        w.WriteBinary("k");
        w.WriteListHeader(CompactType::kUuid, 1);
        w.WriteUuid({});
        w.EndStruct();
        w.WriteFieldHeader(CompactType::kBinary, 32767);
        w.WriteBinary("extension bytes");
      });
  auto r = DecodeFileMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->num_rows, 8);
  ASSERT_EQ(r->schema.size(), 1u);
  EXPECT_EQ(r->schema[0].name, "schema");
}

TEST(MetadataCodecTest, UnionWithTwoMembersIsCorrupt) {
  const std::string bytes = FileMetaDataBytes(
      [](ThriftCompactWriter& w) {
        w.WriteFieldHeader(CompactType::kI64, 3);
        w.WriteI64(0);
      },
      [](ThriftCompactWriter& w) {
        w.WriteFieldHeader(CompactType::kList, 7);
        w.WriteListHeader(CompactType::kStruct, 1);
        w.BeginStruct();
        w.WriteFieldHeader(CompactType::kStruct, 1);
        w.BeginStruct();
        w.EndStruct();
        w.WriteFieldHeader(CompactType::kStruct, 2);
        w.BeginStruct();
        w.EndStruct();
        w.EndStruct();
      });
  auto r = DecodeFileMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(),
            "FileMetaData: field 'column_orders' (7): element 0: ColumnOrder: union has more than one member "
            "(fields 1 and 2)");
}

TEST(MetadataCodecTest, KeepsUnknownEnumValuesForTheConsumerToReject) {
  ColumnMetaData m;
  m.encodings = {static_cast<Encoding>(77)};
  m.codec = static_cast<CompressionCodec>(42);
  m.path_in_schema = {"x"};
  auto r = DecodeColumnMetaData(AsBytes(Encode(m, EncodeColumnMetaData)));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(EncodingName(r->encodings[0]), "UNKNOWN(77)");
  EXPECT_EQ(CompressionCodecName(r->codec), "UNKNOWN(42)");
  auto codec = ToCodec(r->codec);
  ASSERT_TRUE(codec.status().IsUnsupported());
  EXPECT_EQ(codec.status().message(), "compression codec 42 is not supported");
  EXPECT_EQ(*ToCodec(CompressionCodec::LZ4), compression::Codec::kLz4Legacy);
  EXPECT_EQ(ToCompressionCodec(compression::Codec::kLz4Raw), CompressionCodec::LZ4_RAW);
}

TEST(MetadataCodecTest, NamesEnumValues) {
  EXPECT_EQ(TypeName(Type::FIXED_LEN_BYTE_ARRAY), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::TIMESTAMP_MICROS), "TIMESTAMP_MICROS");
  EXPECT_EQ(EncodingName(Encoding::RLE_DICTIONARY), "RLE_DICTIONARY");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(1)), "UNKNOWN(1)");  // GROUP_VAR_INT, never used
  EXPECT_EQ(PageTypeName(PageType::DATA_PAGE_V2), "DATA_PAGE_V2");
  EXPECT_EQ(BoundaryOrderName(BoundaryOrder::DESCENDING), "DESCENDING");
  EXPECT_EQ(FieldRepetitionTypeName(FieldRepetitionType::VECTOR), "VECTOR");
  EXPECT_EQ(TimeUnitName(TimeUnit::NANOS), "NANOS");
  EXPECT_EQ(ColumnOrderName(ColumnOrder::IEEE_754_TOTAL_ORDER), "IEEE_754_TOTAL_ORDER");
  EXPECT_EQ(LogicalTypeName(NullType{}), "UNKNOWN");
  EXPECT_EQ(LogicalTypeName(TimestampType{}), "TIMESTAMP");
}

TEST(MetadataCodecTest, EveryTruncationOfAFooterIsCorrupt) {
  const std::string bytes = Encode(FullFileMetaData(), EncodeFileMetaData);
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto r = DecodeFileMetaData(AsBytes(bytes).first(n));
    ASSERT_TRUE(r.status().IsCorrupt()) << "prefix of " << n << " bytes: " << r.status().ToString();
  }
}

TEST(MetadataCodecTest, MutatedFootersDecodeOrFailCleanly) {
  const std::string original = Encode(FullFileMetaData(), EncodeFileMetaData);
  std::mt19937_64 rng(7);
  int failures = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bytes = original;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    auto r = DecodeFileMetaData(AsBytes(bytes));
    if (!r.ok()) {
      ++failures;
      EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
    }
  }
  EXPECT_GT(failures, 0);
}

}  // namespace
}  // namespace floe::parquet
