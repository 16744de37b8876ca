// SqlCatalog's views: rows of iceberg_tables with iceberg_type = 'VIEW', as
// Java's JdbcCatalog keeps them (JDBC schema V1), pointing at view metadata
// files named as table metadata files are.

#include <algorithm>
#include <chrono>

#include "floe/base/logging.h"
#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/catalog/sql_catalog.h"
#include "floe/iceberg/metadata_location.h"
#include "floe/iceberg/view_metadata_io.h"

namespace floe::catalog {
namespace {

constexpr std::string_view kViewRowFilter = " AND iceberg_type = 'VIEW'";

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Status SqlCatalog::RequireViews() const {
  if (has_record_type_) return Status::OK();
  return Status::Unsupported(StrCat(description(),
                                    ": iceberg_tables has no iceberg_type column (JDBC catalog schema V0), so it "
                                    "cannot hold views"));
}

Result<std::string> SqlCatalog::LoadViewLocation(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  if (!has_record_type_) return Status::NotFound(ViewNotFoundMessage(ident));
  FLOE_ASSIGN_OR_RETURN(auto db, pool_.Acquire());
  FLOE_ASSIGN_OR_RETURN(SqlRows rows, db->Query(StrCat("SELECT metadata_location FROM iceberg_tables WHERE "
                                                       "catalog_name = ? AND table_namespace = ? AND table_name = ?",
                                                       kViewRowFilter),
                                                {name(), ident.ns.ToString(), ident.name}));
  if (rows.empty()) return Status::NotFound(ViewNotFoundMessage(ident));
  if (rows.Text(0, 0).empty()) {
    return Status::Corrupt(StrCat(description(), ": view ", ident.ToString(), " has no metadata_location"));
  }
  return rows.Text(0, 0);
}

Result<std::vector<TableIdentifier>> SqlCatalog::ListViews(const Namespace& ns) {
  if (!has_record_type_) {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
    if (!exists) return Status::NotFound(NamespaceNotFoundMessage(ns));
    return std::vector<TableIdentifier>{};
  }
  return ListRows(ns, std::string(kViewRowFilter));
}

Result<iceberg::ViewState> SqlCatalog::LoadView(const TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(std::string location, LoadViewLocation(ident));
  auto metadata = iceberg::ReadViewMetadata(*io_, location);
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("view ", ident.ToString()));
  return iceberg::ViewState{std::move(location), std::make_shared<const iceberg::ViewMetadata>(std::move(*metadata))};
}

Result<bool> SqlCatalog::ViewExists(const TableIdentifier& ident) {
  auto location = LoadViewLocation(ident);
  if (location.ok() || location.status().IsCorrupt()) return true;
  if (location.status().IsNotFound()) return false;
  return location.status();
}

Result<iceberg::ViewState> SqlCatalog::CommitView(const TableIdentifier& ident, const iceberg::ViewState* base,
                                                  const iceberg::ViewMetadata& updated) {
  const int version = base == nullptr ? 0 : iceberg::ParseMetadataFileVersion(base->metadata_location) + 1;
  const std::string location = iceberg::NewViewMetadataFileLocation(updated, version);
  auto remove_file = [&] {
    Status removed = io_->Delete(location);
    if (!removed.ok()) {
      FLOE_LOG(kWarning) << "view " << ident.ToString() << ": " << removed.ToString();
    }
  };
  Status written = iceberg::WriteViewMetadata(*io_, location, updated);
  if (!written.ok()) {
    // As for tables: the write may have landed; the name taken is someone else's file.
    if (!written.IsAlreadyExists()) remove_file();
    return written.WithContext(StrCat("view ", ident.ToString(), ": writing ", Quote(location)));
  }
  Status swapped = base == nullptr
                       ? InsertRow(ident, location, "VIEW")
                       : SwapRow(ident, base->metadata_location, location, std::string(kViewRowFilter), "view");
  if (!swapped.ok()) {
    // Unknown outcome: the file may be the view's current metadata now.
    if (!swapped.IsCommitStateUnknown()) remove_file();
    return swapped;
  }
  return iceberg::ViewState{location, std::make_shared<const iceberg::ViewMetadata>(updated)};
}

Result<iceberg::ViewState> SqlCatalog::CreateView(const TableIdentifier& ident, const CreateViewRequest& request) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  FLOE_RETURN_IF_ERROR(RequireViews());
  // Checked before any file is written; the insert checks again atomically.
  FLOE_ASSIGN_OR_RETURN(bool table_exists, TableExists(ident));
  if (table_exists) return Status::AlreadyExists(StrCat("a table named ", ident.ToString(), " exists"));
  FLOE_ASSIGN_OR_RETURN(bool view_exists, ViewExists(ident));
  if (view_exists) return Status::AlreadyExists(StrCat("view ", ident.ToString(), " already exists"));
  std::string location;
  if (request.location && !request.location->empty()) {
    location = *request.location;
    while (location.size() > 1 && location.back() == '/') location.pop_back();
  } else {
    FLOE_ASSIGN_OR_RETURN(location, DefaultTableLocation(ident));
  }
  auto metadata = iceberg::ApplyViewChanges(nullptr, {}, request.NewViewUpdates(RandomUuid(), location, NowMs()));
  if (!metadata.ok()) {
    return Status::InvalidArgument(StrCat("view ", ident.ToString(), ": ", metadata.status().message()));
  }
  // An explicit location skips DefaultTableLocation's check: fail before
  // writing a file.
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, NamespaceExists(ident.ns));
  if (!ns_exists) return Status::NotFound(NamespaceNotFoundMessage(ident.ns));
  return CommitView(ident, nullptr, *metadata);
}

Status SqlCatalog::DropView(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(ident.Validate());
  if (!has_record_type_) return Status::NotFound(ViewNotFoundMessage(ident));
  Status deleted = DeleteRow(ident, std::string(kViewRowFilter));
  if (deleted.IsNotFound()) return Status::NotFound(ViewNotFoundMessage(ident));
  return deleted;
}

Status SqlCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(from.Validate());
  FLOE_RETURN_IF_ERROR(to.Validate());
  if (!has_record_type_) return Status::NotFound(ViewNotFoundMessage(from));
  return RenameRow(from, to, std::string(kViewRowFilter), "view");
}

Result<iceberg::ViewState> SqlCatalog::ReplaceView(const TableIdentifier& ident,
                                                   const std::vector<iceberg::ViewRequirement>& requirements,
                                                   const std::vector<iceberg::ViewUpdate>& updates) {
  FLOE_ASSIGN_OR_RETURN(iceberg::ViewState base, LoadView(ident));
  auto updated = iceberg::ApplyViewChanges(base.metadata.get(), requirements, updates);
  if (!updated.ok()) {
    if (updated.status().IsCommitConflict()) return updated.status().WithContext(StrCat("view ", ident.ToString()));
    return Status::InvalidArgument(StrCat("view ", ident.ToString(), ": ", updated.status().message()));
  }
  if (*updated == *base.metadata) return base;
  return CommitView(ident, &base, *updated);
}

}  // namespace floe::catalog
