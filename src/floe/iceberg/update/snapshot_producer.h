// SnapshotProducer: the commit loop every snapshot-producing operation
// shares (after Java's SnapshotProducer) — append, overwrite, delete,
// replace partitions, rewrite.
//
// One attempt: take the table's current state as the base; let the
// operation validate what it assumed against it (conflicting files added
// since the operation started fail with CommitConflict) and produce the new
// snapshot's manifests; write the manifest list
// `metadata/snap-<snapshot id>-<attempt>-<uuid>.avro` (a parent that is a
// v1 snapshot with inline `manifests` has its manifests carried into the
// list, their counts and summaries read from them as Java does); express
// the change as REST-style requirements (`assert-table-uuid`,
// `assert-ref-snapshot-id` on the branch) and updates (`add-snapshot`,
// `set-snapshot-ref`); apply them and ask the TableOperations to swap the
// pointer.
//
// A lost race (CommitConflict from the catalog) deletes what the attempt
// wrote, waits with exponential backoff and jitter (`commit.retry.*`), and
// retries from a fresh base, re-validating; data files are never rewritten
// by a retry, only metadata. As Java's Tasks: at most num-retries + 1
// attempts, and none after commit.retry.total-timeout-ms has passed, except
// that the first lost race is always retried; then CommitConflict "commit
// failed after N attempts" with every manifest and manifest list the
// producer wrote deleted (the data files it was given are the caller's).
// CommitStateUnknown ends the loop without cleanup (the commit may have
// landed: deleting its files could corrupt the table, retrying could commit
// twice). After any other failure every manifest the operation wrote is
// deleted.
//
// Durability: just before the swap, the files the new snapshot references
// that this process wrote without fsync — the operation's data and delete
// files (RequireDurable), the manifests this producer wrote that the
// snapshot lists, and its manifest list — are made durable with one
// FileIO::MakeDurable call, so a crash after the swap never leaves the
// catalog pointing at files that did not reach the disk. A retry syncs only
// what it newly wrote. A failed sync ends the commit like any I/O error
// (nothing swapped, the attempt's files deleted).
//
// Thread safety: one producer is committed by one thread; several producers
// on one table may commit concurrently (the catalog serialises them).

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/manifest_writer.h"
#include "floe/iceberg/table_operations.h"

namespace floe::iceberg {

// commit.retry.num-retries (4), commit.retry.min-wait-ms (100),
// commit.retry.max-wait-ms (60000), commit.retry.total-timeout-ms (1800000).
struct CommitRetryOptions {
  int num_retries = 4;
  int64_t min_wait_ms = 100;
  int64_t max_wait_ms = 60'000;
  int64_t total_timeout_ms = 1'800'000;

  static CommitRetryOptions FromProperties(const std::map<std::string, std::string>& properties);
};

// What one attempt of an operation produces on its base.
struct SnapshotChange {
  std::string operation;                   // "append", "overwrite", "delete", "replace"
  std::vector<ManifestFile> manifests;     // the new snapshot's whole manifest list, in order
  std::map<std::string, std::string> summary;  // the operation's own entries (added-*, deleted-*)
};

// Statistics of one commit, for reports and the demo.
struct CommitReport {
  int64_t snapshot_id = 0;
  int attempts = 0;          // 1 when the first attempt landed
  int conflicts = 0;         // lost races retried
  std::string metadata_location;
};

class SnapshotProducer {
 public:
  explicit SnapshotProducer(std::shared_ptr<TableOperations> ops);
  virtual ~SnapshotProducer();
  SnapshotProducer(const SnapshotProducer&) = delete;
  SnapshotProducer& operator=(const SnapshotProducer&) = delete;

  // Commit to this branch (default "main"); it is created when missing.
  void set_branch(std::string branch) { branch_ = std::move(branch); }
  // Extra summary entries, e.g. "floe.writer" = "demo".
  void set_summary_property(std::string key, std::string value);
  // The base the operation started from. Unset: the table's state when
  // Commit() is called. Conflict validation looks at snapshots committed
  // after it.
  void set_starting_state(TableState state) { starting_ = std::move(state); }
  // Validates from this snapshot of the branch instead (Java's
  // validateFromSnapshot); it must be an ancestor of the branch head.
  // nullopt: validate the whole history of the branch.
  void set_validate_from_snapshot(std::optional<int64_t> snapshot_id) {
    validate_from_set_ = true;
    validate_from_ = snapshot_id;
  }
  // Snapshots whose changes are this commit's own (earlier operations of the
  // same transaction): validation does not count them as concurrent.
  void set_own_snapshot_ids(std::set<int64_t> ids) { own_snapshot_ids_ = std::move(ids); }

  // Runs the commit loop. Returns the new state; the errors described
  // above (CommitConflict once retries are exhausted or when validation
  // fails, CommitStateUnknown, the operation's and FileIO's errors).
  Result<TableState> Commit();
  const CommitReport& report() const { return report_; }

  // The pieces of Commit() for a caller that swaps the pointer itself (a
  // Transaction). Stage validates on `base`, applies, writes a manifest
  // list and returns `base` with the snapshot added and the branch moved;
  // nothing is committed. Errors as Commit's (a validation failure is
  // CommitConflict). Committed() cleans up what earlier stages wrote and the
  // last one does not use; Abort() deletes everything this producer wrote.
  Result<TableMetadata> Stage(const TableMetadata& base, int attempt);
  void Committed(const std::string& metadata_location);
  void Abort();
  // The snapshot id this producer commits (fixed once staged).
  std::optional<int64_t> snapshot_id() const { return snapshot_id_; }

