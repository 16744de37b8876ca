// Transactions (iceberg/transaction.h) committed through the real `floe
// serve`: the one commit request a transaction sends carries exactly the
// requirements its operations assumed (read back from the wire through a
// TCP proxy), each once; the server validates them against its current
// metadata and answers 409 when a concurrent commit broke one; the
// transaction then re-validates on the fresh table and retries, or fails
// whole — nothing of it lands.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "catalog/rest_server_util.h"
#include "catalog/table_test_util.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/table_transactions.h"
#include "floe/iceberg/transaction.h"
#include "floe/iceberg/update/schema_update.h"
#include "testing/tcp_proxy.h"

namespace floe::catalog {
namespace {

using namespace testing;  // NOLINT: the test helpers

// "assert-ref-snapshot-id main=123", "assert-current-schema-id 0", ...
std::string Describe(const iceberg::TableRequirement& r) {
  std::string text(iceberg::TableRequirementType(r));
  if (const auto* a = std::get_if<iceberg::AssertTableUuid>(&r)) return StrCat(text, " ", a->uuid);
  if (const auto* a = std::get_if<iceberg::AssertRefSnapshotId>(&r)) {
    return StrCat(text, " ", a->ref, "=", a->snapshot_id ? StrCat(*a->snapshot_id) : std::string("none"));
  }
  if (const auto* a = std::get_if<iceberg::AssertLastAssignedFieldId>(&r)) {
    return StrCat(text, " ", a->last_assigned_field_id);
  }
  if (const auto* a = std::get_if<iceberg::AssertCurrentSchemaId>(&r)) return StrCat(text, " ", a->current_schema_id);
  if (const auto* a = std::get_if<iceberg::AssertDefaultSpecId>(&r)) return StrCat(text, " ", a->default_spec_id);
  return text;
}

// "add-snapshot 123", "set-snapshot-ref main=123", "set-current-schema -1", ...
std::string Describe(const iceberg::TableUpdate& u) {
  std::string text(iceberg::TableUpdateAction(u));
  if (const auto* a = std::get_if<iceberg::AddSnapshot>(&u)) return StrCat(text, " ", a->snapshot.snapshot_id);
  if (const auto* a = std::get_if<iceberg::SetSnapshotRef>(&u)) {
    return StrCat(text, " ", a->ref_name, "=", a->ref.snapshot_id);
  }
  if (const auto* a = std::get_if<iceberg::SetCurrentSchema>(&u)) return StrCat(text, " ", a->schema_id);
  if (const auto* a = std::get_if<iceberg::SetProperties>(&u)) {
    std::string keys;
    for (const auto& [k, v] : a->updates) keys += StrCat(" ", k, "=", v);
    return text + keys;
  }
  return text;
}

// The bodies of the POSTs to a path ending in `suffix`, in the order sent
// (curl sends Content-Length bodies, no "Expect: 100-continue").
std::vector<std::string> PostBodies(const std::string& traffic, const std::string& suffix) {
  std::vector<std::string> bodies;
  size_t at = 0;
  while ((at = traffic.find("POST ", at)) != std::string::npos) {
    const size_t line_end = traffic.find("\r\n", at);
    const size_t head_end = traffic.find("\r\n\r\n", at);
    if (line_end == std::string::npos || head_end == std::string::npos) break;
    const std::string line = traffic.substr(at, line_end - at);
    std::string head = traffic.substr(at, head_end - at);
    std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
    size_t length = 0;
    if (size_t cl = head.find("content-length:"); cl != std::string::npos) {
      length = std::stoul(head.substr(cl + 15));
    }
    const std::string path = line.substr(5, line.find(' ', 5) - 5);
    if (path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
      bodies.push_back(traffic.substr(head_end + 4, length));
    }
    at = head_end + 4 + length;
  }
  return bodies;
}

struct SentCommit {
  std::vector<std::string> requirements;
  std::vector<std::string> updates;
};

SentCommit Parse(const std::string& body) {
  auto request = rest::ParseCommitTableRequest(body);
  EXPECT_TRUE(request.ok()) << request.status().ToString();
  SentCommit sent;
  if (!request.ok()) return sent;
  for (const auto& r : request->requirements) sent.requirements.push_back(Describe(r));
  for (const auto& u : request->updates) sent.updates.push_back(Describe(u));
  return sent;
}

// The statuses the server answered the table's commit POSTs with, from its
// access log ("rest: POST /v1/namespaces/db/tables/t 409 ...").
std::vector<int> CommitStatuses(const floe::testing::TempDir& dir,
                                const std::string& path = "/v1/namespaces/db/tables/t") {
  std::ifstream log(dir.Join("serve.log"));
  std::vector<int> statuses;
  std::string line;
  const std::string marker = "rest: POST " + path + " ";
  while (std::getline(log, line)) {
    const size_t at = line.find(marker);
    if (at != std::string::npos) statuses.push_back(std::stoi(line.substr(at + marker.size())));
  }
  return statuses;
}

// Adds an optional string column, assuming the schema it was built on.
iceberg::Table::ChangeBuilder AddColumn(std::string name) {
  return [name](const iceberg::TableMetadata& m)
             -> Result<std::pair<std::vector<iceberg::TableRequirement>, std::vector<iceberg::TableUpdate>>> {
    iceberg::SchemaUpdate update(*m.current_schema(), m.last_column_id, m.format_version);
    update.AddColumn(name, iceberg::Type::String());
    FLOE_ASSIGN_OR_RETURN(auto applied, update.Apply());
    std::vector<iceberg::TableRequirement> requirements = {iceberg::AssertCurrentSchemaId{m.current_schema_id},
                                                           iceberg::AssertLastAssignedFieldId{m.last_column_id}};
    std::vector<iceberg::TableUpdate> updates = {iceberg::AddSchema{applied.schema},
                                                 iceberg::SetCurrentSchema{iceberg::kLastAdded}};
    return std::make_pair(std::move(requirements), std::move(updates));
  };
}

// The Parquet files under a table location ("file:///..." or a path).
int DataFiles(std::string location) {
  if (location.rfind("file://", 0) == 0) location = location.substr(7);
  int n = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(location)) {
    if (entry.path().extension() == ".parquet") ++n;
  }
  return n;
}

class RestTransactionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<FloeServer>(dir_);
    ASSERT_TRUE(server_->ok());
    direct_ = OpenRest(server_->url());
    ASSERT_NE(direct_, nullptr);
    CreateRowsTable(*direct_);
    proxy_ = std::make_unique<floe::testing::TcpProxy>(server_->port());
    RestCatalogOptions options;
    options.http.http.reuse_connections = false;
    through_ = OpenRest(StrCat("http://127.0.0.1:", proxy_->port()), std::move(options));
    ASSERT_NE(through_, nullptr);
    table_ = std::make_unique<iceberg::Table>(through_->NewTableOps(Ident(kTableName)));
    other_ = std::make_unique<iceberg::Table>(direct_->NewTableOps(Ident(kTableName)));
    auto first = other_->Append(SourceFor(*other_, MakeRows(0, 6, {"a", "b"})).value());
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    start_id_ = first->commit.snapshot_id;
    uuid_ = first->state.metadata->table_uuid;
  }

  // The statuses of the commit POSTs after the first `skip`, once at least
  // `expect` of them are logged (the line is written after the answer).
  std::vector<int> StatusesAfter(size_t skip, size_t expect, const std::string& path = "/v1/namespaces/db/tables/t") {
    std::vector<int> all = CommitStatuses(dir_, path);
    for (int i = 0; i < 100 && all.size() < skip + expect; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      all = CommitStatuses(dir_, path);
    }
    if (all.size() < skip) return {};
    return std::vector<int>(all.begin() + static_cast<std::ptrdiff_t>(skip), all.end());
  }

  std::vector<std::string> CommitBodies() { return PostBodies(proxy_->sent(), "/tables/t"); }
  iceberg::TableMetadata Current() { return *direct_->LoadTable(Ident(kTableName)).value().metadata; }

  floe::testing::TempDir dir_;
  std::unique_ptr<FloeServer> server_;
  std::shared_ptr<RestCatalog> direct_;
  std::unique_ptr<floe::testing::TcpProxy> proxy_;
  std::shared_ptr<RestCatalog> through_;
  std::unique_ptr<iceberg::Table> table_;
  std::unique_ptr<iceberg::Table> other_;
  int64_t start_id_ = 0;
  std::string uuid_;
};

