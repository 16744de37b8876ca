// Puffin reader and writer: files Java and iceberg-go wrote
// (../shared/fixtures, read in place), round trips with every codec and
// footer form, and bad files, which must be Corrupt, never a crash.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "floe/formats/compression/codec.h"
#include "floe/formats/puffin/puffin_reader.h"
#include "floe/formats/puffin/puffin_writer.h"
#include "floe/io/tracing_file_io.h"

namespace floe::puffin {
namespace {

std::string Fixtures() { return std::string(FLOE_SHARED_DIR) + "/fixtures"; }
std::string JavaPuffin(const std::string& name) {
  return Fixtures() + "/iceberg/java-golden/org/apache/iceberg/puffin/v1/" + name;
}

std::string ReadLocal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::unique_ptr<PuffinReader> MustOpen(FileIO& io, const std::string& path, const PuffinReaderOptions& options = {}) {
  auto r = PuffinReader::Open(io, path, options);
  EXPECT_TRUE(r.ok()) << path << ": " << r.status().ToString();
  return r.ok() ? std::move(*r) : nullptr;
}

std::string MustRead(const PuffinReader& reader, const BlobMetadata& blob) {
  auto b = reader.ReadBlob(blob);
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  return b.ok() ? std::string(b->view()) : std::string();
}

// Opens `bytes` as a file in memory.
Result<std::unique_ptr<PuffinReader>> OpenBytes(const std::string& bytes, const PuffinReaderOptions& options = {}) {
  auto io = NewMemoryFileIO();
  FLOE_RETURN_IF_ERROR(io->WriteAll("mem://t/x.puffin", bytes));
  return PuffinReader::Open(*io, "mem://t/x.puffin", options);
}

// A file with `payload` as its footer payload and the given flags, after `body`.
std::string FileWithFooter(const std::string& body, const std::string& payload, uint32_t flags = 0) {
  std::string out = "PFA1" + body + "PFA1" + payload;
  for (uint32_t v : {static_cast<uint32_t>(payload.size()), flags}) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  }
  return out + "PFA1";
}

BlobMetadata Blob(std::string type, std::vector<int32_t> fields = {}, int64_t snapshot_id = -1,
                  int64_t sequence_number = -1, std::map<std::string, std::string> properties = {}) {
  BlobMetadata blob;
  blob.type = std::move(type);
  blob.fields = std::move(fields);
  blob.snapshot_id = snapshot_id;
  blob.sequence_number = sequence_number;
  blob.properties = std::move(properties);
  return blob;
}

PuffinReaderOptions ReaderOptions(int64_t file_size, int64_t footer_read_bytes = 64 * 1024) {
  PuffinReaderOptions options;
  options.file_size = file_size;
  options.footer_read_bytes = footer_read_bytes;
  return options;
}

const char kLongBlob[] =
    "some blob \0 binary data \xf0\x9f\xa4\xaf that is not very very very very very very long, is it?";

TEST(PuffinTest, ReadsJavaSampleMetricDataUncompressed) {
  auto io = NewLocalFileIO();
  auto reader = MustOpen(*io, JavaPuffin("sample-metric-data-uncompressed.bin"));
  ASSERT_NE(reader, nullptr);
  EXPECT_FALSE(reader->footer_compressed());
  EXPECT_EQ(reader->metadata().properties, (std::map<std::string, std::string>{{"created-by", "Test 1234"}}));
  ASSERT_EQ(reader->blobs().size(), 2u);
  const BlobMetadata& a = reader->blobs()[0];
  EXPECT_EQ(a.type, "some-blob");
  EXPECT_EQ(a.fields, std::vector<int32_t>{1});
  EXPECT_EQ(a.snapshot_id, 2);
  EXPECT_EQ(a.sequence_number, 1);
  EXPECT_EQ(a.offset, 4);
  EXPECT_EQ(a.length, 9);
  EXPECT_EQ(a.compression_codec, "");
  EXPECT_TRUE(a.properties.empty());
  EXPECT_EQ(MustRead(*reader, a), "abcdefghi");
  const BlobMetadata& b = reader->blobs()[1];
  EXPECT_EQ(b.type, "some-other-blob");
  EXPECT_EQ(b.fields, std::vector<int32_t>{2});
  EXPECT_EQ(b.offset, 13);
  EXPECT_EQ(b.length, 83);
  EXPECT_EQ(MustRead(*reader, b), std::string(kLongBlob, sizeof kLongBlob - 1));
  EXPECT_EQ(reader->footer_offset(), 96);
}

TEST(PuffinTest, ReadsJavaSampleMetricDataCompressedWithZstd) {
  auto io = NewLocalFileIO();
  auto reader = MustOpen(*io, JavaPuffin("sample-metric-data-compressed-zstd.bin"));
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->blobs().size(), 2u);
  EXPECT_EQ(reader->blobs()[0].compression_codec, "zstd");
  EXPECT_EQ(reader->blobs()[0].length, 22);
  EXPECT_EQ(MustRead(*reader, reader->blobs()[0]), "abcdefghi");
  EXPECT_EQ(MustRead(*reader, reader->blobs()[1]), std::string(kLongBlob, sizeof kLongBlob - 1));
  auto both = reader->ReadBlobs(reader->blobs());
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ((*both)[0].view(), "abcdefghi");
  EXPECT_EQ((*both)[1].size(), 83);
}

