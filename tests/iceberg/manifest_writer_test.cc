// ManifestWriter round trips through ManifestReader, v1–v3: every field of
// data and delete files, partition tuples of every transform result type,
// the ManifestFile summary, the file's metadata, and what the writer
// refuses.

#include "floe/iceberg/manifest_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "floe/formats/avro/container_reader.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/schema_json.h"
#include "iceberg/manifest_test_util.h"

namespace floe::iceberg {
namespace {

using testing::Entry;
using testing::FullDataFile;
using testing::MustRead;
using testing::WidePartition;
using testing::WideSchema;
using testing::WideSpec;

constexpr int64_t kWriterSnapshotId = 7700000000000000077;
const char* kManifestPath = "mem://wh/t/metadata/m0.avro";

std::unique_ptr<ManifestWriter> MustOpenManifestWriter(FileIO& io, int version, const PartitionSpec& spec = WideSpec(),
                                         ManifestContent content = ManifestContent::kData,
                                         const ManifestWriteOptions& options = {}) {
  auto w = ManifestWriter::Open(io, kManifestPath, version, spec, WideSchema(), kWriterSnapshotId, content, options);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return w.ok() ? std::move(w).value() : nullptr;
}

std::string Bytes(const Literal& l) { return l.ToBytes(); }

class ManifestRoundTripTest : public ::testing::TestWithParam<int> {};

TEST_P(ManifestRoundTripTest, DataManifestKeepsEveryFieldAndSummarisesIt) {
  const int v = GetParam();
  auto io = NewMemoryFileIO();
  auto w = MustOpenManifestWriter(*io, v);
  ASSERT_NE(w, nullptr);
  const int32_t spec_id = WideSpec().spec_id;
  std::vector<DataFile> files;
  for (int i = 0; i < 4; ++i) files.push_back(FullDataFile(i, spec_id, WidePartition(i), v));
  ASSERT_TRUE(w->Add(Entry(files[0])).ok());
  // An added file whose data belongs to an older sequence number.
  ASSERT_TRUE(w->Add(Entry(files[1], std::nullopt, v >= 2 ? std::optional<int64_t>(3) : std::nullopt)).ok());
  ASSERT_TRUE(w->Existing(Entry(files[2], 55, 2, 2)).ok());
  ASSERT_TRUE(w->Delete(Entry(files[3], 55, 1, 1)).ok());
  EXPECT_EQ(w->entries_written(), 4);
  auto closed = w->Close();
  ASSERT_TRUE(closed.ok()) << closed.status().ToString();
  const ManifestFile& m = *closed;

  EXPECT_EQ(m.manifest_path, kManifestPath);
  EXPECT_EQ(m.manifest_length, io->Stat(kManifestPath)->size);
  EXPECT_EQ(m.partition_spec_id, 2);
  EXPECT_EQ(m.content, ManifestContent::kData);
  EXPECT_EQ(m.added_snapshot_id, kWriterSnapshotId);
  EXPECT_EQ(m.added_files_count, 2);
  EXPECT_EQ(m.existing_files_count, 1);
  EXPECT_EQ(m.deleted_files_count, 1);
  EXPECT_EQ(m.added_rows_count, 1000 + 1001);
  EXPECT_EQ(m.existing_rows_count, 1002);
  EXPECT_EQ(m.deleted_rows_count, 1003);
  if (v == 1) {
    EXPECT_EQ(m.sequence_number, 0);
    EXPECT_EQ(m.min_sequence_number, 0);
  } else {
    EXPECT_EQ(m.sequence_number, ManifestFile::kUnassignedSequenceNumber);
    EXPECT_EQ(m.min_sequence_number, 2);  // live entries 3 (added) and 2 (existing); the deleted 1 does not count
  }
  // Partition summaries over all four tuples, deleted included.
  ASSERT_EQ(m.partitions.size(), WideSpec().fields.size());
  const PartitionFieldSummary& category = m.partitions[1];
  EXPECT_TRUE(category.contains_null);
  EXPECT_EQ(category.contains_nan, false);
  EXPECT_EQ(category.lower_bound, "cat-0");
  EXPECT_EQ(category.upper_bound, "cat-3");
  const PartitionFieldSummary& score = m.partitions[7];  // -0.0, -0.5, -1.0, NaN
  EXPECT_FALSE(score.contains_null);
  EXPECT_EQ(score.contains_nan, true);
  EXPECT_EQ(score.lower_bound, Bytes(Literal::Double(-1.0)));
  EXPECT_EQ(score.upper_bound, Bytes(Literal::Double(-0.0)));  // spec: -0.0 orders below +0.0, and is the max here
  const PartitionFieldSummary& price = m.partitions[4];
  EXPECT_EQ(price.lower_bound, Bytes(testing::Dec(Type::Decimal(9, 2).value(), -123456)));
  EXPECT_EQ(price.upper_bound, Bytes(testing::Dec(Type::Decimal(9, 2).value(), 99999999)));
  const PartitionFieldSummary& odd_name = m.partitions[17];  // null, -1, -2, -3
  EXPECT_TRUE(odd_name.contains_null);
  EXPECT_EQ(odd_name.lower_bound, Bytes(Literal::Int(-3)));
  EXPECT_EQ(odd_name.upper_bound, Bytes(Literal::Int(-1)));

  // Read back as committed with sequence number 9.
  ManifestFile committed = m;
  committed.sequence_number = v >= 2 ? 9 : 0;
  const std::vector<ManifestEntry> entries = MustRead(*io, committed);
  ASSERT_EQ(entries.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(entries[i].data_file, files[i]);
  }
  EXPECT_EQ(entries[0].status, ManifestEntryStatus::kAdded);
  EXPECT_EQ(entries[0].snapshot_id, kWriterSnapshotId);
  EXPECT_EQ(entries[2].status, ManifestEntryStatus::kExisting);
  EXPECT_EQ(entries[2].snapshot_id, 55);
  EXPECT_EQ(entries[3].status, ManifestEntryStatus::kDeleted);
  EXPECT_EQ(entries[3].snapshot_id, kWriterSnapshotId);  // the snapshot that deleted it
  if (v == 1) {
    for (const ManifestEntry& e : entries) {
      EXPECT_EQ(e.sequence_number, 0);
      EXPECT_EQ(e.file_sequence_number, 0);
    }
  } else {
    EXPECT_EQ(entries[0].sequence_number, 9);
    EXPECT_EQ(entries[0].file_sequence_number, 9);
    EXPECT_EQ(entries[1].sequence_number, 3);
    EXPECT_EQ(entries[1].file_sequence_number, 9);
    EXPECT_EQ(entries[2].sequence_number, 2);
    EXPECT_EQ(entries[2].file_sequence_number, 2);
    EXPECT_EQ(entries[3].sequence_number, 1);
    EXPECT_EQ(entries[3].file_sequence_number, 1);
  }
  // NaN and -0.0 partition values survive bit for bit.
  EXPECT_TRUE(std::isnan(entries[3].data_file.partition[7]->double_value()));
  EXPECT_TRUE(std::signbit(entries[0].data_file.partition[7]->double_value()));
}

TEST_P(ManifestRoundTripTest, MetadataNamesSchemaSpecVersionAndContent) {
  const int v = GetParam();
  auto io = NewMemoryFileIO();
  auto w = MustOpenManifestWriter(*io, v);
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->Close().ok());
  auto r = avro::ContainerReader::Open(*io, kManifestPath);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const avro::ContainerReader& c = **r;
  EXPECT_EQ(c.codec(), avro::BlockCodec::kDeflate);
  ASSERT_NE(c.FindMetadata("schema"), nullptr);
  EXPECT_EQ(SchemaFromJson(*c.FindMetadata("schema")).value(), WideSchema());
  EXPECT_EQ(*c.FindMetadata("schema-id"), "3");
  ASSERT_NE(c.FindMetadata("partition-spec"), nullptr);
  EXPECT_EQ(c.FindMetadata("partition-spec")->front(), '[');  // spec: "only the partition fields array"
  EXPECT_EQ(PartitionSpecFromJson(*c.FindMetadata("partition-spec"), 2).value(), WideSpec());
  EXPECT_EQ(*c.FindMetadata("partition-spec-id"), "2");
  EXPECT_EQ(*c.FindMetadata("format-version"), std::to_string(v));
  if (v == 1) {
    EXPECT_EQ(c.FindMetadata("content"), nullptr);  // v1 has data manifests only
  } else {
    EXPECT_EQ(*c.FindMetadata("content"), "data");
  }
  EXPECT_EQ(c.writer_schema()->root().name(), "manifest_entry");
}

TEST_P(ManifestRoundTripTest, UnpartitionedManifest) {
  const int v = GetParam();
  auto io = NewMemoryFileIO();
  PartitionSpec unpartitioned;
  auto w = MustOpenManifestWriter(*io, v, unpartitioned);
  ASSERT_NE(w, nullptr);
  DataFile f = FullDataFile(0, 0, {}, v);
  ASSERT_TRUE(w->Add(Entry(f)).ok());
  auto m = w->Close();
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->partitions.empty());
  ManifestFile committed = *m;
  committed.sequence_number = v >= 2 ? 4 : 0;
  auto entries = MustRead(*io, committed);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].data_file, f);
  EXPECT_TRUE(entries[0].data_file.partition.empty());
  auto reader = ManifestReader::Open(*io, committed);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->format_version(), v);
  EXPECT_TRUE((*reader)->partition_spec().fields.empty());
}

