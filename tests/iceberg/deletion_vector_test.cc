// Deletion vectors: Java's and iceberg-go's files and bitmaps
// (../shared/fixtures/iceberg/go-dv and java-golden, read in place) with the
// positions their own tests expect, byte-equal serialization, round trips,
// the Puffin file helpers, and malformed blobs, which must be Corrupt.

#include "floe/iceberg/deletion_vector.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "floe/formats/puffin/puffin_reader.h"

namespace floe::iceberg {
namespace {

std::string GoDv(const std::string& rel) { return std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/go-dv/" + rel; }

std::string ReadLocal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

DeletionVector MustDeserialize(const std::string& blob) {
  auto dv = DeletionVector::Deserialize(blob);
  EXPECT_TRUE(dv.ok()) << dv.status().ToString();
  return dv.ok() ? std::move(*dv) : DeletionVector();
}

DeletionVectorToWrite ToWrite(std::string referenced_data_file, DeletionVector positions, int32_t spec_id = 0,
                              PartitionValues partition = {}) {
  DeletionVectorToWrite dv;
  dv.referenced_data_file = std::move(referenced_data_file);
  dv.spec_id = spec_id;
  dv.partition = std::move(partition);
  dv.positions = std::move(positions);
  return dv;
}

DeletionVector Of(std::initializer_list<int64_t> positions) {
  DeletionVector dv;
  for (int64_t p : positions) EXPECT_TRUE(dv.Add(p).ok());
  return dv;
}

// Frames `bitmap` as a deletion-vector-v1 blob with a correct length and CRC.
std::string Frame(const std::string& bitmap) {
  std::string body = std::string("\xD1\xD3\x39\x64", 4) + bitmap;
  std::string out;
  const auto be = [&out](uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
  };
  be(static_cast<uint32_t>(body.size()));
  out += body;
  be(static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))));
  return out;
}

std::string Le(uint64_t v, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  return out;
}

// A portable 32-bit bitmap of one array container (cookie 12346).
std::string ArrayBitmap32(uint16_t key, std::vector<uint16_t> values) {
  std::string out = Le(12346, 4) + Le(1, 4) + Le(key, 2) + Le(values.size() - 1, 2) + Le(16, 4);
  for (uint16_t v : values) out += Le(v, 2);
  return out;
}

constexpr int64_t kBitmapOffset = int64_t{1} << 32;
constexpr int64_t kContainerOffset = int64_t{1} << 16;
int64_t Position(int bitmap, int container, int64_t value) {
  return bitmap * kBitmapOffset + container * kContainerOffset + value;
}

// The position set behind Java's all-container-types fixture
// (TestBitmapPositionDeleteIndex; rebuilt as iceberg-go's cross-client test does).
DeletionVector AllContainerTypes() {
  DeletionVector dv;
  EXPECT_TRUE(dv.Add(Position(0, 0, 5)).ok());
  EXPECT_TRUE(dv.Add(Position(0, 0, 7)).ok());
  EXPECT_TRUE(dv.AddRange(Position(0, 1, 1), Position(0, 1, 1000)).ok());
  EXPECT_TRUE(dv.AddRange(Position(0, 2, 1), Position(0, 2, kContainerOffset - 1)).ok());
  EXPECT_TRUE(dv.Add(Position(1, 0, 10)).ok());
  EXPECT_TRUE(dv.Add(Position(1, 0, 20)).ok());
  EXPECT_TRUE(dv.AddRange(Position(1, 1, 10), Position(1, 1, 500)).ok());
  EXPECT_TRUE(dv.AddRange(Position(1, 2, 1), Position(1, 2, kContainerOffset - 1)).ok());
  return dv;
}

TEST(DeletionVectorTest, ReadsJavaPositionIndexFixtures) {
  EXPECT_EQ(MustDeserialize(ReadLocal(GoDv("deletes/small-alternating-values-position-index.bin"))).Positions(),
            (std::vector<int64_t>{1, 3, 5, 7, 9}));
  const int64_t max_int = 2147483647;
  EXPECT_EQ(MustDeserialize(ReadLocal(GoDv("deletes/small-and-large-values-position-index.bin"))).Positions(),
            (std::vector<int64_t>{100, 101, max_int + 100, max_int + 101}));
  const DeletionVector empty = MustDeserialize(ReadLocal(GoDv("deletes/empty-position-index.bin")));
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.cardinality(), 0);
  const DeletionVector all = MustDeserialize(ReadLocal(GoDv("deletes/all-container-types-position-index.bin")));
  EXPECT_EQ(all.cardinality(), 132561);
  EXPECT_EQ(all, AllContainerTypes());
  EXPECT_TRUE(all.Contains(Position(1, 2, 1)));
  EXPECT_FALSE(all.Contains(Position(1, 2, 0)));
  EXPECT_EQ(MustDeserialize(ReadLocal(GoDv("deletion-vector-v1-payload.bin"))).Positions(),
            (std::vector<int64_t>{1, 3, 5, 7, 9}));
}

