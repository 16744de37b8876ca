// fuzz/seeds/rest_request/ holds the request bodies rest_request_fuzz starts
// from. A seed that stopped parsing (a message format changed) would leave
// the fuzzer mutating an error path, so each must still parse as the
// message its file name says, and a create or commit must be accepted as the
// fuzzer applies it: to the base table and view of fuzz/rest_request_bases.h,
// or to no table.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "../../fuzz/rest_request_bases.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/catalog/rest/view_messages.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/view_metadata_json.h"
#include "floe/iceberg/view_update.h"
#include "floe/server/server_config.h"

namespace floe::server {
namespace {

namespace rest = catalog::rest;

Status CreateTable(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(rest::CreateTableRequest m, rest::ParseCreateTableRequest(text));
  return iceberg::NewTableMetadata(m.table.Definition(m.table.location.value_or("s3://bucket/t"))).status();
}

Status CreateView(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(rest::CreateViewRequest m, rest::ParseCreateViewRequest(text));
  const std::string location = m.view.location.value_or("s3://bucket/v");
  return iceberg::ApplyViewChanges(nullptr, {},
                                   m.view.NewViewUpdates("0f8f5a8e-1b4f-4b43-9d2e-6cbbd2a0b7a1", location, 1))
      .status();
}

// A commit applied to the fuzzer's base table, or to no table (a create).
Status CommitTable(std::string_view text, bool to_base) {
  FLOE_ASSIGN_OR_RETURN(rest::CommitTableRequest m, rest::ParseCommitTableRequest(text));
  FLOE_ASSIGN_OR_RETURN(iceberg::TableMetadata base, iceberg::TableMetadataFromJson(fuzz::kBaseTable));
  return iceberg::ApplyTableChanges(to_base ? &base : nullptr, m.requirements, m.updates).status();
}

Status CommitTransaction(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(rest::CommitTransactionRequest m, rest::ParseCommitTransactionRequest(text));
  FLOE_ASSIGN_OR_RETURN(iceberg::TableMetadata base, iceberg::TableMetadataFromJson(fuzz::kBaseTable));
  for (const rest::CommitTableRequest& change : m.table_changes) {
    FLOE_RETURN_IF_ERROR(iceberg::ApplyTableChanges(&base, change.requirements, change.updates).status());
  }
  return Status::OK();
}

Status CommitView(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(rest::CommitViewRequest m, rest::ParseCommitViewRequest(text));
  FLOE_ASSIGN_OR_RETURN(iceberg::ViewMetadata base, iceberg::ViewMetadataFromJson(fuzz::kBaseView));
  return iceberg::ApplyViewChanges(&base, m.requirements, m.updates).status();
}

Status ParseSeedAs(const std::string& kind, std::string_view text) {
  static const std::map<std::string, std::function<Status(std::string_view)>> parsers = {
      {"create-table", CreateTable},
      {"create-table-v3", CreateTable},
      {"commit-table", [](auto t) { return CommitTable(t, /*to_base=*/true); }},
      {"commit-create", [](auto t) { return CommitTable(t, /*to_base=*/false); }},
      {"commit-transaction", CommitTransaction},
      {"create-view", CreateView},
      {"commit-view", CommitView},
      {"namespace", [](auto t) { return rest::ParseNamespaceMessage(t).status(); }},
      {"update-namespace-properties", [](auto t) { return rest::ParseUpdateNamespacePropertiesRequest(t).status(); }},
      {"rename-table", [](auto t) { return rest::ParseRenameTableRequest(t).status(); }},
      {"register-table", [](auto t) { return rest::ParseRegisterTableRequest(t).status(); }},
      {"report-metrics", [](auto t) { return rest::ParseReportMetricsRequest(t).status(); }},
      {"oauth-form", [](auto t) { return rest::ParseForm(t).status(); }},
      {"namespace-segment", [](auto t) { return rest::DecodeNamespace(t).status(); }},
      {"server-config",
       [](auto t) {
         RestServerOptions options;
         return ApplyServerConfig(t, &options).status();
       }},
  };
  auto it = parsers.find(kind);
  if (it == parsers.end()) return Status::NotFound("no parser for a seed named " + kind);
  return it->second(text);
}

TEST(RestFuzzSeeds, EverySeedParsesAsItsNameSaysAndItsCommitsApply) {
  const std::filesystem::path dir = std::filesystem::path(FLOE_SOURCE_DIR) / "fuzz/seeds/rest_request";
  int seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(entry.path().filename().string());
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const Status parsed = ParseSeedAs(entry.path().stem().string(), text.str());
    EXPECT_TRUE(parsed.ok()) << parsed.ToString();
    ++seeds;
  }
  EXPECT_EQ(seeds, 15);
}

}  // namespace
}  // namespace floe::server
