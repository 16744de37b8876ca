// A FileIO for tables written with relative locations (the duckdb-iceberg
// fixtures: "data/persistent/..."): relative paths, and "file://data/..."
// (PyIceberg with a relative warehouse), resolve against `base`, as
// DuckDB's allow_moved_paths does. Read only unless `writable`, for tests
// that write on a copy of a fixture.

#pragma once

#include <memory>
#include <string>

#include "floe/base/strings.h"
#include "floe/io/file_io.h"

namespace floe::iceberg::testing {

class RebasedFileIO final : public FileIO {
 public:
  explicit RebasedFileIO(std::string base, bool writable = false)
      : base_(std::move(base)), writable_(writable), local_(NewLocalFileIO()) {}
  std::string_view scheme() const override { return "file"; }
  Result<FileInfo> Stat(const std::string& path) override { return local_->Stat(Resolve(path)); }
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options) override {
    return local_->OpenRead(Resolve(path), options);
  }
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    if (!writable_) return Status::InvalidArgument(StrCat("fixtures are read only: ", path));
    return local_->OpenWrite(Resolve(path), options);
  }
  Status Delete(const std::string& path) override {
    if (!writable_) return Status::InvalidArgument(StrCat("fixtures are read only: ", path));
    return local_->Delete(Resolve(path));
  }
  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    return local_->List(Resolve(prefix), options);
  }

  // floe::StartsWith: floe::iceberg::StartsWith is the expression factory.
  std::string Resolve(const std::string& path) const {
    std::string p = path;
    if (floe::StartsWith(p, "file://") && !floe::StartsWith(p, "file:///")) p = p.substr(7);
    return floe::StartsWith(p, "/") || floe::StartsWith(p, "file:") ? p : base_ + "/" + p;
  }

 private:
  std::string base_;
  bool writable_;
  std::shared_ptr<FileIO> local_;
};

}  // namespace floe::iceberg::testing
