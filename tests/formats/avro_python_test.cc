// Cross-checks with Python's avro (Debian's python3-avro, installed by
// dev/setup): Python reads what floe writes, field ids included, and floe
// reads what Python writes, in every codec both support.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/formats/avro/container_reader.h"
#include "floe/formats/avro/container_writer.h"
#include "formats/avro_test_util.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe::avro {
namespace {

using testing::MustParse;

constexpr const char* kPython = "/usr/bin/python3";

std::string Script(const char* name) { return std::string(FLOE_SOURCE_DIR) + "/tests/formats/" + name; }

constexpr std::string_view kManifestEntrySchema = R"({"type":"record","name":"manifest_entry","fields":[
  {"name":"status","type":"int","field-id":0},
  {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
  {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
    {"name":"file_path","type":"string","field-id":100},
    {"name":"partition","type":{"type":"record","name":"r102","fields":[
       {"name":"day","type":["null",{"type":"int","logicalType":"date"}],"default":null,"field-id":1000}]},"field-id":102},
    {"name":"record_count","type":"long","field-id":103},
    {"name":"ts","type":{"type":"long","logicalType":"timestamp-micros"},"field-id":104},
    {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2},"field-id":105},
    {"name":"id","type":{"type":"string","logicalType":"uuid"},"field-id":106},
    {"name":"column_sizes","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"k117_v118","fields":[
       {"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]}}],"default":null,"field-id":108},
    {"name":"split_offsets","type":["null",{"type":"array","items":"long","element-id":133}],"default":null,"field-id":132},
    {"name":"props","type":{"type":"map","values":"string","key-id":140,"value-id":141},"field-id":139}]}}]})";

Datum Entry(int i) {
  return Datum::Record({
      Datum::Int(1),
      i == 0 ? Datum::Null() : Datum::Long(5470601323427916272 + i),
      Datum::Record({
          Datum::String("s3://bucket/t/data/" + std::to_string(i) + ".parquet"),
          Datum::Record({i == 1 ? Datum::Null() : Datum::Int(20747 + i)}),  // 2026-10-21
          Datum::Long(int64_t{1000} * i),
          Datum::Long(int64_t{1792612800} * 1000000),  // 2026-10-21T20:00:00Z
          Datum::Bytes(std::string("\x01\xe2\x40", 3)),  // 123456 -> 1234.56
          Datum::String("f79c3e09-677c-4038-a6fc-ac3c1c5a5a8a"),
          Datum::Array({Datum::Record({Datum::Int(1), Datum::Long(36 + i)})}),
          Datum::Array({Datum::Long(4)}),
          Datum::Map({"origin"}, {Datum::String("floe")}),
      }),
  });
}

