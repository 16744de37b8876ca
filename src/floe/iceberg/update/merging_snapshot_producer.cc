#include "floe/iceberg/update/merging_snapshot_producer.h"

#include <algorithm>
#include <functional>

#include "floe/base/strings.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/table_properties.h"

namespace floe::iceberg {
namespace {

int64_t PropertyOr(const std::map<std::string, std::string>& properties, const std::string& key, int64_t fallback) {
  auto it = properties.find(key);
  int64_t value = 0;
  if (it == properties.end() || !ParseInt64(Trim(it->second), &value) || value < 0) return fallback;
  return value;
}

}  // namespace

std::string PartitionKey(int32_t spec_id, const PartitionValues& partition) {
  std::string key = StrCat(spec_id, ":");
  for (const auto& value : partition) {
    if (!value.has_value()) {
      key += "N;";
      continue;
    }
    const std::string bytes = value->ToBytes();
    key += StrCat("V", bytes.size(), ":");
    key += bytes;
  }
  return key;
}

std::string DeleteFileKey(const DataFile& file) {
  if (!file.is_deletion_vector()) return file.file_path;
  return StrCat(file.file_path, "@", file.content_offset.value_or(-1));
}

MergingSnapshotProducer::MergingSnapshotProducer(std::shared_ptr<TableOperations> ops, std::string operation)
    : SnapshotProducer(std::move(ops)), operation_(std::move(operation)) {}

void MergingSnapshotProducer::AddFile(DataFile file) {
  RequireDurable(file.file_path);  // several DVs of one Puffin file name it once
  added_files_.push_back(std::move(file));
}

void MergingSnapshotProducer::AddExistingFile(DataFile file) { added_files_.push_back(std::move(file)); }

void MergingSnapshotProducer::DeleteFile(const std::string& path) { deleted_paths_.insert(path); }

void MergingSnapshotProducer::DeleteDeleteFile(const DataFile& file) {
  if (file.is_deletion_vector()) {
    deleted_dv_keys_.insert(DeleteFileKey(file));
  } else {
    deleted_paths_.insert(file.file_path);
  }
}

void MergingSnapshotProducer::ValidateNoConflictingDeleteFiles(FilePredicate conflicting) {
  delete_conflict_predicates_.push_back(std::move(conflicting));
}

void MergingSnapshotProducer::ValidateDataFilesExist(std::vector<std::string> paths, bool include_deletes) {
  required_data_files_.insert(required_data_files_.end(), paths.begin(), paths.end());
  required_include_deletes_ = required_include_deletes_ || include_deletes;
}

bool MergingSnapshotProducer::adds_deletion_vectors() const {
  return std::any_of(added_files_.begin(), added_files_.end(),
                     [](const DataFile& f) { return f.is_deletion_vector(); });
}

void MergingSnapshotProducer::DeleteFilesWhere(FilePredicate predicate, ManifestPredicate manifest_filter) {
  delete_predicates_.emplace_back(std::move(predicate), std::move(manifest_filter));
}

void MergingSnapshotProducer::ReplaceAddedPartitions() { replace_added_partitions_ = true; }

void MergingSnapshotProducer::ValidateNoConflictingAppends(FilePredicate conflicting) {
  conflict_predicates_.push_back(std::move(conflicting));
}

Result<bool> MergingSnapshotProducer::Removes(const DataFile& file, const PartitionSpec& spec) {
  if (file.content != DataFileContent::kData) {
    if (file.is_deletion_vector() ? deleted_dv_keys_.count(DeleteFileKey(file)) > 0
                                  : deleted_paths_.count(file.file_path) > 0) {
      return true;
    }
    // Deletes of only a removed data file would dangle (Java removes them too).
    return file.referenced_data_file.has_value() && dangling_data_paths_.count(*file.referenced_data_file) > 0;
  }
  if (deleted_paths_.count(file.file_path) > 0) return true;
  if (replace_added_partitions_ && replaced_partition_keys_.count(PartitionKey(spec.spec_id, file.partition)) > 0) {
    return true;
  }
  for (const auto& [predicate, manifest_filter] : delete_predicates_) {
    FLOE_ASSIGN_OR_RETURN(bool removes, predicate(file, spec));
    if (removes) return true;
  }
  return false;
}

Status MergingSnapshotProducer::ForEachChange(const TableMetadata& base, const Snapshot& s, ManifestContent content,
                                              ManifestEntryStatus status,
                                              const std::function<Status(const DataFile&, const PartitionSpec&)>& fn) {
  FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifests(&s));
  for (const auto& manifest : manifests) {
    if (manifest.added_snapshot_id != s.snapshot_id || manifest.content != content) continue;
    if (status == ManifestEntryStatus::kAdded && manifest.added_files_count.value_or(1) == 0) continue;
    if (status == ManifestEntryStatus::kDeleted && manifest.deleted_files_count.value_or(1) == 0) continue;
    const PartitionSpec* spec = base.PartitionSpecById(manifest.partition_spec_id);
    if (spec == nullptr) continue;
    ManifestReaderOptions reader_options;
    reader_options.read_stats = status == ManifestEntryStatus::kAdded;
    FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io(), manifest, reader_options));
    ManifestEntry entry;
    while (true) {
      FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(&entry));
      if (!more) break;
      if (entry.status != status || entry.snapshot_id != s.snapshot_id) continue;
      entry.data_file.spec_id = manifest.partition_spec_id;
      FLOE_RETURN_IF_ERROR(fn(entry.data_file, *spec));
    }
  }
  return Status::OK();
}

