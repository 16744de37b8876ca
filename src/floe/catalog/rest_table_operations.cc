#include "floe/catalog/rest_table_operations.h"

#include <chrono>
#include <thread>

#include "floe/base/strings.h"

namespace floe::catalog {

RestTableOperations::RestTableOperations(std::shared_ptr<RestCatalog> catalog, TableIdentifier ident)
    : catalog_(std::move(catalog)), ident_(std::move(ident)), current_io_(catalog_->io().get()) {}

FileIO& RestTableOperations::io() {
  std::lock_guard<std::mutex> lock(mutex_);
  return *current_io_;
}

Status RestTableOperations::Remember(RestCatalog::LoadedTable& loaded) {
  std::lock_guard<std::mutex> lock(mutex_);
  // spec: "config" comes with a LoadTableResult, not a commit's answer.
  if (loaded.config.empty()) loaded.config = last_.config;
  if (loaded.state.metadata != nullptr) {
    FileIOProperties storage = catalog_->StoragePropertiesFor(*loaded.state.metadata, loaded.config);
    if (storage != current_storage_ || table_ios_.empty()) {
      FLOE_ASSIGN_OR_RETURN(std::shared_ptr<FileIO> io,
                            catalog_->FileIOFor(ident_, *loaded.state.metadata, storage));
      if (io.get() != current_io_) {
        table_ios_.push_back(io);
        current_io_ = io.get();
      }
      current_storage_ = std::move(storage);
    }
  }
  last_ = loaded;
  return Status::OK();
}

Result<iceberg::TableState> RestTableOperations::Refresh() {
  RestCatalog::LoadedTable known;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    known = last_;
  }
  FLOE_ASSIGN_OR_RETURN(RestCatalog::LoadedTable loaded,
                        catalog_->LoadTableWithETag(ident_, known.etag.empty() ? nullptr : &known));
  FLOE_RETURN_IF_ERROR(Remember(loaded));
  return std::move(loaded.state);
}

Result<iceberg::TableState> RestTableOperations::Commit(const iceberg::TableState& base,
                                                        const iceberg::TableMetadata& updated) {
  const bool create = base.metadata_location.empty() || base.metadata == nullptr;
  FLOE_ASSIGN_OR_RETURN(iceberg::TableChanges changes,
                        iceberg::DiffTableMetadata(create ? nullptr : base.metadata.get(), updated));
  if (!create && changes.updates.empty()) return base;  // nothing to send
  auto committed = catalog_->CommitTableWithETag(ident_, changes.requirements, changes.updates);
  if (committed.ok()) {
    // The commit has landed: a storage property it set that cannot make a
    // FileIO fails the next use of the table, not this commit.
    Status remembered = Remember(*committed);
    (void)remembered;
    return std::move(committed->state);
  }
  if (!create && committed.status().IsNotFound()) {
    // The table was dropped since `base`: the pointer moved, as every
    // catalog reports it (catalog.h).
    return Status::CommitConflict(StrCat("table ", name(), " no longer exists"));
  }
  if (committed.status().code() != StatusCode::kCommitStateUnknown) return committed.status();
  return Resolve(changes, committed.status());
}

Result<iceberg::TableState> RestTableOperations::Resolve(const iceberg::TableChanges& changes, const Status& unknown) {
  const RestCatalogOptions& options = catalog_->options();
  int64_t pause_ms = options.unknown_commit_pause_ms;
  for (int reload = 0; reload < options.unknown_commit_reloads; ++reload) {
    if (reload > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
      pause_ms *= 2;
    }
    auto current = catalog_->LoadTable(ident_);
    if (!current.ok()) {
      if (current.status().code() == StatusCode::kNotFound && !changes.requirements.empty() &&
          std::holds_alternative<iceberg::AssertCreate>(changes.requirements.front())) {
        continue;  // a create that has not shown yet
      }
      if (current.status().code() == StatusCode::kNotFound) {
        return Status::CommitConflict(StrCat("table ", name(), ": commit did not land: the table is gone"));
      }
      continue;  // the server is still unwell: try again
    }
    if (iceberg::ChangesVisible(changes, *current->metadata)) return current;
    // The server checks the requirements against the table as it then is:
    // once one fails here, the lost request cannot land any more (tables
    // only move forward), so the operation may reload and retry.
    for (const auto& requirement : changes.requirements) {
      Status holds = iceberg::ValidateRequirement(requirement, current->metadata.get());
      if (!holds.ok()) {
        return Status::CommitConflict(
            StrCat("table ", name(), ": commit did not land (", unknown.message(), "); ", holds.message()));
      }
    }
  }
  return Status::CommitStateUnknown(
      StrCat(unknown.message(), "; not visible after ", options.unknown_commit_reloads, " reloads"));
}

}  // namespace floe::catalog
