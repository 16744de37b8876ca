// The footer's fast ColumnChunk reader against the generic field walker:
// on every input it takes, it must decode what the generic reader decodes
// and stop where it stops; on every other input it must leave the reader
// untouched. Random chunks of every shape the fast path takes, then random
// mutations of them.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>

#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/metadata_reader_internal.h"
#include "formats/parquet_fixtures.h"

namespace floe::parquet {
namespace {

using metadata_internal::ReadColumnChunkFast;
using metadata_internal::ReadColumnChunkGeneric;
using testing::AsBytes;

int64_t RandomInt(std::mt19937_64& rng, bool non_negative) {
  const int bits = static_cast<int>(rng() % 64);
  int64_t v = static_cast<int64_t>(rng() >> (63 - bits) >> 1);
  if (!non_negative && rng() % 4 == 0) v = -v - 1;
  return v;
}

int32_t RandomInt32(std::mt19937_64& rng) { return static_cast<int32_t>(RandomInt(rng, true) & INT32_MAX); }

std::string RandomBytes(std::mt19937_64& rng) {
  std::string s(rng() % 40, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

bool Coin(std::mt19937_64& rng) { return rng() % 2 == 0; }

Statistics RandomStatistics(std::mt19937_64& rng) {
  Statistics s;
  if (Coin(rng)) s.max = RandomBytes(rng);
  if (Coin(rng)) s.min = RandomBytes(rng);
  if (Coin(rng)) s.null_count = RandomInt(rng, false);
  if (Coin(rng)) s.distinct_count = RandomInt(rng, false);
  if (Coin(rng)) s.max_value = RandomBytes(rng);
  if (Coin(rng)) s.min_value = RandomBytes(rng);
  if (Coin(rng)) s.is_max_value_exact = Coin(rng);
  if (Coin(rng)) s.is_min_value_exact = Coin(rng);
  if (Coin(rng)) s.nan_count = RandomInt(rng, false);
  return s;
}

LevelHistogram RandomHistogram(std::mt19937_64& rng) {
  LevelHistogram h;
  for (size_t i = rng() % 5; i > 0; --i) h.push_back(RandomInt(rng, false));
  return h;
}

// A chunk with any of the fields the fast path takes.
ColumnChunk RandomChunk(std::mt19937_64& rng) {
  ColumnChunk c;
  if (rng() % 8 == 0) c.file_path = RandomBytes(rng);
  c.file_offset = RandomInt(rng, false);
  if (rng() % 8 != 0) {
    ColumnMetaData& m = c.meta_data.emplace();
    m.type = static_cast<Type>(rng() % 8);
    for (size_t i = rng() % 6; i > 0; --i) m.encodings.push_back(static_cast<Encoding>(rng() % 10));
    for (size_t i = rng() % 4; i > 0; --i) m.path_in_schema.push_back(RandomBytes(rng));
    m.codec = static_cast<CompressionCodec>(rng() % 8);
    m.num_values = RandomInt(rng, true);
    m.total_uncompressed_size = RandomInt(rng, true);
    m.total_compressed_size = RandomInt(rng, true);
    m.data_page_offset = RandomInt(rng, false);
    if (Coin(rng)) m.index_page_offset = RandomInt(rng, false);
    if (Coin(rng)) m.dictionary_page_offset = RandomInt(rng, false);
    if (Coin(rng)) m.statistics = RandomStatistics(rng);
    if (Coin(rng)) {
      m.encoding_stats.emplace();
      for (size_t i = rng() % 5; i > 0; --i) {
        m.encoding_stats->push_back(
            {static_cast<PageType>(rng() % 4), static_cast<Encoding>(rng() % 10), RandomInt32(rng)});
      }
    }
    if (Coin(rng)) m.bloom_filter_offset = RandomInt(rng, false);
    if (Coin(rng)) m.bloom_filter_length = RandomInt32(rng);
    if (Coin(rng)) {
      SizeStatistics& s = m.size_statistics.emplace();
      if (Coin(rng)) s.unencoded_byte_array_data_bytes = RandomInt(rng, false);
      if (Coin(rng)) s.repetition_level_histogram = RandomHistogram(rng);
      if (Coin(rng)) s.definition_level_histogram = RandomHistogram(rng);
    }
  }
  if (Coin(rng)) c.offset_index_offset = RandomInt(rng, false);
  if (Coin(rng)) c.offset_index_length = RandomInt32(rng);
  if (Coin(rng)) c.column_index_offset = RandomInt(rng, false);
  if (Coin(rng)) c.column_index_length = RandomInt32(rng);
  return c;
}

// A ColumnChunk's compact bytes, its ColumnMetaData by the public encoder.
std::string EncodeChunk(const ColumnChunk& c) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  if (c.file_path) {
    w.WriteFieldHeader(CompactType::kBinary, 1);
    w.WriteBinary(*c.file_path);
  }
  w.WriteFieldHeader(CompactType::kI64, 2);
  w.WriteI64(c.file_offset);
  if (c.meta_data) {
    std::string meta;
    EXPECT_TRUE(EncodeColumnMetaData(*c.meta_data, &meta).ok());
    w.WriteFieldHeader(CompactType::kStruct, 3);
    w.WriteRaw(meta);
  }
  const auto i64 = [&](int16_t id, const std::optional<int64_t>& v) {
    if (v) {
      w.WriteFieldHeader(CompactType::kI64, id);
      w.WriteI64(*v);
    }
  };
  const auto i32 = [&](int16_t id, const std::optional<int32_t>& v) {
    if (v) {
      w.WriteFieldHeader(CompactType::kI32, id);
      w.WriteI32(*v);
    }
  };
  i64(4, c.offset_index_offset);
  i32(5, c.offset_index_length);
  i64(6, c.column_index_offset);
  i32(7, c.column_index_length);
  if (c.crypto_metadata) {  // ENCRYPTION_WITH_FOOTER_KEY, an empty struct
    EXPECT_TRUE(std::holds_alternative<EncryptionWithFooterKey>(*c.crypto_metadata));
    w.WriteFieldHeader(CompactType::kStruct, 8);
    w.BeginStruct();
    w.WriteFieldHeader(CompactType::kStruct, 1);
    w.BeginStruct();
    w.EndStruct();
    w.EndStruct();
  }
  w.EndStruct();
  EXPECT_TRUE(w.status().ok());
  return out;
}

// Runs both readers on `bytes`; checks they agree wherever the fast one
// reads. Returns whether the fast one read.
bool ExpectSameAsGeneric(const std::string& bytes, int64_t max_elements = ThriftCompactReader::kDefaultMaxElements) {
  ThriftCompactReader fast_reader(AsBytes(bytes), max_elements);
  ColumnChunk fast;
  if (!ReadColumnChunkFast(fast_reader, &fast)) {
    EXPECT_EQ(fast_reader.position(), 0u);
    EXPECT_TRUE(fast_reader.ok());
    return false;
  }
  ThriftCompactReader generic_reader(AsBytes(bytes), max_elements);
  ColumnChunk generic;
  EXPECT_TRUE(ReadColumnChunkGeneric(generic_reader, &generic)) << generic_reader.status().ToString();
  EXPECT_EQ(fast, generic);
  EXPECT_EQ(fast_reader.position(), generic_reader.position());
  return true;
}

// What follows a chunk in a footer: another chunk (and, for a chunk of a
// few bytes, more of the footer), so that the fast path has the bytes ahead
// it wants.
std::string WithNextChunk(const std::string& chunk) { return chunk + chunk + std::string(16, '\0'); }

TEST(MetadataReaderColumnChunkTest, FastPathReadsEveryCommonShapeAsTheGenericReader) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const ColumnChunk chunk = RandomChunk(rng);
    const std::string bytes = WithNextChunk(EncodeChunk(chunk));
    ASSERT_TRUE(ExpectSameAsGeneric(bytes)) << "chunk " << i;
    ThriftCompactReader r(AsBytes(bytes));
    ColumnChunk decoded;
    ASSERT_TRUE(ReadColumnChunkFast(r, &decoded));
    EXPECT_EQ(decoded, chunk) << "chunk " << i;
  }
}

TEST(MetadataReaderColumnChunkTest, MutatedChunksReadAsTheGenericReaderReadsThem) {
  std::mt19937_64 rng(12);
  int fast = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string chunk = EncodeChunk(RandomChunk(rng));
    std::string bytes = WithNextChunk(chunk);
    const size_t chunk_size = chunk.size();
    for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) bytes[rng() % chunk_size] = static_cast<char>(rng());
    fast += ExpectSameAsGeneric(bytes);
    if (::testing::Test::HasFailure()) FAIL() << "mutation " << i;
  }
  EXPECT_GT(fast, 0);
}