TEST(PuffinTest, ReadsJavaEmptyFile) {
  auto io = NewLocalFileIO();
  auto reader = MustOpen(*io, JavaPuffin("empty-puffin-uncompressed.bin"));
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(reader->blobs().empty());
  EXPECT_TRUE(reader->metadata().properties.empty());
  EXPECT_EQ(reader->file_size(), 32);
}

TEST(PuffinTest, ReadsIcebergGoDeletionVectorFiles) {
  auto io = NewLocalFileIO();
  const std::string go = Fixtures() + "/iceberg/go-dv";
  auto single = MustOpen(*io, go + "/deletes/single-blob-dv.puffin");
  ASSERT_NE(single, nullptr);
  ASSERT_EQ(single->blobs().size(), 1u);
  const BlobMetadata& dv = single->blobs()[0];
  EXPECT_EQ(dv.type, kDeletionVectorV1);
  EXPECT_EQ(dv.fields, std::vector<int32_t>{2147483645});
  EXPECT_EQ(dv.snapshot_id, -1);
  EXPECT_EQ(dv.sequence_number, -1);
  EXPECT_EQ(dv.offset, 4);
  EXPECT_EQ(dv.length, 50);
  EXPECT_EQ(dv.properties.at("referenced-data-file"), "s3://warehouse/db/table/data/00000-0-abc.parquet");
  EXPECT_EQ(dv.properties.at("cardinality"), "5");
  // The blob is the deletion-vector-v1 bytes the fixture also keeps apart.
  EXPECT_EQ(MustRead(*single, dv), ReadLocal(go + "/deletion-vector-v1-payload.bin"));

  auto multi = MustOpen(*io, go + "/deletes/multi-blob-dv.puffin");
  ASSERT_NE(multi, nullptr);
  ASSERT_EQ(multi->blobs().size(), 2u);
  EXPECT_EQ(multi->blobs()[0].offset, 4);
  EXPECT_EQ(multi->blobs()[0].length, 46);
  EXPECT_EQ(multi->blobs()[1].offset, 50);
  EXPECT_EQ(multi->blobs()[1].length, 44);
  EXPECT_EQ(multi->blobs()[1].properties.at("referenced-data-file"), "s3://warehouse/db/table/data/file-002.parquet");
  EXPECT_EQ(multi->metadata().properties.at("created-by"), "iceberg-go DV cross-client fixtures (apache/iceberg)");

  auto plain = MustOpen(*io, go + "/deletion-vector-v1.puffin");
  ASSERT_NE(plain, nullptr);
  ASSERT_EQ(plain->blobs().size(), 1u);
  EXPECT_TRUE(plain->blobs()[0].fields.empty());
  EXPECT_EQ(plain->blobs()[0].properties.at("referenced-data-file"), "data/test.parquet");
}