TEST_F(RestTransactionTest, OneRequestCarriesEveryAssumptionOnce) {
  auto txn = table_->NewTransaction().value();
  auto a = txn->Append(SourceFor(*table_, MakeRows(100, 2, {"a"})).value());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  auto b = txn->Append(SourceFor(*table_, MakeRows(200, 2, {"c"})).value());
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_TRUE(txn->CommitChanges(AddColumn("note")).ok());
  ASSERT_TRUE(txn->SetProperties({{"owner", "txn"}}).ok());
  ASSERT_TRUE(txn->SetRef("checked", iceberg::SnapshotRefType::kTag, b->commit.snapshot_id).ok());
  const size_t logged = 1;  // SetUp's append
  auto committed = txn->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();

  const auto bodies = CommitBodies();
  ASSERT_EQ(bodies.size(), 1u);  // five operations, one commit
  const SentCommit sent = Parse(bodies[0]);
  // Two appends and a tag touch main and "checked": one assertion per ref,
  // on main's head at the start; the schema change asserts the schema and
  // field ids it was built on; properties assert nothing more.
  EXPECT_EQ(sent.requirements, (std::vector<std::string>{
                                   "assert-table-uuid " + uuid_,
                                   "assert-last-assigned-field-id 3",
                                   "assert-current-schema-id 0",
                                   StrCat("assert-ref-snapshot-id checked=none"),
                                   StrCat("assert-ref-snapshot-id main=", start_id_),
                               }));
  EXPECT_EQ(sent.updates, (std::vector<std::string>{
                              "add-schema",
                              "set-current-schema -1",
                              StrCat("add-snapshot ", a->commit.snapshot_id),
                              StrCat("add-snapshot ", b->commit.snapshot_id),
                              StrCat("set-snapshot-ref checked=", b->commit.snapshot_id),
                              StrCat("set-snapshot-ref main=", b->commit.snapshot_id),
                              "set-properties owner=txn",
                          }));
  EXPECT_EQ(StatusesAfter(logged, 1), std::vector<int>{200});

  const iceberg::TableMetadata m = Current();
  EXPECT_EQ(m.current_snapshot_id, b->commit.snapshot_id);
  EXPECT_EQ(m.SnapshotById(b->commit.snapshot_id)->parent_snapshot_id, a->commit.snapshot_id);
  EXPECT_EQ(m.SnapshotById(a->commit.snapshot_id)->parent_snapshot_id, start_id_);
  EXPECT_EQ(m.refs.at("checked").snapshot_id, b->commit.snapshot_id);
  EXPECT_EQ(m.properties.at("owner"), "txn");
  ASSERT_NE(m.current_schema()->FindFieldByName("note"), nullptr);
  EXPECT_EQ(ScanRows(*other_).value().size(), 10u);
}

