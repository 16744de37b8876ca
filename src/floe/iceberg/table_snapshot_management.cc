// Table's snapshot management beyond rollback and refs (after Java's
// ManageSnapshots, SetSnapshotOperation and CherryPickOperation):
// set-current, fast-forward and cherry-pick.

#include <set>

#include "floe/base/strings.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/snapshot_manifests.h"
#include "floe/iceberg/table.h"
#include "floe/iceberg/transaction.h"

namespace floe::iceberg {
namespace {

using Change = std::pair<std::vector<TableRequirement>, std::vector<TableUpdate>>;

constexpr std::string_view kSourceSnapshotId = "source-snapshot-id";
constexpr std::string_view kPublishedWapId = "published-wap-id";
constexpr std::string_view kWapId = "wap.id";

// Whether `snapshot_id` is `head` or one of its ancestors in `m`.
bool IsAncestor(const TableMetadata& m, const Snapshot* head, int64_t snapshot_id) {
  for (const Snapshot* s = head; s != nullptr; s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    if (s->snapshot_id == snapshot_id) return true;
  }
  return false;
}

// An ancestor of main whose summary has `key` = `value`, or nullopt.
std::optional<int64_t> AncestorWithSummary(const TableMetadata& m, std::string_view key, const std::string& value) {
  for (const Snapshot* s = m.current_snapshot(); s != nullptr;
       s = s->parent_snapshot_id ? m.SnapshotById(*s->parent_snapshot_id) : nullptr) {
    auto it = s->summary.find(std::string(key));
    if (it != s->summary.end() && it->second == value) return s->snapshot_id;
  }
  return std::nullopt;
}

bool IsFastForward(const TableMetadata& m, const Snapshot& pick) {
  const Snapshot* head = m.current_snapshot();
  return head != nullptr ? pick.parent_snapshot_id == head->snapshot_id : !pick.parent_snapshot_id.has_value();
}

std::optional<std::string> WapIdOf(const Snapshot& s) {
  auto it = s.summary.find(std::string(kWapId));
  if (it == s.summary.end()) return std::nullopt;
  return it->second;
}

// Java's validateWapPublish and validateNonAncestor: CommitConflict when
// the pick already is main's, was picked before, or its WAP id was published.
Status ValidatePickable(const TableMetadata& m, const Snapshot& pick, const std::string& table) {
  if (auto wap = WapIdOf(pick)) {
    if (auto published = AncestorWithSummary(m, kPublishedWapId, *wap)) {
      return Status::CommitConflict(StrCat("table ", table, ": cannot cherry-pick snapshot ", pick.snapshot_id,
                                           ": its wap id ", Quote(*wap), " was already published by snapshot ",
                                           *published));
    }
  }
  if (IsAncestor(m, m.current_snapshot(), pick.snapshot_id)) {
    return Status::CommitConflict(StrCat("table ", table, ": cannot cherry-pick snapshot ", pick.snapshot_id,
                                         ": it is already an ancestor of main"));
  }
  if (auto picked = AncestorWithSummary(m, kSourceSnapshotId, StrCat(pick.snapshot_id))) {
    return Status::CommitConflict(StrCat("table ", table, ": cannot cherry-pick snapshot ", pick.snapshot_id,
                                         ": it was already cherry-picked as snapshot ", *picked));
  }
  return Status::OK();
}

// The re-applied pick: its files, validated on every attempt.
class CherryPickProducer : public MergingSnapshotProducer {
 public:
  CherryPickProducer(std::shared_ptr<TableOperations> ops, std::string operation, Snapshot pick)
      : MergingSnapshotProducer(std::move(ops), std::move(operation)), pick_(std::move(pick)) {}

 protected:
  Status Validate(const TableMetadata& base, const Snapshot* parent, std::optional<int64_t> starting) override {
    if (Status status = ValidatePickable(base, pick_, ops().name()); !status.ok()) return ValidationFailure(status);
    return MergingSnapshotProducer::Validate(base, parent, starting);
  }

