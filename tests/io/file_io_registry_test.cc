#include <gtest/gtest.h>

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

TEST(FileIORegistryTest, JoinLocationUsesExactlyOneSlash) {
  EXPECT_EQ(JoinLocation("s3://b/w", "db/t"), "s3://b/w/db/t");
  EXPECT_EQ(JoinLocation("s3://b/w/", "/db/t"), "s3://b/w/db/t");
  EXPECT_EQ(JoinLocation("", "x"), "x");
}

}  // namespace
}  // namespace floe
