#include "floe/catalog/catalog_table_operations.h"

#include "floe/base/logging.h"
#include "floe/base/strings.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/metadata_location.h"

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
                                               std::shared_ptr<FileIO> io, TableFileIOResolver table_io)
    : store_(std::move(store)),
      ident_(std::move(ident)),
      io_(std::move(io)),
      table_io_resolver_(std::move(table_io)),
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
  auto metadata = iceberg::ReadTableMetadata(*io_, location);
  if (!metadata.ok()) return metadata.status().WithContext(StrCat("table ", ident_.ToString()));
  FLOE_RETURN_IF_ERROR(UseFileIOFor(*metadata));
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
  if (!swapped.ok()) {
    // Unknown outcome: the file may be the table's current metadata now.
    if (!swapped.IsCommitStateUnknown()) {
      Status removed = io.Delete(location);
      if (!removed.ok()) {
        FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
      }
    }
    return swapped;
  }
  if (!create) {
    for (const std::string& old_file : iceberg::MetadataFilesToDelete(*base.metadata, published)) {
      Status removed = io.Delete(old_file);
      if (!removed.ok()) {
        FLOE_LOG(kWarning) << "table " << ident_.ToString() << ": " << removed.ToString();
      }
    }
  }
  return iceberg::TableState{std::move(location), std::make_shared<const iceberg::TableMetadata>(std::move(published))};
}

}  // namespace floe::catalog