TEST(MetadataReaderColumnChunkTest, LeavesRareFieldsAndTheInputsEndToTheGenericReader) {
  ColumnChunk chunk;
  chunk.file_offset = 4;
  ColumnMetaData& m = chunk.meta_data.emplace();
  m.path_in_schema = {"a"};
  const std::string plain = EncodeChunk(chunk);
  EXPECT_TRUE(ExpectSameAsGeneric(WithNextChunk(plain)));
  // The chunk alone: too few bytes after its last header.
  EXPECT_FALSE(ExpectSameAsGeneric(plain));
  m.key_value_metadata = std::vector<KeyValue>{{"k", "v"}};
  EXPECT_FALSE(ExpectSameAsGeneric(WithNextChunk(EncodeChunk(chunk))));
  m.key_value_metadata.reset();
  chunk.crypto_metadata = EncryptionWithFooterKey{};
  EXPECT_FALSE(ExpectSameAsGeneric(WithNextChunk(EncodeChunk(chunk))));
}

// ReadVarint32 refuses an i32 varint longer than 5 bytes even when its value
// fits (an overlong encoding); the fast path must not accept one either.
TEST(MetadataReaderColumnChunkTest, OverlongI32VarintIsLeftToTheGenericReader) {
  const auto chunk_with_index_length = [](std::string_view length_varint) {
    std::string out;
    ThriftCompactWriter w(&out);
    w.BeginStruct();
    w.WriteFieldHeader(CompactType::kI64, 2);
    w.WriteI64(4);
    w.WriteFieldHeader(CompactType::kI32, 5);
    w.WriteRaw(length_varint);
    w.EndStruct();
    return out;
  };
  // zigzag(1) = 2 in 5 bytes (allowed) and in 6 (overlong).
  EXPECT_TRUE(ExpectSameAsGeneric(WithNextChunk(chunk_with_index_length(std::string("\x82\x80\x80\x80\x00", 5)))));
  const std::string overlong = WithNextChunk(chunk_with_index_length(std::string("\x82\x80\x80\x80\x80\x00", 6)));
  EXPECT_FALSE(ExpectSameAsGeneric(overlong));
  ThriftCompactReader r(AsBytes(overlong));
  ColumnChunk decoded;
  EXPECT_FALSE(ReadColumnChunkGeneric(r, &decoded));
  EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
}

