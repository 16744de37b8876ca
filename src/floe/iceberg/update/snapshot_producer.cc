#include "floe/iceberg/update/snapshot_producer.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_metadata.h"
#include "floe/iceberg/snapshot_manifests.h"
#include "floe/iceberg/table_update.h"

namespace floe::iceberg {
namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int64_t PropertyOr(const std::map<std::string, std::string>& properties, const std::string& key, int64_t fallback) {
  auto it = properties.find(key);
  int64_t value = 0;
  if (it == properties.end() || !ParseInt64(Trim(it->second), &value) || value < 0) return fallback;
  return value;
}

int64_t SummaryValue(const std::map<std::string, std::string>& summary, const std::string& key) {
  auto it = summary.find(key);
  int64_t value = 0;
  if (it == summary.end() || !ParseInt64(it->second, &value)) return 0;
  return value;
}

void AddTo(std::map<std::string, std::string>* summary, const std::string& key, int64_t delta) {
  if (delta == 0 && summary->count(key) == 0) return;
  (*summary)[key] = StrCat(SummaryValue(*summary, key) + delta);
}

}  // namespace

CommitRetryOptions CommitRetryOptions::FromProperties(const std::map<std::string, std::string>& properties) {
  CommitRetryOptions options;
  options.num_retries = static_cast<int>(PropertyOr(properties, "commit.retry.num-retries", options.num_retries));
  options.min_wait_ms = PropertyOr(properties, "commit.retry.min-wait-ms", options.min_wait_ms);
  options.max_wait_ms = PropertyOr(properties, "commit.retry.max-wait-ms", options.max_wait_ms);
  options.total_timeout_ms = PropertyOr(properties, "commit.retry.total-timeout-ms", options.total_timeout_ms);
  return options;
}

void SummarizeAdded(const DataFile& file, std::map<std::string, std::string>* summary) {
  switch (file.content) {
    case DataFileContent::kData:
      AddTo(summary, "added-data-files", 1);
      AddTo(summary, "added-records", file.record_count);
      break;
    case DataFileContent::kPositionDeletes:
      AddTo(summary, "added-delete-files", 1);
      AddTo(summary, file.is_deletion_vector() ? "added-dvs" : "added-position-delete-files", 1);
      AddTo(summary, "added-position-deletes", file.record_count);
      break;
    case DataFileContent::kEqualityDeletes:
      AddTo(summary, "added-delete-files", 1);
      AddTo(summary, "added-equality-delete-files", 1);
      AddTo(summary, "added-equality-deletes", file.record_count);
      break;
  }
  AddTo(summary, "added-files-size", file.file_size_in_bytes);
}

void SummarizeDeleted(const DataFile& file, std::map<std::string, std::string>* summary) {
  switch (file.content) {
    case DataFileContent::kData:
      AddTo(summary, "deleted-data-files", 1);
      AddTo(summary, "deleted-records", file.record_count);
      break;
    case DataFileContent::kPositionDeletes:
      AddTo(summary, "removed-delete-files", 1);
      AddTo(summary, file.is_deletion_vector() ? "removed-dvs" : "removed-position-delete-files", 1);
      AddTo(summary, "removed-position-deletes", file.record_count);
      break;
    case DataFileContent::kEqualityDeletes:
      AddTo(summary, "removed-delete-files", 1);
      AddTo(summary, "removed-equality-delete-files", 1);
      AddTo(summary, "removed-equality-deletes", file.record_count);
      break;
  }
  AddTo(summary, "removed-files-size", file.file_size_in_bytes);
}

void UpdateSummaryTotals(const Snapshot* parent, std::map<std::string, std::string>* summary) {
  const std::map<std::string, std::string> empty;
  const auto& previous = parent != nullptr ? parent->summary : empty;
  // spec (Java's SnapshotSummary): a total is carried only while every
  // snapshot has it; a first snapshot starts from zero.
  auto total = [&](const std::string& key, const std::string& added, const std::string& removed) {
    if (parent != nullptr && previous.count(key) == 0) return;
    const int64_t value = SummaryValue(previous, key) + SummaryValue(*summary, added) - SummaryValue(*summary, removed);
    (*summary)[key] = StrCat(std::max<int64_t>(value, 0));
  };
  total("total-records", "added-records", "deleted-records");
  total("total-files-size", "added-files-size", "removed-files-size");
  total("total-data-files", "added-data-files", "deleted-data-files");
  total("total-delete-files", "added-delete-files", "removed-delete-files");
  total("total-position-deletes", "added-position-deletes", "removed-position-deletes");
  total("total-equality-deletes", "added-equality-deletes", "removed-equality-deletes");
}