Status MergingSnapshotProducer::Validate(const TableMetadata& base, const Snapshot* parent,
                                         std::optional<int64_t> starting_snapshot_id) {
  newer_.clear();
  const bool needs_history = !conflict_predicates_.empty() || !delete_conflict_predicates_.empty() ||
                             !required_data_files_.empty() || adds_deletion_vectors() ||
                             (removes_data_files() && base.format_version >= 2);
  if (!needs_history) return Status::OK();
  // The snapshots committed since the operation started: the branch's
  // ancestry from its head back to the starting snapshot.
  for (const Snapshot* s = parent; s != nullptr && (!starting_snapshot_id || s->snapshot_id != *starting_snapshot_id);) {
    if (!IsOwnSnapshot(s->snapshot_id)) newer_.push_back(s);
    if (!s->parent_snapshot_id) {
      if (!starting_snapshot_id) break;  // the branch was empty at the start: all of it is newer
      return ValidationFailure(Status::CommitConflict(
          StrCat("table ", ops().name(), ": the starting snapshot ", *starting_snapshot_id,
                 " is no longer an ancestor of the branch head (rolled back concurrently)")));
    }
    const Snapshot* next = base.SnapshotById(*s->parent_snapshot_id);
    if (next == nullptr) {
      // A snapshot committed since the start was expired: what it added
      // cannot be checked any more (as Java's "cannot determine history").
      return ValidationFailure(Status::CommitConflict(
          StrCat("table ", ops().name(), ": cannot validate the snapshots committed since ",
                 starting_snapshot_id ? StrCat("snapshot ", *starting_snapshot_id) : std::string("the start"),
                 ": ancestor ", *s->parent_snapshot_id, " of snapshot ", s->snapshot_id, " was expired")));
    }
    s = next;
  }
  std::set<std::string> dv_targets;
  for (const auto& f : added_files_) {
    if (f.is_deletion_vector() && f.referenced_data_file) dv_targets.insert(*f.referenced_data_file);
  }
  const std::set<std::string> required(required_data_files_.begin(), required_data_files_.end());
  for (const Snapshot* s : newer_) {
    if (!conflict_predicates_.empty()) {
      FLOE_RETURN_IF_ERROR(ForEachChange(base, *s, ManifestContent::kData, ManifestEntryStatus::kAdded,
                                         [&](const DataFile& file, const PartitionSpec& spec) -> Status {
        for (const auto& conflicting : conflict_predicates_) {
          FLOE_ASSIGN_OR_RETURN(bool conflicts, conflicting(file, spec));
          if (conflicts) {
            return ValidationFailure(Status::CommitConflict(
                StrCat("table ", ops().name(), ": found conflicting file ", Quote(file.file_path),
                       " added by concurrent snapshot ", s->snapshot_id)));
          }
        }
        return Status::OK();
      }));
    }
    if (!delete_conflict_predicates_.empty() || !dv_targets.empty()) {
      FLOE_RETURN_IF_ERROR(ForEachChange(base, *s, ManifestContent::kDeletes, ManifestEntryStatus::kAdded,
                                         [&](const DataFile& file, const PartitionSpec& spec) -> Status {
        if (file.is_deletion_vector() && file.referenced_data_file && dv_targets.count(*file.referenced_data_file)) {
          return ValidationFailure(Status::CommitConflict(
              StrCat("table ", ops().name(), ": found a concurrently added deletion vector for data file ",
                     Quote(*file.referenced_data_file), " (snapshot ", s->snapshot_id, ")")));
        }
        for (const auto& conflicting : delete_conflict_predicates_) {
          FLOE_ASSIGN_OR_RETURN(bool conflicts, conflicting(file, spec));
          if (conflicts) {
            return ValidationFailure(Status::CommitConflict(
                StrCat("table ", ops().name(), ": found conflicting delete file ", Quote(file.file_path),
                       " added by concurrent snapshot ", s->snapshot_id)));
          }
        }
        return Status::OK();
      }));
    }
    const bool removing_op = s->operation == kOperationOverwrite || s->operation == kOperationReplace ||
                             (required_include_deletes_ && s->operation == kOperationDelete);
    if (!required.empty() && removing_op) {
      FLOE_RETURN_IF_ERROR(ForEachChange(base, *s, ManifestContent::kData, ManifestEntryStatus::kDeleted,
                                         [&](const DataFile& file, const PartitionSpec&) -> Status {
        if (required.count(file.file_path) == 0) return Status::OK();
        return ValidationFailure(Status::CommitConflict(
            StrCat("table ", ops().name(), ": cannot commit, missing data file ", Quote(file.file_path),
                   " (removed by concurrent snapshot ", s->snapshot_id, ")")));
      }));
    }
  }
  return Status::OK();
}

