// Avro object container files: round trips through floe's writer and reader
// for every codec, and bad files.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "floe/formats/avro/block_codec.h"
#include "floe/formats/avro/container_reader.h"
#include "floe/formats/avro/container_writer.h"
#include "formats/avro_test_util.h"

namespace floe::avro {
namespace {

using testing::MustParse;
using testing::ReadBytes;
using testing::WriteFile;

constexpr std::string_view kEntrySchema = R"({"type":"record","name":"entry","fields":[
  {"name":"id","type":"long","field-id":1},
  {"name":"path","type":"string","field-id":2},
  {"name":"score","type":["null","double"],"default":null,"field-id":3},
  {"name":"tags","type":{"type":"map","values":"bytes","key-id":5,"value-id":6},"field-id":4},
  {"name":"flag","type":"boolean","field-id":7}]})";

Datum Row(int64_t i) {
  return Datum::Record({Datum::Long(i * 7919), Datum::String("s3://bucket/data/file-" + std::to_string(i) + ".parquet"),
                        i % 4 == 0 ? Datum::Null() : Datum::Double(static_cast<double>(i) / 3),
                        Datum::Map({"k"}, {Datum::Bytes(std::string(static_cast<size_t>(i % 5), 'x'))}),
                        Datum::Boolean(i % 2 == 1)});
}

std::vector<Datum> Rows(int n) {
  std::vector<Datum> rows;
  for (int i = 0; i < n; ++i) rows.push_back(Row(i));
  return rows;
}

class AvroCodecRoundTrip : public ::testing::TestWithParam<BlockCodec> {};

TEST_P(AvroCodecRoundTrip, WritesAndReadsBackEveryRowWithMetadata) {
  auto io = NewMemoryFileIO();
  auto schema = MustParse(kEntrySchema);
  ContainerWriterOptions options;
  options.codec = GetParam();
  options.block_size_bytes = 4096;  // many blocks
  options.metadata = {{"format-version", "2"}, {"content", "data"}, {"partition-spec", "[]"}};
  const std::vector<Datum> rows = Rows(3000);
  const std::string bytes = WriteFile(*io, "mem://t/f.avro", schema, rows, options);
  ASSERT_FALSE(bytes.empty());
  ASSERT_EQ(bytes.substr(0, 4), std::string("Obj\x01", 4));

  auto reader = ContainerReader::Open(*io, "mem://t/f.avro");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->codec(), GetParam());
  ASSERT_NE((*reader)->FindMetadata("avro.codec"), nullptr);
  EXPECT_EQ(*(*reader)->FindMetadata("avro.codec"), BlockCodecName(GetParam()));
  EXPECT_EQ(*(*reader)->FindMetadata("format-version"), "2");
  EXPECT_EQ(*(*reader)->FindMetadata("content"), "data");
  EXPECT_EQ((*reader)->writer_schema()->ToJson(), schema->ToJson());
  EXPECT_EQ((*reader)->writer_schema()->root().fields()[3].type->IntAttribute("key-id"), 5);
  Datum row;
  int64_t n = 0;
  while (true) {
    Result<bool> more = (*reader)->Next(&row);
    ASSERT_TRUE(more.ok()) << more.status().ToString();
    if (!*more) break;
    ASSERT_EQ(row, rows[static_cast<size_t>(n)]) << n << ": " << row.ToString();
    ++n;
  }
  EXPECT_EQ(n, 3000);
  EXPECT_GT((*reader)->blocks_read(), 10);
  // After the end, Next keeps saying so.
  Result<bool> again = (*reader)->Next(&row);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

INSTANTIATE_TEST_SUITE_P(Codecs, AvroCodecRoundTrip,
                         ::testing::Values(BlockCodec::kNull, BlockCodec::kDeflate, BlockCodec::kSnappy,
                                           BlockCodec::kZstandard),
                         [](const auto& info) { return std::string(BlockCodecName(info.param)); });

