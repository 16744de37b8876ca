// A FileIO that forwards each call to the FileIO of its location's scheme.
// FileIOForLocation shares one FileIO per scheme and configuration, so
// resolving on every call costs a lookup, not a new client.

#include "floe/io/file_io.h"

namespace floe {
namespace {

class ResolvingFileIO final : public FileIO {
 public:
  explicit ResolvingFileIO(FileIOProperties properties) : properties_(std::move(properties)) {}

  std::string_view scheme() const override { return "resolving"; }

  Result<FileInfo> Stat(const std::string& path) override {
    FLOE_ASSIGN_OR_RETURN(auto io, For(path));
    return io->Stat(path);
  }
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options) override {
    FLOE_ASSIGN_OR_RETURN(auto io, For(path));
    return io->OpenRead(path, options);
  }
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    FLOE_ASSIGN_OR_RETURN(auto io, For(path));
    return io->OpenWrite(path, options);
  }
  Status Delete(const std::string& path) override {
    FLOE_ASSIGN_OR_RETURN(auto io, For(path));
    return io->Delete(path);
  }
  // Runs of paths on one FileIO go to it together (object stores batch them).
  Status DeleteMany(std::span<const std::string> paths) override {
    return ForEachRun(paths, [](FileIO& io, std::span<const std::string> run) { return io.DeleteMany(run); });
  }
  // Per FileIO as DeleteMany (local paths fsync in one parallel batch).
  Status MakeDurable(std::span<const std::string> paths) override {
    return ForEachRun(paths, [](FileIO& io, std::span<const std::string> run) { return io.MakeDurable(run); });
  }
  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    FLOE_ASSIGN_OR_RETURN(auto io, For(prefix));
    return io->List(prefix, options);
  }

 private:
  Result<std::shared_ptr<FileIO>> For(const std::string& location) const {
    return FileIOForLocation(location, properties_);
  }

  // Calls `fn` on each run of consecutive paths that one FileIO serves,
  // trying every run; returns the first error.
  template <typename Fn>
  Status ForEachRun(std::span<const std::string> paths, const Fn& fn) const {
    Status first = Status::OK();
    size_t begin = 0;
    while (begin < paths.size()) {
      auto io = For(paths[begin]);
      size_t end = begin + 1;
      if (io.ok()) {
        while (end < paths.size()) {
          auto next = For(paths[end]);
          if (!next.ok() || *next != *io) break;
          ++end;
        }
      }
      Status s = io.ok() ? fn(**io, paths.subspan(begin, end - begin)) : io.status();
      if (first.ok() && !s.ok()) first = std::move(s);
      begin = end;
    }
    return first;
  }

  const FileIOProperties properties_;
};

}  // namespace

std::shared_ptr<FileIO> NewResolvingFileIO(FileIOProperties properties) {
  return std::make_shared<ResolvingFileIO>(std::move(properties));
}

}  // namespace floe
