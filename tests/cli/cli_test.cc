// The floe binary as a user meets it: exit codes, one-line errors, global
// options and their environment variables, output formats, --trace-io.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "floe/base/version.h"
#include "testing/run_process.h"
#include "testing/temp_dir.h"

namespace floe {
namespace {

using testing::RunFloe;

// No FLOE_* variable of the developer's shell may leak into these tests.
using testing::kCleanEnv;

std::vector<std::string> Env(std::vector<std::string> extra) {
  std::vector<std::string> env = kCleanEnv;
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

int CountLines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(CliTest, VersionPrintsTheVersion) {
  auto r = RunFloe({"--version"}, kCleanEnv);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string("floe ") + kVersion + "\n");
}

TEST(CliTest, HelpListsTheCommandsAndGlobalOptions) {
  auto r = RunFloe({"--help"}, kCleanEnv);
  EXPECT_EQ(r.exit_code, 0);
  for (const char* word : {"config", "io", "demo", "--warehouse", "--catalog", "--format", "--trace-io"}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word << " missing from help:\n" << r.out;
  }
}

TEST(CliTest, NoCommandIsAOneLineUserError) {
  auto r = RunFloe({}, kCleanEnv);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("floe: InvalidArgument: ", 0), 0u) << r.err;
}

TEST(CliTest, UnknownCommandAndBadOptionValuesAreOneLineUserErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"frobnicate"}, {"config", "--format", "xml"}, {"io", "ls", "--max", "many"}, {"--log-level", "loud", "config"}}) {
    auto r = RunFloe(args, kCleanEnv);
    EXPECT_EQ(r.exit_code, 1) << args[0];
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("floe: InvalidArgument: ", 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(CliTest, ConfigShowsDefaultsAndWhereEachValueCameFrom) {
  auto r = RunFloe({"config", "--format", "csv"}, kCleanEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("warehouse,./warehouse,default\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("catalog,sqlite:./warehouse/catalog.db,default\n"), std::string::npos) << r.out;
}

TEST(CliTest, EnvironmentSetsOptionsAndFlagsOverrideIt) {
  auto from_env = RunFloe({"config", "--format", "csv"}, Env({"FLOE_WAREHOUSE=/data/wh"}));
  ASSERT_EQ(from_env.exit_code, 0) << from_env.err;
  EXPECT_NE(from_env.out.find("warehouse,/data/wh,environment\n"), std::string::npos) << from_env.out;
  EXPECT_NE(from_env.out.find("catalog,sqlite:/data/wh/catalog.db,default\n"), std::string::npos);

  auto flag = RunFloe({"--warehouse", "/flag/wh", "config", "--format", "csv"},
                      Env({"FLOE_WAREHOUSE=/data/wh", "FLOE_CATALOG=postgresql://u@h/db"}));
  ASSERT_EQ(flag.exit_code, 0) << flag.err;
  EXPECT_NE(flag.out.find("warehouse,/flag/wh,flag\n"), std::string::npos) << flag.out;
  EXPECT_NE(flag.out.find("catalog,postgresql://u@h/db,environment\n"), std::string::npos) << flag.out;
}

TEST(CliTest, IoCommandsRoundTripAnObject) {
  testing::TempDir dir;
  const std::string obj = dir.Join("wh/ns/t/metadata/v1.json");
  auto put = RunFloe({"io", "put", obj, "--if-absent"}, kCleanEnv, "", "{\"format-version\":2}");
  ASSERT_EQ(put.exit_code, 0) << put.err;

  auto again = RunFloe({"io", "put", obj, "--if-absent"}, kCleanEnv, "", "other");
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err.rfind("floe: AlreadyExists: ", 0), 0u) << again.err;
  EXPECT_EQ(CountLines(again.err), 1);

  auto cat = RunFloe({"io", "cat", obj}, kCleanEnv);
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(cat.out, "{\"format-version\":2}");
  auto range = RunFloe({"io", "cat", obj, "--offset", "2", "--length", "6"}, kCleanEnv);
  EXPECT_EQ(range.out, "format");

  auto ls = RunFloe({"io", "ls", dir.Join("wh/"), "--format", "jsonl"}, kCleanEnv);
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_EQ(CountLines(ls.out), 1) << ls.out;
  EXPECT_NE(ls.out.find("\"path\":\"" + obj + "\""), std::string::npos) << ls.out;
  EXPECT_NE(ls.out.find("\"size\":20"), std::string::npos) << ls.out;

  const std::string copy = "file://" + dir.Join("copy.json");
  auto cp = RunFloe({"io", "cp", obj, copy}, kCleanEnv);
  ASSERT_EQ(cp.exit_code, 0) << cp.err;
  EXPECT_EQ(RunFloe({"io", "cat", copy}, kCleanEnv).out, "{\"format-version\":2}");

  auto rm = RunFloe({"io", "rm", obj, copy}, kCleanEnv);
  ASSERT_EQ(rm.exit_code, 0) << rm.err;
  auto gone = RunFloe({"io", "cat", obj}, kCleanEnv);
  EXPECT_EQ(gone.exit_code, 1);
  EXPECT_EQ(gone.err.rfind("floe: NotFound: ", 0), 0u) << gone.err;
  EXPECT_NE(gone.err.find("v1.json"), std::string::npos);
  EXPECT_TRUE(gone.out.empty());
}

TEST(CliTest, IoLsDefaultsToTheWarehouse) {
  testing::TempDir dir;
  ASSERT_EQ(RunFloe({"io", "put", "warehouse/a/b.txt"}, kCleanEnv, dir.path(), "x").exit_code, 0);
  auto ls = RunFloe({"io", "ls", "--format", "csv"}, kCleanEnv, dir.path());
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_EQ(ls.out.substr(0, ls.out.find('\n')), "path,size,modified");
  EXPECT_NE(ls.out.find("./warehouse/a/b.txt,1,"), std::string::npos) << ls.out;
}

TEST(CliTest, TraceIoGoesToStderrAndLeavesStdoutClean) {
  testing::TempDir dir;
  const std::string obj = dir.Join("traced.bin");
  ASSERT_EQ(RunFloe({"io", "put", obj}, kCleanEnv, "", std::string(5000, 'z')).exit_code, 0);
  auto r = RunFloe({"--trace-io", "io", "cat", obj, "--offset", "100", "--length", "1000"}, kCleanEnv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(1000, 'z'));
  EXPECT_NE(r.err.find("HEAD " + obj), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("GET " + obj + " bytes=100-1099 (1000 B) "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("totals: 2 requests (GET 1, HEAD 1), 1000 B read, 0 B written"), std::string::npos) << r.err;
}

TEST(CliTest, StorageErrorsNameTheObject) {
  auto r = RunFloe({"io", "cat", "gs://bucket/key"}, kCleanEnv);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "floe: Unsupported: storage scheme 'gs' of location 'gs://bucket/key' is not available in this build\n");
}

TEST(CliTest, ParquetSchemaAndMetaDescribeAFileFromAnotherEngine) {
  const std::string file = std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing/data/alltypes_plain.parquet";
  auto schema = RunFloe({"parquet", "schema", file}, kCleanEnv);
  ASSERT_EQ(schema.exit_code, 0) << schema.err;
  EXPECT_EQ(schema.out.rfind("message schema {\n  optional int32 id;", 0), 0u) << schema.out;
  EXPECT_NE(schema.out.find("optional int96 timestamp_col;  -- timestamp[us]"), std::string::npos) << schema.out;
  auto meta = RunFloe({"parquet", "meta", file, "--format", "csv"}, kCleanEnv);
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  EXPECT_NE(meta.out.find("rows: 8, row groups: 1, columns: 11"), std::string::npos) << meta.out;
  EXPECT_NE(meta.out.find("0,bigint_col,int64,UNCOMPRESSED,RLE PLAIN_DICTIONARY PLAIN,8,,55,55,,,none,false"),
            std::string::npos)
      << meta.out;
}

TEST(CliTest, ParquetOnANonParquetFileIsAOneLineCorruptError) {
  testing::TempDir dir;
  ASSERT_EQ(RunFloe({"io", "put", dir.Join("x.parquet")}, kCleanEnv, "", "id,name\n1,a\n2,b\n").exit_code, 0);
  auto r = RunFloe({"parquet", "schema", dir.Join("x.parquet")}, kCleanEnv);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("floe: Corrupt: parquet file '" + dir.Join("x.parquet") + "'", 0), 0u) << r.err;
}

TEST(CliTest, DemoRunsOnAFreshWarehouse) {
  testing::TempDir dir;
  // The orders story scaled down: the full size runs in `make demo`.
  auto r = RunFloe({"demo", "--orders-per-day", "40000"}, kCleanEnv, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir.Join("warehouse/catalog.db")));
  for (const char* line : {"a reader pinned at s1 still reads 60 rows", "110 old rows read null, 30 new rows read 'app'",
                           "each in 8 and 8 small files",
                           "B lost the race, retried and landed in 2 attempts (1 conflict)",
                           "40000 rows in 1 file", "planning report",
                           "manifests: 3 total, 2 skipped", "data files: 3 total, 2 skipped"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " missing from demo output:\n" << r.out;
  }
  // The two streaming writers left four small files per writer and day in
  // 2026-10-04 and 10-05, beside the three days' one file each: compaction
  // makes one file of each of those two days, rows unchanged.
  EXPECT_NE(r.out.find("s8: compacted 16 small files into 2 (data files 19 before, 5 after); rows 215 before, 215 after"),
            std::string::npos)
      << r.out;
  // The snapshot log's time travel counts equal its totals: 60, 120, 110, 140, 135, 175, 215, 215.
  for (const char* row : {"|   60 |               60 |", "|  110 |              110 |", "|  175 |              175 |",
                          "|  215 |              215 |"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  }

  // The orders query: the page index skipped pages, and floe read a small
  // share of the table's data files (2 of 72 hours, 3 of 5 columns). The
  // bound comes from the files on disk, not from what the demo says.
  const size_t report_at = r.out.find("planning report");
  ASSERT_NE(report_at, std::string::npos) << r.out;
  const std::string report = r.out.substr(report_at);
  std::smatch pages;
  ASSERT_TRUE(std::regex_search(report, pages, std::regex(R"(pages: (\d+) total, (\d+) skipped)"))) << report;
  EXPECT_GT(std::stoll(pages[2]), 0) << report;
  EXPECT_LT(std::stoll(pages[2]), std::stoll(pages[1])) << report;
  std::smatch bytes;
  ASSERT_TRUE(std::regex_search(
      report, bytes, std::regex(R"(bytes read: (\d+) \(manifests (\d+), data files (\d+), delete files 0\))")))
      << report;
  const int64_t data_bytes = std::stoll(bytes[3]);
  int64_t table_bytes = 0;
  int data_files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.Join("warehouse"))) {
    const std::string path = entry.path().string();
    if (entry.is_regular_file() && path.find("/orders/data/") != std::string::npos && path.ends_with(".parquet")) {
      table_bytes += static_cast<int64_t>(entry.file_size());
      ++data_files;
    }
  }
  EXPECT_EQ(data_files, 3);
  EXPECT_GT(data_bytes, 0) << report;
  EXPECT_LT(data_bytes * 20, table_bytes) << "floe read " << data_bytes << " of " << table_bytes << " bytes\n" << report;

  // Running it again works on the existing warehouse.
  EXPECT_EQ(RunFloe({"demo", "--orders-per-day", "40000"}, kCleanEnv, dir.path()).exit_code, 0);
}

}  // namespace
}  // namespace floe
