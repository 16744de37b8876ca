// Manifest lists: round trips v1–v3, the writer's sequence number and first
// row id assignment, the file's metadata, and what reader and writer refuse.

#include "floe/iceberg/manifest_list.h"

#include <gtest/gtest.h>

#include "floe/formats/avro/container_reader.h"
#include "floe/formats/avro/container_writer.h"
#include "floe/iceberg/manifest_avro_schema.h"

namespace floe::iceberg {
namespace {

const char* kManifestListPath = "mem://wh/t/metadata/snap-1.avro";
constexpr int64_t kListSnapshotId = 9000000000000000001;

ManifestFile Manifest(std::string name, ManifestContent content = ManifestContent::kData) {
  ManifestFile m;
  m.manifest_path = "mem://wh/t/metadata/" + std::move(name);
  m.manifest_length = 6658;
  m.partition_spec_id = 1;
  m.content = content;
  m.sequence_number = ManifestFile::kUnassignedSequenceNumber;
  m.min_sequence_number = ManifestFile::kUnassignedSequenceNumber;
  m.added_snapshot_id = kListSnapshotId;
  m.added_files_count = 2;
  m.existing_files_count = 1;
  m.deleted_files_count = 0;
  m.added_rows_count = 100;
  m.existing_rows_count = 50;
  m.deleted_rows_count = 0;
  m.partitions = {
      PartitionFieldSummary{true, false, std::string("\x01\x00\x00\x00", 4), std::string("\x09\x00\x00\x00", 4)},
      PartitionFieldSummary{false, std::nullopt, std::nullopt, std::nullopt}};
  m.key_metadata = std::string("k\0y", 3);
  return m;
}

// A manifest of an earlier snapshot, carried into the new list.
ManifestFile Carried() {
  ManifestFile m = Manifest("old-m0.avro");
  m.added_snapshot_id = 17;
  m.sequence_number = 3;
  m.min_sequence_number = 2;
  m.first_row_id = 40;
  m.partitions.clear();
  return m;
}

std::unique_ptr<ManifestListWriter> MustOpenListWriter(FileIO& io, int version, std::optional<int64_t> first_row_id = 1000) {
  auto w = ManifestListWriter::Open(io, kManifestListPath, version, kListSnapshotId, 17, 8, version >= 3 ? first_row_id : std::nullopt);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return w.ok() ? std::move(w).value() : nullptr;
}

class ManifestListRoundTripTest : public ::testing::TestWithParam<int> {};

TEST_P(ManifestListRoundTripTest, AssignsSequenceNumbersAndRowIdsAndReadsBack) {
  const int v = GetParam();
  auto io = NewMemoryFileIO();
  auto w = MustOpenListWriter(*io, v);
  ASSERT_NE(w, nullptr);
  auto a = w->Add(Manifest("new-m0.avro"));
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  auto b = w->Add(Carried());
  ASSERT_TRUE(b.ok());
  std::optional<ManifestFile> deletes;
  if (v >= 2) {
    ManifestFile d = Manifest("new-d0.avro", ManifestContent::kDeletes);
    d.min_sequence_number = 5;  // carries an explicit older data sequence number
    auto c = w->Add(d);
    ASSERT_TRUE(c.ok());
    deletes = *c;
  }
  auto e = w->Add(Manifest("new-m1.avro"));
  ASSERT_TRUE(e.ok());
  ASSERT_TRUE(w->Close().ok());

  if (v >= 2) {
    EXPECT_EQ(a->sequence_number, 8);
    EXPECT_EQ(a->min_sequence_number, 8);
    EXPECT_EQ(b->sequence_number, 3);  // assigned before: kept
    EXPECT_EQ(b->min_sequence_number, 2);
    EXPECT_EQ(deletes->sequence_number, 8);
    EXPECT_EQ(deletes->min_sequence_number, 5);
  }
  if (v >= 3) {
    // spec: first_row_id = last assigned + its added and existing rows.
    EXPECT_EQ(a->first_row_id, 1000);
    EXPECT_EQ(b->first_row_id, 40);
    EXPECT_FALSE(deletes->first_row_id.has_value());
    EXPECT_EQ(e->first_row_id, 1150);
    EXPECT_EQ(w->next_row_id(), 1300);
  } else {
    EXPECT_FALSE(a->first_row_id.has_value());
    EXPECT_FALSE(w->next_row_id().has_value());
  }

  auto read = ReadManifestList(*io, kManifestListPath);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  std::vector<ManifestFile> expected = {*a, *b};
  if (deletes) expected.push_back(*deletes);
  expected.push_back(*e);
  if (v == 1) {
    // v1 has no content or sequence numbers: they read as data and 0.
    for (ManifestFile& m : expected) {
      EXPECT_EQ(m.sequence_number, 0);
      EXPECT_EQ(m.min_sequence_number, 0);
    }
  }
  ASSERT_EQ(read->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ((*read)[i], expected[i]);
  }
  EXPECT_EQ((*read)[0].partitions.size(), 2u);
  EXPECT_EQ((*read)[0].partitions[0].lower_bound, std::string("\x01\x00\x00\x00", 4));
  EXPECT_EQ((*read)[0].partitions[1].contains_nan, std::nullopt);
  EXPECT_TRUE((*read)[1].partitions.empty());
}

TEST_P(ManifestListRoundTripTest, MetadataNamesTheSnapshot) {
  const int v = GetParam();
  auto io = NewMemoryFileIO();
  auto w = MustOpenListWriter(*io, v);
  ASSERT_TRUE(w->Close().ok());
  auto r = avro::ContainerReader::Open(*io, kManifestListPath);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*(*r)->FindMetadata("snapshot-id"), "9000000000000000001");
  EXPECT_EQ(*(*r)->FindMetadata("parent-snapshot-id"), "17");
  EXPECT_EQ(*(*r)->FindMetadata("format-version"), std::to_string(v));
  if (v >= 2) {
    EXPECT_EQ(*(*r)->FindMetadata("sequence-number"), "8");
  } else {
    EXPECT_EQ((*r)->FindMetadata("sequence-number"), nullptr);
  }
  if (v >= 3) {
    EXPECT_EQ(*(*r)->FindMetadata("first-row-id"), "1000");
  } else {
    EXPECT_EQ((*r)->FindMetadata("first-row-id"), nullptr);
  }
  EXPECT_EQ((*r)->writer_schema()->root().name(), "manifest_file");
  auto no_parent = ManifestListWriter::Open(*io, kManifestListPath, v, kListSnapshotId, std::nullopt, 1, 0);
  ASSERT_TRUE(no_parent.ok());
  ASSERT_TRUE((*no_parent)->Close().ok());
  EXPECT_EQ(*avro::ContainerReader::Open(*io, kManifestListPath).value()->FindMetadata("parent-snapshot-id"), "null");
  EXPECT_TRUE(ReadManifestList(*io, kManifestListPath).value().empty());
}

INSTANTIATE_TEST_SUITE_P(Versions, ManifestListRoundTripTest, ::testing::Values(1, 2, 3),
                         [](const auto& info) { return "V" + std::to_string(info.param); });

TEST(ManifestListTest, V1KeepsMissingCounts) {
  auto io = NewMemoryFileIO();
  auto w = MustOpenListWriter(*io, 1);
  ManifestFile m = Manifest("m.avro");
  m.added_files_count.reset();
  m.deleted_rows_count.reset();
  ASSERT_TRUE(w->Add(m).ok());
  ASSERT_TRUE(w->Close().ok());
  auto read = ReadManifestList(*io, kManifestListPath);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->size(), 1u);
  EXPECT_FALSE((*read)[0].added_files_count.has_value());
  EXPECT_FALSE((*read)[0].deleted_rows_count.has_value());
  EXPECT_EQ((*read)[0].existing_files_count, 1);
}