TEST(MetadataReaderColumnChunkTest, ElementBudgetHoldsOnTheFastPath) {
  ColumnChunk chunk;
  ColumnMetaData& m = chunk.meta_data.emplace();
  m.encodings = {Encoding::PLAIN, Encoding::RLE, Encoding::RLE_DICTIONARY};
  m.path_in_schema = {"a"};
  const std::string bytes = WithNextChunk(EncodeChunk(chunk));
  EXPECT_TRUE(ExpectSameAsGeneric(bytes, 4));
  EXPECT_FALSE(ExpectSameAsGeneric(bytes, 3));
  ThriftCompactReader r(AsBytes(bytes), 3);
  ColumnChunk decoded;
  EXPECT_FALSE(ReadColumnChunkGeneric(r, &decoded));
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("exceeds the element budget"), std::string::npos) << r.status().ToString();
}

TEST(MetadataReaderColumnChunkTest, ErrorsInAFooterOfManyChunksNameTheirPath) {
  FileMetaData md;
  SchemaElement root;
  root.name = "schema";
  md.schema.push_back(root);
  RowGroup& rg = md.row_groups.emplace_back();
  for (int c = 0; c < 10; ++c) {
    ColumnChunk& chunk = rg.columns.emplace_back();
    ColumnMetaData& m = chunk.meta_data.emplace();
    m.path_in_schema = {"c" + std::to_string(c)};
    m.num_values = c == 4 ? -7 : 1000;
  }
  std::string bytes;
  ASSERT_TRUE(EncodeFileMetaData(md, &bytes).ok());
  auto r = DecodeFileMetaData(AsBytes(bytes));
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_EQ(r.status().message(),
            "FileMetaData: field 'row_groups' (4): element 0: RowGroup: field 'columns' (1): element 4: "
            "ColumnChunk: field 'meta_data' (3): ColumnMetaData: field 'num_values' (5) is -7");
}

}  // namespace
}  // namespace floe::parquet
