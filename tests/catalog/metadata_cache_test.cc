#include "floe/catalog/metadata_cache.h"

#include <gtest/gtest.h>

#include "catalog/catalog_test_util.h"
#include "floe/iceberg/table_update.h"
#include "floe/io/tracing_file_io.h"

namespace floe::catalog {
namespace {

using testing::Ident;
using testing::Ns;
using testing::OrdersRequest;

// The cache never looks inside the metadata: a location tells them apart.
std::shared_ptr<const iceberg::TableMetadata> Metadata(const std::string& location) {
  iceberg::TableMetadata metadata;
  metadata.location = location;
  return std::make_shared<const iceberg::TableMetadata>(std::move(metadata));
}

TEST(TableMetadataCacheTest, FindsWhatWasInsertedAndEvictsTheLeastRecentlyUsed) {
  TableMetadataCache cache(2);
  auto a = Metadata("/wh/a");
  auto b = Metadata("/wh/b");
  auto c = Metadata("/wh/c");
  EXPECT_EQ(cache.Find("a.json"), nullptr);
  cache.Insert("a.json", a);
  cache.Insert("b.json", b);
  EXPECT_EQ(cache.Find("a.json"), a);  // a is now the most recently used
  cache.Insert("c.json", c);            // evicts b
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find("b.json"), nullptr);
  EXPECT_EQ(cache.Find("a.json"), a);
  EXPECT_EQ(cache.Find("c.json"), c);
  cache.Erase("a.json");
  EXPECT_EQ(cache.Find("a.json"), nullptr);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(TableMetadataCacheTest, CapacityZeroCachesNothing) {
  TableMetadataCache cache(0);
  cache.Insert("a.json", Metadata("/wh/a"));
  EXPECT_EQ(cache.Find("a.json"), nullptr);
  EXPECT_EQ(cache.size(), 0u);
}

// Reads of metadata files through `trace`.
int MetadataReads(const IoTrace& trace) {
  int reads = 0;
  for (const IoRequest& r : trace.requests()) {
    if (r.method == "GET" && r.path.ends_with(".metadata.json")) ++reads;
  }
  return reads;
}

TEST(SqlCatalogMetadataCacheTest, LoadsAndCommitsDoNotReReadTheFileTheCatalogWrote) {
  floe::testing::TempDir dir;
  auto trace = std::make_shared<IoTrace>();
  SqlCatalogOptions options;
  options.database_path = dir.Join("catalog.db");
  options.warehouse = dir.Join("warehouse");
  auto catalog = SqlCatalog::Open(options, std::make_shared<TracingFileIO>(NewLocalFileIO(), trace)).value();
  ASSERT_TRUE(catalog->CreateNamespace(Ns("shop"), {}).ok());
  auto created = catalog->CreateTable(Ident("shop.orders"), OrdersRequest());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  trace->Clear();
  auto committed = catalog->CommitTable(Ident("shop.orders"), {},
                                        {iceberg::SetProperties{{{"owner", "ana"}}}});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  auto loaded = catalog->LoadTable(Ident("shop.orders"));
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(MetadataReads(*trace), 0);
  EXPECT_EQ(loaded->metadata_location, committed->metadata_location);
  EXPECT_EQ(loaded->metadata->properties.at("owner"), "ana");

  // What the cache serves is what the file holds: a catalog without a cache
  // reads the same metadata from it.
  SqlCatalogOptions uncached = options;
  uncached.metadata_cache_entries = 0;
  auto other = SqlCatalog::Open(uncached, NewLocalFileIO()).value();
  auto reread = other->LoadTable(Ident("shop.orders"));
  ASSERT_TRUE(reread.ok()) << reread.status().ToString();
  EXPECT_EQ(reread->metadata_location, loaded->metadata_location);
  EXPECT_TRUE(*reread->metadata == *loaded->metadata);

  // A commit by the other catalog moves the pointer: the first one reads
  // the new file (the pointer is never cached).
  ASSERT_TRUE(other->CommitTable(Ident("shop.orders"), {}, {iceberg::SetProperties{{{"owner", "bo"}}}}).ok());
  trace->Clear();
  auto after = catalog->LoadTable(Ident("shop.orders"));
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->metadata->properties.at("owner"), "bo");
  EXPECT_EQ(MetadataReads(*trace), 1);
}

}  // namespace
}  // namespace floe::catalog