TEST(AvroContainerTest, WritesAnExactHeaderForAFixedSyncMarker) {
  auto io = NewMemoryFileIO();
  auto schema = MustParse(R"("long")");
  ContainerWriterOptions options;
  options.codec = BlockCodec::kNull;
  options.sync_marker = std::array<uint8_t, 16>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const std::string bytes = WriteFile(*io, "mem://t/h.avro", schema, {Datum::Long(1), Datum::Long(-1)}, options);
  const std::string sync = "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10";
  const std::string expected = std::string("Obj\x01", 4) + "\x04" + "\x16" "avro.schema" "\x0c" "\"long\"" + "\x14" "avro.codec" "\x08" "null" +
                               std::string(1, '\0') + sync + "\x04\x04\x02\x01" + sync;
  EXPECT_EQ(bytes, expected);
}

TEST(AvroContainerTest, EmptyFileHasNoRows) {
  auto io = NewMemoryFileIO();
  const std::string bytes = WriteFile(*io, "mem://t/e.avro", MustParse(kEntrySchema), {});
  Result<std::vector<Datum>> rows = ReadBytes(bytes);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_TRUE(rows->empty());
}

TEST(AvroContainerTest, WriterRejectsRowsThatDoNotFitAndStaysUsable) {
  auto io = NewMemoryFileIO();
  auto out = io->OpenWrite("mem://t/w.avro");
  ASSERT_TRUE(out.ok());
  auto writer = ContainerWriter::Open(std::move(out).value(), MustParse(kEntrySchema));
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append(Row(1)).ok());
  Status bad = (*writer)->Append(Datum::Record({Datum::String("not a long"), Datum::String("p"), Datum::Null(),
                                                Datum::Map({}, {}), Datum::Boolean(true)}));
  EXPECT_TRUE(bad.IsInvalidArgument());
  EXPECT_NE(bad.message().find("value.id"), std::string::npos) << bad.ToString();
  ASSERT_TRUE((*writer)->Append(Row(2)).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_TRUE((*writer)->Close().IsInvalidArgument());
  auto bytes = io->ReadAll("mem://t/w.avro");
  ASSERT_TRUE(bytes.ok());
  Result<std::vector<Datum>> rows = ReadBytes(std::string(bytes->view()));
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, (std::vector<Datum>{Row(1), Row(2)}));
}

TEST(AvroContainerTest, WriterRejectsBadOptions) {
  auto io = NewMemoryFileIO();
  ContainerWriterOptions reserved;
  reserved.metadata = {{"avro.codec", "null"}};
  EXPECT_TRUE(ContainerWriter::Open(*io->OpenWrite("mem://t/x"), MustParse(kEntrySchema), reserved).status().IsInvalidArgument());
  ContainerWriterOptions level;
  level.codec = BlockCodec::kDeflate;
  level.level = 12;
  EXPECT_TRUE(ContainerWriter::Open(*io->OpenWrite("mem://t/x"), MustParse(kEntrySchema), level).status().IsInvalidArgument());
  ContainerWriterOptions snappy_level;
  snappy_level.codec = BlockCodec::kSnappy;
  snappy_level.level = 1;
  EXPECT_TRUE(
      ContainerWriter::Open(*io->OpenWrite("mem://t/x"), MustParse(kEntrySchema), snappy_level).status().IsInvalidArgument());
  // A writer dropped without Close publishes nothing.
  {
    auto w = ContainerWriter::Open(*io->OpenWrite("mem://t/dropped.avro"), MustParse(kEntrySchema));
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Append(Row(0)).ok());
  }
  EXPECT_FALSE(*io->Exists("mem://t/dropped.avro"));
}

TEST(AvroContainerTest, ReadsThroughAReaderSchemaByFieldId) {
  auto io = NewMemoryFileIO();
  const std::string bytes = WriteFile(*io, "mem://t/r.avro", MustParse(kEntrySchema), Rows(10));
  auto reader_schema = MustParse(R"({"type":"record","name":"x","fields":[
      {"name":"file_path","type":"string","field-id":2},
      {"name":"id","type":"long","field-id":1},
      {"name":"new_col","type":["null","string"],"field-id":99}]})");
  Result<std::vector<Datum>> rows = ReadBytes(bytes, {}, reader_schema);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 10u);
  EXPECT_EQ((*rows)[3], Datum::Record({Datum::String("s3://bucket/data/file-3.parquet"), Datum::Long(3 * 7919), Datum::Null()}));
}