TEST(ManifestListTest, WriterRefusesRowsTheListCannotCarry) {
  auto io = NewMemoryFileIO();
  auto w = MustOpenListWriter(*io, 2);
  ManifestFile foreign = Manifest("f.avro");
  foreign.added_snapshot_id = 5;  // unassigned, but another snapshot's
  Result<ManifestFile> r = w->Add(foreign);
  EXPECT_TRUE(r.status().IsInvalidArgument());
  EXPECT_EQ(r.status().message(),
            "manifest list 'mem://wh/t/metadata/snap-1.avro': manifest 'mem://wh/t/metadata/f.avro': its sequence "
            "number is unassigned but snapshot 5 added it, not this list's snapshot 9000000000000000001");
  ManifestFile no_counts = Manifest("c.avro");
  no_counts.existing_rows_count.reset();
  EXPECT_NE(w->Add(no_counts).status().message().find("needs its file and row counts"), std::string::npos);
  ManifestFile negative = Manifest("n.avro");
  negative.deleted_files_count = -1;
  EXPECT_TRUE(w->Add(negative).status().IsInvalidArgument());
  EXPECT_EQ(w->manifests_written(), 0);

  auto v1 = MustOpenListWriter(*io, 1);
  EXPECT_TRUE(v1->Add(Manifest("d.avro", ManifestContent::kDeletes)).status().IsInvalidArgument());
  auto v3 = MustOpenListWriter(*io, 3);
  ManifestFile d = Manifest("d.avro", ManifestContent::kDeletes);
  d.first_row_id = 3;
  EXPECT_TRUE(v3->Add(d).status().IsInvalidArgument());
  EXPECT_TRUE(
      ManifestListWriter::Open(*io, kManifestListPath, 3, kListSnapshotId, std::nullopt, 1, std::nullopt).status().IsInvalidArgument());
  EXPECT_TRUE(ManifestListWriter::Open(*io, kManifestListPath, 0, kListSnapshotId, std::nullopt, 1).status().IsInvalidArgument());
  EXPECT_TRUE(ManifestListWriter::Open(*io, kManifestListPath, 2, kListSnapshotId, std::nullopt, -4).status().IsInvalidArgument());
}

