#include "floe/iceberg/update/merging_snapshot_producer.h"

#include <algorithm>

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

MergingSnapshotProducer::MergingSnapshotProducer(std::shared_ptr<TableOperations> ops, std::string operation)
    : SnapshotProducer(std::move(ops)), operation_(std::move(operation)) {}

void MergingSnapshotProducer::AddFile(DataFile file) { added_files_.push_back(std::move(file)); }

void MergingSnapshotProducer::DeleteFile(const std::string& path) { deleted_paths_.insert(path); }

void MergingSnapshotProducer::DeleteFilesWhere(FilePredicate predicate, ManifestPredicate manifest_filter) {
  delete_predicates_.emplace_back(std::move(predicate), std::move(manifest_filter));
}

void MergingSnapshotProducer::ReplaceAddedPartitions() { replace_added_partitions_ = true; }

void MergingSnapshotProducer::ValidateNoConflictingAppends(FilePredicate conflicting) {
  conflict_predicates_.push_back(std::move(conflicting));
}

Result<bool> MergingSnapshotProducer::Removes(const DataFile& file, const PartitionSpec& spec) {
  if (deleted_paths_.count(file.file_path) > 0) return true;
  if (file.content != DataFileContent::kData) return false;
  if (replace_added_partitions_ && replaced_partition_keys_.count(PartitionKey(spec.spec_id, file.partition)) > 0) {
    return true;
  }
  for (const auto& [predicate, manifest_filter] : delete_predicates_) {
    FLOE_ASSIGN_OR_RETURN(bool removes, predicate(file, spec));
    if (removes) return true;
  }
  return false;
}

Status MergingSnapshotProducer::Validate(const TableMetadata& base, const Snapshot* parent,
                                         std::optional<int64_t> starting_snapshot_id) {
  if (conflict_predicates_.empty()) return Status::OK();
  // The snapshots committed since the operation started: the branch's
  // ancestry from its head back to the starting snapshot.
  std::vector<const Snapshot*> newer;
  for (const Snapshot* s = parent; s != nullptr && (!starting_snapshot_id || s->snapshot_id != *starting_snapshot_id);) {
    newer.push_back(s);
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
  for (const Snapshot* s : newer) {
    FLOE_ASSIGN_OR_RETURN(auto manifests, ReadManifests(s));
    for (const auto& manifest : manifests) {
      if (manifest.added_snapshot_id != s->snapshot_id || manifest.content != ManifestContent::kData) continue;
      if (manifest.added_files_count.has_value() && *manifest.added_files_count == 0) continue;
      const PartitionSpec* spec = base.PartitionSpecById(manifest.partition_spec_id);
      if (spec == nullptr) continue;
      FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io(), manifest));
      ManifestEntry entry;
      while (true) {
        FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(&entry));
        if (!more) break;
        if (entry.status != ManifestEntryStatus::kAdded || entry.snapshot_id != s->snapshot_id) continue;
        entry.data_file.spec_id = manifest.partition_spec_id;
        for (const auto& conflicting : conflict_predicates_) {
          FLOE_ASSIGN_OR_RETURN(bool conflicts, conflicting(entry.data_file, *spec));
          if (conflicts) {
            return ValidationFailure(Status::CommitConflict(
                StrCat("table ", ops().name(), ": found conflicting file ", Quote(entry.data_file.file_path),
                       " added by concurrent snapshot ", s->snapshot_id)));
          }
        }
      }
    }
  }
  return Status::OK();
}

Result<MergingSnapshotProducer::Filtered> MergingSnapshotProducer::FilterManifest(const TableMetadata& base,
                                                                                   const ManifestFile& manifest,
                                                                                   int64_t snapshot_id,
                                                                                   std::set<std::string>* found) {
  if (auto it = filtered_cache_.find(manifest.manifest_path); it != filtered_cache_.end()) {
    // Reused across attempts: the manifest's content does not change.
    for (const auto& file : it->second.deleted) found->insert(file.file_path);
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
      found->insert(entries[i].data_file.file_path);
    }
  }
  if (result.deleted.empty()) {
    filtered_cache_[manifest.manifest_path] = result;
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
  filtered_cache_[manifest.manifest_path] = result;
  return result;
}

