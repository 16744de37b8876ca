#include "floe/catalog/catalog_table_operations.h"

#include "floe/base/logging.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/metadata_location.h"

namespace floe::catalog {

CatalogTableOperations::CatalogTableOperations(std::shared_ptr<MetadataPointerStore> store, TableIdentifier ident,
                                               std::shared_ptr<FileIO> io)
    : store_(std::move(store)), ident_(std::move(ident)), io_(std::move(io)) {}

Result<iceberg::TableState> CatalogTableOperations::Refresh() {
  FLOE_RETURN_IF_ERROR(ident_.Validate());
  FLOE_ASSIGN_OR_RETURN(std::string location, store_->LoadMetadataLocation(ident_));
  auto metadata = iceberg::ReadTableMetadata(*io_, location);
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident_.ToString()));
  return iceberg::TableState{std::move(location), std::make_shared<const iceberg::TableMetadata>(std::move(*metadata))};
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
  Status written = iceberg::WriteTableMetadata(*io_, location, published);
  if (!written.ok()) {
    // The file may have been published before the failure (a lost
    // response). Nothing points at it yet, so remove it — unless the name
    // was taken, when the file is not this commit's.
    if (!written.IsAlreadyExists()) {
      Status removed = io_->Delete(location);
      if (!removed.ok()) {
        FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
      }
    }
    return written.WithContext(StrCat("table ", ident_.ToString(), ": writing ", Quote(location)));
  }

  Status swapped = create ? store_->CreateMetadataLocation(ident_, location)
                          : store_->SwapMetadataLocation(ident_, base.metadata_location, location);
  if (!swapped.ok()) {
    // Unknown outcome: the file may be the table's current metadata now.
    if (!swapped.IsCommitStateUnknown()) {
      Status removed = io_->Delete(location);
      if (!removed.ok()) {
        FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
      }
    }
    return swapped;
  }
  if (!create) {
    for (const std::string& old_file : iceberg::MetadataFilesToDelete(*base.metadata, published)) {
      Status removed = io_->Delete(old_file);
      if (!removed.ok()) {
        FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
      }
    }
  }
  return iceberg::TableState{std::move(location), std::make_shared<const iceberg::TableMetadata>(std::move(published))};
}

}  // namespace floe::catalog