INSTANTIATE_TEST_SUITE_P(Versions, ManifestRoundTripTest, ::testing::Values(1, 2, 3),
                         [](const auto& info) { return "V" + std::to_string(info.param); });

class DeleteManifestRoundTripTest : public ::testing::TestWithParam<int> {};

TEST_P(DeleteManifestRoundTripTest, EqualityAndPositionDeletesKeepTheirFields) {
  const int v = GetParam();
  auto io = NewMemoryFileIO();
  auto w = MustOpenManifestWriter(*io, v, WideSpec(), ManifestContent::kDeletes);
  ASSERT_NE(w, nullptr);
  const DataFile eq = FullDataFile(0, 2, WidePartition(0), v, DataFileContent::kEqualityDeletes);
  const DataFile pos = FullDataFile(1, 2, WidePartition(1), v, DataFileContent::kPositionDeletes);
  ASSERT_TRUE(w->Add(Entry(eq)).ok());
  ASSERT_TRUE(w->Add(Entry(pos)).ok());
  auto m = w->Close();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->content, ManifestContent::kDeletes);
  EXPECT_EQ(m->min_sequence_number, ManifestFile::kUnassignedSequenceNumber);
  ManifestFile committed = *m;
  committed.sequence_number = 12;
  committed.first_row_id = 100;  // ignored: delete files take no row ids
  auto reader = ManifestReader::Open(*io, committed);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->content(), ManifestContent::kDeletes);
  auto entries = (*reader)->ReadAll();
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].data_file, eq);
  EXPECT_EQ((*entries)[0].data_file.equality_ids, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ((*entries)[1].data_file, pos);
  EXPECT_EQ((*entries)[1].data_file.referenced_data_file, "s3://bucket/warehouse/db/t/data/part-0.parquet");
  EXPECT_FALSE((*entries)[1].data_file.first_row_id.has_value());
  if (v == 3) {
    EXPECT_TRUE((*entries)[1].data_file.is_deletion_vector());
    EXPECT_EQ((*entries)[1].data_file.content_offset, 5);
    EXPECT_EQ((*entries)[1].data_file.content_size_in_bytes, 41);
  }
  EXPECT_EQ((*entries)[1].sequence_number, 12);
}

