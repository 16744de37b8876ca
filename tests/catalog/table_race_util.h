// The racing-writers scenario of table_concurrency_test.cc, shared with the
// REST catalog's race through `floe serve`: appenders (half their rows in
// region "hot", half in a region of their own) race with two overwriters.
// One overwriter only touches region "cold", which nobody else writes, so
// every one of its overwrites must land however often it loses the race;
// the other overwrites "hot" rows and rows with v < 3, which the appends
// keep adding, so its overwrites may fail, but only with CommitConflict.
//
// ExpectSerialModel checks afterwards: every append landed exactly once; the
// branch's snapshots are exactly the operations that reported success; each
// hot overwrite that landed had no conflicting append between the snapshot
// it started from and its own, and each that failed had one after its start
// (so every overlapping overwrite conflicted, and only those); and
// replaying those operations in snapshot-log order on an in-memory model
// gives the table's rows — at the head and at sampled snapshots by time
// travel.

#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "catalog/table_test_util.h"

namespace floe::catalog::testing {

// 8 appenders × 50 appends and 2 overwriters × 12. Under ASan every commit
// costs several times more: 4 × 25 and 2 × 6, still racing, unless
// FLOE_TEST_FULL_RACE=1 asks for the full run.
struct Scale {
  int appenders;
  int appends_each;
  int overwrites_each;
};

inline const Scale& RaceScale() {
  static const Scale scale = [] {
#if defined(__SANITIZE_ADDRESS__)
    const char* full = std::getenv("FLOE_TEST_FULL_RACE");
    if (full == nullptr || std::string_view(full) != "1") return Scale{4, 25, 6};
#endif
    return Scale{8, 50, 12};
  }();
  return scale;
}

inline int ColdWriter() { return RaceScale().appenders; }     // the overwriter of "cold"
inline int HotWriter() { return RaceScale().appenders + 1; }  // the overwriter of "hot"

inline const Properties kRaceProperties = {{"commit.retry.num-retries", "1000"}, {"commit.manifest.min-count-to-merge", "8"}};

// The operation a writer performs as its `i`th step: deterministic, so a
// process reports only (writer, step, snapshot id) and the parent knows
// what landed.
struct Step {
  enum Kind { kAppend, kOverwrite, kDelete } kind = kAppend;
  RowFilter filter;
  Rows rows;
};

inline Step StepOf(int writer, int i) {
  Step step;
  const int64_t id0 = int64_t{writer} * 100'000 + i * 10;
  if (writer < RaceScale().appenders) {
    // Ids make v = id % 100 run through 0..99, so some rows have v < 3.
    step.rows = {Row{id0, "hot", (i * 10) % 100}, Row{id0 + 1, StrCat("r", writer), (i * 10 + 1) % 100}};
    return step;
  }
  if (writer == ColdWriter()) {
    if (i % 2 == 0) {
      step.kind = Step::kOverwrite;
      step.filter = RowFilter{"region = 'cold'", [](const Row& r) { return r.region == "cold"; }};
      step.rows = {Row{id0, "cold", 10 + i}, Row{id0 + 1, "cold", 60 + i}};
    } else {
      step.kind = Step::kDelete;  // copy-on-write: keeps the v >= 50 row
      step.filter =
          RowFilter{"region = 'cold' and v < 50", [](const Row& r) { return r.region == "cold" && r.v < 50; }};
    }
    return step;
  }
  step.kind = Step::kOverwrite;
  if (i % 2 == 0) {
    step.filter = RowFilter{"region = 'hot'", [](const Row& r) { return r.region == "hot"; }};
    step.rows = {Row{id0, "hot", 50}};
  } else {
    step.filter = RowFilter{"v < 3", [](const Row& r) { return r.v < 3; }};
    step.rows = {Row{id0, "r-hot-writer", 40}};
  }
  return step;
}

inline int StepsOf(int writer) {
  return writer < RaceScale().appenders ? RaceScale().appends_each : RaceScale().overwrites_each;
}

// One step's outcome: the snapshot it committed, or the error, and the
// snapshot its operation started from (0: the table was empty).
struct Done {
  int writer = 0;
  int step = 0;
  int64_t snapshot_id = 0;  // 0 when it failed
  StatusCode code = StatusCode::kOk;
  std::string message;
  int64_t base_snapshot_id = 0;
};

inline std::vector<Done> RunWriter(Catalog& catalog, int writer) {
  std::vector<Done> done;
  auto ops = catalog.NewTableOps(Ident(kTableName));
  iceberg::Table table(ops);
  for (int i = 0; i < StepsOf(writer); ++i) {
    const Step step = StepOf(writer, i);
    Done d{writer, i, 0, StatusCode::kOk, "", 0};
    // Table::Append/Overwrite/Delete, with the state they start from kept.
    auto run = [&]() -> Result<iceberg::WriteResult> {
      FLOE_ASSIGN_OR_RETURN(iceberg::TableState state, table.Refresh());
      if (const iceberg::Snapshot* head = state.metadata->current_snapshot()) d.base_snapshot_id = head->snapshot_id;
      FLOE_ASSIGN_OR_RETURN(auto source, SourceFor(table, step.rows));
      iceberg::PreparedWrite prepared;
      if (step.kind == Step::kAppend) {
        FLOE_ASSIGN_OR_RETURN(prepared, iceberg::PrepareAppend(ops, state, source, {}));
      } else {
        FLOE_ASSIGN_OR_RETURN(prepared, iceberg::PrepareRewriteMatching(
                                            ops, state, iceberg::ParseExpression(step.filter.text).value(),
                                            step.kind == Step::kOverwrite ? &source : nullptr));
      }
      return iceberg::CommitPrepared(std::move(prepared), *ops, state);
    };
    Result<iceberg::WriteResult> result = run();
    d.code = result.status().code();
    if (!result.ok()) d.message = result.status().message();
    if (result.ok()) d.snapshot_id = result->commit.snapshot_id;
    done.push_back(std::move(d));
  }
  return done;
}

// Whether a step that landed adds rows `filter` matches: under serializable
// isolation such an append, committed after an overwrite's base snapshot
// and before the overwrite, conflicts with it. The race's appended files
// hold one row each, so file metrics decide exactly as rows do.
inline bool AddsMatchingRows(const Done& d, const RowFilter& filter) {
  const Step step = StepOf(d.writer, d.step);
  return std::any_of(step.rows.begin(), step.rows.end(), filter.match);
}

// Checks the table against the replay of the steps that landed.
inline void ExpectSerialModel(Catalog& catalog, const std::vector<Done>& all) {
  std::map<int64_t, const Done*> by_snapshot;
  int cold_landed = 0, hot_landed = 0, hot_conflicts = 0;
  for (const Done& d : all) {
    if (d.writer < RaceScale().appenders || d.writer == ColdWriter()) {
      // Appends and cold overwrites never truly conflict: they all land.
      EXPECT_EQ(d.code, StatusCode::kOk) << "writer " << d.writer << " step " << d.step << ": " << d.message;
    } else if (d.code != StatusCode::kOk) {
      EXPECT_EQ(d.code, StatusCode::kCommitConflict) << d.message;
      ++hot_conflicts;
    }
    if (d.code != StatusCode::kOk) continue;
    EXPECT_NE(d.snapshot_id, 0);
    EXPECT_TRUE(by_snapshot.emplace(d.snapshot_id, &d).second) << "two steps report snapshot " << d.snapshot_id;
    if (d.writer == ColdWriter()) ++cold_landed;
    if (d.writer == HotWriter()) ++hot_landed;
  }
  EXPECT_EQ(cold_landed, RaceScale().overwrites_each);
  EXPECT_EQ(all.size(),
            static_cast<size_t>(RaceScale().appenders * RaceScale().appends_each + 2 * RaceScale().overwrites_each));
  ::testing::Test::RecordProperty("hot_overwrites_landed", hot_landed);
  ::testing::Test::RecordProperty("hot_overwrites_conflicted", hot_conflicts);

  auto state = catalog.LoadTable(Ident(kTableName));
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  const iceberg::TableMetadata& m = *state->metadata;
  std::vector<int64_t> chain;  // root first
  for (const iceberg::Snapshot* s = m.current_snapshot(); s != nullptr;
       s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    chain.insert(chain.begin(), s->snapshot_id);
  }
  // Exactly the steps that reported success, each once, in the log's order.
  EXPECT_EQ(chain.size(), by_snapshot.size());
  EXPECT_EQ(m.snapshots.size(), by_snapshot.size());
  std::vector<int64_t> logged;
  for (const auto& entry : m.snapshot_log) logged.push_back(entry.snapshot_id);
  EXPECT_EQ(logged, chain);

  // Conflicts: a hot overwrite that landed had no conflicting commit
  // between its base and itself; one that failed had one after its base
  // and no later than the next hot step's base (that step refreshed after
  // the failure). So every overlapping overwrite got CommitConflict, and
  // none failed without cause.
  std::map<int64_t, size_t> position;  // snapshot id -> index in chain
  for (size_t n = 0; n < chain.size(); ++n) position[chain[n]] = n;
  std::map<int, int64_t> hot_base;  // hot step -> its base snapshot
  for (const Done& d : all) {
    if (d.writer == HotWriter()) hot_base[d.step] = d.base_snapshot_id;
  }
  int overlapping = 0;
  for (const Done& d : all) {
    if (d.writer != HotWriter()) continue;
    const RowFilter filter = StepOf(d.writer, d.step).filter;
    size_t from = 0;
    if (d.base_snapshot_id != 0) {
      auto base = position.find(d.base_snapshot_id);
      ASSERT_NE(base, position.end()) << "hot step " << d.step << ": base " << d.base_snapshot_id << " not on main";
      from = base->second + 1;
    }
    size_t to = chain.size();
    if (d.code == StatusCode::kOk) {
      to = position.at(d.snapshot_id);
    } else if (auto next = hot_base.find(d.step + 1); next != hot_base.end() && next->second != 0) {
      auto next_base = position.find(next->second);
      ASSERT_NE(next_base, position.end()) << "hot step " << d.step + 1 << ": base not on main";
      to = next_base->second + 1;
    }
    std::vector<std::string> conflicting;
    for (size_t n = from; n < to; ++n) {
      const Done& other = *by_snapshot.at(chain[n]);
      if (other.writer != HotWriter() && AddsMatchingRows(other, filter)) {
        conflicting.push_back(StrCat("writer ", other.writer, " step ", other.step));
      }
    }
    if (!conflicting.empty()) ++overlapping;
    if (d.code == StatusCode::kOk) {
      EXPECT_TRUE(conflicting.empty()) << "hot overwrite " << d.step << " (" << filter.text
                                       << ") landed over conflicting commits:" << Lines(conflicting);
    } else {
      EXPECT_FALSE(conflicting.empty()) << "hot overwrite " << d.step << " failed with no conflicting commit: "
                                        << d.message;
    }
  }
  EXPECT_EQ(hot_conflicts, overlapping);
  ::testing::Test::RecordProperty("hot_overwrites_overlapping", overlapping);

  iceberg::Table table(catalog.NewTableOps(Ident(kTableName)));
  Rows model;
  for (size_t n = 0; n < chain.size(); ++n) {
    auto it = by_snapshot.find(chain[n]);
    ASSERT_NE(it, by_snapshot.end()) << "snapshot " << chain[n] << " was committed by no step that reported it";
    const Step step = StepOf(it->second->writer, it->second->step);
    model = step.kind == Step::kAppend ? ModelAppend(model, step.rows) : ModelOverwrite(model, step.filter, step.rows);
    if (n % 16 == 5) {
      auto rows = ScanSnapshot(table, chain[n]);
      ASSERT_TRUE(rows.ok()) << rows.status().ToString();
      EXPECT_EQ(*rows, model) << "snapshot #" << n;
    }
  }
  auto rows = ScanRows(table);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, model) << ToString(*rows) << "\nmodel " << ToString(model);
  // Every file any snapshot reaches exists.
  auto io = NewLocalFileIO();
  EXPECT_EQ(Lines(WalkTable(*io, *state).missing), "");
}

// A child process's report: one line "writer step snapshot_id code base" per step.
inline std::string ReportLines(const std::vector<Done>& done) {
  std::string report;
  for (const Done& d : done) {
    report += StrCat(d.writer, " ", d.step, " ", d.snapshot_id, " ", static_cast<int>(d.code), " ", d.base_snapshot_id,
                     "\n");
  }
  return report;
}

// Parses ReportLines; false (with a test failure) on a malformed line.
inline bool ParseReport(const std::string& report, std::vector<Done>* all) {
  std::istringstream lines(report);
  std::string line;
  while (std::getline(lines, line)) {
    Done d;
    long long snapshot = 0;
    long long base = 0;
    int code = 0;
    if (std::sscanf(line.c_str(), "%d %d %lld %d %lld", &d.writer, &d.step, &snapshot, &code, &base) != 5) {
      ADD_FAILURE() << "malformed report line " << Quote(line) << " in:\n" << report;
      return false;
    }
    d.snapshot_id = snapshot;
    d.base_snapshot_id = base;
    d.code = static_cast<StatusCode>(code);
    all->push_back(d);
  }
  return true;
}

}  // namespace floe::catalog::testing
