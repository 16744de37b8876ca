// ManifestReader: the spec's inheritance rules, reading options, and clear
// errors for manifests that break the spec (written here with the generic
// Avro writer, so any value can be put in any field), and no crash on
// damaged bytes.

#include "floe/iceberg/manifest_reader.h"

#include <gtest/gtest.h>

#include "floe/base/json_writer.h"
#include "floe/formats/avro/container_writer.h"
#include "floe/iceberg/manifest_avro_schema.h"
#include "floe/iceberg/manifest_writer.h"
#include "floe/iceberg/schema_json.h"
#include "iceberg/manifest_test_util.h"

namespace floe::iceberg {
namespace {

using avro::Datum;
using testing::Col;
using testing::Entry;
using testing::MustRead;

const char* kRawManifestPath = "mem://t/metadata/raw.avro";

Schema TwoColumns() { return Schema::Make(0, {Col(1, "id", Type::Long(), true), Col(2, "p", Type::Int())}).value(); }

PartitionSpec IdentityP() {
  PartitionSpec spec;
  spec.fields = {PartitionField{{2}, 1000, "p", Transform::Identity()}};
  return spec;
}

std::string SpecFields(const PartitionSpec& spec) {
  JsonWriter w;
  WritePartitionFields(w, spec);
  return w.Take();
}

std::vector<std::pair<std::string, std::string>> Metadata(int version = 2, std::string content = "data") {
  return {{"schema", SchemaToJson(TwoColumns())},
          {"partition-spec", SpecFields(IdentityP())},
          {"partition-spec-id", "0"},
          {"format-version", std::to_string(version)},
          {"content", std::move(content)}};
}

// A v2 entry row of the spec schema: status, snapshot id, sequence numbers,
// and a data file with partition value `p`.
Datum Row(int32_t status, Datum snapshot_id, Datum seq, Datum file_seq, int64_t record_count = 10,
          Datum p = Datum::Int(7), int32_t content = 0) {
  std::vector<Datum> df = {Datum::Int(content),       Datum::String("s3://b/t/data/f.parquet"),
                           Datum::String("PARQUET"),  Datum::Record({std::move(p)}),
                           Datum::Long(record_count), Datum::Long(4096)};
  for (int i = 0; i < 10; ++i) df.push_back(Datum::Null());  // metrics maps, key_metadata, lists, sort order
  df.push_back(Datum::Null());                               // referenced_data_file
  return Datum::Record(
      {Datum::Int(status), std::move(snapshot_id), std::move(seq), std::move(file_seq), Datum::Record(std::move(df))});
}

void WriteRaw(FileIO& io, std::shared_ptr<const avro::Schema> schema, const std::vector<Datum>& rows,
              std::vector<std::pair<std::string, std::string>> metadata = Metadata()) {
  auto out = io.OpenWrite(kRawManifestPath);
  ASSERT_TRUE(out.ok());
  avro::ContainerWriterOptions options;
  options.metadata = std::move(metadata);
  auto w = avro::ContainerWriter::Open(std::move(out).value(), std::move(schema), options);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  for (const Datum& row : rows) ASSERT_TRUE((*w)->Append(row).ok()) << row.ToString();
  ASSERT_TRUE((*w)->Close().ok());
}

std::shared_ptr<const avro::Schema> SpecSchema(int version = 2) {
  return ManifestEntryAvroSchema(version, *IdentityP().PartitionType(TwoColumns()).value()).value();
}

ManifestFile Listed(int64_t seq, int64_t added_snapshot_id = 42) {
  ManifestFile m;
  m.manifest_path = kRawManifestPath;
  m.sequence_number = seq;
  m.added_snapshot_id = added_snapshot_id;
  return m;
}

Status ReadError(FileIO& io, const ManifestFile& m, const ManifestReaderOptions& options = {}) {
  auto r = ManifestReader::Open(io, m, options);
  if (!r.ok()) return r.status();
  return (*r)->ReadAll().status();
}

TEST(ManifestReaderTest, InheritsSnapshotIdAndSequenceNumbersAsTheSpecSays) {
  auto io = NewMemoryFileIO();
  WriteRaw(*io, SpecSchema(),
           {Row(1, Datum::Null(), Datum::Null(), Datum::Null()),     // added: inherits everything
            Row(1, Datum::Long(9), Datum::Long(3), Datum::Null()),   // added with an older data sequence number
            Row(0, Datum::Null(), Datum::Long(2), Datum::Long(2)),   // existing: snapshot id inherited
            Row(2, Datum::Long(8), Datum::Null(), Datum::Null())});  // deleted without them: left null
  const auto entries = MustRead(*io, Listed(5));
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].snapshot_id, 42);
  EXPECT_EQ(entries[0].sequence_number, 5);
  EXPECT_EQ(entries[0].file_sequence_number, 5);
  EXPECT_EQ(entries[1].snapshot_id, 9);
  EXPECT_EQ(entries[1].sequence_number, 3);
  EXPECT_EQ(entries[1].file_sequence_number, 5);
  EXPECT_EQ(entries[2].snapshot_id, 42);
  EXPECT_EQ(entries[2].sequence_number, 2);
  EXPECT_EQ(entries[3].status, ManifestEntryStatus::kDeleted);
  EXPECT_EQ(entries[3].snapshot_id, 8);
  EXPECT_FALSE(entries[3].sequence_number.has_value());
  EXPECT_FALSE(entries[3].file_sequence_number.has_value());
  for (const ManifestEntry& e : entries) {
    EXPECT_EQ(e.data_file.partition, PartitionValues{Literal::Int(7)});
    EXPECT_EQ(e.data_file.spec_id, 0);
  }

