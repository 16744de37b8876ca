// Helpers for the table tests on a real SqlCatalog: a small table of rows
// (id long, region string, v long; partitioned by region), an in-memory model
// of its rows, scans back into rows, and a walk of every file the table's
// metadata reaches (for "nothing referenced is missing" and "nothing written
// is left behind").

#pragma once

#include <chrono>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog_test_util.h"
#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/table.h"

namespace floe::catalog::testing {

// Wall-clock milliseconds (snapshot timestamps are in these).
inline int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct Row {
  int64_t id = 0;
  std::string region;
  int64_t v = 0;
  auto operator<=>(const Row&) const = default;
  bool operator==(const Row&) const = default;
};
using Rows = std::vector<Row>;  // a multiset, kept sorted

inline Rows Sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

inline std::string ToString(const Rows& rows) {
  std::string text = StrCat(rows.size(), " rows:");
  for (const Row& r : rows) text += StrCat(" (", r.id, ",", r.region, ",", r.v, ")");
  return text;
}

// A row filter twice: as `--where` text for floe and as the model's predicate.
struct RowFilter {
  std::string text;
  std::function<bool(const Row&)> match;
};

// The filter as the expression a table write takes.
inline iceberg::ExpressionPtr Where(const RowFilter& filter) { return iceberg::ParseExpression(filter.text).value(); }

inline const RowFilter kRegionB{"region = 'b'", [](const Row& r) { return r.region == "b"; }};

// A write's status, for tests that only check how it failed.
inline Status StatusOf(const Result<iceberg::WriteResult>& r) { return r.status(); }

// The model's side of each row operation.
inline Rows ModelAppend(const Rows& model, const Rows& added) {
  Rows out = model;
  out.insert(out.end(), added.begin(), added.end());
  return Sorted(std::move(out));
}

inline Rows ModelOverwrite(const Rows& model, const RowFilter& filter, const Rows& added) {
  Rows out;
  for (const Row& r : model) {
    if (!filter.match(r)) out.push_back(r);
  }
  out.insert(out.end(), added.begin(), added.end());
  return Sorted(std::move(out));
}

inline Rows ModelReplacePartitions(const Rows& model, const Rows& added) {
  std::set<std::string> regions;
  for (const Row& r : added) regions.insert(r.region);
  return ModelOverwrite(model, RowFilter{"", [regions](const Row& r) { return regions.count(r.region) > 0; }}, added);
}

// Rows id0.. id0+n-1 in `regions` round robin, v = id % 100.
inline Rows MakeRows(int64_t id0, int64_t n, const std::vector<std::string>& regions) {
  Rows rows;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t id = id0 + i;
    rows.push_back(Row{id, regions[static_cast<size_t>(i) % regions.size()], id % 100});
  }
  return rows;
}

inline constexpr std::string_view kTableName = "db.t";

// id long (required), region string, v long; identity(region) partitions.
inline CreateTableRequest RowsTableRequest(const Properties& properties = {}) {
  CreateTableRequest request;
  request.schema =
      iceberg::Schema::Make(0, {Field(1, "id", iceberg::Type::Long(), true),
                                Field(2, "region", iceberg::Type::String()), Field(3, "v", iceberg::Type::Long())})
          .value();
  request.partition_spec.fields.push_back(iceberg::PartitionField{{2}, 1000, "region", iceberg::Transform::Identity()});
  // Fast retries: tests race on purpose.
  request.properties = {{"commit.retry.min-wait-ms", "1"}, {"commit.retry.max-wait-ms", "20"}};
  for (const auto& [k, v] : properties) request.properties[k] = v;
  return request;
}

// Creates namespace db and table db.t on `catalog`.
inline void CreateRowsTable(Catalog& catalog, const Properties& properties = {}) {
  ASSERT_TRUE(catalog.CreateNamespace(Ns("db"), {}).ok());
  auto created = catalog.CreateTable(Ident(kTableName), RowsTableRequest(properties));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
}

inline Result<RecordBatch> MakeBatch(const std::shared_ptr<const floe::Schema>& schema, const Rows& rows) {
  Int64Builder ids;
  StringBuilder regions;
  Int64Builder vs;
  for (const Row& r : rows) {
    FLOE_RETURN_IF_ERROR(ids.Append(r.id));
    FLOE_RETURN_IF_ERROR(regions.Append(r.region));
    FLOE_RETURN_IF_ERROR(vs.Append(r.v));
  }
  FLOE_ASSIGN_OR_RETURN(auto id_array, ids.Finish());
  FLOE_ASSIGN_OR_RETURN(auto region_array, regions.Finish());
  FLOE_ASSIGN_OR_RETURN(auto v_array, vs.Finish());
  return RecordBatch::Make(schema, {std::move(id_array), std::move(region_array), std::move(v_array)});
}

// A source yielding `rows` as one batch (none when empty).
inline iceberg::BatchSource SourceOf(std::shared_ptr<const floe::Schema> schema, Rows rows) {
  auto done = std::make_shared<bool>(rows.empty());
  return [schema = std::move(schema), rows = std::move(rows), done]() -> Result<std::optional<RecordBatch>> {
    if (*done) return std::optional<RecordBatch>();
    *done = true;
    FLOE_ASSIGN_OR_RETURN(auto batch, MakeBatch(schema, rows));
    return std::optional<RecordBatch>(std::move(batch));
  };
}