// --- Bad files ---------------------------------------------------------------

std::string SmallFile(BlockCodec codec, int rows = 50, int64_t block = 256) {
  auto io = NewMemoryFileIO();
  ContainerWriterOptions options;
  options.codec = codec;
  options.block_size_bytes = block;
  return WriteFile(*io, "mem://t/s.avro", MustParse(kEntrySchema), Rows(rows), options);
}

TEST(AvroContainerTest, BadMagicIsCorrupt) {
  std::string bytes = SmallFile(BlockCodec::kNull);
  bytes[3] = 2;
  Result<std::vector<Datum>> r = ReadBytes(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("Avro file 'mem://t/f.avro': bad magic"), std::string::npos) << r.status().ToString();
  EXPECT_TRUE(ReadBytes("Ob").status().IsCorrupt());
  EXPECT_TRUE(ReadBytes("").status().IsCorrupt());
}

TEST(AvroContainerTest, EveryTruncationIsCorruptOrEndsAtABlockBoundary) {
  for (BlockCodec codec : {BlockCodec::kNull, BlockCodec::kDeflate, BlockCodec::kSnappy, BlockCodec::kZstandard}) {
    SCOPED_TRACE(BlockCodecName(codec));
    const std::string bytes = SmallFile(codec);
    const std::vector<Datum> all = Rows(50);
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      Result<std::vector<Datum>> r = ReadBytes(bytes.substr(0, cut));
      if (r.ok()) {
        // Only a cut right after a sync marker reads cleanly: a prefix of the rows.
        ASSERT_LT(r->size(), all.size()) << cut;
        for (size_t i = 0; i < r->size(); ++i) ASSERT_EQ((*r)[i], all[i]);
      } else {
        ASSERT_TRUE(r.status().IsCorrupt()) << cut << ": " << r.status().ToString();
      }
    }
  }
}

TEST(AvroContainerTest, SyncMarkerMismatchIsCorrupt) {
  std::string bytes = SmallFile(BlockCodec::kNull, 3, 1 << 20);
  bytes[bytes.size() - 1] ^= 0x55;  // the sync after the only block
  Result<std::vector<Datum>> r = ReadBytes(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("block 0 at offset"), std::string::npos);
  EXPECT_NE(r.status().message().find("sync marker mismatch"), std::string::npos) << r.status().ToString();
}

TEST(AvroContainerTest, SnappyCrcMismatchIsCorrupt) {
  std::string bytes = SmallFile(BlockCodec::kSnappy, 3, 1 << 20);
  bytes[bytes.size() - 17] ^= 0x01;  // last byte of the CRC, before the sync
  Result<std::vector<Datum>> r = ReadBytes(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("CRC mismatch"), std::string::npos) << r.status().ToString();
}

// A file with one hand-made block of the null codec.
std::string FileWithBlock(std::string_view schema_json, int64_t count, const std::string& block, std::string_view codec = "null") {
  const std::string sync(16, '\x7a');
  std::string out("Obj\x01", 4);
  Encoder e(&out);
  e.WriteLong(2);
  e.WriteBytes("avro.schema");
  e.WriteBytes(schema_json);
  e.WriteBytes("avro.codec");
  e.WriteBytes(codec);
  e.WriteLong(0);
  out += sync;
  e.WriteLong(count);
  e.WriteLong(static_cast<int64_t>(block.size()));
  out += block;
  out += sync;
  return out;
}