TEST_F(RestTransactionTest, AConcurrentAppendIsA409ThenTheTransactionRetriesOnTheFreshTable) {
  auto txn = table_->NewTransaction().value();
  auto a = txn->Append(SourceFor(*table_, MakeRows(100, 3, {"a"})).value());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(txn->CommitChanges(AddColumn("note")).ok());
  // Another writer moves main (and only main) before the transaction commits.
  auto concurrent = other_->Append(SourceFor(*other_, MakeRows(300, 2, {"b"})).value());
  ASSERT_TRUE(concurrent.ok()) << concurrent.status().ToString();
  const int64_t concurrent_id = concurrent->commit.snapshot_id;

  const size_t logged = 2;  // SetUp's append, the concurrent one
  auto committed = txn->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_EQ(txn->report().attempts, 2);
  EXPECT_EQ(txn->report().conflicts, 1);
  // The server refused the first request (main moved) and took the second,
  // which asserts main where the retry found it.
  EXPECT_EQ(StatusesAfter(logged, 2), (std::vector<int>{409, 200}));
  const auto bodies = CommitBodies();
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(Parse(bodies[0]).requirements.back(), StrCat("assert-ref-snapshot-id main=", start_id_));
  const SentCommit retry = Parse(bodies[1]);
  EXPECT_EQ(retry.requirements, (std::vector<std::string>{"assert-table-uuid " + uuid_,
                                                          "assert-last-assigned-field-id 3",
                                                          "assert-current-schema-id 0",
                                                          StrCat("assert-ref-snapshot-id main=", concurrent_id)}));

  const iceberg::TableMetadata m = Current();
  EXPECT_EQ(m.current_snapshot_id, a->commit.snapshot_id);  // the snapshot id survives the retry
  EXPECT_EQ(m.SnapshotById(a->commit.snapshot_id)->parent_snapshot_id, concurrent_id);
  ASSERT_NE(m.current_schema()->FindFieldByName("note"), nullptr);
  EXPECT_EQ(ScanRows(*other_).value().size(), 11u);  // 6 + 2 concurrent + 3
}