inline Result<iceberg::BatchSource> SourceFor(iceberg::Table& table, Rows rows) {
  FLOE_ASSIGN_OR_RETURN(auto schema, table.WriteSchema());
  return SourceOf(std::move(schema), std::move(rows));
}

// The rows of a scan, sorted.
inline Result<Rows> ScanRows(iceberg::Table& table, iceberg::TableScanOptions options = {}) {
  FLOE_ASSIGN_OR_RETURN(auto scan, table.NewScan(std::move(options)));
  FLOE_ASSIGN_OR_RETURN(auto reader, scan->Open());
  Rows rows;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch.has_value()) break;
    FLOE_ASSIGN_OR_RETURN(Array ids, batch->column_by_name("id"));
    FLOE_ASSIGN_OR_RETURN(Array regions, batch->column_by_name("region"));
    FLOE_ASSIGN_OR_RETURN(Array vs, batch->column_by_name("v"));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      rows.push_back(Row{ids.Values<int64_t>()[i], std::string(regions.GetString(i)), vs.Values<int64_t>()[i]});
    }
  }
  return Sorted(std::move(rows));
}

inline Result<Rows> ScanSnapshot(iceberg::Table& table, int64_t snapshot_id) {
  iceberg::TableScanOptions options;
  options.snapshot_id = snapshot_id;
  return ScanRows(table, std::move(options));
}

// Every file a table version reaches: its metadata file and log, and for
// every snapshot its manifest list, manifests and live data/delete files.
struct TableFiles {
  std::set<std::string> metadata_files;
  std::set<std::string> manifest_lists;
  std::set<std::string> manifests;
  std::set<std::string> data_files;
  std::vector<std::string> missing;  // referenced but absent (or unreadable)

  bool Contains(const std::string& path) const {
    return metadata_files.count(path) || manifest_lists.count(path) || manifests.count(path) || data_files.count(path);
  }
};

inline TableFiles WalkTable(FileIO& io, const iceberg::TableState& state) {
  TableFiles files;
  auto check = [&](const std::string& path) {
    auto info = io.Stat(path);
    if (!info.ok()) files.missing.push_back(StrCat(path, " (", info.status().ToString(), ")"));
    return info.ok();
  };
  files.metadata_files.insert(state.metadata_location);
  check(state.metadata_location);
  for (const auto& entry : state.metadata->metadata_log) files.metadata_files.insert(entry.metadata_file);
  for (const iceberg::Snapshot& snapshot : state.metadata->snapshots) {
    if (!files.manifest_lists.insert(snapshot.manifest_list).second) continue;
    if (!check(snapshot.manifest_list)) continue;
    auto manifests = iceberg::ReadManifestList(io, snapshot.manifest_list);
    if (!manifests.ok()) {
      files.missing.push_back(StrCat(snapshot.manifest_list, " (", manifests.status().ToString(), ")"));
      continue;
    }
    for (const iceberg::ManifestFile& manifest : *manifests) {
      if (!files.manifests.insert(manifest.manifest_path).second) continue;
      if (!check(manifest.manifest_path)) continue;
      iceberg::ManifestReaderOptions options;
      options.read_stats = false;
      auto reader = iceberg::ManifestReader::Open(io, manifest, options);
      auto entries = reader.ok() ? (*reader)->ReadAll() : Result<std::vector<iceberg::ManifestEntry>>(reader.status());
      if (!entries.ok()) {
        files.missing.push_back(StrCat(manifest.manifest_path, " (", entries.status().ToString(), ")"));
        continue;
      }
      for (const iceberg::ManifestEntry& entry : *entries) {
        if (!entry.is_live()) continue;  // a DELETED entry's file may be gone
        if (files.data_files.insert(entry.data_file.file_path).second) check(entry.data_file.file_path);
      }
    }
  }
  return files;
}

// Objects under the table's location that no reachable file names.
inline std::vector<std::string> Orphans(FileIO& io, const iceberg::TableState& state, const TableFiles& files) {
  std::vector<std::string> orphans;
  for (const std::string& path : ListPaths(io, state.metadata->location + "/")) {
    if (!files.Contains(path)) orphans.push_back(path);
  }
  return orphans;
}

inline std::string Lines(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += "\n  " + item;
  return text;
}