Status MergingSnapshotProducer::ValidateNewDeletesForRemovedFiles(const TableMetadata& base) {
  std::set<std::string> paths;
  std::set<std::string> partitions;
  for (const auto& f : deleted_files_) {
    if (f.content != DataFileContent::kData) continue;
    paths.insert(f.file_path);
    partitions.insert(PartitionKey(f.spec_id, f.partition));
  }
  if (paths.empty()) return Status::OK();
  // Conservatively what a delete index would attach: file-scoped deletes by
  // their data file, others by partition (everywhere for an unpartitioned spec).
  for (const Snapshot* s : newer_) {
    FLOE_RETURN_IF_ERROR(ForEachChange(base, *s, ManifestContent::kDeletes, ManifestEntryStatus::kAdded,
                                       [&](const DataFile& d, const PartitionSpec& spec) -> Status {
      // A rewrite keeping the data sequence number (compaction): equality
      // deletes added since still apply to the rewritten rows, which keep
      // their lower sequence number; only position deletes, naming
      // positions in the removed files, are lost (Java's
      // validateNoNewDeletesForDataFiles with ignoreEqualityDeletes).
      if (data_sequence_number_.has_value() && d.content == DataFileContent::kEqualityDeletes) return Status::OK();
      const bool applies = d.referenced_data_file.has_value()
                               ? paths.count(*d.referenced_data_file) > 0
                               : spec.fields.empty() || partitions.count(PartitionKey(spec.spec_id, d.partition)) > 0;
      if (!applies) return Status::OK();
      return ValidationFailure(Status::CommitConflict(
          StrCat("table ", ops().name(), ": found new delete file ", Quote(d.file_path),
                 " for data files this operation removes, added by concurrent snapshot ", s->snapshot_id)));
    }));
  }
  return Status::OK();
}