INSTANTIATE_TEST_SUITE_P(Versions, DeleteManifestRoundTripTest, ::testing::Values(2, 3),
                         [](const auto& info) { return "V" + std::to_string(info.param); });

TEST(ManifestWriterTest, EveryCodecRoundTrips) {
  for (avro::BlockCodec codec :
       {avro::BlockCodec::kNull, avro::BlockCodec::kDeflate, avro::BlockCodec::kSnappy, avro::BlockCodec::kZstandard}) {
    SCOPED_TRACE(avro::BlockCodecName(codec));
    auto io = NewMemoryFileIO();
    ManifestWriteOptions options;
    options.codec = codec;
    options.block_size_bytes = 512;  // several blocks
    auto w = MustOpenManifestWriter(*io, 2, WideSpec(), ManifestContent::kData, options);
    ASSERT_NE(w, nullptr);
    std::vector<DataFile> files;
    for (int i = 0; i < 50; ++i) {
      files.push_back(FullDataFile(i, 2, WidePartition(i % 5), 2));
      ASSERT_TRUE(w->Add(Entry(files.back())).ok());
    }
    auto m = w->Close();
    ASSERT_TRUE(m.ok());
    auto entries = MustRead(*io, *m);
    ASSERT_EQ(entries.size(), files.size());
    for (size_t i = 0; i < files.size(); ++i) EXPECT_EQ(entries[i].data_file, files[i]);
  }
}

