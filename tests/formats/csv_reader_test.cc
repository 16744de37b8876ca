#include "floe/formats/text/csv_reader.h"

#include <gtest/gtest.h>

namespace floe::text {
namespace {

std::vector<RecordBatch> ReadAll(RecordBatchReader& reader) {
  std::vector<RecordBatch> batches;
  while (true) {
    auto next = reader.Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !next->has_value()) break;
    batches.push_back(std::move(**next));
  }
  return batches;
}

TEST(CsvReaderTest, ReadsQuotedFieldsNullsAndCrlfInBatches) {
  auto io = NewMemoryFileIO();
  ASSERT_TRUE(io->WriteAll("mem://in/a.csv",
                           "\xEF\xBB\xBFid,city,note\r\n"
                           "1,Lisbon,\"says \"\"hi\"\", twice\"\r\n"
                           "2,,\"\"\r\n"
                           "\n"
                           "3,\"New\nYork\"\n"
                           "4,Oslo,last")
                  .ok());
  auto reader = OpenCsv(*io, "mem://in/a.csv", {',', 2}).value();
  ASSERT_EQ(reader->schema()->ToString(), "id: string, city: string, note: string");
  auto batches = ReadAll(*reader);
  ASSERT_EQ(batches.size(), 2u);
  ASSERT_EQ(batches[0].num_rows(), 2);
  ASSERT_EQ(batches[1].num_rows(), 2);
  EXPECT_EQ(batches[0].column(2).GetString(0), "says \"hi\", twice");
  EXPECT_TRUE(batches[0].column(1).IsNull(1));   // empty unquoted: null
  EXPECT_FALSE(batches[0].column(2).IsNull(1));  // "" quoted: empty string
  EXPECT_EQ(batches[0].column(2).GetString(1), "");
  EXPECT_EQ(batches[1].column(1).GetString(0), "New\nYork");
  EXPECT_TRUE(batches[1].column(2).IsNull(0));  // fewer fields than the header
  EXPECT_EQ(batches[1].column(2).GetString(1), "last");
}

TEST(CsvReaderTest, RejectsMalformedFilesWithTheLine) {
  auto io = NewMemoryFileIO();
  ASSERT_TRUE(io->WriteAll("mem://in/q.csv", "a,b\n1,\"open\n2,3\n").ok());
  auto reader = OpenCsv(*io, "mem://in/q.csv").value();
  auto batch = reader->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(batch.status().message().find("line 2"), std::string::npos) << batch.status().message();

  ASSERT_TRUE(io->WriteAll("mem://in/wide.csv", "a,b\n1,2,3\n").ok());
  auto wide = OpenCsv(*io, "mem://in/wide.csv").value()->Next();
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.status().message().find("3 fields, the header has 2"), std::string::npos);

  ASSERT_TRUE(io->WriteAll("mem://in/dup.csv", "a,a\n").ok());
  EXPECT_EQ(OpenCsv(*io, "mem://in/dup.csv").status().code(), StatusCode::kCorrupt);
  ASSERT_TRUE(io->WriteAll("mem://in/empty.csv", "").ok());
  EXPECT_EQ(OpenCsv(*io, "mem://in/empty.csv").status().code(), StatusCode::kCorrupt);
}

TEST(JsonLinesReaderTest, UnionOfKeysScalarsAsTextNestedAsJson) {
  auto io = NewMemoryFileIO();
  ASSERT_TRUE(io->WriteAll("mem://in/a.jsonl",
                           "{\"id\": 1, \"city\": \"Lisbon\", \"ok\": true}\n"
                           "\n"
                           "{\"id\": 2, \"amount\": 12.5, \"tags\": [\"a\", \"b\"], \"city\": null}\n")
                  .ok());
  auto reader = OpenJsonLines(*io, "mem://in/a.jsonl").value();
  EXPECT_EQ(reader->schema()->ToString(), "id: string, city: string, ok: string, amount: string, tags: string");
  auto batches = ReadAll(*reader);
  ASSERT_EQ(batches.size(), 1u);
  const RecordBatch& b = batches[0];
  ASSERT_EQ(b.num_rows(), 2);
  EXPECT_EQ(b.column(0).GetString(1), "2");
  EXPECT_EQ(b.column(1).GetString(0), "Lisbon");
  EXPECT_TRUE(b.column(1).IsNull(1));
  EXPECT_EQ(b.column(2).GetString(0), "true");
  EXPECT_TRUE(b.column(3).IsNull(0));
  EXPECT_EQ(b.column(3).GetString(1), "12.5");
  EXPECT_EQ(b.column(4).GetString(1), "[\"a\",\"b\"]");

  ASSERT_TRUE(io->WriteAll("mem://in/bad.jsonl", "{\"id\": 1}\n[1,2]\n").ok());
  auto bad = OpenJsonLines(*io, "mem://in/bad.jsonl");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 2"), std::string::npos);
}

}  // namespace
}  // namespace floe::text