TEST(DeletionVectorTest, SerializesByteForByteAsJava) {
  // Java run-length encodes before writing; equal sets give equal bytes.
  EXPECT_EQ(Of({1, 3, 5, 7, 9}).Serialize(), ReadLocal(GoDv("deletes/small-alternating-values-position-index.bin")));
  EXPECT_EQ(AllContainerTypes().Serialize(), ReadLocal(GoDv("deletes/all-container-types-position-index.bin")));
  EXPECT_EQ(DeletionVector().Serialize(), ReadLocal(GoDv("deletes/empty-position-index.bin")));
  EXPECT_EQ(Of({100, 101, 2147483747, 2147483748}).Serialize(),
            ReadLocal(GoDv("deletes/small-and-large-values-position-index.bin")));
}

TEST(DeletionVectorTest, ReadsCRoaringPortable64BitExamples) {
  // RoaringFormatSpec's 64-bit test files, as Java's TestRoaringPositionBitmap uses them.
  auto read = [](const std::string& name) {
    return DeletionVector::DeserializeBitmap(ReadLocal(GoDv("deletes/" + name)));
  };
  auto empty = read("64mapempty.bin");
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_TRUE(empty->empty());
  auto low = read("64map32bitvals.bin");
  ASSERT_TRUE(low.ok()) << low.status().ToString();
  EXPECT_EQ(low->Positions(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  auto spread = read("64mapspreadvals.bin");
  ASSERT_TRUE(spread.ok()) << spread.status().ToString();
  std::vector<int64_t> expected;
  for (int64_t key = 0; key < 10; ++key) {
    for (int64_t v = 0; v < 10; ++v) expected.push_back(key * kBitmapOffset + v);
  }
  EXPECT_EQ(spread->Positions(), expected);
  // The example keeps array containers; floe writes the smaller runs.
  EXPECT_LT(spread->SerializeBitmap().size(), ReadLocal(GoDv("deletes/64mapspreadvals.bin")).size());
  // Keys past 2^31 - 1 would be negative positions; Java refuses the file too.
  auto high = read("64maphighvals.bin");
  ASSERT_FALSE(high.ok());
  EXPECT_TRUE(high.status().IsCorrupt()) << high.status().ToString();
}

TEST(DeletionVectorTest, ReadsIcebergGoPuffinFilesThroughDataFiles) {
  auto io = NewLocalFileIO();
  DataFile single;
  single.content = DataFileContent::kPositionDeletes;
  single.file_format = std::string(kFileFormatPuffin);
  single.file_path = GoDv("deletes/single-blob-dv.puffin");
  single.record_count = 5;
  single.content_offset = 4;
  single.content_size_in_bytes = 50;
  auto dv = ReadDeletionVector(*io, single);
  ASSERT_TRUE(dv.ok()) << dv.status().ToString();
  EXPECT_EQ(dv->Positions(), (std::vector<int64_t>{1, 3, 5, 7, 9}));

  DataFile plain = single;
  plain.file_path = GoDv("deletion-vector-v1.puffin");
  plain.file_size_in_bytes = 314;
  dv = ReadDeletionVector(*io, plain);
  ASSERT_TRUE(dv.ok()) << dv.status().ToString();
  EXPECT_EQ(dv->Positions(), (std::vector<int64_t>{1, 3, 5, 7, 9}));

  // Each blob of the multi-blob file, found through its footer as a writer
  // of manifests would.
  const std::map<std::string, std::vector<int64_t>> expected = {
      {"s3://warehouse/db/table/data/file-001.parquet", {0, 100, 200}},
      {"s3://warehouse/db/table/data/file-002.parquet", {50, 150}}};
  auto reader = puffin::PuffinReader::Open(*io, GoDv("deletes/multi-blob-dv.puffin"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->blobs().size(), 2u);
  for (const puffin::BlobMetadata& blob : (*reader)->blobs()) {
    DataFile file = single;
    file.file_path = GoDv("deletes/multi-blob-dv.puffin");
    file.content_offset = blob.offset;
    file.content_size_in_bytes = blob.length;
    file.record_count = std::stoll(blob.properties.at("cardinality"));
    auto v = ReadDeletionVector(*io, file);
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    EXPECT_EQ(v->Positions(), expected.at(blob.properties.at("referenced-data-file")));
  }
}

TEST(DeletionVectorTest, AddContainsAndRanges) {
  DeletionVector dv;
  EXPECT_TRUE(dv.empty());
  EXPECT_TRUE(dv.Add(10).ok());
  EXPECT_TRUE(dv.Add(10).ok());
  EXPECT_TRUE(dv.Add(0).ok());
  EXPECT_TRUE(dv.Add(std::numeric_limits<int64_t>::max()).ok());
  EXPECT_TRUE(dv.Add(-1).IsInvalidArgument());
  EXPECT_TRUE(dv.Contains(10));
  EXPECT_TRUE(dv.Contains(0));
  EXPECT_TRUE(dv.Contains(std::numeric_limits<int64_t>::max()));
  EXPECT_FALSE(dv.Contains(11));
  EXPECT_FALSE(dv.Contains(-1));
  EXPECT_EQ(dv.cardinality(), 3);

  DeletionVector range;
  EXPECT_TRUE(range.AddRange(kBitmapOffset - 5, 2 * kBitmapOffset + 5).ok());
  EXPECT_EQ(range.cardinality(), kBitmapOffset + 10);
  EXPECT_TRUE(range.Contains(kBitmapOffset));
  EXPECT_TRUE(range.Contains(2 * kBitmapOffset - 1));
  EXPECT_FALSE(range.Contains(kBitmapOffset - 6));
  EXPECT_FALSE(range.Contains(2 * kBitmapOffset + 5));
  EXPECT_EQ(range.PositionsInRange(kBitmapOffset - 7, kBitmapOffset - 3),
            (std::vector<int64_t>{kBitmapOffset - 5, kBitmapOffset - 4}));
  EXPECT_EQ(range.PositionsInRange(2 * kBitmapOffset + 3, 3 * kBitmapOffset),
            (std::vector<int64_t>{2 * kBitmapOffset + 3, 2 * kBitmapOffset + 4}));
  EXPECT_TRUE(range.PositionsInRange(5, 5).empty());
  EXPECT_TRUE(range.AddRange(10, 10).ok());
  EXPECT_TRUE(range.AddRange(-1, 3).IsInvalidArgument());
  EXPECT_TRUE(range.AddRange(5, 3).IsInvalidArgument());
  // The full bitmap of key 1 is 65536 one-run containers of 14 bytes each
  // (header, offset, run) and an 8 KiB run-flag bitset, not 65536 bitsets
  // of 8 KiB.
  EXPECT_LT(range.Serialize().size(), 65536u * 14 + 8192 + 1000);
  EXPECT_EQ(MustDeserialize(range.Serialize()), range);
}

TEST(DeletionVectorTest, MergeCopyAndEquality) {
  DeletionVector a = Of({1, 2, 3 * kBitmapOffset});
  DeletionVector b = Of({2, 4, kBitmapOffset});
  DeletionVector copy = a;
  a.Merge(b);
  EXPECT_EQ(a.Positions(), (std::vector<int64_t>{1, 2, 4, kBitmapOffset, 3 * kBitmapOffset}));
  EXPECT_EQ(copy.Positions(), (std::vector<int64_t>{1, 2, 3 * kBitmapOffset}));
  EXPECT_FALSE(a == copy);
  copy = a;
  EXPECT_EQ(copy, a);
  DeletionVector moved = std::move(copy);
  EXPECT_EQ(moved, a);
}

TEST(DeletionVectorTest, RandomVectorsRoundTrip) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    std::mt19937_64 rng(seed);
    std::set<int64_t> expected;
    DeletionVector dv;
    const int64_t span = seed % 2 == 0 ? int64_t{5} << 32 : 300000;
    for (int i = 0; i < 20000; ++i) {
      const int64_t p = static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
      expected.insert(p);
      ASSERT_TRUE(dv.Add(p).ok());
    }
    // Dense stretches give bitset and run containers.
    const int64_t start = static_cast<int64_t>(rng() % 1000000);
    ASSERT_TRUE(dv.AddRange(start, start + 70000).ok());
    for (int64_t p = start; p < start + 70000; ++p) expected.insert(p);
    EXPECT_EQ(dv.cardinality(), static_cast<int64_t>(expected.size()));
    EXPECT_EQ(dv.Positions(), std::vector<int64_t>(expected.begin(), expected.end()));
    const DeletionVector back = MustDeserialize(dv.Serialize());
    EXPECT_EQ(back, dv);
    EXPECT_EQ(back.Serialize(), dv.Serialize());
    for (int i = 0; i < 2000; ++i) {
      const int64_t p = static_cast<int64_t>(rng() % static_cast<uint64_t>(span + 2000000));
      ASSERT_EQ(back.Contains(p), expected.count(p) == 1) << p;
    }
    const int64_t lo = static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
    std::vector<int64_t> in_range(expected.lower_bound(lo), expected.lower_bound(lo + 100000));
    EXPECT_EQ(back.PositionsInRange(lo, lo + 100000), in_range);
  }
}

// --- malformed blobs ---

void ExpectCorrupt(const std::string& blob, const std::string& fragment) {
  auto dv = DeletionVector::Deserialize(blob);
  ASSERT_FALSE(dv.ok()) << fragment;
  EXPECT_TRUE(dv.status().IsCorrupt()) << dv.status().ToString();
  EXPECT_NE(dv.status().message().find(fragment), std::string::npos) << dv.status().message();
}

TEST(DeletionVectorTest, FramingErrorsAreCorrupt) {
  const std::string good = Of({1, 3, 5, 7, 9}).Serialize();
  for (size_t cut = 0; cut < good.size(); ++cut) {
    auto dv = DeletionVector::Deserialize(good.substr(0, cut));
    ASSERT_FALSE(dv.ok()) << cut;
    EXPECT_TRUE(dv.status().IsCorrupt()) << dv.status().ToString();
  }
  ExpectCorrupt(good + "x", "length field says 42 bytes");
  std::string bad_magic = good;
  bad_magic[5] = 0;
  ExpectCorrupt(bad_magic, "bad magic 0xd10039");
  for (size_t i = 8; i < good.size(); ++i) {
    std::string flipped = good;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x10);
    ExpectCorrupt(flipped, "CRC-32 mismatch");
  }
}