TEST_F(RestTransactionTest, AConcurrentSchemaChangeFailsTheWholeTransaction) {
  const int data_files_before = DataFiles(Current().location);
  ASSERT_GT(data_files_before, 0);
  auto txn = table_->NewTransaction().value();
  auto a = txn->Append(SourceFor(*table_, MakeRows(100, 3, {"a"})).value());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(txn->CommitChanges(AddColumn("note")).ok());
  ASSERT_TRUE(other_->CommitChanges(AddColumn("other")).ok());
  const iceberg::TableMetadata before = Current();

  const size_t logged = 2;  // SetUp's append, the concurrent schema change
  auto committed = txn->Commit();
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.status().code(), StatusCode::kCommitConflict) << committed.status().ToString();
  EXPECT_NE(committed.status().message().find("assert-current-schema-id"), std::string::npos)
      << committed.status().message();
  // The server refused the one request; re-validation on the fresh table
  // found the schema the change was built on replaced, so no retry was sent
  // — rebuilt on the new schema, the change would have landed unasked.
  EXPECT_EQ(StatusesAfter(logged, 1), std::vector<int>{409});
  // Neither the append nor the schema change landed.
  const iceberg::TableMetadata after = Current();
  EXPECT_EQ(after.current_snapshot_id, start_id_);
  EXPECT_EQ(after.snapshots.size(), before.snapshots.size());
  EXPECT_EQ(after.current_schema()->FindFieldByName("note"), nullptr);
  ASSERT_NE(after.current_schema()->FindFieldByName("other"), nullptr);
  EXPECT_EQ(ScanRows(*other_).value().size(), 6u);
  // The transaction's data files are gone again.
  EXPECT_EQ(DataFiles(after.location), data_files_before);
}

// Two tables in one POST /v1/transactions/commit (catalog/table_transactions.h).
class RestMultiTableTransactionTest : public RestTransactionTest {
 protected:
  void SetUp() override {
    RestTransactionTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_TRUE(direct_->CreateTable(Ident("db.u"), RowsTableRequest()).ok());
    u_ = std::make_unique<iceberg::Table>(through_->NewTableOps(Ident("db.u")));
    other_u_ = std::make_unique<iceberg::Table>(direct_->NewTableOps(Ident("db.u")));
    auto first = other_u_->Append(SourceFor(*other_u_, MakeRows(0, 4, {"x"})).value());
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    u_start_id_ = first->commit.snapshot_id;
    u_uuid_ = first->state.metadata->table_uuid;
  }

  // The transactions/commit requests as sent: per request, per table
  // ("db.t" / "db.u"), the requirements.
  std::vector<std::map<std::string, std::vector<std::string>>> SentTransactions() {
    std::vector<std::map<std::string, std::vector<std::string>>> sent;
    for (const std::string& body : PostBodies(proxy_->sent(), "/transactions/commit")) {
      auto request = rest::ParseCommitTransactionRequest(body);
      EXPECT_TRUE(request.ok()) << request.status().ToString();
      if (!request.ok()) continue;
      auto& tables = sent.emplace_back();
      for (const auto& change : request->table_changes) {
        auto& described = tables[change.identifier->ToString()];
        for (const auto& r : change.requirements) described.push_back(Describe(r));
      }
    }
    return sent;
  }
  iceberg::TableMetadata CurrentU() { return *direct_->LoadTable(Ident("db.u")).value().metadata; }

  std::unique_ptr<iceberg::Table> u_;
  std::unique_ptr<iceberg::Table> other_u_;
  int64_t u_start_id_ = 0;
  std::string u_uuid_;
};

