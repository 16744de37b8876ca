// Helpers for the catalog tests: a SQL catalog in a temporary folder, a
// small table definition, and a commit that changes one property.

#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/sql_catalog.h"
#include "floe/iceberg/table_update.h"
#include "testing/temp_dir.h"

namespace floe::catalog::testing {

inline iceberg::NestedField Field(int32_t id, std::string name, iceberg::TypePtr type, bool required = false) {
  return iceberg::NestedField{id, std::move(name), std::move(type), required, {}, {}, {}};
}

inline CreateTableRequest OrdersRequest() {
  CreateTableRequest request;
  request.schema = iceberg::Schema::Make(0, {Field(1, "order_id", iceberg::Type::Long(), true),
                                             Field(2, "order_ts", iceberg::Type::Timestamp())})
                       .value();
  request.partition_spec.fields.push_back(
      iceberg::PartitionField{{2}, 1000, "order_ts_day", iceberg::Transform::Day()});
  return request;
}

// A first view version holding `sql`.
inline iceberg::ViewVersion Version(std::string sql, std::string dialect = "spark") {
  iceberg::ViewVersion v;
  v.version_id = 1;
  v.timestamp_ms = 1700000000000;
  v.summary = {{"engine-name", "floe"}};
  v.representations.push_back(iceberg::ViewRepresentation{"sql", std::move(sql), std::move(dialect), ""});
  v.default_namespace = {"shop"};
  return v;
}

// The view shop.recent of the view tests: the last day of orders.
inline CreateViewRequest RecentOrders() {
  CreateViewRequest request;
  request.schema = OrdersRequest().schema;
  request.view_version = Version("SELECT * FROM orders WHERE order_ts > now() - INTERVAL 1 DAY");
  request.properties = {{"comment", "orders of the last day"}};
  return request;
}

inline Namespace Ns(std::string_view dotted) { return Namespace::Parse(dotted).value(); }
inline TableIdentifier Ident(std::string_view dotted) { return TableIdentifier::Parse(dotted).value(); }

// A catalog at <dir>/catalog.db with warehouse <dir>/warehouse.
inline std::shared_ptr<SqlCatalog> OpenSqlCatalog(const floe::testing::TempDir& dir, std::string name = "floe") {
  SqlCatalogOptions options;
  options.database_path = dir.Join("catalog.db");
  options.warehouse = dir.Join("warehouse");
  options.catalog_name = std::move(name);
  auto catalog = SqlCatalog::Open(std::move(options), NewLocalFileIO());
  EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
  return catalog.ok() ? *catalog : nullptr;
}

// `base` with one more property: the smallest real commit.
inline iceberg::TableMetadata WithProperty(const iceberg::TableMetadata& base, const std::string& key,
                                           const std::string& value) {
  iceberg::TableMetadataBuilder builder(base);
  EXPECT_TRUE(builder.Apply(iceberg::SetProperties{{{key, value}}}).ok());
  return builder.Build().value();
}

// Names of the objects under `prefix`, for checks on what a commit left behind.
inline std::vector<std::string> ListPaths(FileIO& io, const std::string& prefix) {
  std::vector<std::string> paths;
  auto listed = io.ListAll(prefix);
  EXPECT_TRUE(listed.ok()) << listed.status().ToString();
  if (listed.ok()) {
    for (const FileInfo& info : *listed) paths.push_back(info.path);
  }
  return paths;
}

}  // namespace floe::catalog::testing