SnapshotProducer::SnapshotProducer(std::shared_ptr<TableOperations> ops)
    : ops_(std::move(ops)), commit_uuid_(RandomUuid()) {}

SnapshotProducer::~SnapshotProducer() = default;

void SnapshotProducer::set_summary_property(std::string key, std::string value) {
  extra_summary_[std::move(key)] = std::move(value);
}

Status SnapshotProducer::Validate(const TableMetadata&, const Snapshot*, std::optional<int64_t>) {
  return Status::OK();
}

std::string SnapshotProducer::MetadataLocation(const TableMetadata& base) const {
  auto it = base.properties.find("write.metadata.path");
  return it != base.properties.end() ? it->second : JoinLocation(base.location, "metadata");
}

std::string SnapshotProducer::NewManifestPath(const TableMetadata& base) {
  return JoinLocation(MetadataLocation(base), StrCat(commit_uuid_, "-m", manifest_count_++, ".avro"));
}

ManifestWriteOptions SnapshotProducer::manifest_options(const TableMetadata& base) const {
  ManifestWriteOptions options;
  auto it = base.properties.find("write.avro.compression-codec");
  if (it != base.properties.end()) {
    const std::string codec = ToLowerAscii(Trim(it->second));
    if (codec == "uncompressed" || codec == "none") options.codec = avro::BlockCodec::kNull;
    if (codec == "snappy") options.codec = avro::BlockCodec::kSnappy;
    if (codec == "zstd") options.codec = avro::BlockCodec::kZstandard;
  }
  return options;
}

void SnapshotProducer::DeleteUnusedManifests(const std::vector<ManifestFile>& keep) {
  std::set<std::string> kept;
  for (const auto& m : keep) kept.insert(m.manifest_path);
  std::vector<std::string> doomed;
  for (const auto& path : written_manifests_) {
    if (kept.count(path) == 0) doomed.push_back(path);
  }
  if (!doomed.empty()) (void)io().DeleteMany(doomed);
  written_manifests_.erase(std::remove_if(written_manifests_.begin(), written_manifests_.end(),
                                          [&](const std::string& p) { return kept.count(p) == 0; }),
                           written_manifests_.end());
}

Result<std::vector<ManifestFile>> SnapshotProducer::WriteAddedManifests(const TableMetadata& base,
                                                                        int64_t snapshot_id,
                                                                        const std::vector<ManifestEntry>& entries,
                                                                        ManifestContent content) {
  std::map<int32_t, std::vector<const ManifestEntry*>> by_spec;
  for (const auto& entry : entries) by_spec[entry.data_file.spec_id].push_back(&entry);
  const Schema* schema = base.current_schema();
  if (schema == nullptr) return Status::InvalidArgument(StrCat("table ", ops().name(), " has no current schema"));
  std::vector<ManifestFile> manifests;
  for (const auto& [spec_id, spec_files] : by_spec) {
    const PartitionSpec* spec = base.PartitionSpecById(spec_id);
    if (spec == nullptr) {
      return Status::InvalidArgument(StrCat("data file ", Quote(spec_files[0]->data_file.file_path), " has partition spec ",
                                            spec_id, ", which table ", ops().name(), " does not have"));
    }
    const std::string path = NewManifestPath(base);
    FLOE_ASSIGN_OR_RETURN(auto writer, ManifestWriter::Open(io(), path, base.format_version, *spec, *schema,
                                                            snapshot_id, content, manifest_options(base)));
    TrackManifest(path);
    for (const ManifestEntry* entry : spec_files) FLOE_RETURN_IF_ERROR(writer->Add(*entry));
    FLOE_ASSIGN_OR_RETURN(auto manifest, writer->Close());
    manifests.push_back(std::move(manifest));
  }
  return manifests;
}

Result<ManifestFile> SnapshotProducer::WithListMetadata(const ManifestFile& manifest) {
  if (!NeedsManifestMetadata(manifest)) return manifest;
  auto it = listed_metadata_.find(manifest.manifest_path);
  if (it == listed_metadata_.end()) {
    FLOE_ASSIGN_OR_RETURN(ManifestFile completed, AddManifestMetadata(io(), manifest));
    it = listed_metadata_.emplace(manifest.manifest_path, std::move(completed)).first;
  }
  return it->second;
}