TEST(DeletionVectorTest, MalformedBitmapsAreCorrupt) {
  const std::string one = ArrayBitmap32(0, {1, 2});
  EXPECT_EQ(MustDeserialize(Frame(Le(1, 8) + Le(0, 4) + one)).Positions(), (std::vector<int64_t>{1, 2}));
  ExpectCorrupt(Frame(Le(2, 8) + Le(3, 4) + one + Le(3, 4) + one), "key 3 is not above the previous key 3");
  ExpectCorrupt(Frame(Le(2, 8) + Le(3, 4) + one + Le(2, 4) + one), "not above the previous key");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0x80000000u, 4) + one), "would make positions negative");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + one + "x"), "1 bytes follow the last bitmap");
  ExpectCorrupt(Frame(Le(1000, 8) + Le(0, 4) + one), "bitmap count 1000 does not fit");
  ExpectCorrupt(Frame(Le(~uint64_t{0}, 8)), "does not fit");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + ArrayBitmap32(0, {2, 1})), "array values are not ascending");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + ArrayBitmap32(0, {2, 2})), "array values are not ascending");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + Le(99, 4) + Le(0, 4)), "unknown cookie 99");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + Le(12346, 4) + Le(70000, 4)), "container count 70000");
  // Two containers out of key order.
  std::string two =
      Le(12346, 4) + Le(2, 4) + Le(5, 2) + Le(0, 2) + Le(4, 2) + Le(0, 2) + Le(24, 4) + Le(26, 4) + Le(1, 2) + Le(1, 2);
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + two), "keys are not ascending");
  // An offset header that points elsewhere.
  std::string offset = ArrayBitmap32(0, {1, 2});
  offset[12] = 17;
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + offset), "offset header says byte 17");
  // A bitset container (cardinality > 4096) whose popcount differs.
  std::string bitset = Le(12346, 4) + Le(1, 4) + Le(0, 2) + Le(5000 - 1, 2) + Le(16, 4) + std::string(8192, '\xff');
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + bitset), "bitset holds 65536 values, the header says 5000");
  // Run containers (cookie 12347, one container, run flag set): overlap,
  // overflow past 65535, wrong cardinality.
  const auto runs = [](uint16_t card_minus_1, std::vector<std::pair<uint16_t, uint16_t>> pairs) {
    std::string out =
        Le(12347, 2) + Le(0, 2) + std::string(1, '\x01') + Le(0, 2) + Le(card_minus_1, 2) + Le(pairs.size(), 2);
    for (auto [start, len] : pairs) out += Le(start, 2) + Le(len, 2);
    return out;
  };
  EXPECT_EQ(MustDeserialize(Frame(Le(1, 8) + Le(0, 4) + runs(5, {{10, 2}, {20, 2}}))).Positions(),
            (std::vector<int64_t>{10, 11, 12, 20, 21, 22}));
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + runs(5, {{10, 2}, {12, 2}})), "not after the previous run's end");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + runs(9, {{65530, 9}})), "past 65535");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + runs(7, {{10, 2}, {20, 2}})), "runs hold 6 values, the header says 8");
  ExpectCorrupt(Frame(Le(1, 8) + Le(0, 4) + runs(0, {})), "runs hold 0 values");
}

