// ParquetSchema on files other engines wrote: levels, floe types and the
// legacy list/map layouts, plus the errors of inconsistent schema lists.

#include "floe/formats/parquet/schema.h"

#include <gtest/gtest.h>

#include "floe/formats/parquet/file_reader.h"
#include "floe/io/tracing_file_io.h"
#include "parquet_fixtures.h"

namespace floe::parquet {
namespace {

Result<std::unique_ptr<ParquetFileReader>> OpenFixture(const std::string& name) {
  return ParquetFileReader::Open(NewLocalFileIO(), testing::ParquetTestingDir() + "/data/" + name);
}

std::string FieldsOf(const std::string& name) {
  auto reader = OpenFixture(name);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return "";
  std::string out;
  for (const auto& f : (*reader)->schema().schema().fields) out += f.ToString() + "; ";
  return out;
}

TEST(ParquetSchemaTest, FlatImpalaFileMapsEveryPhysicalType) {
  auto reader = OpenFixture("alltypes_plain.parquet");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->num_rows(), 8);
  const ParquetSchema& s = (*reader)->schema();
  ASSERT_EQ(s.num_columns(), 11);
  EXPECT_EQ(s.column(0).type->ToString(), "int32");
  EXPECT_EQ(s.column(1).type->ToString(), "bool");
  EXPECT_EQ(s.column(10).type->ToString(), "timestamp[us]");
  EXPECT_EQ(s.column(10).conversion, ValueConversion::kInt96ToMicros);
  EXPECT_EQ(s.column(0).max_definition_level, 1);
  EXPECT_EQ(s.column(0).max_repetition_level, 0);
}

TEST(ParquetSchemaTest, ThreeLevelListsNestAndCountLevels) {
  auto reader = OpenFixture("nested_lists.snappy.parquet");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const ParquetSchema& s = (*reader)->schema();
  EXPECT_EQ(s.column(0).dotted_path(), "a.list.element.list.element.list.element");
  EXPECT_EQ(s.column(0).max_definition_level, 7);
  EXPECT_EQ(s.column(0).max_repetition_level, 3);
  ASSERT_EQ(s.fields().size(), 2u);
  EXPECT_EQ(s.fields()[0].kind, FieldPlan::Kind::kList);
  EXPECT_EQ(s.fields()[0].children[0].kind, FieldPlan::Kind::kList);
  EXPECT_EQ(s.fields()[0].field.type->ToString(), "list<element: list<element: list<element: string>>>");
}

TEST(ParquetSchemaTest, LegacyTwoLevelListReadsAsListOfLists) {
  // old_list_structure.md: LIST<LIST<INT32>> in parquet-mr's two-level form.
  const std::string fields = FieldsOf("old_list_structure.parquet");
  EXPECT_EQ(fields, "a: list<array: list<array: int32 not null> not null> not null; ") << fields;
}

TEST(ParquetSchemaTest, UnannotatedRepeatedGroupIsAListOfRequiredStructs) {
  const std::string fields = FieldsOf("repeated_no_annotation.parquet");
  EXPECT_NE(fields.find("phoneNumbers: struct<phone: list<phone: struct<number: int64 not null, kind: string> not null> not null>"),
            std::string::npos)
      << fields;
}

TEST(ParquetSchemaTest, MapsAndAMapWithoutValues) {
  const std::string fields = FieldsOf("map_no_value.parquet");
  EXPECT_NE(fields.find("my_map: map<"), std::string::npos) << fields;
  // No value column: the keys as a list, nothing dropped or invented.
  EXPECT_NE(fields.find("my_map_no_v: list<key: int32 not null> not null"), std::string::npos) << fields;
}

TEST(ParquetSchemaTest, InconsistentSchemaListsAreCorrupt) {
  SchemaElement root;
  root.name = "schema";
  root.num_children = 2;
  SchemaElement leaf;
  leaf.name = "x";
  leaf.type = Type::INT32;
  leaf.repetition_type = FieldRepetitionType::OPTIONAL;
  auto missing = ParquetSchema::Make({root, leaf});
  EXPECT_TRUE(missing.status().IsCorrupt());
  EXPECT_NE(missing.status().message().find("claims 2 children"), std::string::npos) << missing.status().message();

  SchemaElement untyped = leaf;
  untyped.type.reset();
  root.num_children = 1;
  auto no_type = ParquetSchema::Make({root, untyped});
  EXPECT_TRUE(no_type.status().IsCorrupt());
  EXPECT_NE(no_type.status().message().find("'x' has no physical type"), std::string::npos);

  SchemaElement date_on_bytes = leaf;
  date_on_bytes.type = Type::BYTE_ARRAY;
  date_on_bytes.converted_type = ConvertedType::DATE;
  auto mismatch = ParquetSchema::Make({root, date_on_bytes});
  EXPECT_TRUE(mismatch.status().IsCorrupt());
  EXPECT_NE(mismatch.status().message().find("DATE annotation on physical type BYTE_ARRAY"), std::string::npos)
      << mismatch.status().message();

  EXPECT_TRUE(ParquetSchema::Make({}).status().IsCorrupt());
}

TEST(ParquetFileReaderTest, NotParquetAndTruncatedFilesAreCorruptNamingTheFile) {
  auto io = NewMemoryFileIO();
  ASSERT_TRUE(io->WriteAll("mem://t/short", std::string_view("PAR1")).ok());
  auto short_file = ParquetFileReader::Open(io, "mem://t/short");
  EXPECT_TRUE(short_file.status().IsCorrupt());
  EXPECT_NE(short_file.status().message().find("'mem://t/short' is 4 bytes"), std::string::npos);
  ASSERT_TRUE(io->WriteAll("mem://t/csv", std::string_view("a,b\n1,2\n3,4\n5,6\n")).ok());
  auto csv = ParquetFileReader::Open(io, "mem://t/csv");
  EXPECT_TRUE(csv.status().IsCorrupt());
  EXPECT_NE(csv.status().message().find("does not end with the magic PAR1"), std::string::npos);
}

TEST(ParquetFileReaderTest, EveryBadDataFooterFailsCleanlyOrOpens) {
  for (const auto& path : testing::FilesEndingWith(testing::ParquetTestingDir() + "/bad_data", ".parquet")) {
    auto reader = ParquetFileReader::Open(NewLocalFileIO(), path);
    if (!reader.ok()) {
      EXPECT_TRUE(reader.status().IsCorrupt() || reader.status().IsUnsupported()) << reader.status().ToString();
      EXPECT_NE(reader.status().message().find(path), std::string::npos) << reader.status().message();
    }
  }
}

TEST(ParquetFileReaderTest, SmallTailGuessNeedsExactlyOneMoreRequest) {
  auto trace = std::make_shared<IoTrace>();
  auto io = std::make_shared<TracingFileIO>(NewLocalFileIO(), trace);
  const std::string path = testing::ParquetTestingDir() + "/data/alltypes_plain.parquet";
  ReaderOptions options;
  options.footer_read_size = 16;
  auto reader = ParquetFileReader::Open(io, path, options, OpenReadOptions{.size = 1851});
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(trace->totals().gets, 2);
  EXPECT_EQ(trace->totals().heads, 0);
  trace->Clear();
  auto one = ParquetFileReader::Open(io, path, ReaderOptions{}, OpenReadOptions{.size = 1851});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(trace->totals().requests, 1);
}

}  // namespace
}  // namespace floe::parquet
