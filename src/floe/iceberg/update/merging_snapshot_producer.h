// The file-level snapshot operations, after Java's MergingSnapshotProducer
// and its subclasses: append (fast or merging), overwrite (by files, by a
// file predicate, by partitions), delete, rewrite and row delta — each a
// set of files to add plus a rule for which live files to remove, applied
// to the parent snapshot's manifests.
//
// Per attempt: manifests of added files are written once (the snapshot id
// is fixed for the producer's life, so they stay valid across retries);
// each parent manifest that may hold a removed file is read and rewritten
// with those entries DELETED and the others EXISTING (cached per manifest
// across attempts); with merging on, data manifests of one spec are packed
// into bins of up to `commit.manifest.target-size-bytes` (default 8 MiB)
// from the oldest end, and each bin of two or more is merged into one
// manifest — the bin with this commit's new manifest only once it holds
// `commit.manifest.min-count-to-merge` (default 100) manifests (Java's
// ManifestMergeManager; `commit.manifest-merge.enabled` turns it off).
//
// Validation on every attempt (conflicts since the starting snapshot fail
// with CommitConflict, not retried): every file named for removal must still
// be live; when a conflict predicate is set (overwrite by filter, replace
// partitions, rewrite), no data file matching it may have been added since
// the operation started — Java's serializable isolation; likewise for delete
// files with a delete-conflict predicate (row delta); no delete file that
// may apply to a data file this operation removes may have been added (its
// deletes would be lost with the file; equality deletes pass for a rewrite
// that keeps the data sequence number); data files that added position
// deletes reference must not have been removed; and no deletion vector may
// have been added for a data file this operation adds one for (spec: "at
// most one deletion vector is allowed per data file in a snapshot"). When
// that history cannot be read (a snapshot committed since the start was
// expired meanwhile) validation fails too: a conflict cannot be ruled out.
// Snapshots of the same transaction (set_own_snapshot_ids) do not count.
//
// Removing a data file also removes the live delete files that reference
// only it (`referenced_data_file`: its deletion vector, file-scoped position
// deletes): they would dangle.
//
// Thread safety: as SnapshotProducer.

#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floe/iceberg/update/snapshot_producer.h"

namespace floe::iceberg {

class MergingSnapshotProducer : public SnapshotProducer {
 public:
  // Decides per live entry whether the operation removes it (the spec of
  // its manifest is given). Errors end the commit.
  using FilePredicate = std::function<Result<bool>(const DataFile& file, const PartitionSpec& spec)>;
  // Whether a manifest may hold matching files (from partition summaries);
  // false skips reading it.
  using ManifestPredicate = std::function<bool(const ManifestFile& manifest)>;

  // `operation` is the summary's ("append", "overwrite", "delete",
  // "replace"); a producer that only removes files reports "delete".
  MergingSnapshotProducer(std::shared_ptr<TableOperations> ops, std::string operation);

  // Files to add (data or delete files; spec_id set by their writer) that
  // this process wrote: made durable before the swap (RequireDurable).
  void AddFile(DataFile file);
  // A file to add that this process did not write — another engine's
  // Parquet (add-files), or a file an earlier snapshot committed (cherry-pick):
  // not synced, its writer made it durable.
  void AddExistingFile(DataFile file);
  // Removes the live file at this path. Validation fails when it is not
  // live on the attempt's base.
  void DeleteFile(const std::string& path);
  // Removes this live delete file; a deletion vector is named by its Puffin
  // path and content offset (several DVs share one Puffin file).
  void DeleteDeleteFile(const DataFile& file);
  // Removes every live data file the predicate accepts.
  void DeleteFilesWhere(FilePredicate predicate, ManifestPredicate manifest_filter = nullptr);
  // Removes every live data file in the partitions of the added data files
  // (dynamic overwrite: "replace partitions").
  void ReplaceAddedPartitions();
  // Fails validation when a data file that the predicate accepts was added
  // by a snapshot committed after the starting one.
  void ValidateNoConflictingAppends(FilePredicate conflicting);
  // Fails validation when a delete file that the predicate accepts was
  // added by a snapshot committed after the starting one.
  void ValidateNoConflictingDeleteFiles(FilePredicate conflicting);
  // Fails validation when a snapshot committed after the starting one
  // removed one of these data files ("overwrite" and "replace" snapshots;
  // "delete" ones too when `include_deletes`).
  void ValidateDataFilesExist(std::vector<std::string> paths, bool include_deletes);
  // Rewrite (compaction): the added files carry this data sequence number
  // (the starting snapshot's), so equality deletes committed meanwhile
  // still apply to their rows — validation then lets those pass, and fails
  // only on new position deletes of a removed file (Java's RewriteFiles
  // with a data sequence number).
  void set_data_sequence_number(int64_t sequence_number) { data_sequence_number_ = sequence_number; }
  // Merge small manifests (merge append). Default: off (fast append).
  void set_merge_manifests(bool merge) { merge_manifests_ = merge; }
  // Fail when no file matched a delete rule (e.g. delete --where that
  // names no rows): InvalidArgument. Default: an empty change commits.
  void set_fail_when_nothing_deleted(bool fail) { fail_when_nothing_deleted_ = fail; }

