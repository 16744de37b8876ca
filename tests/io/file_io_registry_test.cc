#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "floe/io/file_io.h"

namespace floe {
namespace {

TEST(FileIORegistryTest, SchemeOfLocations) {
  EXPECT_EQ(LocationScheme("s3://bucket/key"), "s3");
  EXPECT_EQ(LocationScheme("file:///tmp/x"), "file");
  EXPECT_EQ(LocationScheme("mem://a"), "mem");
  EXPECT_EQ(LocationScheme("relative/path"), "");
  EXPECT_EQ(LocationScheme("/abs/path:with-colon"), "");
  EXPECT_EQ(LocationScheme("warehouse"), "");
}

TEST(FileIORegistryTest, ResolvesBuiltInSchemes) {
  auto local = FileIOForLocation("./warehouse");
  ASSERT_TRUE(local.ok());
  EXPECT_EQ((*local)->scheme(), "file");
  EXPECT_EQ((*FileIOForLocation("file:///tmp"))->scheme(), "file");
  auto mem = FileIOForLocation("mem://w");
  ASSERT_TRUE(mem.ok());
  EXPECT_EQ((*mem)->scheme(), "mem");
  // mem: is one store per process: what one lookup writes, the next reads.
  ASSERT_TRUE((*mem)->WriteAll("mem://w/k", std::string_view("v")).ok());
  EXPECT_EQ((*FileIOForLocation("mem://other"))->ReadAll("mem://w/k")->view(), "v");
}

TEST(FileIORegistryTest, UnknownAndUnbuiltSchemesAreClearErrors) {
  auto gs = FileIOForLocation("gs://bucket/t");
  EXPECT_TRUE(gs.status().IsUnsupported());
  EXPECT_NE(gs.status().message().find("'gs'"), std::string::npos);
  auto bogus = FileIOForLocation("bogus://x");
  EXPECT_TRUE(bogus.status().IsInvalidArgument());
  EXPECT_NE(bogus.status().message().find("bogus"), std::string::npos);
}

TEST(FileIORegistryTest, RegisteredFactoryServesItsScheme) {
  auto store = NewMemoryFileIO();
  RegisterFileIOScheme("testfs", [store](std::string_view, const FileIOProperties&) -> Result<std::shared_ptr<FileIO>> { return store; });
  auto io = FileIOForLocation("testfs://x/y");
  ASSERT_TRUE(io.ok());
  EXPECT_EQ(io->get(), store.get());
}

TEST(FileIORegistryTest, LocalFileIORefusesLocationsOfOtherSchemes) {
  // Not a relative folder "s3:": an object meant for a bucket must never
  // land on the local disk.
  auto local = NewLocalFileIO();
  for (const std::string location : {"s3://bucket/t/data/a.parquet", "mem://w/k", "gs://b/k"}) {
    auto written = local->WriteAll(location, std::string_view("v"));
    EXPECT_TRUE(written.IsInvalidArgument()) << location << ": " << written.ToString();
    EXPECT_NE(written.message().find("is not on the local disk"), std::string::npos) << written.ToString();
    EXPECT_TRUE(local->Stat(location).status().IsInvalidArgument()) << location;
  }
}

TEST(FileIORegistryTest, ResolvingFileIOServesEachLocationByItsScheme) {
  auto store = NewMemoryFileIO();
  RegisterFileIOScheme("resolvefs", [store](std::string_view, const FileIOProperties&) -> Result<std::shared_ptr<FileIO>> {
    return store;
  });
  auto io = NewResolvingFileIO();
  ASSERT_TRUE(io->WriteAll("resolvefs://b/t/k1", std::string_view("one")).ok());
  ASSERT_TRUE(io->WriteAll("resolvefs://b/t/k2", std::string_view("two")).ok());
  EXPECT_EQ(store->ReadAll("resolvefs://b/t/k1")->view(), "one");  // it went to the scheme's FileIO
  ASSERT_TRUE(io->WriteAll("mem://resolving/k", std::string_view("m")).ok());
  EXPECT_EQ((*FileIOForLocation("mem://x"))->ReadAll("mem://resolving/k")->view(), "m");
  auto listed = io->ListAll("resolvefs://b/t/");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->size(), 2u);
  const std::vector<std::string> doomed = {"resolvefs://b/t/k1", "resolvefs://b/t/k2", "mem://resolving/k"};
  ASSERT_TRUE(io->DeleteMany(doomed).ok());
  EXPECT_FALSE(*store->Exists("resolvefs://b/t/k1"));
  EXPECT_FALSE(*io->Exists("mem://resolving/k"));
  // A location no FileIO serves fails as FileIOForLocation does.
  auto bogus = io->Stat("bogus://x/y");
  EXPECT_TRUE(bogus.status().IsInvalidArgument());
  EXPECT_NE(bogus.status().message().find("unknown storage scheme 'bogus'"), std::string::npos);
}

TEST(FileIORegistryTest, JoinLocationUsesExactlyOneSlash) {
  EXPECT_EQ(JoinLocation("s3://b/w", "db/t"), "s3://b/w/db/t");
  EXPECT_EQ(JoinLocation("s3://b/w/", "/db/t"), "s3://b/w/db/t");
  EXPECT_EQ(JoinLocation("", "x"), "x");
}

}  // namespace
}  // namespace floe
