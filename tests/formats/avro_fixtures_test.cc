// floe's Avro reader on Iceberg manifests and manifest lists that Java
// (through Spark and DuckDB's test data), PyIceberg and iceberg-rust wrote:
// ../shared/fixtures/iceberg, read in place.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "floe/formats/avro/container_reader.h"
#include "floe/io/tracing_file_io.h"
#include "formats/avro_test_util.h"

namespace floe::avro {
namespace {

using testing::MustParse;

std::string IcebergDir() { return std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg"; }
std::string Persistent(const std::string& rel) { return IcebergDir() + "/duckdb-iceberg/data/persistent/" + rel; }

Result<std::unique_ptr<ContainerReader>> Open(const std::string& path) {
  auto io = NewLocalFileIO();
  return ContainerReader::Open(*io, path);
}

std::vector<Datum> ReadAll(const std::string& path, std::shared_ptr<const Schema> reader_schema = nullptr) {
  auto r = Open(path);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return {};
  if (reader_schema) {
    Status s = (*r)->SetReaderSchema(reader_schema);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  Result<std::vector<Datum>> rows = (*r)->ReadAll();
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? *rows : std::vector<Datum>{};
}

// The writer-shaped field `name` of a record read without a reader schema.
const Datum& F(const ContainerReader& r, const Datum& row, std::string_view name) {
  const int i = r.writer_schema()->root().FieldIndex(name);
  EXPECT_GE(i, 0) << name;
  return row.field(static_cast<size_t>(i));
}

TEST(AvroFixturesTest, ReadsEveryIcebergAvroFileOfOtherEngines) {
  int files = 0;
  int64_t rows = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(IcebergDir())) {
    if (entry.path().extension() != ".avro") continue;
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    auto r = Open(path);
    if (path.find("encrypted") != std::string::npos) {
      // An AES-GCM stream ("AGS1"), not a container file.
      ASSERT_FALSE(r.ok());
      EXPECT_TRUE(r.status().IsCorrupt());
      EXPECT_NE(r.status().message().find("bad magic"), std::string::npos);
      continue;
    }
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    Result<std::vector<Datum>> all = (*r)->ReadAll();
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    EXPECT_GE(all->size(), 1u);
    ASSERT_NE((*r)->FindMetadata("format-version"), nullptr);
    // Every Iceberg field carries its id.
    for (const Field& f : (*r)->writer_schema()->root().fields()) EXPECT_TRUE(f.field_id().has_value()) << f.name;
    ++files;
    rows += static_cast<int64_t>(all->size());
  }
  // Counted with Python's avro over the same files.
  EXPECT_EQ(files, 102);
  EXPECT_EQ(rows, 5170);
}

TEST(AvroFixturesTest, ManifestOfAPartitionedTableHasItsValues) {
  const std::string path = Persistent("partition_integer/metadata/b1dda674-423f-4f23-b00d-92b608b07a38-m0.avro");
  auto r = Open(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ContainerReader& reader = **r;
  EXPECT_EQ(reader.codec(), BlockCodec::kDeflate);
  EXPECT_EQ(*reader.FindMetadata("format-version"), "2");
  EXPECT_EQ(*reader.FindMetadata("content"), "data");
  EXPECT_EQ(*reader.FindMetadata("partition-spec-id"), "0");
  ASSERT_NE(reader.FindMetadata("partition-spec"), nullptr);
  EXPECT_NE(reader.FindMetadata("partition-spec")->find("\"field-id\":1000"), std::string::npos);
  Result<std::vector<Datum>> rows = (*r)->ReadAll();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 2u);
  const Node& entry = reader.writer_schema()->root();
  const Node& data_file_schema = *entry.fields()[static_cast<size_t>(entry.FieldIndex("data_file"))].type;
  auto df = [&](const Datum& row, std::string_view name) -> const Datum& {
    return F(reader, row, "data_file").field(static_cast<size_t>(data_file_schema.FieldIndex(name)));
  };
  const Datum& first = (*rows)[0];
  EXPECT_EQ(F(reader, first, "status"), Datum::Int(1));
  EXPECT_EQ(F(reader, first, "snapshot_id"), Datum::Long(5470601323427916272));
  EXPECT_TRUE(F(reader, first, "sequence_number").is_null());
  EXPECT_EQ(df(first, "file_path").string_value(),
            "data/persistent/partition_integer/data/partition_col=1337/00000-2-1d10e455-d07e-4124-8f4b-52bd010a806d-00002.parquet");
  EXPECT_EQ(df(first, "file_format").string_value(), "PARQUET");
  EXPECT_EQ(df(first, "partition"), Datum::Record({Datum::Int(1337)}));
  EXPECT_EQ(df(first, "record_count"), Datum::Long(1));
  EXPECT_EQ(df(first, "file_size_in_bytes"), Datum::Long(950));
  // column_sizes: Iceberg's map with int keys, an array of key/value records.
  EXPECT_EQ(df(first, "column_sizes"),
            Datum::Array({Datum::Record({Datum::Int(1), Datum::Long(36)}), Datum::Record({Datum::Int(2), Datum::Long(40)}),
                          Datum::Record({Datum::Int(3), Datum::Long(43)})}));
  EXPECT_EQ(df(first, "lower_bounds").children()[0], Datum::Record({Datum::Int(1), Datum::Bytes(std::string("9\x05\x00\x00", 4))}));
  EXPECT_EQ(df(first, "lower_bounds").children()[2], Datum::Record({Datum::Int(3), Datum::Bytes("purchase")}));
  EXPECT_EQ(df(first, "split_offsets"), Datum::Array({Datum::Long(4)}));
  EXPECT_EQ(df((*rows)[1], "partition"), Datum::Record({Datum::Int(42)}));
  EXPECT_EQ(df((*rows)[1], "file_size_in_bytes"), Datum::Long(930));
}

TEST(AvroFixturesTest, EqualityDeleteManifest) {
  auto r = Open(Persistent("equality_deletes/warehouse/mydb/mytable/metadata/34f7dec7-90c5-4cd5-b158-5782b73fc010-m0.avro"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*(*r)->FindMetadata("content"), "deletes");
  Result<std::vector<Datum>> rows = (*r)->ReadAll();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  const Datum& data_file = F(**r, (*rows)[0], "data_file");
  const Node& dfs = *(*r)->writer_schema()->root().fields()[static_cast<size_t>((*r)->writer_schema()->root().FieldIndex("data_file"))].type;
  EXPECT_EQ(data_file.field(static_cast<size_t>(dfs.FieldIndex("content"))), Datum::Int(2));
  EXPECT_EQ(data_file.field(static_cast<size_t>(dfs.FieldIndex("equality_ids"))), Datum::Array({Datum::Int(2)}));
  EXPECT_EQ(data_file.field(static_cast<size_t>(dfs.FieldIndex("file_size_in_bytes"))), Datum::Long(466));
}

TEST(AvroFixturesTest, LargeUncompressedManifestStreamsAllRows) {
  auto r = Open(Persistent("generated_bounds/metadata/manifest-m0.avro"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->codec(), BlockCodec::kNull);
  Datum row;
  int64_t n = 0;
  std::string last_path;
  const Node& root = (*r)->writer_schema()->root();
  const size_t df = static_cast<size_t>(root.FieldIndex("data_file"));
  const size_t path = static_cast<size_t>(root.fields()[df].type->FieldIndex("file_path"));
  const size_t count = static_cast<size_t>(root.fields()[df].type->FieldIndex("record_count"));
  while (true) {
    Result<bool> more = (*r)->Next(&row);
    ASSERT_TRUE(more.ok()) << more.status().ToString();
    if (!*more) break;
    ++n;
    last_path = std::string(row.field(df).field(path).string_value());
    EXPECT_EQ(row.field(df).field(count), Datum::Long(1000));
  }
  EXPECT_EQ(n, 5000);
  EXPECT_EQ(last_path, "s3://fake-bucket/d/0000004999/t.parquet");
}

TEST(AvroFixturesTest, SmallManifestTakesOneRead) {
  const std::string path = Persistent("partition_integer/metadata/b1dda674-423f-4f23-b00d-92b608b07a38-m0.avro");
  auto trace = std::make_shared<IoTrace>();
  TracingFileIO io(NewLocalFileIO(), trace);
  auto r = ContainerReader::Open(io, path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  Result<std::vector<Datum>> rows = (*r)->ReadAll();
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->size(), 2u);
  const IoTotals totals = trace->totals();
  EXPECT_EQ(totals.gets, 1) << trace->Format();
  EXPECT_EQ(totals.bytes_read, 7032);  // the manifest_length its manifest list records
}

// A floe-side model of manifest_file (v2 names), read from v1 and v2 files
// by field id: v1 lists call 504 "added_files_count" and lack 515-517.
constexpr std::string_view kManifestFileV2 = R"({"type":"record","name":"manifest_file","fields":[
  {"name":"manifest_path","type":"string","field-id":500},
  {"name":"manifest_length","type":"long","field-id":501},
  {"name":"partition_spec_id","type":"int","field-id":502},
  {"name":"content","type":"int","default":0,"field-id":517},
  {"name":"sequence_number","type":"long","default":0,"field-id":515},
  {"name":"added_snapshot_id","type":"long","field-id":503},
  {"name":"added_data_files_count","type":["null","int"],"field-id":504},
  {"name":"added_rows_count","type":["null","long"],"field-id":512},
  {"name":"partitions","type":["null",{"type":"array","element-id":508,"items":{"type":"record","name":"r508","fields":[
     {"name":"contains_null","type":"boolean","field-id":509},
     {"name":"contains_nan","type":["null","boolean"],"field-id":518},
     {"name":"lower_bound","type":["null","bytes"],"field-id":510},
     {"name":"upper_bound","type":["null","bytes"],"field-id":511}]}}],"field-id":507},
  {"name":"key_metadata","type":["null","bytes"],"field-id":519},
  {"name":"first_row_id","type":["null","long"],"field-id":520}]})";

TEST(AvroFixturesTest, ManifestListsV1AndV2ResolveByFieldId) {
  auto model = MustParse(kManifestFileV2);
  struct Case {
    std::string path;
    std::string manifest_path;
    int64_t length;
    int32_t content;
    int64_t sequence_number;
    int64_t snapshot_id;
    int32_t added_files;
    int64_t added_rows;
  };
  const Case cases[] = {
      {Persistent("iceberg_v1_deprecated/default/legacy_v1/metadata/snap-2456114553637229296-1-d65f86b0-b799-467f-b1f4-9c697e4c4fc7.avro"),
       "data/persistent/iceberg_v1_deprecated/default/legacy_v1/metadata/d65f86b0-b799-467f-b1f4-9c697e4c4fc7-m0.avro", 6147, 0, 0,
       2456114553637229296, 2, 3},
      {Persistent("partition_integer/metadata/snap-5470601323427916272-1-b1dda674-423f-4f23-b00d-92b608b07a38.avro"),
       "data/persistent/partition_integer/metadata/b1dda674-423f-4f23-b00d-92b608b07a38-m0.avro", 7032, 0, 1,
       5470601323427916272, 2, 2},
      {IcebergDir() + "/rust-testdata/manifests_lists/manifest-list-v2-1.avro",
       "iceberg-warehouse/people/metadata/794bd2ee-052c-449c-9a6f-3a88857c747f-m0.avro", 6658, 0, 1, 6653143792592159268, 1, 1},
      // v2 file with the v1 field name for 504.
      {IcebergDir() + "/rust-testdata/manifests_lists/manifest-list-v2-2.avro",
       "iceberg-warehouse_2/people/metadata/80064d99-bd75-4cf3-9b27-13a60f189039-m0.avro", 6660, 0, 1, 3083072880052097243, 1, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.path);
    const std::vector<Datum> rows = ReadAll(c.path, model);
    ASSERT_EQ(rows.size(), 1u);
    const Datum& m = rows[0];
    EXPECT_EQ(m.field(0).string_value(), c.manifest_path);
    EXPECT_EQ(m.field(1), Datum::Long(c.length));
    EXPECT_EQ(m.field(2), Datum::Int(0));
    EXPECT_EQ(m.field(3), Datum::Int(c.content));
    EXPECT_EQ(m.field(4), Datum::Long(c.sequence_number));
    EXPECT_EQ(m.field(5), Datum::Long(c.snapshot_id));
    EXPECT_EQ(m.field(6), Datum::Int(c.added_files));
    EXPECT_EQ(m.field(7), Datum::Long(c.added_rows));
    EXPECT_TRUE(m.field(9).is_null());
    EXPECT_TRUE(m.field(10).is_null());  // v3's first_row_id: absent, read as null
  }
  // The v1 list's partition summary, through the reader's record.
  const std::vector<Datum> v1 = ReadAll(cases[0].path, model);
  ASSERT_EQ(v1.size(), 1u);
  EXPECT_EQ(v1[0].field(8), Datum::Array({Datum::Record({Datum::Boolean(false), Datum::Boolean(false),
                                                          Datum::Bytes("alpha"), Datum::Bytes("beta")})}));
}

}  // namespace
}  // namespace floe::avro