Result<std::vector<ManifestFile>> SnapshotProducer::ReadManifests(const Snapshot* snapshot) {
  if (snapshot == nullptr) return std::vector<ManifestFile>();
  FLOE_ASSIGN_OR_RETURN(auto manifests, SnapshotManifests(io(), *snapshot));
  if (!snapshot->manifest_list.empty()) return manifests;
  // v1 inline manifests: their counts, summaries and adding snapshot are
  // read now, so that filtering, merging and the new list see real ones.
  for (auto& manifest : manifests) {
    FLOE_ASSIGN_OR_RETURN(manifest, WithListMetadata(manifest));
  }
  return manifests;
}

Result<TableMetadata> SnapshotProducer::Stage(const TableMetadata& base, int attempt) {
  const Snapshot* parent = base.SnapshotByRef(branch_);
  std::optional<int64_t> starting_snapshot_id;
  if (validate_from_set_) {
    starting_snapshot_id = validate_from_;
  } else if (starting_.has_value() && starting_->metadata != nullptr) {
    if (const Snapshot* s = starting_->metadata->SnapshotByRef(branch_)) starting_snapshot_id = s->snapshot_id;
  } else if (parent != nullptr) {
    starting_snapshot_id = parent->snapshot_id;
  }
  if (Status status = Validate(base, parent, starting_snapshot_id); !status.ok()) {
    validation_failed_ = true;  // a real conflict with another commit: retrying cannot help
    return status;
  }

  if (!snapshot_id_.has_value() || base.SnapshotById(*snapshot_id_) != nullptr) {
    int64_t id = RandomPositiveId();
    while (base.SnapshotById(id) != nullptr) id = RandomPositiveId();
    snapshot_id_ = id;
  }
  const int64_t snapshot_id = *snapshot_id_;
  FLOE_ASSIGN_OR_RETURN(SnapshotChange change, Apply(base, parent, snapshot_id));

  const int64_t sequence_number = base.format_version >= 2 ? base.last_sequence_number + 1 : 0;
  std::optional<int64_t> first_row_id;
  if (base.format_version >= 3) first_row_id = base.next_row_id.value_or(0);
  const std::string list_path = JoinLocation(
      MetadataLocation(base), StrCat("snap-", snapshot_id, "-", attempt + 1, "-", commit_uuid_, ".avro"));
  FLOE_ASSIGN_OR_RETURN(auto list, ManifestListWriter::Open(io(), list_path, base.format_version, snapshot_id,
                                                            parent ? std::optional<int64_t>(parent->snapshot_id)
                                                                   : std::nullopt,
                                                            sequence_number, first_row_id, manifest_options(base)));
  written_lists_.push_back(list_path);
  for (auto& manifest : change.manifests) {
    FLOE_ASSIGN_OR_RETURN(manifest, WithListMetadata(manifest));
    FLOE_RETURN_IF_ERROR(list->Add(manifest).status());
  }
  FLOE_RETURN_IF_ERROR(list->Close());

  Snapshot snapshot;
  snapshot.snapshot_id = snapshot_id;
  if (parent != nullptr) snapshot.parent_snapshot_id = parent->snapshot_id;
  snapshot.sequence_number = sequence_number;
  snapshot.timestamp_ms = std::max(NowMs(), base.last_updated_ms);
  snapshot.manifest_list = list_path;
  snapshot.operation = change.operation;
  snapshot.summary = change.summary;
  for (const auto& [key, value] : extra_summary_) snapshot.summary[key] = value;
  UpdateSummaryTotals(parent, &snapshot.summary);
  snapshot.schema_id = base.current_schema_id;
  if (first_row_id.has_value()) {
    snapshot.first_row_id = first_row_id;
    snapshot.added_rows = list->next_row_id().value_or(*first_row_id) - *first_row_id;
  }

  SnapshotRef ref;
  if (auto it = base.refs.find(branch_); it != base.refs.end()) ref = it->second;
  ref.type = SnapshotRefType::kBranch;
  ref.snapshot_id = snapshot_id;
  std::vector<TableRequirement> requirements;
  if (!base.table_uuid.empty()) requirements.push_back(AssertTableUuid{base.table_uuid});
  requirements.push_back(
      AssertRefSnapshotId{branch_, parent ? std::optional<int64_t>(parent->snapshot_id) : std::nullopt});
  std::vector<TableUpdate> updates = {AddSnapshot{snapshot}, SetSnapshotRef{branch_, ref}};
  FLOE_ASSIGN_OR_RETURN(TableMetadata updated, ApplyTableChanges(&base, requirements, updates));
  staged_manifests_ = std::move(change.manifests);
  return updated;
}

