// Writers racing on one table through the REST server, each commit an
// add-snapshot guarded by assert-ref-snapshot-id (what every engine sends):
// the losers get 409 CommitFailedException, reload and retry; in the end
// every commit is in the table's history exactly once, in one linear chain.

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/table_changes_json.h"
#include "server/rest_server_test_util.h"

namespace floe::server {
namespace {

using catalog::testing::Ident;
using testing::CreateTableBody;
using testing::ErrorType;
using testing::ServerFixture;

TEST(RestServerConcurrency, RacingAppendersLoseNothing) {
  constexpr int kWriters = 8;
  constexpr int kCommitsEach = 10;
  RestServerOptions options = ServerFixture::Insecure();
  options.worker_threads = kWriters;
  ServerFixture f(options);
  ASSERT_EQ(f.Post("/v1/namespaces", R"({"namespace":["a"]})")->status, 200);
  ASSERT_EQ(f.Post("/v1/namespaces/a/tables", CreateTableBody("t"))->status, 200);
  const int port = f.server().port();
  std::atomic<int> conflicts{0};
  std::atomic<int> failures{0};

  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      httplib::Client http("127.0.0.1", port);
      http.set_read_timeout(60, 0);
      for (int i = 0; i < kCommitsEach; ++i) {
        const int64_t snapshot_id = 1000 * (w + 1) + i;
        for (int attempt = 0; attempt < 200; ++attempt) {
          auto loaded = http.Get("/v1/namespaces/a/tables/t");
          if (!loaded || loaded->status != 200) continue;
          auto result = catalog::rest::ParseLoadTableResult(loaded->body);
          if (!result.ok()) break;
          const auto& m = result->metadata;
          iceberg::Snapshot s;
          s.snapshot_id = snapshot_id;
          s.parent_snapshot_id = m.current_snapshot_id;
          s.sequence_number = m.last_sequence_number + 1;
          s.timestamp_ms = 1700000000000 + snapshot_id;
          s.manifest_list = m.location + "/metadata/snap-" + std::to_string(snapshot_id) + ".avro";
          s.operation = "append";
          s.schema_id = m.current_schema_id;
          catalog::rest::CommitTableRequest commit;
          commit.requirements = {iceberg::AssertRefSnapshotId{"main", m.current_snapshot_id}};
          commit.updates = {iceberg::AddSnapshot{s},
                            iceberg::SetSnapshotRef{"main", iceberg::SnapshotRef{snapshot_id, {}, {}, {}, {}}}};
          auto r = http.Post("/v1/namespaces/a/tables/t", catalog::rest::ToJson(commit), "application/json");
          if (r && r->status == 200) break;
          if (r && r->status == 409 && ErrorType(r) == "CommitFailedException") {
            ++conflicts;
            continue;
          }
          ++failures;
          ADD_FAILURE() << (r ? r->body : "no response");
          break;
        }
      }
    });
  }
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);

  auto state = f.catalog().LoadTable(Ident("a.t"));
  ASSERT_TRUE(state.ok());
  const auto& m = *state->metadata;
  ASSERT_EQ(m.snapshots.size(), size_t{kWriters * kCommitsEach});
  EXPECT_EQ(m.last_sequence_number, kWriters * kCommitsEach);
  // One linear chain from main's head back to the first snapshot.
  std::set<int64_t> seen;
  const iceberg::Snapshot* s = m.current_snapshot();
  while (s != nullptr) {
    EXPECT_TRUE(seen.insert(s->snapshot_id).second);
    s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr;
  }
  EXPECT_EQ(seen.size(), size_t{kWriters * kCommitsEach});
  RecordProperty("conflicts", conflicts.load());
}

}  // namespace
}  // namespace floe::server