TEST(DeletionVectorTest, MutatedBlobsAreOkOrCorrupt) {
  // Past the CRC (recomputed), mutations reach the bitmap checks; whatever
  // reads must read back the same.
  const std::string bitmap = AllContainerTypes().SerializeBitmap();
  std::mt19937_64 rng(11);
  int accepted = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bad = bitmap;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) bad[rng() % bad.size()] = static_cast<char>(rng() % 4 == 0 ? 0xff : rng());
    if (rng() % 8 == 0) bad.resize(rng() % bad.size());
    auto dv = DeletionVector::Deserialize(Frame(bad));
    if (!dv.ok()) {
      ASSERT_TRUE(dv.status().IsCorrupt()) << dv.status().ToString();
      continue;
    }
    ++accepted;
    const std::vector<int64_t> positions = dv->Positions();
    ASSERT_EQ(static_cast<int64_t>(positions.size()), dv->cardinality());
    ASSERT_TRUE(std::is_sorted(positions.begin(), positions.end()));
    ASSERT_EQ(MustDeserialize(dv->Serialize()), *dv);
  }
  (void)accepted;  // how many survive depends on where edits land; none may crash
}

// --- files ---

TEST(DeletionVectorTest, WritesOnePuffinFileAndReadsEachVectorBack) {
  auto io = NewMemoryFileIO();
  std::vector<DeletionVectorToWrite> dvs(3);
  dvs[0] = ToWrite("s3://b/t/data/a.parquet", Of({0, 5, 9}), 1, {Literal::Int(7)});
  dvs[1] = ToWrite("s3://b/t/data/b.parquet", AllContainerTypes(), 1, {std::nullopt});
  dvs[2] = ToWrite("s3://b/t/data/c.parquet", Of({kBitmapOffset * 3}));
  auto files = WriteDeletionVectorFile(*io, "mem://t/dv.puffin", dvs);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), 3u);
  auto size = io->Stat("mem://t/dv.puffin");
  ASSERT_TRUE(size.ok());
  int64_t previous_end = 4;
  for (size_t i = 0; i < dvs.size(); ++i) {
    const DataFile& f = (*files)[i];
    EXPECT_TRUE(f.is_deletion_vector());
    EXPECT_EQ(f.content, DataFileContent::kPositionDeletes);
    EXPECT_EQ(f.file_format, kFileFormatPuffin);
    EXPECT_EQ(f.file_path, "mem://t/dv.puffin");
    EXPECT_EQ(f.file_size_in_bytes, size->size);
    EXPECT_EQ(f.referenced_data_file, dvs[i].referenced_data_file);
    EXPECT_EQ(f.spec_id, dvs[i].spec_id);
    EXPECT_EQ(f.partition, dvs[i].partition);
    EXPECT_EQ(f.record_count, dvs[i].positions.cardinality());
    EXPECT_EQ(f.content_offset, previous_end);
    previous_end = *f.content_offset + *f.content_size_in_bytes;
    auto back = ReadDeletionVector(*io, f);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, dvs[i].positions);
  }
  // The footer says what the spec asks of deletion-vector-v1 blobs.
  auto reader = puffin::PuffinReader::Open(*io, "mem://t/dv.puffin");
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ((*reader)->blobs().size(), 3u);
  const puffin::BlobMetadata& blob = (*reader)->blobs()[1];
  EXPECT_EQ(blob.type, "deletion-vector-v1");
  EXPECT_EQ(blob.fields, std::vector<int32_t>{2147483645});
  EXPECT_EQ(blob.snapshot_id, -1);
  EXPECT_EQ(blob.sequence_number, -1);
  EXPECT_EQ(blob.compression_codec, "");
  EXPECT_EQ(blob.properties.at("referenced-data-file"), "s3://b/t/data/b.parquet");
  EXPECT_EQ(blob.properties.at("cardinality"), "132561");
  EXPECT_EQ(blob.offset, (*files)[1].content_offset);
}