TEST(ManifestListTest, AbortPublishesNothing) {
  auto io = NewMemoryFileIO();
  auto w = MustOpenListWriter(*io, 2);
  ASSERT_TRUE(w->Add(Manifest("m.avro")).ok());
  w->Abort();
  EXPECT_FALSE(io->Exists(kManifestListPath).value());
  EXPECT_TRUE(w->Close().IsInvalidArgument());
}

// A list written with a hand-made schema, to hold values floe's writer refuses.
void WriteRaw(FileIO& io, std::string_view schema_json, const std::vector<avro::Datum>& rows,
              const std::string& version) {
  auto schema = avro::Schema::Parse(schema_json);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  avro::ContainerWriterOptions options;
  options.metadata = {{"format-version", version}};
  auto w = avro::ContainerWriter::Open(io.OpenWrite(kManifestListPath).value(), *schema, options);
  ASSERT_TRUE(w.ok());
  for (const auto& row : rows) ASSERT_TRUE((*w)->Append(row).ok()) << row.ToString();
  ASSERT_TRUE((*w)->Close().ok());
}

TEST(ManifestListTest, ReaderNamesTheRowAndFieldOfBadValues) {
  using avro::Datum;
  auto io = NewMemoryFileIO();
  constexpr std::string_view kSmall = R"({"type":"record","name":"manifest_file","fields":[
    {"name":"manifest_path","type":"string","field-id":500},
    {"name":"manifest_length","type":"long","field-id":501},
    {"name":"partition_spec_id","type":"int","field-id":502},
    {"name":"content","type":"int","field-id":517},
    {"name":"added_snapshot_id","type":["null","long"],"field-id":503}]})";
  auto row = [](int64_t length, int32_t content, Datum snapshot) {
    return Datum::Record({Datum::String("m.avro"), Datum::Long(length), Datum::Int(0), Datum::Int(content), snapshot});
  };
  WriteRaw(*io, kSmall, {row(10, 0, Datum::Long(1)), row(-10, 0, Datum::Long(1))}, "1");
  EXPECT_EQ(ReadManifestList(*io, kManifestListPath).status().message(),
            "manifest list 'mem://wh/t/metadata/snap-1.avro': manifest 1: field 'manifest_length' is -10");
  WriteRaw(*io, kSmall, {row(10, 2, Datum::Long(1))}, "1");
  EXPECT_EQ(ReadManifestList(*io, kManifestListPath).status().message(),
            "manifest list 'mem://wh/t/metadata/snap-1.avro': manifest 0: field 'content' is 2, not 0 (data) or 1 "
            "(deletes)");
  WriteRaw(*io, kSmall, {row(10, 0, Datum::Null())}, "1");
  EXPECT_EQ(
      ReadManifestList(*io, kManifestListPath).status().message(),
      "manifest list 'mem://wh/t/metadata/snap-1.avro': manifest 0: field 'added_snapshot_id' is missing or null");
  // The same file declared v2 lacks the sequence numbers v2 requires.
  WriteRaw(*io, kSmall, {row(10, 0, Datum::Long(1))}, "2");
  EXPECT_EQ(ReadManifestList(*io, kManifestListPath).status().message(),
            "manifest list 'mem://wh/t/metadata/snap-1.avro': manifest 0: field 'sequence_number' is missing or null");
  WriteRaw(*io, kSmall, {}, "7");
  EXPECT_TRUE(ReadManifestList(*io, kManifestListPath).status().IsUnsupported());
  WriteRaw(*io, R"({"type":"record","name":"x","fields":[{"name":"manifest_path","type":"long","field-id":500}]})",
           {Datum::Record({Datum::Long(1)})}, "1");
  EXPECT_TRUE(ReadManifestList(*io, kManifestListPath).status().IsCorrupt());
  EXPECT_TRUE(ReadManifestList(*io, "mem://wh/none.avro").status().IsNotFound());
}

}  // namespace
}  // namespace floe::iceberg