  // A manifest list of sequence number 0 (a v1 table's): every null is 0.
  const auto v1 = MustRead(*io, Listed(0));
  ASSERT_EQ(v1.size(), 4u);
  EXPECT_EQ(v1[3].sequence_number, 0);
  EXPECT_EQ(v1[3].file_sequence_number, 0);

  // Read back before its commit: nothing to inherit but the snapshot id.
  const auto uncommitted = MustRead(*io, Listed(ManifestFile::kUnassignedSequenceNumber));
  ASSERT_EQ(uncommitted.size(), 4u);
  EXPECT_FALSE(uncommitted[0].sequence_number.has_value());
  EXPECT_EQ(uncommitted[0].snapshot_id, 42);
}

TEST(ManifestReaderTest, FirstRowIdsInheritInFileOrderForDataFilesOnly) {
  auto io = NewMemoryFileIO();
  auto w = ManifestWriter::Open(*io, kRawManifestPath, 3, IdentityP(), TwoColumns(), 42, ManifestContent::kData);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  auto file = [](int64_t records, std::optional<int64_t> first_row_id) {
    DataFile f;
    f.file_path = "s3://b/t/data/" + std::to_string(records) + ".parquet";
    f.partition = {Literal::Int(1)};
    f.record_count = records;
    f.file_size_in_bytes = 100;
    f.first_row_id = first_row_id;
    return f;
  };
  ASSERT_TRUE((*w)->Add(Entry(file(10, std::nullopt))).ok());
  ASSERT_TRUE((*w)->Add(Entry(file(20, std::nullopt))).ok());
  ASSERT_TRUE((*w)->Existing(Entry(file(25, 7), 1, 1, 1)).ok());  // assigned before: kept
  ASSERT_TRUE((*w)->Add(Entry(file(30, std::nullopt))).ok());
  auto m = (*w)->Close();
  ASSERT_TRUE(m.ok());
  ManifestFile committed = *m;
  committed.sequence_number = 3;
  committed.first_row_id = 1000;
  const auto entries = MustRead(*io, committed);
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].data_file.first_row_id, 1000);
  EXPECT_EQ(entries[1].data_file.first_row_id, 1010);
  EXPECT_EQ(entries[2].data_file.first_row_id, 7);
  EXPECT_EQ(entries[3].data_file.first_row_id, 1030);
  // Without the manifest's first_row_id (not yet assigned) nothing is inherited.
  committed.first_row_id.reset();
  EXPECT_FALSE(MustRead(*io, committed)[0].data_file.first_row_id.has_value());
}

TEST(ManifestReaderTest, SkippingStatsLeavesTheMapsEmptyAndTheRestEqual) {
  auto io = NewMemoryFileIO();
  auto w = ManifestWriter::Open(*io, kRawManifestPath, 2, testing::WideSpec(), testing::WideSchema(), 42, ManifestContent::kData);
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE((*w)->Add(Entry(testing::FullDataFile(i, 2, testing::WidePartition(i), 2))).ok());
  auto m = (*w)->Close();
  ASSERT_TRUE(m.ok());
  const auto full = MustRead(*io, *m);
  ManifestReaderOptions options;
  options.read_stats = false;
  const auto lean = MustRead(*io, *m, options);
  ASSERT_EQ(lean.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    DataFile expected = full[i].data_file;
    EXPECT_FALSE(expected.column_sizes.empty());
    expected.column_sizes.clear();
    expected.value_counts.clear();
    expected.null_value_counts.clear();
    expected.nan_value_counts.clear();
    expected.lower_bounds.clear();
    expected.upper_bounds.clear();
    EXPECT_EQ(lean[i].data_file, expected);
    EXPECT_EQ(lean[i].status, full[i].status);
  }
}