// Checks one table from a fresh load through `catalog`: every snapshot it
// has is one `models` knows, and (with `all_snapshots`) its scan by time
// travel equals that model; the current scan equals the current snapshot's model (no rows
// without a snapshot); no file reachable from the metadata is missing; and,
// unless `allow_orphans`, no object under the table's location is
// unreachable. Returns what is wrong, "" when all holds.
inline std::string CheckTable(Catalog& catalog, const std::map<int64_t, Rows>& models, bool allow_orphans, FileIO& io,
                              bool all_snapshots = true) {
  std::string problems;
  auto state = catalog.LoadTable(Ident(kTableName));
  if (!state.ok()) return "load: " + state.status().ToString();
  iceberg::Table table(catalog.NewTableOps(Ident(kTableName)));
  for (const iceberg::Snapshot& snapshot : state->metadata->snapshots) {
    auto model = models.find(snapshot.snapshot_id);
    if (model == models.end()) {
      problems += StrCat("\nsnapshot ", snapshot.snapshot_id, " (", snapshot.operation.value_or("?"),
                         ") is not one of the model's");
      continue;
    }
    if (!all_snapshots) continue;
    auto rows = ScanSnapshot(table, snapshot.snapshot_id);
    if (!rows.ok()) {
      problems += StrCat("\nscan of snapshot ", snapshot.snapshot_id, ": ", rows.status().ToString());
    } else if (*rows != model->second) {
      problems += StrCat("\nsnapshot ", snapshot.snapshot_id, " has ", ToString(*rows), "\n  model has ",
                         ToString(model->second));
    }
  }
  auto current = ScanRows(table);
  const iceberg::Snapshot* head = state->metadata->current_snapshot();
  const Rows empty;
  const Rows* expected = &empty;
  if (head != nullptr && models.count(head->snapshot_id)) expected = &models.at(head->snapshot_id);
  if (!current.ok()) {
    problems += "\ncurrent scan: " + current.status().ToString();
  } else if (*current != *expected) {
    problems += StrCat("\ncurrent scan has ", ToString(*current), "\n  model has ", ToString(*expected));
  }
  const TableFiles files = WalkTable(io, *state);
  if (!files.missing.empty()) problems += "\nmissing files:" + Lines(files.missing);
  if (!allow_orphans) {
    const auto orphans = Orphans(io, *state, files);
    if (!orphans.empty()) problems += "\norphan files:" + Lines(orphans);
  }
  return problems;
}

// A MetadataPointerStore over a SqlCatalog that runs `before_swap` (with the
// swap's index, from 0) before each swap it passes on — to let another
// writer commit at exactly that point — and can lose a swap's answer:
// kUnknownLanded swaps and then reports CommitStateUnknown, kUnknownNotLanded
// reports it without swapping, kConflict loses the race without swapping.
class HookedPointerStore final : public MetadataPointerStore {
 public:
  // kConflict answers CommitConflict without swapping, as if another
  // writer had just moved the pointer.
  enum class Swap { kNormal, kUnknownLanded, kUnknownNotLanded, kConflict };

  explicit HookedPointerStore(std::shared_ptr<SqlCatalog> base) : base_(std::move(base)) {}

  std::function<void(int swap)> before_swap;
  std::vector<Swap> outcomes;  // by swap index; `later` beyond
  Swap later = Swap::kNormal;
  // After a swap answered CommitStateUnknown, this many pointer reads fail
  // (the catalog is unreachable while the committer checks the outcome).
  int failed_loads_after_unknown = 0;

  int swaps() const { return swaps_; }
  int failed_loads() const { return failed_loads_; }

  Result<std::string> LoadMetadataLocation(const TableIdentifier& ident) override {
    if (pending_failed_loads_ > 0) {
      --pending_failed_loads_;
      ++failed_loads_;
      return Status::IOError("injected: the catalog is unreachable");
    }
    return base_->LoadMetadataLocation(ident);
  }
  Status CreateMetadataLocation(const TableIdentifier& ident, const std::string& location) override {
    return base_->CreateMetadataLocation(ident, location);
  }
  Status SwapMetadataLocation(const TableIdentifier& ident, const std::string& expected,
                              const std::string& location) override {
    const int index = swaps_++;
    if (before_swap) before_swap(index);
    const Swap outcome = static_cast<size_t>(index) < outcomes.size() ? outcomes[static_cast<size_t>(index)] : later;
    if (outcome == Swap::kConflict) return Status::CommitConflict("injected: another writer moved the pointer");
    if (outcome == Swap::kUnknownNotLanded) {
      pending_failed_loads_ = failed_loads_after_unknown;
      return Status::CommitStateUnknown("injected: the swap was lost");
    }
    FLOE_RETURN_IF_ERROR(base_->SwapMetadataLocation(ident, expected, location));
    if (outcome == Swap::kUnknownLanded) {
      pending_failed_loads_ = failed_loads_after_unknown;
      return Status::CommitStateUnknown("injected: the swap's answer was lost");
    }
    return Status::OK();
  }

 private:
  std::shared_ptr<SqlCatalog> base_;
  std::atomic<int> swaps_{0};
  std::atomic<int> pending_failed_loads_{0};
  std::atomic<int> failed_loads_{0};
};

// Table db.t with its pointer kept through `store`.
inline std::unique_ptr<iceberg::Table> TableThrough(std::shared_ptr<HookedPointerStore> store,
                                                    std::shared_ptr<FileIO> io) {
  return std::make_unique<iceberg::Table>(
      std::make_shared<CatalogTableOperations>(std::move(store), Ident(kTableName), std::move(io)));
}

}  // namespace floe::catalog::testing