TEST(PuffinTest, EveryPuffinFixtureParsesAndEveryBlobReads) {
  auto io = NewLocalFileIO();
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(Fixtures())) {
    if (!entry.is_regular_file() || entry.file_size() < 4) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    if (std::string(magic, 4) != "PFA1") continue;
    SCOPED_TRACE(entry.path().string());
    ++files;
    auto reader = MustOpen(*io, entry.path().string());
    ASSERT_NE(reader, nullptr);
    for (const BlobMetadata& blob : reader->blobs()) {
      auto bytes = reader->ReadBlob(blob);
      EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
    }
  }
  EXPECT_GE(files, 9);  // 3 Java samples twice, 3 iceberg-go DV files
}

TEST(PuffinTest, WritesJavasSampleByteForByte) {
  // Same blobs and properties as Java's writer was given: the same bytes,
  // footer JSON included.
  auto io = NewMemoryFileIO();
  PuffinWriterOptions options;
  options.properties["created-by"] = "Test 1234";
  auto writer = PuffinWriter::Open(*io, "mem://t/sample.puffin", options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  const BlobMetadata a = Blob("some-blob", {1}, 2, 1);
  const BlobMetadata b = Blob("some-other-blob", {2}, 2, 1);
  auto wa = (*writer)->AddBlob(a, std::string_view("abcdefghi"));
  ASSERT_TRUE(wa.ok());
  EXPECT_EQ(wa->offset, 4);
  EXPECT_EQ(wa->length, 9);
  ASSERT_TRUE((*writer)->AddBlob(b, std::string_view(kLongBlob, sizeof kLongBlob - 1)).ok());
  auto size = (*writer)->Finish();
  ASSERT_TRUE(size.ok()) << size.status().ToString();
  const std::string java = ReadLocal(JavaPuffin("sample-metric-data-uncompressed.bin"));
  EXPECT_EQ(*size, static_cast<int64_t>(java.size()));
  auto ours = io->ReadAll("mem://t/sample.puffin");
  ASSERT_TRUE(ours.ok());
  EXPECT_EQ(ours->view(), java);
}

struct RoundTripCase {
  PuffinCodec codec;
  bool compress_footer;
};

class PuffinRoundTripTest : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(PuffinRoundTripTest, BlobsAndMetadataSurvive) {
  const auto [codec, compress_footer] = GetParam();
  std::mt19937_64 rng(42);
  std::vector<std::string> payloads = {"", "x", std::string(100000, 'a')};
  std::string random(70000, '\0');
  for (char& c : random) c = static_cast<char>(rng());
  payloads.push_back(random);

  auto io = NewMemoryFileIO();
  PuffinWriterOptions options;
  options.compress_footer = compress_footer;
  options.properties["note"] = "round \"trip\"\n";
  auto writer = PuffinWriter::Open(*io, "mem://t/r.puffin", options);
  ASSERT_TRUE(writer.ok());
  for (size_t i = 0; i < payloads.size(); ++i) {
    const BlobMetadata blob = Blob("blob-" + std::to_string(i), {static_cast<int32_t>(i), -7}, int64_t{1} << 62,
                                   static_cast<int64_t>(i), {{"i", std::to_string(i)}, {"ü", "ß"}});
    ASSERT_TRUE((*writer)->AddBlob(blob, payloads[i], codec).ok());
  }
  auto size = (*writer)->Finish();
  ASSERT_TRUE(size.ok()) << size.status().ToString();
  EXPECT_TRUE((*writer)->AddBlob(Blob("late"), std::string_view("x")).status().IsInvalidArgument());

  auto reader = MustOpen(*io, "mem://t/r.puffin");
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->file_size(), *size);
  EXPECT_EQ(reader->footer_compressed(), compress_footer);
  EXPECT_EQ(reader->blobs(), (*writer)->blobs());
  EXPECT_EQ(reader->metadata().properties.at("note"), "round \"trip\"\n");
  EXPECT_EQ(reader->metadata().properties.at("created-by").rfind("floe ", 0), 0u);
  ASSERT_EQ(reader->blobs().size(), payloads.size());
  for (size_t i = 0; i < payloads.size(); ++i) {
    const BlobMetadata& blob = reader->blobs()[i];
    EXPECT_EQ(blob.compression_codec, PuffinCodecName(codec));
    EXPECT_EQ(blob.snapshot_id, int64_t{1} << 62);
    EXPECT_EQ(blob.properties.at("ü"), "ß");
    EXPECT_EQ(MustRead(*reader, blob), payloads[i]) << i;
  }
  if (codec != PuffinCodec::kNone) {
    EXPECT_LT(reader->blobs()[2].length, 100000);
  }
  auto all = reader->ReadBlobs(reader->blobs());
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  for (size_t i = 0; i < payloads.size(); ++i) EXPECT_EQ((*all)[i].view(), payloads[i]);
}