TEST(ManifestWriterTest, RefusesEntriesThatDoNotFitTheManifest) {
  auto io = NewMemoryFileIO();
  auto w2 = MustOpenManifestWriter(*io, 2);
  ASSERT_NE(w2, nullptr);
  DataFile good = FullDataFile(0, 2, WidePartition(0), 2);

  DataFile short_tuple = good;
  short_tuple.partition.pop_back();
  Status s = w2->Add(Entry(short_tuple));
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(),
            "manifest 'mem://wh/t/metadata/m0.avro': added file 's3://bucket/warehouse/db/t/data/part-0.parquet': "
            "partition tuple has 18 values, the spec has 19 fields");
  DataFile wrong_type = good;
  wrong_type.partition[1] = Literal::Int(5);
  EXPECT_EQ(w2->Add(Entry(wrong_type)).message(),
            "manifest 'mem://wh/t/metadata/m0.avro': added file 's3://bucket/warehouse/db/t/data/part-0.parquet': "
            "partition field 'category' is a int value, not string");
  DataFile other_spec = good;
  other_spec.spec_id = 0;
  EXPECT_TRUE(w2->Add(Entry(other_spec)).IsInvalidArgument());
  DataFile negative = good;
  negative.record_count = -3;
  EXPECT_NE(w2->Add(Entry(negative)).message().find("record_count is -3"), std::string::npos);
  DataFile deletes = good;
  deletes.content = DataFileContent::kEqualityDeletes;
  deletes.equality_ids = {1};
  EXPECT_NE(w2->Add(Entry(deletes)).message().find("a delete file cannot go in a data manifest"), std::string::npos);
  DataFile row_id = good;
  row_id.first_row_id = 5;
  EXPECT_NE(w2->Add(Entry(row_id)).message().find("first_row_id needs format version 3"), std::string::npos);
  // spec: existing and deleted entries carry both sequence numbers.
  EXPECT_NE(w2->Existing(Entry(good, 5, 1, std::nullopt)).message().find("needs its data and file sequence numbers"),
            std::string::npos);
  EXPECT_NE(w2->Existing(Entry(good, std::nullopt, 1, 1)).message().find("needs the snapshot id"), std::string::npos);
  EXPECT_TRUE(w2->Delete(Entry(good, 5, std::nullopt, 1)).IsInvalidArgument());
  EXPECT_EQ(w2->entries_written(), 0);  // nothing of the refused entries was written
  ASSERT_TRUE(w2->Add(Entry(good)).ok());
  auto m = w2->Close();
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(MustRead(*io, *m).size(), 1u);

  auto w1 = MustOpenManifestWriter(*io, 1);
  ASSERT_NE(w1, nullptr);
  DataFile eq_ids = FullDataFile(0, 2, WidePartition(0), 1);
  eq_ids.equality_ids = {1};
  EXPECT_NE(w1->Add(Entry(eq_ids)).message().find("equality_ids need format version 2"), std::string::npos);

  auto d3 = MustOpenManifestWriter(*io, 3, WideSpec(), ManifestContent::kDeletes);
  ASSERT_NE(d3, nullptr);
  DataFile dv = FullDataFile(0, 2, WidePartition(0), 3, DataFileContent::kPositionDeletes);
  dv.content_offset.reset();
  EXPECT_NE(d3->Add(Entry(dv)).message().find("a deletion vector needs"), std::string::npos);
  DataFile eq_without_ids = FullDataFile(0, 2, WidePartition(0), 3, DataFileContent::kEqualityDeletes);
  eq_without_ids.equality_ids.clear();
  EXPECT_NE(d3->Add(Entry(eq_without_ids)).message().find("needs equality_ids"), std::string::npos);
}