 private:
  Snapshot pick_;
};

// The data files `s` added (status ADDED) and removed (DELETED) itself.
Status ChangedFiles(FileIO& io, const Snapshot& s, std::vector<DataFile>* added, std::vector<DataFile>* removed) {
  // A v1 snapshot's inline manifests each read as added by it: every one is
  // read, and the entries' own snapshot ids pick what it changed.
  FLOE_ASSIGN_OR_RETURN(auto manifests, SnapshotManifests(io, s));
  for (const auto& manifest : manifests) {
    if (manifest.added_snapshot_id != s.snapshot_id || manifest.content != ManifestContent::kData) continue;
    FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io, manifest));
    FLOE_ASSIGN_OR_RETURN(auto entries, reader->ReadAll());
    for (auto& e : entries) {
      if (e.snapshot_id != s.snapshot_id) continue;
      e.data_file.spec_id = manifest.partition_spec_id;
      if (e.status == ManifestEntryStatus::kAdded) added->push_back(std::move(e.data_file));
      if (e.status == ManifestEntryStatus::kDeleted) removed->push_back(std::move(e.data_file));
    }
  }
  return Status::OK();
}

}  // namespace

Result<TableState> Table::SetCurrent(int64_t snapshot_id) {
  return CommitChanges([&](const TableMetadata& m) -> Result<Change> {
    if (m.SnapshotById(snapshot_id) == nullptr) {
      return Status::NotFound(StrCat("cannot set the current snapshot to unknown snapshot ", snapshot_id));
    }
    const std::string main(kMainBranch);
    SnapshotRef ref = m.refs.count(main) ? m.refs.at(main) : SnapshotRef{};
    ref.type = SnapshotRefType::kBranch;
    ref.snapshot_id = snapshot_id;
    std::vector<TableRequirement> reqs = {AssertRefSnapshotId{main, m.current_snapshot_id}};
    std::vector<TableUpdate> updates = {SetSnapshotRef{main, ref}};
    return Change(std::move(reqs), std::move(updates));
  });
}

Result<TableState> Table::FastForward(const std::string& branch, const std::string& to) {
  auto check = [&](const TableMetadata& m) -> Result<std::pair<SnapshotRef, int64_t>> {
    auto from = m.refs.find(branch);
    if (from == m.refs.end()) return Status::NotFound(StrCat("branch ", Quote(branch), " does not exist"));
    if (!from->second.is_branch()) return Status::InvalidArgument(StrCat(Quote(branch), " is a tag, not a branch"));
    auto target = m.refs.find(to);
    if (target == m.refs.end()) return Status::NotFound(StrCat("branch or tag ", Quote(to), " does not exist"));
    if (!IsAncestor(m, m.SnapshotById(target->second.snapshot_id), from->second.snapshot_id)) {
      return Status::InvalidArgument(StrCat("cannot fast-forward ", Quote(branch), ": its head ",
                                            from->second.snapshot_id, " is not an ancestor of ", Quote(to), " (",
                                            target->second.snapshot_id, ")"));
    }
    return std::make_pair(from->second, target->second.snapshot_id);
  };
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  FLOE_ASSIGN_OR_RETURN(auto now, check(*state.metadata));
  if (now.first.snapshot_id == now.second) return state;  // already there
  return CommitChanges([&](const TableMetadata& m) -> Result<Change> {
    FLOE_ASSIGN_OR_RETURN(auto refs, check(m));
    SnapshotRef ref = refs.first;
    ref.snapshot_id = refs.second;
    std::vector<TableRequirement> reqs = {AssertRefSnapshotId{branch, refs.first.snapshot_id}};
    std::vector<TableUpdate> updates = {SetSnapshotRef{branch, ref}};
    return Change(std::move(reqs), std::move(updates));
  });
}