TEST_P(PuffinRoundTripTest, EmptyFileHasOnlyTheFooter) {
  const auto [codec, compress_footer] = GetParam();
  auto io = NewMemoryFileIO();
  PuffinWriterOptions options;
  options.compress_footer = compress_footer;
  auto writer = PuffinWriter::Open(*io, "mem://t/e.puffin", options);
  ASSERT_TRUE(writer.ok());
  auto size = (*writer)->Finish();
  ASSERT_TRUE(size.ok());
  auto reader = MustOpen(*io, "mem://t/e.puffin");
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(reader->blobs().empty());
  EXPECT_EQ(reader->footer_offset(), 4);
  (void)codec;
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, PuffinRoundTripTest,
    ::testing::Values(RoundTripCase{PuffinCodec::kNone, false}, RoundTripCase{PuffinCodec::kLz4, false},
                      RoundTripCase{PuffinCodec::kZstd, false}, RoundTripCase{PuffinCodec::kNone, true},
                      RoundTripCase{PuffinCodec::kLz4, true}, RoundTripCase{PuffinCodec::kZstd, true}),
    [](const auto& info) {
      std::string name(info.param.codec == PuffinCodec::kNone ? "none" : PuffinCodecName(info.param.codec));
      return name + (info.param.compress_footer ? "_CompressedFooter" : "_PlainFooter");
    });

TEST(PuffinTest, FooterTakesOneReadOrTwoWhenLargerThanTheTailRead) {
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewMemoryFileIO(), trace);
  auto writer = PuffinWriter::Open(*io, "mem://t/f.puffin");
  ASSERT_TRUE(writer.ok());
  for (int i = 0; i < 200; ++i) {
    const BlobMetadata blob = Blob("t", {}, -1, -1, {{"k", std::string(100, 'v')}});
    ASSERT_TRUE((*writer)->AddBlob(blob, std::string(1000, 'b')).ok());
  }
  auto size = (*writer)->Finish();
  ASSERT_TRUE(size.ok());
  trace->Clear();
  auto reader = MustOpen(*io, "mem://t/f.puffin", ReaderOptions(*size));
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->blobs().size(), 200u);
  EXPECT_EQ(trace->totals().gets, 1);
  EXPECT_EQ(trace->totals().heads, 0);  // the size was given
  trace->Clear();
  reader = MustOpen(*io, "mem://t/f.puffin", ReaderOptions(*size, 1024));
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->blobs().size(), 200u);
  EXPECT_EQ(trace->totals().gets, 2);
}

TEST(PuffinTest, UnfinishedWriterPublishesNothing) {
  auto io = NewMemoryFileIO();
  {
    auto writer = PuffinWriter::Open(*io, "mem://t/u.puffin");
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->AddBlob(Blob("t"), std::string_view("data")).ok());
    EXPECT_TRUE((*writer)->AddBlob({}, std::string_view("data")).status().IsInvalidArgument());
  }
  EXPECT_FALSE(*io->Exists("mem://t/u.puffin"));
}

