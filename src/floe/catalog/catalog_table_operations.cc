#include "floe/catalog/catalog_table_operations.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "floe/base/logging.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/metadata_location.h"
#include "floe/iceberg/table_properties.h"

namespace floe::catalog {

TableFileIOResolver TableFileIOFromProperties(FileIOProperties catalog_properties,
                                              std::function<std::shared_ptr<FileIO>(std::shared_ptr<FileIO>)> wrap) {
  return [catalog_properties = std::move(catalog_properties), wrap = std::move(wrap)](
             const std::string& location, const FileIOProperties& properties) -> Result<std::shared_ptr<FileIO>> {
    FileIOProperties merged = catalog_properties;
    for (const auto& [key, value] : properties) merged[key] = value;
    FLOE_ASSIGN_OR_RETURN(std::shared_ptr<FileIO> io, FileIOForLocation(location, merged));
    return wrap ? wrap(std::move(io)) : io;
  };
}

CatalogTableOperations::CatalogTableOperations(std::shared_ptr<MetadataPointerStore> store, TableIdentifier ident,
                                               std::shared_ptr<FileIO> io, TableFileIOResolver table_io,
                                               std::shared_ptr<TableMetadataCache> cache)
    : store_(std::move(store)),
      ident_(std::move(ident)),
      io_(std::move(io)),
      table_io_resolver_(std::move(table_io)),
      cache_(std::move(cache)),
      current_io_(io_.get()) {}

Status CatalogTableOperations::UseFileIOFor(const iceberg::TableMetadata& metadata) {
  if (!table_io_resolver_) return Status::OK();
  FileIOProperties wanted;
  for (const auto& [key, value] : metadata.properties) {
    if (IsFileIOProperty(key)) wanted.emplace(key, value);
  }
  std::lock_guard lock(mutex_);
  if (wanted == current_io_properties_) return Status::OK();
  if (wanted.empty()) {
    current_io_ = io_.get();
  } else {
    auto io = table_io_resolver_(metadata.location, wanted);
    if (!io.ok()) return io.status().WithContext(StrCat("table ", ident_.ToString(), ": storage properties"));
    table_ios_.push_back(*io);
    current_io_ = io->get();
  }
  current_io_properties_ = std::move(wanted);
  return Status::OK();
}

Result<iceberg::TableState> CatalogTableOperations::Refresh() {
  FLOE_RETURN_IF_ERROR(ident_.Validate());
  FLOE_ASSIGN_OR_RETURN(std::string location, store_->LoadMetadataLocation(ident_));
  auto metadata = ReadTableMetadataCached(*io_, location, cache_.get());
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident_.ToString()));
  FLOE_RETURN_IF_ERROR(UseFileIOFor(**metadata));
  return iceberg::TableState{std::move(location), std::move(*metadata)};
}

