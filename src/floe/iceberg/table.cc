#include "floe/iceberg/table.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "floe/base/strings.h"
#include "floe/columnar/take.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/iceberg/expression/binder.h"
#include "floe/iceberg/expression/evaluator.h"
#include "floe/iceberg/expression/metrics_evaluator.h"
#include "floe/iceberg/expression/residual.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/snapshot_manifests.h"
#include "floe/iceberg/scan/scan_file_reader.h"
#include "floe/iceberg/table_properties.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"

namespace floe::iceberg {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A FileIO handle for APIs that hold one, borrowing the operations' FileIO
// (which outlives every call here).
std::shared_ptr<FileIO> Borrow(TableOperations& ops) { return std::shared_ptr<FileIO>(std::shared_ptr<FileIO>(), &ops.io()); }

// The live files of `snapshot`'s manifests into `live`, its manifests into
// `manifests` (skipping ones already there).
Status CollectLiveFiles(FileIO& io, const Snapshot& snapshot, std::set<std::string>* manifests,
                        std::set<std::string>* live) {
  FLOE_ASSIGN_OR_RETURN(auto listed, SnapshotManifests(io, snapshot));
  for (const auto& m : listed) {
    if (!manifests->insert(m.manifest_path).second) continue;
    ManifestReaderOptions reader_options;
    reader_options.read_stats = false;
    FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io, m, reader_options));
    FLOE_ASSIGN_OR_RETURN(auto entries, reader->ReadAll());
    for (const auto& e : entries) {
      if (e.is_live()) live->insert(e.data_file.file_path);
    }
  }
  return Status::OK();
}

// Deletes the manifest lists, manifests and data files that only `expired`
// snapshots reach; never one a `kept` snapshot reaches. When what the kept
// snapshots reach cannot be read, nothing is deleted (what is live is then
// unknown); an expired snapshot's file that cannot be read is skipped with
// what it names. Returns the first failure; counts what it deleted.
Status DeleteExpiredFiles(FileIO& io, const std::vector<Snapshot>& kept, const std::vector<Snapshot>& expired,
                          ExpireResult* result) {
  std::set<std::string> kept_manifests;
  std::set<std::string> kept_lists;
  std::set<std::string> live_files;
  for (const auto& s : kept) {
    kept_lists.insert(s.manifest_list);
    FLOE_RETURN_IF_ERROR(CollectLiveFiles(io, s, &kept_manifests, &live_files));
  }
  Status first;
  auto note = [&first](const Status& status) {
    if (!status.ok() && !status.IsNotFound() && first.ok()) first = status;  // NotFound: already gone
  };
  std::set<std::string> doomed_manifests;
  std::set<std::string> doomed_files;
  std::vector<std::string> doomed_lists;
  for (const auto& s : expired) {
    auto manifests = SnapshotManifests(io, s);
    if (!manifests.ok()) {
      note(manifests.status());
      continue;
    }
    if (!s.manifest_list.empty() && kept_lists.count(s.manifest_list) == 0) doomed_lists.push_back(s.manifest_list);
    for (const auto& m : *manifests) {
      if (kept_manifests.count(m.manifest_path) > 0 || doomed_manifests.count(m.manifest_path) > 0) continue;
      ManifestReaderOptions reader_options;
      reader_options.read_stats = false;
      auto reader = ManifestReader::Open(io, m, reader_options);
      auto entries = reader.ok() ? (*reader)->ReadAll() : Result<std::vector<ManifestEntry>>(reader.status());
      if (!entries.ok()) {
        note(entries.status());
        continue;
      }
      doomed_manifests.insert(m.manifest_path);
      for (const auto& e : *entries) {
        if (live_files.count(e.data_file.file_path) == 0) doomed_files.insert(e.data_file.file_path);
      }
    }
  }
  std::vector<std::string> files(doomed_files.begin(), doomed_files.end());
  std::vector<std::string> manifests(doomed_manifests.begin(), doomed_manifests.end());
  if (!files.empty()) note(io.DeleteMany(files));
  if (!manifests.empty()) note(io.DeleteMany(manifests));
  if (!doomed_lists.empty()) note(io.DeleteMany(doomed_lists));
  result->deleted_data_files = static_cast<int64_t>(files.size());
  result->deleted_manifests = static_cast<int64_t>(manifests.size());
  result->deleted_manifest_lists = static_cast<int64_t>(doomed_lists.size());
  return first;
}

}  // namespace