TEST(ManifestReaderTest, ReadsPartitionValuesAsTheCallersTypeWithPromotion) {
  auto io = NewMemoryFileIO();
  WriteRaw(*io, SpecSchema(),
           {Row(1, Datum::Null(), Datum::Null(), Datum::Null(), 10, Datum::Int(-5)),
            Row(1, Datum::Null(), Datum::Null(), Datum::Null(), 10, Datum::Null())});
  ManifestReaderOptions options;
  // The column was promoted int -> long after the manifest was written.
  options.partition_type = Type::Struct({Col(1000, "p", Type::Long())});
  const auto entries = MustRead(*io, Listed(1), options);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].data_file.partition, PartitionValues{Literal::Long(-5)});
  EXPECT_EQ(entries[1].data_file.partition, PartitionValues{std::nullopt});
  // A caller's type with a field the file lacks reads null for it.
  options.partition_type = Type::Struct({Col(1000, "p", Type::Long()), Col(1001, "q", Type::String())});
  const auto wider = MustRead(*io, Listed(1), options);
  ASSERT_EQ(wider.size(), 2u);
  EXPECT_EQ(wider[0].data_file.partition, (PartitionValues{Literal::Long(-5), std::nullopt}));
}

TEST(ManifestReaderTest, BadValuesNameTheFileEntryAndField) {
  auto io = NewMemoryFileIO();
  WriteRaw(
      *io, SpecSchema(),
      {Row(1, Datum::Null(), Datum::Null(), Datum::Null()), Row(1, Datum::Null(), Datum::Null(), Datum::Null(), -3)});
  Status s = ReadError(*io, Listed(1));
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_EQ(s.message(), "manifest 'mem://t/metadata/raw.avro': entry 1: field 'data_file.record_count' is -3");

  WriteRaw(*io, SpecSchema(), {Row(7, Datum::Null(), Datum::Null(), Datum::Null())});
  EXPECT_EQ(ReadError(*io, Listed(1)).message(),
            "manifest 'mem://t/metadata/raw.avro': entry 0: field 'status' is 7, not 0 (existing), 1 (added) or 2 "
            "(deleted)");

  WriteRaw(*io, SpecSchema(), {Row(1, Datum::Null(), Datum::Null(), Datum::Null(), 1, Datum::Int(1), 5)});
  EXPECT_EQ(ReadError(*io, Listed(1)).message(),
            "manifest 'mem://t/metadata/raw.avro': entry 0: field 'data_file.content' is 5, not 0 (data), 1 (position "
            "deletes) or 2 (equality deletes)");
}

// The v2 spec schema's JSON with one edit.
std::shared_ptr<const avro::Schema> EditedSchema(const std::string& from, const std::string& to) {
  std::string json = SpecSchema()->ToJson();
  const size_t at = json.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) json.replace(at, from.size(), to);
  auto schema = avro::Schema::Parse(json);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString() << json;
  return schema.ok() ? *schema : nullptr;
}

TEST(ManifestReaderTest, SchemasThatAreNotManifestsFailAtOpen) {
  auto io = NewMemoryFileIO();
  // file_path renamed and without its id: the required field 100 is missing.
  WriteRaw(*io,
           EditedSchema(R"({"name":"file_path","type":"string","field-id":100})", R"({"name":"path","type":"string"})"),
           {});
  Status s = ReadError(*io, Listed(1));
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_EQ(s.message(), "manifest 'mem://t/metadata/raw.avro': field 'data_file.file_path' (id 100) is missing");

  WriteRaw(*io, EditedSchema(R"({"name":"file_path","type":"string")", R"({"name":"file_path","type":"int")"), {});
  EXPECT_EQ(ReadError(*io, Listed(1)).message(),
            "manifest 'mem://t/metadata/raw.avro': field 'data_file.file_path' has Avro type int, expected string or "
            "bytes");

  WriteRaw(*io, EditedSchema(R"("name":"p","type":["null","int"])", R"("name":"p","type":["null","string"])"), {});
  EXPECT_EQ(ReadError(*io, Listed(1)).message(),
            "manifest 'mem://t/metadata/raw.avro': partition field 'data_file.partition.p' has Avro type string, "
            "which cannot hold a int");

  // v2 files must have data_file.content (v1 files need not).
  WriteRaw(*io, EditedSchema(R"({"name":"content","type":"int","field-id":134},)", ""), {});
  EXPECT_EQ(ReadError(*io, Listed(1)).message(),
            "manifest 'mem://t/metadata/raw.avro': field 'data_file.content' (id 134) is missing");
}