TEST(DeletionVectorTest, WriterRefusesBadInput) {
  auto io = NewMemoryFileIO();
  EXPECT_TRUE(WriteDeletionVectorFile(*io, "mem://t/x.puffin", {}).status().IsInvalidArgument());
  std::vector<DeletionVectorToWrite> dup(2);
  dup[0] = ToWrite("a", Of({1}));
  dup[1] = ToWrite("a", Of({2}));
  auto r = WriteDeletionVectorFile(*io, "mem://t/x.puffin", dup);
  EXPECT_TRUE(r.status().IsInvalidArgument());
  EXPECT_NE(r.status().message().find("two vectors for 'a'"), std::string::npos) << r.status().message();
  std::vector<DeletionVectorToWrite> empty(1);
  empty[0].referenced_data_file = "a";
  EXPECT_TRUE(WriteDeletionVectorFile(*io, "mem://t/x.puffin", empty).status().IsInvalidArgument());
  empty[0].referenced_data_file.clear();
  EXPECT_TRUE(WriteDeletionVectorFile(*io, "mem://t/x.puffin", empty).status().IsInvalidArgument());
  EXPECT_FALSE(*io->Exists("mem://t/x.puffin"));
}

TEST(DeletionVectorTest, ReadRefusesInconsistentEntries) {
  auto io = NewMemoryFileIO();
  std::vector<DeletionVectorToWrite> dvs(1);
  dvs[0] = ToWrite("a", Of({1, 2, 3}));
  auto files = WriteDeletionVectorFile(*io, "mem://t/r.puffin", dvs);
  ASSERT_TRUE(files.ok());
  const DataFile good = (*files)[0];
  ASSERT_TRUE(ReadDeletionVector(*io, good).ok());

  DataFile data = good;
  data.file_format = std::string(kFileFormatParquet);
  EXPECT_TRUE(ReadDeletionVector(*io, data).status().IsInvalidArgument());
  DataFile count = good;
  count.record_count = 4;
  auto c = ReadDeletionVector(*io, count);
  EXPECT_TRUE(c.status().IsCorrupt());
  EXPECT_NE(c.status().message().find("holds 3 positions, record_count says 4"), std::string::npos)
      << c.status().message();
  DataFile missing = good;
  missing.content_offset.reset();
  EXPECT_TRUE(ReadDeletionVector(*io, missing).status().IsCorrupt());
  DataFile past = good;
  past.content_offset = good.file_size_in_bytes - 10;
  auto p = ReadDeletionVector(*io, past);
  EXPECT_TRUE(p.status().IsCorrupt());
  EXPECT_NE(p.status().message().find("runs past the end"), std::string::npos) << p.status().message();
  DataFile shifted = good;
  shifted.content_offset = *good.content_offset + 1;
  shifted.content_size_in_bytes = *good.content_size_in_bytes - 1;
  auto s = ReadDeletionVector(*io, shifted);
  EXPECT_TRUE(s.status().IsCorrupt());
  EXPECT_NE(s.status().message().find("deletion vector in 'mem://t/r.puffin' at offset 5"), std::string::npos)
      << s.status().message();
  DataFile negative = good;
  negative.content_size_in_bytes = -1;
  EXPECT_TRUE(ReadDeletionVector(*io, negative).status().IsCorrupt());
  DataFile gone = good;
  gone.file_path = "mem://t/none.puffin";
  gone.file_size_in_bytes = 0;
  EXPECT_TRUE(ReadDeletionVector(*io, gone).status().IsNotFound());
}

}  // namespace
}  // namespace floe::iceberg