Result<TableState> Table::CherryPick(int64_t snapshot_id) {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  const TableMetadata& m = *state.metadata;
  const Snapshot* found = m.SnapshotById(snapshot_id);
  if (found == nullptr) return Status::NotFound(StrCat("cannot cherry-pick unknown snapshot ", snapshot_id));
  const Snapshot pick = *found;
  const std::string operation = pick.operation.value_or(std::string(kOperationAppend));
  auto replace_it = pick.summary.find("replace-partitions");
  const bool dynamic_overwrite =
      operation == kOperationOverwrite && replace_it != pick.summary.end() && replace_it->second == "true";

  if (IsFastForward(m, pick)) {
    if (Status status = ValidatePickable(m, pick, ops_->name()); !status.ok()) return status;
    return CommitChanges([&](const TableMetadata& meta) -> Result<Change> {
      if (!IsFastForward(meta, pick)) {
        return Status::CommitConflict(StrCat("table ", ops_->name(), ": cannot fast-forward main to snapshot ",
                                             snapshot_id, ": main moved concurrently"));
      }
      const std::string main(kMainBranch);
      SnapshotRef ref = meta.refs.count(main) ? meta.refs.at(main) : SnapshotRef{};
      ref.type = SnapshotRefType::kBranch;
      ref.snapshot_id = snapshot_id;
      std::vector<TableRequirement> reqs = {AssertRefSnapshotId{main, meta.current_snapshot_id}};
      std::vector<TableUpdate> updates = {SetSnapshotRef{main, ref}};
      return Change(std::move(reqs), std::move(updates));
    });
  }
  if (operation != kOperationAppend && !dynamic_overwrite) {
    return Status::InvalidArgument(StrCat("cannot cherry-pick snapshot ", snapshot_id,
                                          ": not append, dynamic overwrite, or fast-forward (operation ",
                                          Quote(operation), ")"));
  }
  if (Status status = ValidatePickable(m, pick, ops_->name()); !status.ok()) return status;
  std::vector<DataFile> added;
  std::vector<DataFile> removed;
  FLOE_RETURN_IF_ERROR(ChangedFiles(ops_->io(), pick, &added, &removed));
  CherryPickProducer producer(ops_, operation, pick);
  producer.set_starting_state(state);
  producer.set_summary_property(std::string(kSourceSnapshotId), StrCat(snapshot_id));
  if (auto wap = WapIdOf(pick)) producer.set_summary_property(std::string(kPublishedWapId), *wap);
  if (dynamic_overwrite) {
    producer.set_summary_property("replace-partitions", "true");
    // The replaced partitions must not have changed since the pick's
    // parent, which must be an ancestor of main.
    if (pick.parent_snapshot_id && !IsAncestor(m, m.current_snapshot(), *pick.parent_snapshot_id)) {
      return Status::CommitConflict(StrCat("table ", ops_->name(), ": cannot cherry-pick overwrite snapshot ",
                                           snapshot_id, ": it is not based on an ancestor of main"));
    }
    producer.set_validate_from_snapshot(pick.parent_snapshot_id);
    auto keys = std::make_shared<std::set<std::string>>();
    for (const auto& f : added) keys->insert(PartitionKey(f.spec_id, f.partition));
    producer.ValidateNoConflictingAppends([keys](const DataFile& file, const PartitionSpec& spec) -> Result<bool> {
      return keys->count(PartitionKey(spec.spec_id, file.partition)) > 0;
    });
    for (const auto& f : removed) producer.DeleteFile(f.file_path);
  }
  for (auto& f : added) producer.AddExistingFile(std::move(f));  // durable since their first commit
  return producer.Commit();
}

Result<std::unique_ptr<Transaction>> Table::NewTransaction() {
  FLOE_ASSIGN_OR_RETURN(auto state, Refresh());
  return std::make_unique<Transaction>(ops_, std::move(state));
}

}  // namespace floe::iceberg