Table::Table(std::shared_ptr<TableOperations> ops) : ops_(std::move(ops)) {}

Result<TableState> Table::Refresh() { return ops_->Refresh(); }

Result<std::unique_ptr<TableScan>> Table::NewScan(TableScanOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  return TableScan::Make(Borrow(*ops_), state.metadata, std::move(options));
}

Result<std::shared_ptr<const floe::Schema>> Table::WriteSchema() {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  const Schema* schema = state.metadata->current_schema();
  if (schema == nullptr) return Status::Corrupt(StrCat("table ", ops_->name(), " has no current schema"));
  FLOE_ASSIGN_OR_RETURN(auto columnar, ToColumnarSchema(*schema));
  return std::make_shared<const floe::Schema>(std::move(columnar));
}

Result<WriteResult> Table::Append(const BatchSource& rows, const std::map<std::string, std::string>& summary) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto prepared, PrepareAppend(ops_, state, rows, summary));
  return CommitPrepared(std::move(prepared), *ops_, state);
}

Result<WriteResult> Table::AppendFiles(std::vector<DataFile> files) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto prepared, PrepareAppendFiles(ops_, state, std::move(files)));
  return CommitPrepared(std::move(prepared), *ops_, state);
}

Result<WriteResult> Table::OverwriteFiles(OverwriteFilesRequest request) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto prepared, PrepareOverwriteFiles(ops_, state, std::move(request)));
  return CommitPrepared(std::move(prepared), *ops_, state);
}

Result<WriteResult> Table::Delete(const ExpressionPtr& filter) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto prepared, PrepareRewriteMatching(ops_, state, filter, nullptr));
  return CommitPrepared(std::move(prepared), *ops_, state);
}

Result<WriteResult> Table::Overwrite(const ExpressionPtr& filter, const BatchSource& rows) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto prepared, PrepareRewriteMatching(ops_, state, filter, &rows));
  return CommitPrepared(std::move(prepared), *ops_, state);
}

Result<WriteResult> Table::ReplacePartitions(const BatchSource& rows) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto prepared, PrepareReplacePartitions(ops_, state, rows));
  return CommitPrepared(std::move(prepared), *ops_, state);
}

Result<std::optional<WriteResult>> Table::Compact(int min_input_files) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto prepared, PrepareCompact(ops_, state, min_input_files));
  if (prepared.producer == nullptr) return std::optional<WriteResult>();
  FLOE_ASSIGN_OR_RETURN(auto committed, CommitPrepared(std::move(prepared), *ops_, state));
  return std::optional<WriteResult>(std::move(committed));
}

Result<TableState> Table::CommitChanges(const ChangeBuilder& build) {
  int64_t wait_ms = 100;
  for (int attempt = 0;; ++attempt) {
    FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
    FLOE_ASSIGN_OR_RETURN(auto change, build(*state.metadata));
    FLOE_ASSIGN_OR_RETURN(auto updated, ApplyTableChanges(state.metadata.get(), change.first, change.second));
    if (change.second.empty()) return state;
    auto committed = ops_->Commit(state, updated);
    if (committed.ok() || committed.status().code() != StatusCode::kCommitConflict || attempt >= 4) return committed;
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
    wait_ms *= 2;
  }
}