TEST(AvroPythonTest, PythonReadsFloeFilesWithFieldIdsAndValues) {
  floe::testing::TempDir dir;
  auto io = NewLocalFileIO();
  for (BlockCodec codec : {BlockCodec::kNull, BlockCodec::kDeflate, BlockCodec::kSnappy, BlockCodec::kZstandard}) {
    SCOPED_TRACE(BlockCodecName(codec));
    const std::string path = dir.Join(std::string(BlockCodecName(codec)) + ".avro");
    ContainerWriterOptions options;
    options.codec = codec;
    options.metadata = {{"format-version", "2"}, {"content", "data"}};
    testing::WriteFile(*io, path, MustParse(kManifestEntrySchema), {Entry(0), Entry(1), Entry(2)}, options);
    const floe::testing::ProcessResult r = floe::testing::RunProcess({kPython, Script("avro_python_read.py"), path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string expected =
        std::string(R"({"codec": ")") + std::string(BlockCodecName(codec)) + R"(", )"
        R"("ids": [["status", "field-id", 0], ["snapshot_id", "field-id", 1], ["data_file", "field-id", 2], )"
        R"(["data_file.file_path", "field-id", 100], ["data_file.partition", "field-id", 102], )"
        R"(["data_file.partition.day", "field-id", 1000], ["data_file.record_count", "field-id", 103], )"
        R"(["data_file.ts", "field-id", 104], ["data_file.amount", "field-id", 105], ["data_file.id", "field-id", 106], )"
        R"(["data_file.column_sizes", "field-id", 108], ["data_file.column_sizes", "logicalType", "map"], )"
        R"(["data_file.column_sizes[].key", "field-id", 117], ["data_file.column_sizes[].value", "field-id", 118], )"
        R"(["data_file.split_offsets", "field-id", 132], ["data_file.split_offsets", "element-id", 133], )"
        R"(["data_file.props", "field-id", 139], ["data_file.props", "key-id", 140], ["data_file.props", "value-id", 141]], )"
        R"("meta": {"content": "data", "format-version": "2"}, "rows": [)"
        R"({"data_file": {"amount": "1234.56", "column_sizes": [{"key": 1, "value": 36}], "file_path": "s3://bucket/t/data/0.parquet", )"
        R"("id": "f79c3e09-677c-4038-a6fc-ac3c1c5a5a8a", "partition": {"day": "2026-10-21"}, "props": {"origin": "floe"}, )"
        R"("record_count": 0, "split_offsets": [4], "ts": "2026-10-21 20:00:00+00:00"}, "snapshot_id": null, "status": 1}, )"
        R"({"data_file": {"amount": "1234.56", "column_sizes": [{"key": 1, "value": 37}], "file_path": "s3://bucket/t/data/1.parquet", )"
        R"("id": "f79c3e09-677c-4038-a6fc-ac3c1c5a5a8a", "partition": {"day": null}, "props": {"origin": "floe"}, )"
        R"("record_count": 1000, "split_offsets": [4], "ts": "2026-10-21 20:00:00+00:00"}, "snapshot_id": 5470601323427916273, "status": 1}, )"
        R"({"data_file": {"amount": "1234.56", "column_sizes": [{"key": 1, "value": 38}], "file_path": "s3://bucket/t/data/2.parquet", )"
        R"("id": "f79c3e09-677c-4038-a6fc-ac3c1c5a5a8a", "partition": {"day": "2026-10-23"}, "props": {"origin": "floe"}, )"
        R"("record_count": 2000, "split_offsets": [4], "ts": "2026-10-21 20:00:00+00:00"}, "snapshot_id": 5470601323427916274, "status": 1}]})"
        "\n";
    EXPECT_EQ(r.out, expected);
  }
}

TEST(AvroPythonTest, FloeReadsPythonFilesInEveryCodec) {
  floe::testing::TempDir dir;
  auto io = NewLocalFileIO();
  // Python's model of the same entries, read by field id into a floe-side schema
  // that renames and reorders.
  auto model = MustParse(R"({"type":"record","name":"entry","fields":[
    {"name":"df","field-id":2,"type":{"type":"record","name":"file","fields":[
       {"name":"count","type":"long","field-id":103},
       {"name":"path","type":"string","field-id":100},
       {"name":"sizes","type":["null",{"type":"array","items":{"type":"record","name":"kv","fields":[
          {"name":"k","type":"int","field-id":117},{"name":"v","type":"long","field-id":118}]}}],"field-id":109},
       {"name":"score","type":"double","field-id":104},
       {"name":"ratio","type":"double","field-id":105},
       {"name":"ok","type":"boolean","field-id":106},
       {"name":"kind","type":{"type":"enum","name":"kind","symbols":["DATA","DELETES"]},"field-id":107},
       {"name":"md5","type":{"type":"fixed","name":"md5","size":4},"field-id":108},
       {"name":"props","type":{"type":"map","values":"bytes"},"field-id":119}]}},
    {"name":"snapshot_id","type":["null","long"],"field-id":1},
    {"name":"status","type":"long","field-id":0}]})");
  for (const char* codec : {"null", "deflate", "snappy", "zstandard"}) {
    SCOPED_TRACE(codec);
    const std::string path = dir.Join(std::string(codec) + ".avro");
    const int n = 3000;
    const floe::testing::ProcessResult w =
        floe::testing::RunProcess({kPython, Script("avro_python_write.py"), path, codec, std::to_string(n)});
    ASSERT_EQ(w.exit_code, 0) << w.err;
    auto reader = ContainerReader::Open(*io, path);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_EQ(BlockCodecName((*reader)->codec()), codec);
    EXPECT_EQ(*(*reader)->FindMetadata("format-version"), "2");
    EXPECT_EQ((*reader)->writer_schema()->root().full_name(), "py.test.manifest_entry");
    const Node& df = *(*reader)->writer_schema()->root().fields()[2].type;
    EXPECT_EQ(df.fields()[0].field_id(), 100);
    EXPECT_EQ(df.fields()[8].type->IntAttribute("key-id"), 120);
    ASSERT_TRUE((*reader)->SetReaderSchema(model).ok());
    Datum row;
    int i = 0;
    while (true) {
      Result<bool> more = (*reader)->Next(&row);
      ASSERT_TRUE(more.ok()) << more.status().ToString();
      if (!*more) break;
      const Datum& f = row.field(0);
      ASSERT_EQ(f.field(0), Datum::Long(int64_t{1000} * i));
      char p[64];
      std::snprintf(p, sizeof p, "s3://b/t/data/%05d.parquet", i);
      ASSERT_EQ(f.field(1).string_value(), p);
      if (i % 4 == 0) {
        ASSERT_TRUE(f.field(2).is_null());
      } else {
        ASSERT_EQ(f.field(2), Datum::Array({Datum::Record({Datum::Int(1), Datum::Long(i)}),
                                            Datum::Record({Datum::Int(2), Datum::Long(2 * i)}),
                                            Datum::Record({Datum::Int(3), Datum::Long(3 * i)})}));
      }
      ASSERT_EQ(f.field(3), Datum::Double(i / 8.0));
      ASSERT_EQ(f.field(4), Datum::Double(0.5));  // float promoted to double
      ASSERT_EQ(f.field(5), Datum::Boolean(i % 2 == 0));
      ASSERT_EQ(f.field(6), Datum::Enum(i % 7 == 0 ? 1 : 0));
      ASSERT_EQ(f.field(7), Datum::Fixed(std::string({static_cast<char>(i % 256), 1, 2, 3})));
      ASSERT_EQ(f.field(8), Datum::Map({"k" + std::to_string(i)}, {Datum::Bytes(std::string("\x00\xff", 2))}));
      ASSERT_EQ(row.field(1), i % 5 == 0 ? Datum::Null() : Datum::Long(1000000000000 + i));
      ASSERT_EQ(row.field(2), Datum::Long(i % 3));  // int promoted to long
      ++i;
    }
    EXPECT_EQ(i, n);
    EXPECT_GT((*reader)->blocks_read(), 1);
  }
}

}  // namespace
}  // namespace floe::avro