Result<MergingSnapshotProducer::Filtered> MergingSnapshotProducer::FilterManifest(const TableMetadata& base,
                                                                                   const ManifestFile& manifest,
                                                                                   int64_t snapshot_id,
                                                                                   std::set<std::string>* found) {
  // Delete manifests are filtered anew each attempt: which data files an
  // attempt removes (and so which deletes dangle) may change.
  const bool cacheable = manifest.content == ManifestContent::kData;
  if (auto it = filtered_cache_.find(manifest.manifest_path); cacheable && it != filtered_cache_.end()) {
    // Reused across attempts: the manifest's content does not change.
    for (const auto& file : it->second.deleted) found->insert(DeleteFileKey(file));
    return it->second;
  }
  const PartitionSpec* spec = base.PartitionSpecById(manifest.partition_spec_id);
  const Schema* schema = base.current_schema();
  if (spec == nullptr || schema == nullptr) {
    return Status::Corrupt(StrCat("manifest ", Quote(manifest.manifest_path), " has partition spec ",
                                  manifest.partition_spec_id, ", which the table does not have"));
  }
  // Skip reading when no rule can match this manifest.
  bool may_match = !deleted_paths_.empty() || (replace_added_partitions_ && manifest.content == ManifestContent::kData);
  if (manifest.content == ManifestContent::kDeletes && (!deleted_dv_keys_.empty() || !dangling_data_paths_.empty())) {
    may_match = true;
  }
  for (const auto& [predicate, manifest_filter] : delete_predicates_) {
    if (manifest.content == ManifestContent::kData && (!manifest_filter || manifest_filter(manifest))) may_match = true;
  }
  if (!may_match) return Filtered{manifest, {}};

  FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io(), manifest));
  FLOE_ASSIGN_OR_RETURN(auto entries, reader->ReadAll());
  Filtered result{manifest, {}};
  std::vector<bool> removed(entries.size(), false);
  for (size_t i = 0; i < entries.size(); ++i) {
    entries[i].data_file.spec_id = manifest.partition_spec_id;
    if (!entries[i].is_live()) continue;
    FLOE_ASSIGN_OR_RETURN(bool removes, Removes(entries[i].data_file, *spec));
    if (removes) {
      removed[i] = true;
      result.deleted.push_back(entries[i].data_file);
      found->insert(DeleteFileKey(entries[i].data_file));
    }
  }
  if (result.deleted.empty()) {
    if (cacheable) filtered_cache_[manifest.manifest_path] = result;
    return result;
  }
  const std::string path = NewManifestPath(base);
  FLOE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io(), path, base.format_version, *spec, *schema,
                                                          snapshot_id, manifest.content, manifest_options(base)));
  TrackManifest(path);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].is_live()) continue;  // deletes of older snapshots are not carried forward
    if (removed[i]) {
      FLOE_RETURN_IF_ERROR(writer->Delete(entries[i]));
    } else {
      FLOE_RETURN_IF_ERROR(writer->Existing(entries[i]));
    }
  }
  FLOE_ASSIGN_OR_RETURN(result.manifest, writer->Close());
  if (cacheable) filtered_cache_[manifest.manifest_path] = result;
  return result;
}

Result<std::vector<ManifestFile>> MergingSnapshotProducer::MergeManifests(const TableMetadata& base,
                                                                          int64_t snapshot_id,
                                                                          std::vector<ManifestFile> manifests) {
  const auto& properties = base.properties;
  if (!BoolProperty(properties, "commit.manifest-merge.enabled", true)) return manifests;
  const int64_t min_count = PropertyOr(properties, "commit.manifest.min-count-to-merge", 100);
  const int64_t target_size = PropertyOr(properties, "commit.manifest.target-size-bytes", int64_t{8} << 20);
  // Java merges data and delete manifests apart (a merge manager each), data
  // first; within each, groups by spec id, the highest id first.
  std::vector<ManifestFile> merged_all;
  for (const ManifestContent content : {ManifestContent::kData, ManifestContent::kDeletes}) {
    std::map<int32_t, std::vector<ManifestFile>, std::greater<>> groups;
    std::string first;  // this commit's new manifest, if any: it decides whether its bin merges
    for (auto& manifest : manifests) {
      if (manifest.content != content) continue;
      if (first.empty()) first = manifest.manifest_path;
      groups[manifest.partition_spec_id].push_back(std::move(manifest));
    }
    for (auto& [spec_id, group] : groups) {
      FLOE_RETURN_IF_ERROR(MergeGroup(base, snapshot_id, content, spec_id, first, min_count, target_size,
                                      std::move(group), &merged_all));
    }
  }
  return merged_all;
}