  // What the last attempt removed (for reports and copy-on-write callers).
  const std::vector<DataFile>& deleted_files() const { return deleted_files_; }

 protected:
  Status Validate(const TableMetadata& base, const Snapshot* parent,
                  std::optional<int64_t> starting_snapshot_id) override;
  Result<SnapshotChange> Apply(const TableMetadata& base, const Snapshot* parent, int64_t snapshot_id) override;

 private:
  Status ValidateNewDeletesForRemovedFiles(const TableMetadata& base);
  // Reads the entries of `status` that snapshot `s` wrote into manifests of
  // `content`, with their spec.
  Status ForEachChange(const TableMetadata& base, const Snapshot& s, ManifestContent content,
                       ManifestEntryStatus status,
                       const std::function<Status(const DataFile&, const PartitionSpec&)>& fn);
  struct Filtered {
    ManifestFile manifest;          // the manifest to list (rewritten or the original)
    std::vector<DataFile> deleted;  // files it removed
  };
  Result<Filtered> FilterManifest(const TableMetadata& base, const ManifestFile& manifest, int64_t snapshot_id,
                                  std::set<std::string>* found);
  Result<bool> Removes(const DataFile& file, const PartitionSpec& spec);
  Result<std::vector<ManifestFile>> MergeManifests(const TableMetadata& base, int64_t snapshot_id,
                                                   std::vector<ManifestFile> manifests);
  // Bins one spec's manifests of one content and merges the bins that may
  // be, appending the results to `out` in order.
  Status MergeGroup(const TableMetadata& base, int64_t snapshot_id, ManifestContent content, int32_t spec_id,
                    const std::string& first, int64_t min_count, int64_t target_size, std::vector<ManifestFile> group,
                    std::vector<ManifestFile>* out);
  bool has_removals() const {
    return !deleted_paths_.empty() || !deleted_dv_keys_.empty() || !delete_predicates_.empty() ||
           replace_added_partitions_;
  }
  bool removes_data_files() const {
    return !deleted_paths_.empty() || !delete_predicates_.empty() || replace_added_partitions_;
  }
  bool adds_deletion_vectors() const;

  std::string operation_;
  std::vector<DataFile> added_files_;
  std::set<std::string> deleted_paths_;
  std::set<std::string> deleted_dv_keys_;  // path + "@" + content offset
  std::set<std::string> dangling_data_paths_;  // data files removed in this attempt (for dangling deletes)
  std::vector<std::pair<FilePredicate, ManifestPredicate>> delete_predicates_;
  bool replace_added_partitions_ = false;
  std::set<std::string> replaced_partition_keys_;  // spec id + partition bytes
  std::vector<FilePredicate> conflict_predicates_;
  std::vector<FilePredicate> delete_conflict_predicates_;
  std::vector<std::string> required_data_files_;
  bool required_include_deletes_ = false;
  std::vector<const Snapshot*> newer_;  // of the last Validate: committed since the start, not our own
  std::optional<int64_t> data_sequence_number_;
  bool merge_manifests_ = false;
  bool fail_when_nothing_deleted_ = false;

  std::vector<ManifestFile> added_manifests_;                  // written once
  std::map<std::string, Filtered> filtered_cache_;             // by original manifest path
  std::vector<DataFile> deleted_files_;
};

// A key naming one partition of one spec (spec id + the tuple's bytes).
std::string PartitionKey(int32_t spec_id, const PartitionValues& partition);
// The key DeleteDeleteFile removes by: the path, plus the offset for a DV.
std::string DeleteFileKey(const DataFile& file);

}  // namespace floe::iceberg
