// The metadata decoders and codecs against files other engines wrote:
// apache/parquet-testing, read in place.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "formats/parquet_fixtures.h"

namespace floe::parquet {
namespace metadata_fixtures_test {  // the unity build merges anonymous namespaces
namespace {

using testing::AsBytes;
using testing::FilesEndingWith;
using testing::FindFooter;
using testing::ParquetTestingDir;
using testing::ReadFileBytes;
using testing::ShortName;

std::vector<std::string> PlainParquetFiles() {
  std::vector<std::string> files;
  for (const char* dir : {"/data", "/shredded_variant", "/variant"}) {
    for (std::string& f : FilesEndingWith(ParquetTestingDir() + dir, ".parquet")) files.push_back(std::move(f));
  }
  return files;
}

Result<FileMetaData> DecodeFooterOf(const std::string& file) {
  const testing::Footer footer = FindFooter(file);
  if (!footer.ok) return Status::Corrupt("no footer");
  if (footer.magic != "PAR1") return Status::Unsupported("encrypted footer");
  return DecodeFileMetaData(footer.bytes);
}

size_t LeafCount(const FileMetaData& md) {
  size_t leaves = 0;
  for (const SchemaElement& e : md.schema) leaves += e.num_children.has_value() ? 0 : 1;
  return leaves;
}

// Walks the depth-first schema from element `i`; false when the children
// counts do not describe a tree of exactly `md.schema.size()` nodes.
bool SchemaIsATree(const FileMetaData& md, size_t* i) {
  if (*i >= md.schema.size()) return false;
  const int32_t children = md.schema[(*i)++].num_children.value_or(0);
  for (int32_t c = 0; c < children; ++c) {
    if (!SchemaIsATree(md, i)) return false;
  }
  return true;
}

TEST(MetadataFixturesTest, DecodesTheFooterOfEveryParquetFile) {
  const std::vector<std::string> files = PlainParquetFiles();
  ASSERT_GE(files.size(), 200u);
  for (const std::string& path : files) {
    SCOPED_TRACE(ShortName(path));
    const std::string file = ReadFileBytes(path);
    const testing::Footer footer = FindFooter(file);
    ASSERT_TRUE(footer.ok);
    ASSERT_EQ(footer.magic, "PAR1");
    size_t consumed = 0;
    auto md = DecodeFileMetaData(footer.bytes, &consumed);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    EXPECT_EQ(consumed, footer.bytes.size());
    int64_t rows = 0;
    for (const RowGroup& rg : md->row_groups) {
      rows += rg.num_rows;
      EXPECT_EQ(rg.columns.size(), LeafCount(*md));
      for (const ColumnChunk& c : rg.columns) EXPECT_TRUE(c.meta_data.has_value());
    }
    // parquet-rs 0.3.0 wrote FileMetaData.num_rows 0 above a row group of 6.
    if (ShortName(path) != "data/repeated_no_annotation.parquet") {
      EXPECT_EQ(md->num_rows, rows);
    }
    size_t nodes = 0;
    EXPECT_TRUE(SchemaIsATree(*md, &nodes) && nodes == md->schema.size());
    // What floe re-encodes decodes to the same metadata.
    std::string again;
    ASSERT_TRUE(EncodeFileMetaData(*md, &again).ok());
    auto md2 = DecodeFileMetaData(AsBytes(again));
    ASSERT_TRUE(md2.ok()) << md2.status().ToString();
    EXPECT_TRUE(*md2 == *md);
  }
}

TEST(MetadataFixturesTest, AlltypesPlainHasKnownMetadata) {
  auto md = DecodeFooterOf(ReadFileBytes(ParquetTestingDir() + "/data/alltypes_plain.parquet"));
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  EXPECT_EQ(md->num_rows, 8);
  EXPECT_EQ(md->version, 1);
  ASSERT_EQ(md->schema.size(), 12u);
  EXPECT_EQ(md->schema[0].num_children, 11);
  EXPECT_EQ(md->schema[1].name, "id");
  EXPECT_EQ(md->schema[1].type, Type::INT32);
  EXPECT_EQ(md->schema[1].repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(md->schema[11].name, "timestamp_col");
  EXPECT_EQ(md->schema[11].type, Type::INT96);
  ASSERT_TRUE(md->created_by.has_value());
  EXPECT_EQ(md->created_by->rfind("impala version", 0), 0u) << *md->created_by;
  ASSERT_EQ(md->row_groups.size(), 1u);
  ASSERT_EQ(md->row_groups[0].columns.size(), 11u);
  const ColumnMetaData& id = *md->row_groups[0].columns[0].meta_data;
  EXPECT_EQ(id.path_in_schema, std::vector<std::string>{"id"});
  EXPECT_EQ(id.codec, CompressionCodec::UNCOMPRESSED);
  EXPECT_EQ(id.num_values, 8);
}

TEST(MetadataFixturesTest, ReadsLogicalTypesFromOtherWriters) {
  auto geo = DecodeFooterOf(ReadFileBytes(ParquetTestingDir() + "/data/geospatial/crs-geography.parquet"));
  ASSERT_TRUE(geo.ok()) << geo.status().ToString();
  bool found_geography = false;
  for (const SchemaElement& e : geo->schema) {
    if (e.logicalType && std::holds_alternative<GeographyType>(*e.logicalType)) found_geography = true;
  }
  EXPECT_TRUE(found_geography);

  auto f16 = DecodeFooterOf(ReadFileBytes(ParquetTestingDir() + "/data/float16_nonzeros_and_nans.parquet"));
  ASSERT_TRUE(f16.ok()) << f16.status().ToString();
  ASSERT_GE(f16->schema.size(), 2u);
  ASSERT_TRUE(f16->schema[1].logicalType.has_value());
  EXPECT_TRUE(std::holds_alternative<Float16Type>(*f16->schema[1].logicalType));
  EXPECT_EQ(f16->schema[1].type_length, 2);

  // A writer from the future used a LogicalType member floe does not know:
  // it is kept, not an error, and readers fall back to converted_type.
  auto unknown = DecodeFooterOf(ReadFileBytes(ParquetTestingDir() + "/data/unknown-logical-type.parquet"));
  ASSERT_TRUE(unknown.ok()) << unknown.status().ToString();
  int unknown_members = 0;
  for (const SchemaElement& e : unknown->schema) {
    if (e.logicalType && std::holds_alternative<UnknownUnionMember>(*e.logicalType)) ++unknown_members;
  }
  EXPECT_EQ(unknown_members, 1);
}

TEST(MetadataFixturesTest, DecodesCryptoMetadataOfEncryptedFiles) {
  const std::vector<std::string> files = FilesEndingWith(ParquetTestingDir() + "/data", ".parquet.encrypted");
  ASSERT_GE(files.size(), 13u);
  int encrypted_footers = 0;
  int plaintext_footers = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(ShortName(path));
    const std::string file = ReadFileBytes(path);
    const testing::Footer footer = FindFooter(file);
    ASSERT_TRUE(footer.ok);
    const bool ctr = path.find("_ctr") != std::string::npos;
    if (footer.magic == "PARE") {
      // The footer is FileCryptoMetaData, then the encrypted FileMetaData,
      // which only the keys open: floe does not decrypt, and opening such a
      // file is Unsupported (formats.parquet_conformance checks the error).
      size_t consumed = 0;
      auto crypto = DecodeFileCryptoMetaData(footer.bytes, &consumed);
      ASSERT_TRUE(crypto.ok()) << crypto.status().ToString();
      EXPECT_LT(consumed, footer.bytes.size());
      EXPECT_EQ(ctr, std::holds_alternative<AesGcmCtrV1>(crypto->encryption_algorithm));
      EXPECT_EQ(!ctr, std::holds_alternative<AesGcmV1>(crypto->encryption_algorithm));
      ++encrypted_footers;
    } else {
      // Plaintext footer: FileMetaData, then the 28-byte signature (12-byte
      // nonce, 16-byte GCM tag).
      size_t consumed = 0;
      auto md = DecodeFileMetaData(footer.bytes, &consumed);
      ASSERT_TRUE(md.ok()) << md.status().ToString();
      EXPECT_EQ(consumed + 28, footer.bytes.size());
      ASSERT_TRUE(md->encryption_algorithm.has_value());
      EXPECT_TRUE(std::holds_alternative<AesGcmV1>(*md->encryption_algorithm));
      bool any_encrypted_column = false;
      for (const ColumnChunk& c : md->row_groups.at(0).columns) any_encrypted_column |= c.crypto_metadata.has_value();
      EXPECT_TRUE(any_encrypted_column);
      ++plaintext_footers;
    }
  }
  EXPECT_EQ(plaintext_footers, 2);
  EXPECT_EQ(encrypted_footers, static_cast<int>(files.size()) - 2);
}

TEST(MetadataFixturesTest, BadDataFootersDecodeOrFailCleanly) {
  const std::vector<std::string> files = FilesEndingWith(ParquetTestingDir() + "/bad_data", ".parquet");
  ASSERT_GE(files.size(), 8u);
  for (const std::string& path : files) {
    SCOPED_TRACE(ShortName(path));
    auto md = DecodeFooterOf(ReadFileBytes(path));
    if (!md.ok()) {
      EXPECT_TRUE(md.status().IsCorrupt() || md.status().IsUnsupported()) << md.status().ToString();
    }
  }
  // The fixture's note: "a schema Thrift value has been corrupted" (the
  // physical type of a column is -7).
  auto corrupted = DecodeFooterOf(ReadFileBytes(ParquetTestingDir() + "/bad_data/PARQUET-1481.parquet"));
  ASSERT_TRUE(corrupted.status().IsCorrupt()) << corrupted.status().ToString();
  EXPECT_EQ(corrupted.status().message(),
            "FileMetaData: field 'schema' (2): element 1: SchemaElement: field 'type' (1): negative enum value -7");
}

struct Page {
  PageHeader header;
  std::span<const uint8_t> body;
};

// The pages of one column chunk, found by walking page headers from its
// first page; Corrupt when a header or a page does not fit the chunk.
Result<std::vector<Page>> WalkPages(const std::string& file, const ColumnMetaData& m) {
  // The chunk starts at its dictionary page when there is one. Writers mark
  // "none" with an absent or zero offset, and an empty chunk may carry a zero
  // data_page_offset (column_chunk_key_value_metadata.parquet).
  int64_t start = m.data_page_offset;
  if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && (*m.dictionary_page_offset < start || start < 4)) {
    start = *m.dictionary_page_offset;
  }
  const int64_t end = start + m.total_compressed_size;
  if (start < 0 || end > static_cast<int64_t>(file.size())) return Status::Corrupt("column chunk outside the file");
  std::vector<Page> pages;
  int64_t pos = start;
  while (pos < end) {
    size_t consumed = 0;
    FLOE_ASSIGN_OR_RETURN(PageHeader h, DecodePageHeader(AsBytes(file).subspan(pos, end - pos), &consumed));
    pos += static_cast<int64_t>(consumed);
    if (h.compressed_page_size > end - pos) return Status::Corrupt("page runs past its column chunk");
    pages.push_back({h, AsBytes(file).subspan(pos, h.compressed_page_size)});
    pos += h.compressed_page_size;
  }
  return pages;
}

// Pages above this are refused by the decompression budget (the 1 GiB pages
// of large_string_map.brotli.parquet) rather than decompressed under ASan.
constexpr int64_t kPageBudget = int64_t{1} << 26;

// Decompresses a page the way a page reader does: a v2 page keeps its levels
// uncompressed in front of the (maybe) compressed values.
Status DecompressPage(compression::Codec codec, const Page& page) {
  const PageHeader& h = page.header;
  int64_t levels = 0;
  if (h.type == PageType::DATA_PAGE_V2) {
    if (!h.data_page_header_v2) return Status::Corrupt("DATA_PAGE_V2 without its header");
    const DataPageHeaderV2& v2 = *h.data_page_header_v2;
    levels = int64_t{v2.definition_levels_byte_length} + v2.repetition_levels_byte_length;
    if (levels > h.compressed_page_size || levels > h.uncompressed_page_size) return Status::Corrupt("levels too long");
    if (!v2.is_compressed.value_or(true)) codec = compression::Codec::kUncompressed;
  }
  FLOE_ASSIGN_OR_RETURN(Buffer values, compression::DecompressToBuffer(codec, page.body.subspan(levels),
                                                                       h.uncompressed_page_size - levels, kPageBudget));
  return Status::OK();
}

TEST(MetadataFixturesTest, DecodesAndDecompressesEveryPageOfEveryFixture) {
  int pages = 0;
  int over_budget = 0;
  for (const std::string& path : FilesEndingWith(ParquetTestingDir() + "/data", ".parquet")) {
    SCOPED_TRACE(ShortName(path));
    const std::string file = ReadFileBytes(path);
    auto md = DecodeFooterOf(file);
    ASSERT_TRUE(md.ok()) << md.status().ToString();
    // Its name says it: a column chunk's pages overrun total_compressed_size.
    const bool malformed = ShortName(path) == "data/nation.dict-malformed.parquet";
    bool walk_failed = false;
    for (const RowGroup& rg : md->row_groups) {
      for (const ColumnChunk& chunk : rg.columns) {
        const ColumnMetaData& m = *chunk.meta_data;
        SCOPED_TRACE(m.path_in_schema.empty() ? "" : m.path_in_schema.back());
        auto walked = WalkPages(file, m);
        if (malformed && !walked.ok()) {
          EXPECT_TRUE(walked.status().IsCorrupt()) << walked.status().ToString();
          walk_failed = true;
          continue;
        }
        ASSERT_TRUE(walked.ok()) << walked.status().ToString();
        auto codec = ToCodec(m.codec);
        ASSERT_TRUE(codec.ok()) << codec.status().ToString();
        int64_t values = 0;
        for (const Page& page : *walked) {
          if (page.header.data_page_header) values += page.header.data_page_header->num_values;
          if (page.header.data_page_header_v2) values += page.header.data_page_header_v2->num_values;
          const Status s = DecompressPage(*codec, page);
          if (page.header.uncompressed_page_size > kPageBudget) {
            EXPECT_TRUE(s.IsUnsupported()) << s.ToString();
            ++over_budget;
          } else {
            EXPECT_TRUE(s.ok()) << PageTypeName(page.header.type) << ": " << s.ToString();
          }
          ++pages;
        }
        EXPECT_EQ(values, m.num_values);
      }
    }
    EXPECT_EQ(walk_failed, malformed);
  }
  EXPECT_GT(pages, 1000);
  EXPECT_EQ(over_budget, 2);
}

// The data pages of the first row group's column `column`.
std::vector<Page> DataPagesOf(const std::string& file, size_t column) {
  auto md = DecodeFooterOf(file);
  EXPECT_TRUE(md.ok()) << md.status().ToString();
  if (!md.ok()) return {};
  auto pages = WalkPages(file, *md->row_groups.at(0).columns.at(column).meta_data);
  EXPECT_TRUE(pages.ok()) << pages.status().ToString();
  std::vector<Page> data;
  for (const Page& p : pages.value_or(std::vector<Page>{})) {
    if (p.header.type == PageType::DATA_PAGE || p.header.type == PageType::DATA_PAGE_V2) data.push_back(p);
  }
  EXPECT_FALSE(data.empty());
  return data;
}

TEST(MetadataFixturesTest, ReadsEachLz4FramingUnderItsCodec) {
  using compression::Codec;
  // parquet-mr's LZ4: Hadoop framing, also readable as kLz4Hadoop alone.
  for (const char* name : {"hadoop_lz4_compressed.parquet", "hadoop_lz4_compressed_larger.parquet"}) {
    SCOPED_TRACE(name);
    const std::string file = ReadFileBytes(ParquetTestingDir() + "/data/" + name);
    for (const Page& page : DataPagesOf(file, 0)) {
      EXPECT_TRUE(DecompressPage(Codec::kLz4Hadoop, page).ok());
      EXPECT_TRUE(DecompressPage(Codec::kLz4Legacy, page).ok());
    }
  }
  // Old parquet-cpp's LZ4: no Hadoop framing, so only the fallback reads it.
  const std::string non_hadoop = ReadFileBytes(ParquetTestingDir() + "/data/non_hadoop_lz4_compressed.parquet");
  for (const Page& page : DataPagesOf(non_hadoop, 0)) {
    EXPECT_TRUE(DecompressPage(Codec::kLz4Hadoop, page).IsCorrupt());
    EXPECT_TRUE(DecompressPage(Codec::kLz4Legacy, page).ok());
  }
  const std::string raw = ReadFileBytes(ParquetTestingDir() + "/data/lz4_raw_compressed.parquet");
  for (const Page& page : DataPagesOf(raw, 0)) {
    EXPECT_TRUE(DecompressPage(Codec::kLz4Raw, page).ok());
  }
}

TEST(MetadataFixturesTest, ReadsAGzipPageOfSeveralMembers) {
  const std::string file = ReadFileBytes(ParquetTestingDir() + "/data/concatenated_gzip_members.parquet");
  const std::vector<Page> pages = DataPagesOf(file, 0);
  ASSERT_EQ(pages.size(), 1u);
  const std::string_view body(reinterpret_cast<const char*>(pages[0].body.data()), pages[0].body.size());
  int members = 0;
  for (size_t at = body.find("\x1f\x8b\x08"); at != std::string_view::npos; at = body.find("\x1f\x8b\x08", at + 1)) {
    ++members;
  }
  EXPECT_GE(members, 2);
  EXPECT_TRUE(DecompressPage(compression::Codec::kGzip, pages[0]).ok());
}

TEST(MetadataFixturesTest, BadDataPagesDecodeOrFailCleanly) {
  int corrupt = 0;
  for (const std::string& path : FilesEndingWith(ParquetTestingDir() + "/bad_data", ".parquet")) {
    SCOPED_TRACE(ShortName(path));
    const std::string file = ReadFileBytes(path);
    auto md = DecodeFooterOf(file);
    if (!md.ok()) continue;
    for (const RowGroup& rg : md->row_groups) {
      for (const ColumnChunk& chunk : rg.columns) {
        if (!chunk.meta_data) continue;
        auto walked = WalkPages(file, *chunk.meta_data);
        if (!walked.ok()) {
          EXPECT_TRUE(walked.status().IsCorrupt()) << walked.status().ToString();
          ++corrupt;
          continue;
        }
        auto codec = ToCodec(chunk.meta_data->codec);
        if (!codec.ok()) continue;
        for (const Page& page : *walked) {
          const Status s = DecompressPage(*codec, page);
          if (!s.ok()) {
            EXPECT_TRUE(s.IsCorrupt()) << s.ToString();
          }
        }
      }
    }
  }
  // ARROW-RS-GH-6229-DICTHEADER: "the number of values stored in dictionary
  // page header is negative".
  const std::string file = ReadFileBytes(ParquetTestingDir() + "/bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet");
  auto md = DecodeFooterOf(file);
  ASSERT_TRUE(md.ok()) << md.status().ToString();
  bool negative_dictionary = false;
  for (const ColumnChunk& chunk : md->row_groups.at(0).columns) {
    auto walked = WalkPages(file, *chunk.meta_data);
    if (!walked.ok() &&
        walked.status().message().find("DictionaryPageHeader: field 'num_values' (1) is -") != std::string::npos) {
      negative_dictionary = true;
    }
  }
  EXPECT_TRUE(negative_dictionary);
  EXPECT_GE(corrupt, 1);
}

TEST(MetadataFixturesTest, DecodesPageIndexes) {
  int indexed_chunks = 0;
  for (const std::string& path : FilesEndingWith(ParquetTestingDir() + "/data", ".parquet")) {
    SCOPED_TRACE(ShortName(path));
    const std::string file = ReadFileBytes(path);
    auto md = DecodeFooterOf(file);
    ASSERT_TRUE(md.ok());
    for (const RowGroup& rg : md->row_groups) {
      for (const ColumnChunk& chunk : rg.columns) {
        if (!chunk.offset_index_offset || !chunk.offset_index_length) continue;
        auto oi = DecodeOffsetIndex(AsBytes(file).subspan(*chunk.offset_index_offset, *chunk.offset_index_length));
        ASSERT_TRUE(oi.ok()) << oi.status().ToString();
        ASSERT_FALSE(oi->page_locations.empty());
        EXPECT_EQ(oi->page_locations[0].first_row_index, 0);
        for (size_t i = 1; i < oi->page_locations.size(); ++i) {
          EXPECT_LT(oi->page_locations[i - 1].first_row_index, oi->page_locations[i].first_row_index);
          EXPECT_LT(oi->page_locations[i - 1].offset, oi->page_locations[i].offset);
        }
        if (chunk.column_index_offset && chunk.column_index_length) {
          auto ci = DecodeColumnIndex(AsBytes(file).subspan(*chunk.column_index_offset, *chunk.column_index_length));
          ASSERT_TRUE(ci.ok()) << ci.status().ToString();
          EXPECT_EQ(ci->null_pages.size(), oi->page_locations.size());
          EXPECT_EQ(ci->min_values.size(), ci->null_pages.size());
          EXPECT_EQ(ci->max_values.size(), ci->null_pages.size());
          if (ci->null_counts) {
            EXPECT_EQ(ci->null_counts->size(), ci->null_pages.size());
          }
        }
        ++indexed_chunks;
      }
    }
  }
  EXPECT_GT(indexed_chunks, 20);
}

TEST(MetadataFixturesTest, DecodesBloomFilterHeaders) {
  // The fixture README: bloom_filter.bin has the "deprecated ... binary
  // header" that predates the Thrift one; it is refused cleanly.
  auto old = DecodeBloomFilterHeader(AsBytes(ReadFileBytes(ParquetTestingDir() + "/data/bloom_filter.bin")));
  EXPECT_TRUE(old.status().IsCorrupt()) << old.status().ToString();
  {
    const std::string file = ReadFileBytes(ParquetTestingDir() + "/data/bloom_filter.xxhash.bin");
    size_t consumed = 0;
    auto h = DecodeBloomFilterHeader(AsBytes(file), &consumed);
    ASSERT_TRUE(h.ok()) << h.status().ToString();
    EXPECT_EQ(consumed + static_cast<size_t>(h->numBytes), file.size());
    EXPECT_EQ(h->algorithm, BloomFilterAlgorithm::BLOCK);
    EXPECT_EQ(h->hash, BloomFilterHash::XXHASH);
    EXPECT_EQ(h->compression, BloomFilterCompression::UNCOMPRESSED);
  }
  // In a file, the header sits at bloom_filter_offset.
  const std::string file = ReadFileBytes(ParquetTestingDir() + "/data/data_index_bloom_encoding_stats.parquet");
  auto md = DecodeFooterOf(file);
  ASSERT_TRUE(md.ok());
  const ColumnMetaData& m = *md->row_groups.at(0).columns.at(0).meta_data;
  ASSERT_TRUE(m.bloom_filter_offset.has_value());
  size_t consumed = 0;
  auto h = DecodeBloomFilterHeader(AsBytes(file).subspan(*m.bloom_filter_offset), &consumed);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_GT(h->numBytes, 0);
  ASSERT_TRUE(m.encoding_stats.has_value());
  EXPECT_FALSE(m.encoding_stats->empty());
}

}  // namespace
}  // namespace metadata_fixtures_test
}  // namespace floe::parquet