TEST(PuffinTest, CreatedByDefaultsToFloeAndKeepsTheCallersValue) {
  auto io = NewMemoryFileIO();
  for (const std::string& created_by : {std::string(), std::string("Trino version 381")}) {
    PuffinWriterOptions options;
    if (!created_by.empty()) options.properties["created-by"] = created_by;
    auto writer = PuffinWriter::Open(*io, "mem://t/c.puffin", options);
    ASSERT_TRUE(writer.ok() && (*writer)->Finish().ok());
    auto reader = MustOpen(*io, "mem://t/c.puffin");
    ASSERT_NE(reader, nullptr);
    const std::string& got = reader->metadata().properties.at("created-by");
    if (created_by.empty()) {
      EXPECT_EQ(got.rfind("floe 0.", 0), 0u) << got;
    } else {
      EXPECT_EQ(got, created_by);
    }
  }
}

// --- bad files ---

void ExpectCorrupt(const Result<std::unique_ptr<PuffinReader>>& r, const std::string& fragment) {
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
  EXPECT_NE(r.status().message().find("Puffin file 'mem://t/x.puffin'"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find(fragment), std::string::npos) << r.status().message();
}

const std::string kBlobJson =
    R"({"blobs":[{"type":"t","fields":[],"snapshot-id":-1,"sequence-number":-1,"offset":4,"length":3}]})";

TEST(PuffinTest, EveryTruncationIsCorrupt) {
  const std::string file = ReadLocal(JavaPuffin("sample-metric-data-compressed-zstd.bin"));
  ASSERT_FALSE(file.empty());
  for (size_t cut = 0; cut < file.size(); ++cut) {
    auto r = OpenBytes(file.substr(0, cut));
    ASSERT_FALSE(r.ok()) << "cut at " << cut;
    EXPECT_TRUE(r.status().IsCorrupt()) << "cut at " << cut << ": " << r.status().ToString();
  }
  // Cutting bytes off the front moves nothing the footer points at... but
  // the blobs then start inside the magic or the data shifts; still never a crash.
  for (size_t cut = 1; cut < file.size(); ++cut) {
    auto r = OpenBytes(file.substr(cut));
    if (r.ok()) {
      for (const BlobMetadata& blob : (*r)->blobs()) (void)(*r)->ReadBlob(blob);
    }
  }
}

TEST(PuffinTest, BadMagicIsCorrupt) {
  const std::string good = FileWithFooter("abc", kBlobJson);
  ASSERT_TRUE(OpenBytes(good).ok());
  std::string bad_end = good;
  bad_end.back() = 'X';
  ExpectCorrupt(OpenBytes(bad_end), "bad magic at the end");
  std::string bad_start = good;
  bad_start[0] = 'X';
  ExpectCorrupt(OpenBytes(bad_start), "bad magic at the start");
  std::string bad_footer = good;
  bad_footer[7] = 'X';  // the footer's first magic follows the 3-byte body
  ExpectCorrupt(OpenBytes(bad_footer), "bad magic at the footer's start (offset 7)");
  ExpectCorrupt(OpenBytes("PFA1"), "shorter than the smallest Puffin file");
}

TEST(PuffinTest, FooterSizesOutOfRangeAreCorrupt) {
  std::string file = FileWithFooter("abc", kBlobJson);
  const size_t size_at = file.size() - 12;
  for (uint32_t lie : {0x7fffffffu, 0xffffffffu, static_cast<uint32_t>(kBlobJson.size() + 4)}) {
    std::string bad = file;
    for (int i = 0; i < 4; ++i) bad[size_at + i] = static_cast<char>(lie >> (8 * i));
    auto r = OpenBytes(bad);
    ASSERT_FALSE(r.ok()) << lie;
    EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
  }
  std::string smaller = file;
  smaller[size_at] = static_cast<char>(kBlobJson.size() - 1);
  ExpectCorrupt(OpenBytes(smaller), "bad magic at the footer's start");
}

TEST(PuffinTest, UnknownFlagsAreCorrupt) {
  for (uint32_t flags : {2u, 0x100u, 0x80000000u}) {
    ExpectCorrupt(OpenBytes(FileWithFooter("abc", kBlobJson, flags)), "unknown footer flags");
  }
}

TEST(PuffinTest, BlobsOutsideTheBlobAreaAreCorrupt) {
  const std::string blob = R"({"type":"t","fields":[],"snapshot-id":-1,"sequence-number":-1,)";
  for (const std::string& range : {std::string(R"("offset":4,"length":4)"), std::string(R"("offset":0,"length":1)"),
                                   std::string(R"("offset":5,"length":-1)"),
                                   std::string(R"("offset":9223372036854775807,"length":9223372036854775807)"),
                                   std::string(R"("offset":7,"length":1)")}) {
    SCOPED_TRACE(range);
    ExpectCorrupt(OpenBytes(FileWithFooter("abc", R"({"blobs":[)" + blob + range + "}]}")), "outside the blob area");
  }
  // A blob may end exactly where the footer starts.
  EXPECT_TRUE(OpenBytes(FileWithFooter("abc", R"({"blobs":[)" + blob + R"("offset":4,"length":3}]})")).ok());
}

TEST(PuffinTest, MalformedFooterJsonIsCorruptNamingTheField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "not JSON"},
      {"{", "not JSON"},
      {"[]", "expected a FileMetadata object"},
      {"{}", "field 'blobs' is missing"},
      {R"({"blobs":{}})", "field 'blobs' is {}"},
      {R"({"blobs":[1]})", "field 'blobs[0]' is 1"},
      {R"({"blobs":[{"fields":[],"snapshot-id":1,"sequence-number":1,"offset":4,"length":0}]})",
       "field 'blobs[0].type' is missing"},
      {R"({"blobs":[{"type":"t","snapshot-id":1,"sequence-number":1,"offset":4,"length":0}]})",
       "field 'blobs[0].fields' is missing"},
      {R"({"blobs":[{"type":"t","fields":["1"],"snapshot-id":1,"sequence-number":1,"offset":4,"length":0}]})",
       "field 'blobs[0].fields[0]' is \"1\", expected an integer"},
      {R"({"blobs":[{"type":"t","fields":[4294967296],"snapshot-id":1,"sequence-number":1,"offset":4,"length":0}]})",
       "out of the int32 range"},
      {R"({"blobs":[{"type":"t","fields":[],"sequence-number":1,"offset":4,"length":0}]})",
       "field 'blobs[0].snapshot-id' is missing"},
      {R"({"blobs":[{"type":"t","fields":[],"snapshot-id":1,"sequence-number":1,"offset":"4","length":0}]})",
       "field 'blobs[0].offset' is \"4\", expected an integer"},
      {R"({"blobs":[{"type":"t","fields":[],"snapshot-id":1,"sequence-number":1,"offset":4,"length":1.5}]})",
       "field 'blobs[0].length' is 1.5"},
      {R"({"blobs":[{"type":7,"fields":[],"snapshot-id":1,"sequence-number":1,"offset":4,"length":0}]})",
       "field 'blobs[0].type' is 7, expected a string"},
      {R"({"blobs":[{"type":"t","fields":[],"snapshot-id":1,"sequence-number":1,"offset":4,"length":0,"properties":{"a":1}}]})",
       "field 'blobs[0].properties.a' is 1"},
      {R"({"blobs":[],"properties":[]})", "field 'properties' is []"},
  };
  for (const auto& [json, fragment] : cases) {
    SCOPED_TRACE(json);
    ExpectCorrupt(OpenBytes(FileWithFooter("abc", json)), fragment);
  }
  // Null optional fields and unknown fields are fine.
  auto ok = OpenBytes(FileWithFooter(
      "abc", R"({"blobs":[{"type":"t","fields":[],"snapshot-id":-1,"sequence-number":-1,"offset":4,"length":3,)"
             R"("compression-codec":null,"properties":null,"future":true}],"properties":null,"x":[]})"));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)->blobs()[0].compression_codec, "");
}