TEST(ManifestWriterTest, RefusesBadManifests) {
  auto io = NewMemoryFileIO();
  auto v4 = ManifestWriter::Open(*io, kManifestPath, 4, WideSpec(), WideSchema(), 1, ManifestContent::kData);
  EXPECT_TRUE(v4.status().IsInvalidArgument());
  auto v1_deletes = ManifestWriter::Open(*io, kManifestPath, 1, WideSpec(), WideSchema(), 1, ManifestContent::kDeletes);
  EXPECT_EQ(v1_deletes.status().message(), "manifest 'mem://wh/t/metadata/m0.avro': v1 manifests hold data files only");
  PartitionSpec unknown;
  unknown.fields = {PartitionField{{1}, 1000, "z", Transform::Parse("zorder").value()}};
  auto u = ManifestWriter::Open(*io, kManifestPath, 2, unknown, WideSchema(), 1, ManifestContent::kData);
  EXPECT_EQ(u.status().message(),
            "manifest 'mem://wh/t/metadata/m0.avro': partition field 'z' has the unknown transform 'zorder'");
  PartitionSpec missing_source;
  missing_source.fields = {PartitionField{{99}, 1000, "gone", Transform::Identity()}};
  EXPECT_TRUE(ManifestWriter::Open(*io, kManifestPath, 2, missing_source, WideSchema(), 1, ManifestContent::kData)
                  .status()
                  .IsInvalidArgument());
  EXPECT_FALSE(io->Exists(kManifestPath).value());
}

TEST(ManifestWriterTest, AbortOrDestroyWithoutClosePublishesNothing) {
  auto io = NewMemoryFileIO();
  {
    auto w = MustOpenManifestWriter(*io, 2);
    ASSERT_TRUE(w->Add(Entry(FullDataFile(0, 2, WidePartition(0), 2))).ok());
  }
  EXPECT_FALSE(io->Exists(kManifestPath).value());
  auto w = MustOpenManifestWriter(*io, 2);
  ASSERT_TRUE(w->Add(Entry(FullDataFile(0, 2, WidePartition(0), 2))).ok());
  w->Abort();
  w->Abort();
  EXPECT_FALSE(io->Exists(kManifestPath).value());
  EXPECT_TRUE(w->Add(Entry(FullDataFile(0, 2, WidePartition(0), 2))).IsInvalidArgument());
  EXPECT_TRUE(w->Close().status().IsInvalidArgument());

  auto closed = MustOpenManifestWriter(*io, 2);
  ASSERT_TRUE(closed->Close().ok());
  EXPECT_TRUE(closed->Close().status().IsInvalidArgument());
  EXPECT_TRUE(io->Exists(kManifestPath).value());
}

TEST(ManifestWriterTest, PutIfAbsentRefusesAnExistingName) {
  auto io = NewMemoryFileIO();
  ASSERT_TRUE(io->WriteAll(kManifestPath, "taken").ok());
  ManifestWriteOptions options;
  options.write.if_absent = true;
  auto w = MustOpenManifestWriter(*io, 2, WideSpec(), ManifestContent::kData, options);
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(w->Close().status().IsAlreadyExists());
  EXPECT_EQ(io->ReadAll(kManifestPath)->view(), "taken");
}

}  // namespace
}  // namespace floe::iceberg
