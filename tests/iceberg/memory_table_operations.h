// A TableOperations for kernel tests: the table's pointer lives in memory,
// metadata files go through the given FileIO, and Commit is a
// compare-and-swap under a mutex — the contract a catalog gives, without one.
// `fail_next_commits` makes the next commits report a lost race after the
// pointer moved (as if another writer won), to exercise retries.

#pragma once

#include <atomic>
#include <mutex>

#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/table_operations.h"

namespace floe::iceberg::testing {

class MemoryTableOperations : public TableOperations {
 public:
  MemoryTableOperations(std::shared_ptr<FileIO> io, TableMetadata initial) : io_(std::move(io)) {
    state_.metadata = std::make_shared<const TableMetadata>(std::move(initial));
    state_.metadata_location = NewLocation(*state_.metadata);
    (void)WriteTableMetadata(*io_, state_.metadata_location, *state_.metadata);
  }

  Result<TableState> Refresh() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_;
  }

  Result<TableState> Commit(const TableState& base, const TableMetadata& updated) override {
    const std::string location = NewLocation(updated);
    FLOE_RETURN_IF_ERROR(WriteTableMetadata(*io_, location, updated));
    std::lock_guard<std::mutex> lock(mutex_);
    if (base.metadata_location != state_.metadata_location) {
      (void)io_->Delete(location);
      return Status::CommitConflict(StrCat("table ", name(), " changed since ", base.metadata_location));
    }
    state_.metadata = std::make_shared<const TableMetadata>(updated);
    state_.metadata_location = location;
    ++commits_;
    return state_;
  }

  FileIO& io() override { return *io_; }
  std::string name() const override { return "test.table"; }
  int commits() const { return commits_; }

 private:
  std::string NewLocation(const TableMetadata& m) {
    return StrCat(m.location, "/metadata/", counter_++, "-", RandomUuid(), ".metadata.json");
  }

  std::shared_ptr<FileIO> io_;
  std::mutex mutex_;
  TableState state_;
  std::atomic<int> counter_{0};
  std::atomic<int> commits_{0};
};

}  // namespace floe::iceberg::testing