  // A file this process wrote (a data, delete or Puffin file the new
  // snapshot adds) that must be durable before the swap. Files written
  // elsewhere (another engine's Parquet registered by add-files) need not
  // be named: their writer made them durable.
  void RequireDurable(std::string path) { durable_required_.insert(std::move(path)); }
  // For a caller that swaps itself (a Transaction), after Stage(): the
  // files the staged snapshot references that this producer has not yet
  // made durable (required files, its own manifests the last stage lists,
  // that stage's manifest list), for FileIO::MakeDurable; then MarkDurable
  // with them once it returned OK.
  std::vector<std::string> NotYetDurable() const;
  void MarkDurable(const std::vector<std::string>& paths) { durable_.insert(paths.begin(), paths.end()); }

 protected:
  // Checks the operation still holds on `base` (whose branch head is
  // `parent`, null for an empty branch), given the snapshot the operation
  // started from (`starting_snapshot_id`, null when the branch was empty).
  // CommitConflict naming what conflicts otherwise. Default: OK.
  virtual Status Validate(const TableMetadata& base, const Snapshot* parent,
                          std::optional<int64_t> starting_snapshot_id);
  // Produces the new snapshot's manifests on `base`. Manifests written here
  // should be registered with TrackManifest() so failures clean them up;
  // an operation may reuse manifests of an earlier attempt.
  virtual Result<SnapshotChange> Apply(const TableMetadata& base, const Snapshot* parent, int64_t snapshot_id) = 0;

  // Helpers for operations.
  TableOperations& ops() { return *ops_; }
  FileIO& io() { return ops_->io(); }
  // A new manifest location: `<metadata location>/<commit uuid>-m<N>.avro`.
  std::string NewManifestPath(const TableMetadata& base);
  // Remembers a manifest this operation wrote (deleted if it does not land).
  void TrackManifest(const std::string& path) { written_manifests_.push_back(path); }
  // Deletes tracked manifests not in `keep` (after an attempt that will not
  // reuse them) and forgets them.
  void DeleteUnusedManifests(const std::vector<ManifestFile>& keep);
  // Writes `entries` (ADDED, their data sequence number kept when set)
  // into new manifests of `content`, one per spec id.
  Result<std::vector<ManifestFile>> WriteAddedManifests(const TableMetadata& base, int64_t snapshot_id,
                                                        const std::vector<ManifestEntry>& entries,
                                                        ManifestContent content);
  // Marks a validation failure: the status (a CommitConflict) ends the
  // commit instead of being retried.
  Status ValidationFailure(Status status) {
    validation_failed_ = true;
    return status;
  }
  // The manifests of `snapshot` (empty for null); a v1 snapshot's inline
  // manifests with their list metadata read from them (manifest_metadata.h).
  Result<std::vector<ManifestFile>> ReadManifests(const Snapshot* snapshot);
  // `manifest` as a manifest list row: completed by reading it when it
  // lacks a length or counts (cached per path for the producer's life).
  Result<ManifestFile> WithListMetadata(const ManifestFile& manifest);
  ManifestWriteOptions manifest_options(const TableMetadata& base) const;
  // Whether `snapshot_id` is this commit's own (see set_own_snapshot_ids).
  bool IsOwnSnapshot(int64_t snapshot_id) const { return own_snapshot_ids_.count(snapshot_id) > 0; }

 private:
  Result<TableState> AttemptCommit(const TableState& base, int attempt);
  std::string MetadataLocation(const TableMetadata& base) const;

  std::shared_ptr<TableOperations> ops_;
  std::string branch_{"main"};
  std::map<std::string, std::string> extra_summary_;
  std::optional<TableState> starting_;
  bool validate_from_set_ = false;
  std::optional<int64_t> validate_from_;
  std::set<int64_t> own_snapshot_ids_;
  std::vector<ManifestFile> staged_manifests_;  // the last stage's manifest list
  std::map<std::string, ManifestFile> listed_metadata_;  // WithListMetadata, by path
  std::string commit_uuid_;
  std::optional<int64_t> snapshot_id_;  // fixed across attempts: manifests written once stay valid
  int manifest_count_ = 0;
  std::vector<std::string> written_manifests_;
  std::vector<std::string> written_lists_;
  std::set<std::string> durable_required_;  // RequireDurable
  std::set<std::string> durable_;           // made durable by an earlier attempt
  CommitReport report_;
  bool validation_failed_ = false;
};

// Adds the totals (total-records, total-data-files, total-files-size,
// total-delete-files, total-position-deletes, total-equality-deletes) to a
// summary from the parent's totals and the change's added-/deleted- entries,
// as Java's SnapshotSummary does.
void UpdateSummaryTotals(const Snapshot* parent, std::map<std::string, std::string>* summary);

// Adds a data or delete file to a summary's added-*/deleted-* counters.
void SummarizeAdded(const DataFile& file, std::map<std::string, std::string>* summary);
void SummarizeDeleted(const DataFile& file, std::map<std::string, std::string>* summary);

}  // namespace floe::iceberg
