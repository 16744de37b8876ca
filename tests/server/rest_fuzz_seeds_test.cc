// fuzz/seeds/rest_request/ holds the request bodies rest_request_fuzz starts
// from. A seed that stopped parsing (a message format changed) would leave
// the fuzzer mutating an error path, so each must still parse as the
// message its file name says.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/catalog/rest/view_messages.h"
#include "floe/server/server_config.h"

namespace floe::server {
namespace {

namespace rest = catalog::rest;

Status ParseSeedAs(const std::string& kind, std::string_view text) {
  static const std::map<std::string, std::function<Status(std::string_view)>> parsers = {
      {"create-table", [](auto t) { return rest::ParseCreateTableRequest(t).status(); }},
      {"create-table-v3", [](auto t) { return rest::ParseCreateTableRequest(t).status(); }},
      {"commit-table", [](auto t) { return rest::ParseCommitTableRequest(t).status(); }},
      {"commit-create", [](auto t) { return rest::ParseCommitTableRequest(t).status(); }},
      {"commit-transaction", [](auto t) { return rest::ParseCommitTransactionRequest(t).status(); }},
      {"create-view", [](auto t) { return rest::ParseCreateViewRequest(t).status(); }},
      {"commit-view", [](auto t) { return rest::ParseCommitViewRequest(t).status(); }},
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

TEST(RestFuzzSeeds, EverySeedParsesAsTheMessageItsNameSays) {
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
