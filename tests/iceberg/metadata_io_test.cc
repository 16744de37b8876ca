#include "floe/iceberg/metadata_io.h"

#include <gtest/gtest.h>

#include "floe/formats/compression/codec.h"
#include "floe/iceberg/table_metadata_json.h"

namespace floe::iceberg {
namespace {

const std::string kGolden = std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/java-golden/";

TableMetadata Golden() {
  auto local = NewLocalFileIO();
  return ReadTableMetadata(*local, kGolden + "TableMetadataV2Valid.json").value();
}

TEST(MetadataIoTest, ChoosesCompressionByName) {
  EXPECT_EQ(MetadataCompressionForLocation("t/metadata/00001-x.gz.metadata.json"), MetadataCompression::kGzip);
  EXPECT_EQ(MetadataCompressionForLocation("t/metadata/v1.metadata.json.gz"), MetadataCompression::kGzip);
  EXPECT_EQ(MetadataCompressionForLocation("t/metadata/v1.metadata.json"), MetadataCompression::kNone);
}

TEST(MetadataIoTest, WritesAndReadsPlainAndGzipMetadata) {
  auto io = NewMemoryFileIO();
  const TableMetadata m = Golden();
  for (const std::string location : {"mem://t/metadata/v1.metadata.json", "mem://t/metadata/v2.gz.metadata.json",
                                     "mem://t/metadata/v3.metadata.json.gz"}) {
    ASSERT_TRUE(WriteTableMetadata(*io, location, m).ok()) << location;
    auto bytes = io->ReadAll(location).value();
    const bool gz = bytes.size() >= 2 && bytes.data()[0] == 0x1f && bytes.data()[1] == 0x8b;
    EXPECT_EQ(gz, MetadataCompressionForLocation(location) == MetadataCompression::kGzip) << location;
    auto back = ReadTableMetadata(*io, location);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_TRUE(*back == m) << location;
    // Commits publish new versions only once.
    EXPECT_TRUE(WriteTableMetadata(*io, location, m).IsAlreadyExists()) << location;
  }
}

TEST(MetadataIoTest, DetectsGzipByMagicWhateverTheName) {
  auto io = NewMemoryFileIO();
  const std::string json = TableMetadataToJson(Golden()).value();
  auto gz = compression::Compress(compression::Codec::kGzip,
                                  std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(json.data()), json.size()))
                .value();
  ASSERT_TRUE(io->WriteAll("mem://t/misnamed.metadata.json", std::span<const uint8_t>(gz.data(), gz.size())).ok());
  auto m = ReadTableMetadata(*io, "mem://t/misnamed.metadata.json");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->current_snapshot_id, 3055729675574597004);
}

TEST(MetadataIoTest, DamagedGzipIsCorruptNamingTheFile) {
  auto io = NewMemoryFileIO();
  const std::string json = TableMetadataToJson(Golden()).value();
  auto gz = compression::Compress(compression::Codec::kGzip,
                                  std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(json.data()), json.size()))
                .value();
  std::vector<uint8_t> bytes(gz.data(), gz.data() + gz.size());
  bytes[bytes.size() / 2] ^= 0xff;
  ASSERT_TRUE(io->WriteAll("mem://t/bad.gz.metadata.json", bytes).ok());
  auto m = ReadTableMetadata(*io, "mem://t/bad.gz.metadata.json");
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(m.status().IsCorrupt()) << m.status().ToString();
  EXPECT_EQ(m.status().message().rfind("table metadata 'mem://t/bad.gz.metadata.json': ", 0), 0u)
      << m.status().message();
  std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + 5);
  ASSERT_TRUE(io->WriteAll("mem://t/short.gz.metadata.json", truncated).ok());
  auto s = ReadTableMetadata(*io, "mem://t/short.gz.metadata.json");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsCorrupt()) << s.status().ToString();
}

TEST(MetadataIoTest, MissingFileIsNotFound) {
  auto io = NewMemoryFileIO();
  auto m = ReadTableMetadata(*io, "mem://t/none.metadata.json");
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(m.status().IsNotFound()) << m.status().ToString();
}

TEST(MetadataIoTest, InvalidMetadataIsNotWritten) {
  auto io = NewMemoryFileIO();
  TableMetadata m = Golden();
  m.default_spec_id = 5;
  EXPECT_TRUE(WriteTableMetadata(*io, "mem://t/x.metadata.json", m).IsInvalidArgument());
  EXPECT_FALSE(io->Exists("mem://t/x.metadata.json").value());
}

}  // namespace
}  // namespace floe::iceberg