TEST(AvroContainerTest, HugeLengthsAndCountsAreCorrupt) {
  std::string str_past_end;
  Encoder(&str_past_end).WriteLong(int64_t{1} << 40);
  str_past_end += "abc";
  Result<std::vector<Datum>> r = ReadBytes(FileWithBlock(R"("string")", 1, str_past_end));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("runs past the end"), std::string::npos) << r.status().ToString();

  r = ReadBytes(FileWithBlock(R"("long")", int64_t{1} << 50, "\x02\x04"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("rows cannot fit"), std::string::npos) << r.status().ToString();

  r = ReadBytes(FileWithBlock(R"("long")", 1, "\x02\x04"));  // a trailing byte after the one row
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("after its last row"), std::string::npos) << r.status().ToString();

  r = ReadBytes(FileWithBlock(R"("long")", -1, "\x02"));
  EXPECT_TRUE(r.status().IsCorrupt());

  std::string bad_branch;
  Encoder(&bad_branch).WriteLong(7);
  r = ReadBytes(FileWithBlock(R"(["null","long"])", 1, bad_branch));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("union branch 7"), std::string::npos) << r.status().ToString();
}

TEST(AvroContainerTest, DeepNestingIsCorrupt) {
  std::string schema;
  for (int i = 0; i < 100; ++i) schema += R"({"type":"array","items":)";
  schema += R"("int")";
  for (int i = 0; i < 100; ++i) schema += "}";
  Result<std::vector<Datum>> r = ReadBytes(FileWithBlock(schema, 0, ""));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("avro.schema"), std::string::npos) << r.status().ToString();
}

TEST(AvroContainerTest, UnknownAndUnsupportedCodecs) {
  Result<std::vector<Datum>> r = ReadBytes(FileWithBlock(R"("long")", 0, "", "bzip2"));
  EXPECT_TRUE(r.status().IsUnsupported()) << r.status().ToString();
  r = ReadBytes(FileWithBlock(R"("long")", 0, "", "xz"));
  EXPECT_TRUE(r.status().IsUnsupported());
  r = ReadBytes(FileWithBlock(R"("long")", 0, "", "lzma9"));
  EXPECT_TRUE(r.status().IsCorrupt());
}

TEST(AvroContainerTest, DecompressionPastTheBudgetIsRefused) {
  // 3000 rows in one block: far more than 4 KiB once decompressed.
  for (BlockCodec codec : {BlockCodec::kDeflate, BlockCodec::kSnappy, BlockCodec::kZstandard, BlockCodec::kNull}) {
    SCOPED_TRACE(BlockCodecName(codec));
    const std::string bytes = SmallFile(codec, 3000, 1 << 24);
    ContainerReaderOptions options;
    options.max_block_bytes = 4096;
    Result<std::vector<Datum>> r = ReadBytes(bytes, options);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsUnsupported()) << r.status().ToString();
    EXPECT_NE(r.status().message().find("budget of 4096"), std::string::npos) << r.status().ToString();
  }
}

TEST(AvroContainerTest, CorruptCompressedBlocksAreCorrupt) {
  for (std::string_view codec : {"deflate", "snappy", "zstandard"}) {
    SCOPED_TRACE(codec);
    Result<std::vector<Datum>> r = ReadBytes(FileWithBlock(R"("long")", 1, "\xff\xfe\xfd\xfc\xfb\xfa", codec));
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
  }
}

TEST(AvroContainerTest, RandomMutationsNeverCrash) {
  std::mt19937 rng(42);
  for (BlockCodec codec : {BlockCodec::kNull, BlockCodec::kDeflate, BlockCodec::kSnappy, BlockCodec::kZstandard}) {
    const std::string good = SmallFile(codec, 40, 512);
    for (int iter = 0; iter < 400; ++iter) {
      std::string bytes = good;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<char>(rng());
      ContainerReaderOptions options;
      options.max_block_bytes = 1 << 20;
      Result<std::vector<Datum>> r = ReadBytes(bytes, options);
      if (!r.ok()) {
        EXPECT_TRUE(r.status().IsCorrupt() || r.status().IsUnsupported()) << r.status().ToString();
      }
    }
  }
}

}  // namespace
}  // namespace floe::avro