std::vector<std::string> SnapshotProducer::NotYetDurable() const {
  std::vector<std::string> paths;
  for (const auto& path : durable_required_) {
    if (durable_.count(path) == 0) paths.push_back(path);
  }
  // Manifests listed from the parent were made durable by their own commit.
  std::set<std::string> listed;
  for (const auto& m : staged_manifests_) listed.insert(m.manifest_path);
  for (const auto& path : written_manifests_) {
    if (listed.count(path) > 0 && durable_.count(path) == 0) paths.push_back(path);
  }
  if (!written_lists_.empty() && durable_.count(written_lists_.back()) == 0) paths.push_back(written_lists_.back());
  return paths;
}

void SnapshotProducer::Committed(const std::string& metadata_location) {
  // Manifests of earlier attempts that this snapshot does not list are orphans.
  DeleteUnusedManifests(staged_manifests_);
  if (written_lists_.size() > 1) {
    std::vector<std::string> stale_lists(written_lists_.begin(), written_lists_.end() - 1);
    (void)io().DeleteMany(stale_lists);
  }
  written_lists_.clear();
  written_manifests_.clear();
  report_.snapshot_id = snapshot_id_.value_or(0);
  report_.metadata_location = metadata_location;
}

void SnapshotProducer::Abort() {
  if (!written_lists_.empty()) (void)io().DeleteMany(written_lists_);
  written_lists_.clear();
  DeleteUnusedManifests({});
}

Result<TableState> SnapshotProducer::AttemptCommit(const TableState& base_state, int attempt) {
  FLOE_ASSIGN_OR_RETURN(TableMetadata updated, Stage(*base_state.metadata, attempt));
  const std::vector<std::string> unsynced = NotYetDurable();
  if (!unsynced.empty()) {
    FLOE_RETURN_IF_ERROR(io().MakeDurable(unsynced));
    MarkDurable(unsynced);
  }
  FLOE_ASSIGN_OR_RETURN(TableState committed, ops().Commit(base_state, updated));
  Committed(committed.metadata_location);
  return committed;
}

Result<TableState> SnapshotProducer::Commit() {
  // The first attempt commits on the state the operation started from (as
  // Java commits on ops.current()); a lost race then refreshes.
  TableState base;
  if (starting_.has_value()) {
    base = *starting_;
  } else {
    FLOE_ASSIGN_OR_RETURN(base, ops().Refresh());
    starting_ = base;
  }
  const CommitRetryOptions retry = CommitRetryOptions::FromProperties(base.metadata->properties);
  const auto started = std::chrono::steady_clock::now();
  std::mt19937_64 jitter(RandomBits64());
  int64_t wait_ms = retry.min_wait_ms;
  for (int attempt = 0;; ++attempt) {
    report_.attempts = attempt + 1;
    auto result = AttemptCommit(base, attempt);
    if (result.ok()) return result;
    const Status& status = result.status();
    if (status.code() == StatusCode::kCommitStateUnknown) return status;  // keep every file: it may have landed
    // The manifest list of a failed attempt is never reused.
    if (!written_lists_.empty()) (void)io().DeleteMany(written_lists_);
    written_lists_.clear();
    const bool retryable = status.code() == StatusCode::kCommitConflict && !validation_failed_;
    validation_failed_ = false;
    // Java's Tasks: num-retries + 1 attempts, and past the total timeout no
    // more — but the first failure always gets its retry.
    const bool out_of_time =
        attempt >= 1 && std::chrono::steady_clock::now() - started > std::chrono::milliseconds(retry.total_timeout_ms);
    if (!retryable || attempt >= retry.num_retries || out_of_time) {
      DeleteUnusedManifests({});
      if (retryable) {
        return Status::CommitConflict(StrCat("table ", ops().name(), ": commit failed after ", attempt + 1,
                                             " attempts: ", status.message()));
      }
      return status;
    }
    ++report_.conflicts;
    const int64_t sleep_ms = std::min(wait_ms, retry.max_wait_ms);
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms / 2 + static_cast<int64_t>(jitter() % (sleep_ms / 2 + 1))));
    wait_ms = std::min(wait_ms * 2, retry.max_wait_ms);
    auto refreshed = ops().Refresh();
    if (!refreshed.ok()) {
      DeleteUnusedManifests({});  // every attempt so far lost its race: nothing of them landed
      return refreshed.status();
    }
    base = std::move(*refreshed);
  }
}

}  // namespace floe::iceberg