Result<iceberg::TableState> CatalogTableOperations::Commit(const iceberg::TableState& base,
                                                           const iceberg::TableMetadata& updated) {
  FLOE_RETURN_IF_ERROR(ident_.Validate());
  const bool create = base.metadata_location.empty();
  if (!create && base.metadata == nullptr) {
    return Status::InvalidArgument(StrCat("table ", ident_.ToString(), ": commit base has a location but no metadata"));
  }
  iceberg::TableMetadata published = updated;
  int version = 0;
  if (!create) {
    FLOE_ASSIGN_OR_RETURN(
        published, iceberg::WithPreviousMetadataFile(std::move(published), *base.metadata, base.metadata_location));
    // A base not named by a catalog ("v3.metadata.json") parses as -1, so the
    // next file is version 0, as in Java.
    version = iceberg::ParseMetadataFileVersion(base.metadata_location) + 1;
  }
  FLOE_ASSIGN_OR_RETURN(std::string location, iceberg::NewMetadataFileLocation(published, version));
  FLOE_RETURN_IF_ERROR(UseFileIOFor(published));
  FileIO& io = this->io();
  Status written = iceberg::WriteTableMetadata(io, location, published);
  if (!written.ok()) {
    // The file may have been published before the failure (a lost
    // response). Nothing points at it yet, so remove it — unless the name
    // was taken, when the file is not this commit's.
    if (!written.IsAlreadyExists()) {
      Status removed = io.Delete(location);
      // NotFound: there is nothing to remove (a bucket that does not exist).
      if (!removed.ok() && !removed.IsNotFound()) {
        FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
      }
    }
    return written.WithContext(StrCat("table ", ident_.ToString(), ": writing ", Quote(location)));
  }

  Status swapped = create ? store_->CreateMetadataLocation(ident_, location)
                          : store_->SwapMetadataLocation(ident_, base.metadata_location, location);
  if (swapped.IsCommitStateUnknown()) {
    switch (CheckCommitStatus(base, location, published)) {
      case Outcome::kLanded:
        FLOE_LOG(kInfo) << "table " << ident_.ToString() << ": the commit's answer was lost, but it landed ("
                        << swapped.message() << ")";
        swapped = Status::OK();
        break;
      case Outcome::kNotLanded:
        swapped = Status::CommitConflict(StrCat("table ", ident_.ToString(),
                                                ": the commit did not land (its answer was lost: ", swapped.message(),
                                                ")"))
                      .WithConflictReason(ConflictReason::kSwapLost);
        break;
      case Outcome::kUnknown:
        // The file may be the table's current metadata now: keep it.
        return swapped;
    }
  }
  if (!swapped.ok()) {
    Status removed = io.Delete(location);
    if (!removed.ok()) {
      FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
    }
    return swapped;
  }
  if (!create) {
    for (const std::string& old_file : iceberg::MetadataFilesToDelete(*base.metadata, published)) {
      if (cache_ != nullptr) cache_->Erase(old_file);
      Status removed = io.Delete(old_file);
      if (!removed.ok()) {
        FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
      }
    }
  }
  auto shared = std::make_shared<const iceberg::TableMetadata>(std::move(published));
  // The file at `location` now holds exactly `shared` and never changes.
  if (cache_ != nullptr) cache_->Insert(location, shared);
  return iceberg::TableState{std::move(location), std::move(shared)};
}

CatalogTableOperations::Outcome CatalogTableOperations::CheckCommitStatus(const iceberg::TableState& base,
                                                                         const std::string& location,
                                                                         const iceberg::TableMetadata& published) {
  const auto& properties = published.properties;
  const int retries = iceberg::IntProperty(properties, iceberg::kCommitStatusCheckNumRetries,
                                           iceberg::kCommitStatusCheckNumRetriesDefault)
                          .value_or(iceberg::kCommitStatusCheckNumRetriesDefault);
  int64_t wait_ms = iceberg::IntProperty(properties, iceberg::kCommitStatusCheckMinWaitMs,
                                         iceberg::kCommitStatusCheckMinWaitMsDefault)
                        .value_or(iceberg::kCommitStatusCheckMinWaitMsDefault);
  const int64_t max_wait_ms = iceberg::IntProperty(properties, iceberg::kCommitStatusCheckMaxWaitMs,
                                                   iceberg::kCommitStatusCheckMaxWaitMsDefault)
                                  .value_or(iceberg::kCommitStatusCheckMaxWaitMsDefault);
  for (int attempt = 0;; ++attempt) {
    auto current = store_->LoadMetadataLocation(ident_);
    if (current.ok() && *current == location) return Outcome::kLanded;
    if (current.ok()) {
      // A later commit may already have built on this one: then the current
      // file lists ours in its metadata log.
      auto metadata = iceberg::ReadTableMetadata(*io_, *current);
      if (metadata.ok()) {
        for (const auto& entry : metadata->metadata_log) {
          if (entry.metadata_file == location) return Outcome::kLanded;
        }
        // The log may be trimmed: a snapshot this commit added (ids are
        // random, no other writer picks the same) also proves it landed.
        for (const auto& snapshot : published.snapshots) {
          const bool added = base.metadata == nullptr || base.metadata->SnapshotById(snapshot.snapshot_id) == nullptr;
          if (added && metadata->SnapshotById(snapshot.snapshot_id) != nullptr) return Outcome::kLanded;
        }
        return Outcome::kNotLanded;
      }
      current = metadata.status();
    } else if (current.status().IsNotFound()) {
      return Outcome::kNotLanded;  // a create that did not happen, or a table dropped since
    }
    FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": checking whether a commit landed: "
                       << current.status().ToString();
    if (attempt >= retries) return Outcome::kUnknown;
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
    wait_ms = std::min(wait_ms * 2, max_wait_ms);
  }
}

}  // namespace floe::catalog