Status MergingSnapshotProducer::MergeGroup(const TableMetadata& base, int64_t snapshot_id, ManifestContent content,
                                           int32_t spec_id, const std::string& first, int64_t min_count,
                                           int64_t target_size, std::vector<ManifestFile> group,
                                           std::vector<ManifestFile>* out) {
  // Bins of consecutive manifests up to the target size, packed from the
  // end (Java's ListPacker.packEnd, lookback 1), so the under-filled bin is
  // the first, newest one, to be merged again by a later commit.
  std::vector<std::vector<ManifestFile>> bins(1);
  int64_t bin_size = 0;
  for (auto it = group.rbegin(); it != group.rend(); ++it) {
    if (!bins.back().empty() && bin_size + it->manifest_length > target_size) {
      bins.emplace_back();
      bin_size = 0;
    }
    bin_size += it->manifest_length;
    bins.back().push_back(std::move(*it));
  }
  std::reverse(bins.begin(), bins.end());
  for (auto& bin : bins) std::reverse(bin.begin(), bin.end());
  const PartitionSpec* spec = base.PartitionSpecById(spec_id);
  const Schema* schema = base.current_schema();
  for (auto& bin : bins) {
    // The bin holding the new manifest merges only from min-count-to-merge
    // manifests on; bins of older manifests merge whenever they hold two.
    const bool holds_first =
        std::any_of(bin.begin(), bin.end(), [&](const ManifestFile& m) { return m.manifest_path == first; });
    if (bin.size() == 1 || (holds_first && static_cast<int64_t>(bin.size()) < min_count) || spec == nullptr ||
        schema == nullptr) {
      for (auto& m : bin) out->push_back(std::move(m));
      continue;
    }
    const std::string path = NewManifestPath(base);
    FLOE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io(), path, base.format_version, *spec, *schema,
                                                            snapshot_id, content, manifest_options(base)));
    TrackManifest(path);
    for (const auto& m : bin) {
      FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io(), m));
      ManifestEntry entry;
      while (true) {
        FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(&entry));
        if (!more) break;
        const bool this_snapshot = entry.snapshot_id == snapshot_id;
        if (entry.status == ManifestEntryStatus::kDeleted) {
          // Only this commit's removals are recorded again.
          if (this_snapshot) FLOE_RETURN_IF_ERROR(writer->Delete(entry));
        } else if (entry.status == ManifestEntryStatus::kAdded && this_snapshot) {
          // Still this commit's: the entry inherits the new sequence number
          // unless it carries an older data sequence number (rewrites).
          ManifestEntry added = entry;
          if (m.sequence_number == ManifestFile::kUnassignedSequenceNumber) added.sequence_number.reset();
          added.file_sequence_number.reset();
          FLOE_RETURN_IF_ERROR(writer->Add(added));
        } else {
          FLOE_RETURN_IF_ERROR(writer->Existing(entry));
        }
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto merged, writer->Close());
    out->push_back(std::move(merged));
  }
  return Status::OK();
}