TEST(ManifestReaderTest, NullInARequiredFieldIsCorrupt) {
  auto io = NewMemoryFileIO();
  auto schema =
      EditedSchema(R"({"name":"file_format","type":"string")", R"({"name":"file_format","type":["null","string"])");
  Datum row = Row(1, Datum::Null(), Datum::Null(), Datum::Null());
  row.mutable_children()[4].mutable_children()[2] = Datum::Null();
  WriteRaw(*io, schema, {row});
  EXPECT_EQ(ReadError(*io, Listed(1)).message(),
            "manifest 'mem://t/metadata/raw.avro': entry 0: field 'data_file.file_format' is null but required");
}

TEST(ManifestReaderTest, BadMetadataIsCorruptOrUnsupported) {
  auto io = NewMemoryFileIO();
  auto with = [&](const std::string& key, const std::string& value) {
    auto metadata = Metadata();
    for (auto& [k, v] : metadata) {
      if (k == key) v = value;
    }
    WriteRaw(*io, SpecSchema(), {}, metadata);
    return ReadError(*io, Listed(1));
  };
  EXPECT_EQ(with("format-version", "two").message(),
            "manifest 'mem://t/metadata/raw.avro': metadata 'format-version' is 'two'");
  EXPECT_TRUE(with("format-version", "4").IsUnsupported());
  EXPECT_EQ(with("content", "rows").message(),
            "manifest 'mem://t/metadata/raw.avro': metadata 'content' is 'rows', not 'data' or 'deletes'");
  EXPECT_TRUE(with("partition-spec", "[{").IsCorrupt());
  EXPECT_TRUE(with("schema", "{}").IsCorrupt());
  auto no_spec = Metadata();
  no_spec.erase(no_spec.begin() + 1);
  WriteRaw(*io, SpecSchema(), {}, no_spec);
  EXPECT_TRUE(ReadError(*io, Listed(1)).IsCorrupt());
  ManifestReaderOptions options;  // the caller's type makes the metadata unnecessary
  options.partition_type = IdentityP().PartitionType(TwoColumns()).value();
  EXPECT_TRUE(ReadError(*io, Listed(1), options).ok());

  EXPECT_TRUE(ReadError(*io,
                        [] {
                          ManifestFile m;
                          m.manifest_path = "mem://t/metadata/none.avro";
                          return m;
                        }())
                  .IsNotFound());
}

TEST(ManifestReaderTest, DamagedBytesNeverCrash) {
  auto io = NewMemoryFileIO();
  auto w = ManifestWriter::Open(*io, kRawManifestPath, 3, testing::WideSpec(), testing::WideSchema(), 42, ManifestContent::kData,
                                ManifestWriteOptions{avro::BlockCodec::kNull, std::nullopt, 64 * 1024, {}});
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE((*w)->Add(Entry(testing::FullDataFile(i, 2, testing::WidePartition(i), 3))).ok());
  ASSERT_TRUE((*w)->Close().ok());
  const std::string good(io->ReadAll(kRawManifestPath)->view());
  int errors = 0;
  uint32_t seed = 12345;
  for (size_t round = 0; round < 600; ++round) {
    std::string bad = good;
    seed = seed * 1103515245 + 12345;
    const size_t at = seed % bad.size();
    if (round % 3 == 0) {
      bad.resize(at);
    } else {
      bad[at] = static_cast<char>(bad[at] ^ (1 + (seed >> 16) % 255));
    }
    ASSERT_TRUE(io->WriteAll(kRawManifestPath, bad).ok());
    ManifestFile m = Listed(1);
    for (bool stats : {true, false}) {
      ManifestReaderOptions options;
      options.read_stats = stats;
      Status s = ReadError(*io, m, options);
      if (!s.ok()) {
        ++errors;
        EXPECT_TRUE(s.IsCorrupt() || s.IsUnsupported()) << s.ToString();
      }
    }
  }
  EXPECT_GT(errors, 300);
}

}  // namespace
}  // namespace floe::iceberg