TEST_F(RestMultiTableTransactionTest, AConcurrentCommitOnOneTableIsRetriedForBoth) {
  auto t_txn = table_->NewTransaction().value();
  auto u_txn = u_->NewTransaction().value();
  auto t_append = t_txn->Append(SourceFor(*table_, MakeRows(100, 3, {"a"})).value());
  ASSERT_TRUE(t_append.ok()) << t_append.status().ToString();
  auto u_append = u_txn->Append(SourceFor(*u_, MakeRows(100, 2, {"y"})).value());
  ASSERT_TRUE(u_append.ok()) << u_append.status().ToString();
  ASSERT_TRUE(u_txn->SetProperties({{"fed-by", "db.t"}}).ok());
  auto concurrent = other_->Append(SourceFor(*other_, MakeRows(300, 2, {"b"})).value());
  ASSERT_TRUE(concurrent.ok()) << concurrent.status().ToString();
  const int64_t concurrent_id = concurrent->commit.snapshot_id;

  auto committed = CommitTableTransactions(
      *through_, {TableTransaction{Ident("db.t"), t_txn.get()}, TableTransaction{Ident("db.u"), u_txn.get()}});
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  ASSERT_EQ(committed->size(), 2u);
  // spec: a committed transaction is 204 No Content.
  EXPECT_EQ(StatusesAfter(0, 2, "/v1/transactions/commit"), (std::vector<int>{409, 204}));
  const auto sent = SentTransactions();
  ASSERT_EQ(sent.size(), 2u);
  using Requirements = std::map<std::string, std::vector<std::string>>;
  EXPECT_EQ(sent[0], (Requirements{
                         {"db.t", {"assert-table-uuid " + uuid_, StrCat("assert-ref-snapshot-id main=", start_id_)}},
                         {"db.u", {"assert-table-uuid " + u_uuid_, StrCat("assert-ref-snapshot-id main=", u_start_id_)}},
                     }));
  EXPECT_EQ(sent[1].at("db.t").back(), StrCat("assert-ref-snapshot-id main=", concurrent_id));
  EXPECT_EQ(sent[1].at("db.u").back(), StrCat("assert-ref-snapshot-id main=", u_start_id_));

  const iceberg::TableMetadata t = Current();
  EXPECT_EQ(t.current_snapshot_id, t_append->commit.snapshot_id);
  EXPECT_EQ(t.SnapshotById(t_append->commit.snapshot_id)->parent_snapshot_id, concurrent_id);
  EXPECT_EQ((*committed)[0].metadata->current_snapshot_id, t_append->commit.snapshot_id);
  const iceberg::TableMetadata u = CurrentU();
  EXPECT_EQ(u.current_snapshot_id, u_append->commit.snapshot_id);
  EXPECT_EQ(u.properties.at("fed-by"), "db.t");
  EXPECT_EQ(ScanRows(*other_).value().size(), 11u);   // 6 + 2 concurrent + 3
  EXPECT_EQ(ScanRows(*other_u_).value().size(), 6u);  // 4 + 2
  // Both are done: no second commit.
  EXPECT_THAT(t_txn->Commit().status().message(), ::testing::HasSubstr("already committed"));
}

TEST_F(RestMultiTableTransactionTest, AFailedRevalidationOnOneTableLeavesBothAsTheyWere) {
  const int t_files = DataFiles(Current().location);
  const int u_files = DataFiles(CurrentU().location);
  auto t_txn = table_->NewTransaction().value();
  auto u_txn = u_->NewTransaction().value();
  // db.t: delete region b; db.u: append. Meanwhile region b gets rows the
  // delete never saw.
  ASSERT_TRUE(t_txn->Delete(iceberg::ParseExpression("region = 'b'").value()).ok());
  ASSERT_TRUE(u_txn->Append(SourceFor(*u_, MakeRows(100, 2, {"y"})).value()).ok());
  auto concurrent = other_->Append(SourceFor(*other_, MakeRows(300, 2, {"b"})).value());
  ASSERT_TRUE(concurrent.ok()) << concurrent.status().ToString();
  const int t_files_concurrent = DataFiles(Current().location);

  auto committed = CommitTableTransactions(
      *through_, {TableTransaction{Ident("db.t"), t_txn.get()}, TableTransaction{Ident("db.u"), u_txn.get()}});
  ASSERT_FALSE(committed.ok());
  EXPECT_EQ(committed.status().code(), StatusCode::kCommitConflict) << committed.status().ToString();
  EXPECT_NE(committed.status().message().find("db.t"), std::string::npos) << committed.status().message();
  EXPECT_EQ(StatusesAfter(0, 1, "/v1/transactions/commit"), std::vector<int>{409});
  EXPECT_EQ(Current().current_snapshot_id, concurrent->commit.snapshot_id);
  EXPECT_EQ(CurrentU().current_snapshot_id, u_start_id_);
  EXPECT_EQ(ScanRows(*other_).value().size(), 8u);
  EXPECT_EQ(ScanRows(*other_u_).value().size(), 4u);
  // Neither transaction left a data file behind.
  EXPECT_GT(t_files_concurrent, t_files);
  EXPECT_EQ(DataFiles(Current().location), t_files_concurrent);
  EXPECT_EQ(DataFiles(CurrentU().location), u_files);
}

}  // namespace
}  // namespace floe::catalog