Result<SnapshotChange> MergingSnapshotProducer::Apply(const TableMetadata& base, const Snapshot* parent,
                                                      int64_t snapshot_id) {
  if (added_manifests_.empty() && !added_files_.empty()) {
    std::vector<ManifestEntry> data;
    std::vector<ManifestEntry> deletes;
    for (const auto& file : added_files_) {
      ManifestEntry entry;
      entry.status = ManifestEntryStatus::kAdded;
      entry.snapshot_id = snapshot_id;
      entry.sequence_number = data_sequence_number_;
      entry.data_file = file;
      (file.content == DataFileContent::kData ? data : deletes).push_back(std::move(entry));
    }
    if (!deletes.empty() && base.format_version < 2) {
      return Status::InvalidArgument(StrCat("table ", ops().name(), " is format version 1, which has no delete files"));
    }
    FLOE_ASSIGN_OR_RETURN(auto data_manifests, WriteAddedManifests(base, snapshot_id, data, ManifestContent::kData));
    FLOE_ASSIGN_OR_RETURN(auto delete_manifests,
                          WriteAddedManifests(base, snapshot_id, deletes, ManifestContent::kDeletes));
    added_manifests_ = std::move(data_manifests);
    added_manifests_.insert(added_manifests_.end(), delete_manifests.begin(), delete_manifests.end());
  }
  if (replace_added_partitions_) {
    replaced_partition_keys_.clear();
    for (const auto& file : added_files_) {
      if (file.content == DataFileContent::kData) {
        replaced_partition_keys_.insert(PartitionKey(file.spec_id, file.partition));
      }
    }
  }

  FLOE_ASSIGN_OR_RETURN(auto parent_manifests, ReadManifests(parent));
  std::vector<ManifestFile> manifests = added_manifests_;
  std::set<std::string> found;
  deleted_files_.clear();
  dangling_data_paths_.clear();
  // Data manifests first: the data files removed decide which delete files dangle.
  std::vector<std::optional<ManifestFile>> listed(parent_manifests.size());
  for (const ManifestContent pass : {ManifestContent::kData, ManifestContent::kDeletes}) {
    for (size_t i = 0; i < parent_manifests.size(); ++i) {
      const ManifestFile& manifest = parent_manifests[i];
      if ((manifest.content == ManifestContent::kData) != (pass == ManifestContent::kData)) continue;
      // A manifest with only deleted entries recorded its snapshot's deletes;
      // later snapshots do not list it (as Java's manifest filtering).
      if (manifest.added_files_count.value_or(1) == 0 && manifest.existing_files_count.value_or(1) == 0) continue;
      if (!has_removals()) {
        listed[i] = manifest;
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(Filtered filtered, FilterManifest(base, manifest, snapshot_id, &found));
      for (auto& file : filtered.deleted) {
        if (file.content == DataFileContent::kData) dangling_data_paths_.insert(file.file_path);
        deleted_files_.push_back(std::move(file));
      }
      listed[i] = filtered.manifest;
    }
  }
  for (auto& m : listed) {
    if (m.has_value()) manifests.push_back(std::move(*m));
  }
  for (const auto* keys : {&deleted_paths_, &deleted_dv_keys_}) {
    for (const auto& path : *keys) {
      if (found.count(path) == 0) {
        return ValidationFailure(Status::CommitConflict(StrCat("table ", ops().name(), ": cannot delete file ",
                                                               Quote(path), ": it is not a live file of the table")));
      }
    }
  }
  if (base.format_version >= 2) FLOE_RETURN_IF_ERROR(ValidateNewDeletesForRemovedFiles(base));
  if (fail_when_nothing_deleted_ && deleted_files_.empty() && added_files_.empty()) {
    return Status::InvalidArgument(StrCat("table ", ops().name(), ": no data file matches the delete"));
  }
  if (merge_manifests_) {
    FLOE_ASSIGN_OR_RETURN(manifests, MergeManifests(base, snapshot_id, std::move(manifests)));
  }

  SnapshotChange change;
  change.operation = operation_;
  // A delete that had to add files (copy-on-write) is an overwrite; an
  // overwrite that only removed files is a delete.
  const bool adds_data = std::any_of(added_files_.begin(), added_files_.end(),
                                     [](const DataFile& f) { return f.content == DataFileContent::kData; });
  if (operation_ == kOperationOverwrite && !adds_data) change.operation = std::string(kOperationDelete);
  if (operation_ == kOperationDelete && adds_data) change.operation = std::string(kOperationOverwrite);
  change.manifests = std::move(manifests);
  std::set<std::string> partitions;
  for (const auto& file : added_files_) {
    SummarizeAdded(file, &change.summary);
    partitions.insert(PartitionKey(file.spec_id, file.partition));
  }
  for (const auto& file : deleted_files_) {
    SummarizeDeleted(file, &change.summary);
    partitions.insert(PartitionKey(file.spec_id, file.partition));
  }
  change.summary["changed-partition-count"] = StrCat(partitions.size());
  return change;
}

}  // namespace floe::iceberg