TEST(PuffinTest, BadCompressedFooterIsCorrupt) {
  ExpectCorrupt(OpenBytes(FileWithFooter("abc", kBlobJson, kFlagFooterCompressed)), "compressed footer payload");
  // A valid LZ4 frame of invalid JSON.
  auto frame =
      compression::Compress(compression::Codec::kLz4Frame, std::span(reinterpret_cast<const uint8_t*>("{oops"), 5));
  ASSERT_TRUE(frame.ok());
  ExpectCorrupt(OpenBytes(FileWithFooter("abc", std::string(frame->view()), kFlagFooterCompressed)), "not JSON");
}

TEST(PuffinTest, BlobCodecProblemsSurfaceOnRead) {
  const std::string json = R"({"blobs":[{"type":"t","fields":[],"snapshot-id":-1,"sequence-number":-1,"offset":4,)"
                           R"("length":3,"compression-codec":"CODEC"}]})";
  auto snappy = OpenBytes(FileWithFooter("abc", std::string(json).replace(json.find("CODEC"), 5, "snappy")));
  ASSERT_TRUE(snappy.ok()) << snappy.status().ToString();
  auto r = (*snappy)->ReadBlob((*snappy)->blobs()[0]);
  EXPECT_TRUE(r.status().IsUnsupported()) << r.status().ToString();
  EXPECT_NE(r.status().message().find("'snappy'"), std::string::npos) << r.status().message();
  for (const char* codec : {"zstd", "lz4"}) {
    auto garbage = OpenBytes(FileWithFooter("abc", std::string(json).replace(json.find("CODEC"), 5, codec)));
    ASSERT_TRUE(garbage.ok());
    auto g = (*garbage)->ReadBlob((*garbage)->blobs()[0]);
    EXPECT_TRUE(g.status().IsCorrupt()) << codec << ": " << g.status().ToString();
    EXPECT_NE(g.status().message().find("Puffin file"), std::string::npos);
  }
  // A zstd frame above the blob budget is refused before decompressing.
  const std::string big(1 << 20, 'z');
  auto zstd = compression::Compress(compression::Codec::kZstd,
                                    std::span(reinterpret_cast<const uint8_t*>(big.data()), big.size()));
  ASSERT_TRUE(zstd.ok());
  std::string body(zstd->view());
  std::string big_json = R"({"blobs":[{"type":"t","fields":[],"snapshot-id":-1,"sequence-number":-1,"offset":4,)"
                         R"("length":)" +
                         std::to_string(body.size()) + R"(,"compression-codec":"zstd"}]})";
  PuffinReaderOptions small_budget;
  small_budget.max_blob_bytes = 1000;
  auto budget = OpenBytes(FileWithFooter(body, big_json), small_budget);
  ASSERT_TRUE(budget.ok());
  EXPECT_TRUE((*budget)->ReadBlob((*budget)->blobs()[0]).status().IsUnsupported());
  // Metadata from elsewhere is checked against the file too.
  BlobMetadata outside = (*budget)->blobs()[0];
  outside.offset = (*budget)->footer_offset();
  EXPECT_TRUE((*budget)->ReadBlob(outside).status().IsCorrupt());
}

TEST(PuffinTest, RandomByteFlipsAreOkOrCorrupt) {
  std::mt19937_64 rng(7);
  for (const char* name : {"sample-metric-data-compressed-zstd.bin", "sample-metric-data-uncompressed.bin"}) {
    const std::string file = ReadLocal(JavaPuffin(name));
    for (int iter = 0; iter < 2000; ++iter) {
      std::string bad = file;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) bad[rng() % bad.size()] = static_cast<char>(rng());
      auto r = OpenBytes(bad);
      if (!r.ok()) {
        EXPECT_TRUE(r.status().IsCorrupt() || r.status().IsUnsupported()) << r.status().ToString();
        continue;
      }
      for (const BlobMetadata& blob : (*r)->blobs()) {
        auto b = (*r)->ReadBlob(blob);
        if (!b.ok()) {
          EXPECT_TRUE(b.status().IsCorrupt() || b.status().IsUnsupported()) << b.status().ToString();
        }
      }
    }
  }
}

}  // namespace
}  // namespace floe::puffin