Result<std::vector<ManifestFile>> MergingSnapshotProducer::MergeManifests(const TableMetadata& base,
                                                                          int64_t snapshot_id,
                                                                          std::vector<ManifestFile> manifests) {
  const auto& properties = base.properties;
  if (!BoolProperty(properties, "commit.manifest-merge.enabled", true)) return manifests;
  const int64_t min_count = PropertyOr(properties, "commit.manifest.min-count-to-merge", 100);
  const int64_t target_size = PropertyOr(properties, "commit.manifest.target-size-bytes", int64_t{8} << 20);
  // Group data manifests by spec, in list order; delete manifests stay as they are.
  std::map<int32_t, std::vector<ManifestFile>> groups;
  std::vector<ManifestFile> result;
  for (auto& manifest : manifests) {
    if (manifest.content == ManifestContent::kData) {
      groups[manifest.partition_spec_id].push_back(std::move(manifest));
    } else {
      result.push_back(std::move(manifest));
    }
  }
  std::vector<ManifestFile> merged_all;
  for (auto& [spec_id, group] : groups) {
    if (static_cast<int64_t>(group.size()) < min_count) {
      for (auto& m : group) merged_all.push_back(std::move(m));
      continue;
    }
    // Bins of consecutive manifests up to the target size.
    std::vector<std::vector<ManifestFile>> bins(1);
    int64_t bin_size = 0;
    for (auto& m : group) {
      if (!bins.back().empty() && bin_size + m.manifest_length > target_size) {
        bins.emplace_back();
        bin_size = 0;
      }
      bin_size += m.manifest_length;
      bins.back().push_back(std::move(m));
    }
    const PartitionSpec* spec = base.PartitionSpecById(spec_id);
    const Schema* schema = base.current_schema();
    for (auto& bin : bins) {
      if (bin.size() == 1 || spec == nullptr || schema == nullptr) {
        for (auto& m : bin) merged_all.push_back(std::move(m));
        continue;
      }
      const std::string path = NewManifestPath(base);
      FLOE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io(), path, base.format_version, *spec, *schema,
                                                              snapshot_id, ManifestContent::kData,
                                                              manifest_options(base)));
      TrackManifest(path);
      for (const auto& m : bin) {
        FLOE_ASSIGN_OR_RETURN(auto reader, ManifestReader::Open(io(), m));
        ManifestEntry entry;
        while (true) {
          FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(&entry));
          if (!more) break;
          const bool this_snapshot = entry.snapshot_id == snapshot_id;
          if (entry.status == ManifestEntryStatus::kDeleted) {
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
      merged_all.push_back(std::move(merged));
    }
  }
  merged_all.insert(merged_all.end(), std::make_move_iterator(result.begin()), std::make_move_iterator(result.end()));
  return merged_all;
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
  for (const auto& manifest : parent_manifests) {
    // A manifest with only deleted entries recorded its snapshot's deletes;
    // later snapshots do not list it (as Java's manifest filtering).
    if (manifest.added_files_count.value_or(1) == 0 && manifest.existing_files_count.value_or(1) == 0) continue;
    if (!has_removals()) {
      manifests.push_back(manifest);
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(Filtered filtered, FilterManifest(base, manifest, snapshot_id, &found));
    for (auto& file : filtered.deleted) deleted_files_.push_back(std::move(file));
    manifests.push_back(filtered.manifest);
  }
  for (const auto& path : deleted_paths_) {
    if (found.count(path) == 0) {
      return ValidationFailure(Status::CommitConflict(StrCat("table ", ops().name(), ": cannot delete file ",
                                                             Quote(path), ": it is not a live file of the table")));
    }
  }
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
  if (operation_ == kOperationOverwrite && added_files_.empty()) change.operation = std::string(kOperationDelete);
  if (operation_ == kOperationDelete && !added_files_.empty()) change.operation = std::string(kOperationOverwrite);
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