Result<TableState> Table::Rollback(int64_t snapshot_id, const std::string& branch) {
  return CommitChanges([&](const TableMetadata& m) -> Result<std::pair<std::vector<TableRequirement>,
                                                                        std::vector<TableUpdate>>> {
    const Snapshot* head = m.SnapshotByRef(branch);
    bool ancestor = false;
    for (const Snapshot* s = head; s != nullptr; s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      if (s->snapshot_id == snapshot_id) ancestor = true;
    }
    if (!ancestor) {
      return Status::InvalidArgument(StrCat("snapshot ", snapshot_id, " is not an ancestor of branch ", branch));
    }
    SnapshotRef ref = m.refs.count(branch) ? m.refs.at(branch) : SnapshotRef{};
    ref.snapshot_id = snapshot_id;
    std::vector<TableRequirement> reqs = {
        AssertRefSnapshotId{branch, head ? std::optional<int64_t>(head->snapshot_id) : std::nullopt}};
    std::vector<TableUpdate> updates = {SetSnapshotRef{branch, ref}};
    return std::make_pair(std::move(reqs), std::move(updates));
  });
}

Result<TableState> Table::SetRef(const std::string& name, SnapshotRefType type, int64_t snapshot_id) {
  return CommitChanges([&](const TableMetadata& m) -> Result<std::pair<std::vector<TableRequirement>,
                                                                        std::vector<TableUpdate>>> {
    FLOE_ASSIGN_OR_RETURN(TableChanges change, SetRefChange(m, name, type, snapshot_id));
    return std::make_pair(std::move(change.requirements), std::move(change.updates));
  });
}

Result<TableState> Table::RemoveRef(const std::string& name) {
  return CommitChanges([&](const TableMetadata& m) -> Result<std::pair<std::vector<TableRequirement>,
                                                                        std::vector<TableUpdate>>> {
    if (name == kMainBranch) return Status::InvalidArgument("the main branch cannot be removed");
    if (m.refs.count(name) == 0) return Status::NotFound(StrCat("branch or tag ", Quote(name), " does not exist"));
    std::vector<TableRequirement> reqs = {AssertRefSnapshotId{name, m.refs.at(name).snapshot_id}};
    std::vector<TableUpdate> updates = {RemoveSnapshotRef{name}};
    return std::make_pair(std::move(reqs), std::move(updates));
  });
}

Result<ExpireResult> Table::ExpireSnapshots(const ExpireOptions& options) {
  ExpireResult result;
  std::vector<Snapshot> expired;
  std::vector<Snapshot> kept;
  FLOE_ASSIGN_OR_RETURN(result.state, CommitChanges([&](const TableMetadata& m)
                                                         -> Result<std::pair<std::vector<TableRequirement>,
                                                                             std::vector<TableUpdate>>> {
    FLOE_ASSIGN_OR_RETURN(RetentionPlan plan, PlanSnapshotRetention(m, options, options.now_ms.value_or(NowMs())));
    expired.clear();
    kept.clear();
    for (const auto& s : m.snapshots) {
      (plan.retained_snapshot_ids.count(s.snapshot_id) > 0 ? kept : expired).push_back(s);
    }
    result.removed_refs = plan.removed_refs;
    // The plan read every ref: each must be where it was when the swap lands.
    std::vector<TableRequirement> reqs;
    for (const auto& [name, ref] : m.refs) reqs.push_back(AssertRefSnapshotId{name, ref.snapshot_id});
    if (m.refs.count(std::string(kMainBranch)) == 0) {
      reqs.push_back(AssertRefSnapshotId{std::string(kMainBranch), std::nullopt});
    }
    std::vector<TableUpdate> updates;
    for (const auto& name : plan.removed_refs) updates.push_back(RemoveSnapshotRef{name});
    if (!plan.expired_snapshot_ids.empty()) updates.push_back(RemoveSnapshots{plan.expired_snapshot_ids});
    return std::make_pair(std::move(reqs), std::move(updates));
  }));
  for (const auto& s : expired) result.expired_snapshot_ids.push_back(s.snapshot_id);
  if (!options.delete_files || expired.empty()) return result;

  // The expiry has committed: from here on a failure only leaves files
  // behind (orphans, harmless) and is reported in `cleanup`.
  result.cleanup = DeleteExpiredFiles(ops_->io(), kept, expired, &result);
  return result;
}

}  // namespace floe::iceberg
