// MemoryFileIO: objects in a sorted map, for tests and for mem: locations.
//
// Each object is an immutable Buffer; an open reader keeps the version it
// opened, so a concurrent overwrite never tears a read (as on S3).

#include <chrono>
#include <map>
#include <mutex>

#include "floe/base/strings.h"
#include "floe/io/file_io.h"

namespace floe {
namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

struct Object {
  Buffer bytes;
  int64_t mtime_ms = 0;
};

struct Store {
  std::mutex mutex;
  std::map<std::string, Object, std::less<>> objects;  // guarded by mutex
};

class MemoryRandomAccessFile final : public RandomAccessFile {
 public:
  MemoryRandomAccessFile(std::string path, Buffer bytes) : path_(std::move(path)), bytes_(std::move(bytes)) {}

  const std::string& path() const override { return path_; }
  int64_t size() const override { return bytes_.size(); }

  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) override {
    if (offset < 0 || length < 0 || offset > size() || length > size() - offset) {
      return Status::InvalidArgument(StrCat("read of ", Quote(path_), " bytes=", offset, "-", offset + length - 1,
                                            " is outside the object (", size(), " bytes)"));
    }
    std::copy_n(bytes_.data() + offset, length, out);
    return Status::OK();
  }

 private:
  std::string path_;
  Buffer bytes_;
};

class MemoryOutputStream final : public OutputStream {
 public:
  MemoryOutputStream(std::shared_ptr<Store> store, std::string path, WriteOptions options)
      : store_(std::move(store)), path_(std::move(path)), options_(options) {}

  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return bytes_written_; }

  Status Append(std::span<const uint8_t> data) override {
    if (done_) return Status::InvalidArgument(StrCat("append to ", Quote(path_), " after close or abort"));
    data_.append(reinterpret_cast<const char*>(data.data()), data.size());
    bytes_written_ += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  Status Close() override {
    if (done_) return Status::InvalidArgument(StrCat("close of ", Quote(path_), " after close or abort"));
    done_ = true;
    std::lock_guard lock(store_->mutex);
    auto [it, inserted] = store_->objects.try_emplace(path_);
    if (!inserted && options_.if_absent) {
      return Status::AlreadyExists(StrCat("object ", Quote(path_), " already exists"));
    }
    it->second = Object{Buffer::FromString(std::move(data_)), NowMillis()};
    return Status::OK();
  }

  void Abort() override {
    done_ = true;
    data_.clear();
  }

 private:
  std::shared_ptr<Store> store_;
  std::string path_;
  WriteOptions options_;
  std::string data_;
  int64_t bytes_written_ = 0;
  bool done_ = false;
};

class MemoryFileIO final : public FileIO {
 public:
  std::string_view scheme() const override { return "mem"; }

  Result<FileInfo> Stat(const std::string& path) override {
    std::lock_guard lock(store_->mutex);
    auto it = store_->objects.find(path);
    if (it == store_->objects.end()) return Status::NotFound(StrCat("object ", Quote(path), " does not exist"));
    return FileInfo{path, it->second.bytes.size(), it->second.mtime_ms};
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path, const OpenReadOptions&) override {
    std::lock_guard lock(store_->mutex);
    auto it = store_->objects.find(path);
    if (it == store_->objects.end()) return Status::NotFound(StrCat("object ", Quote(path), " does not exist"));
    return std::unique_ptr<RandomAccessFile>(std::make_unique<MemoryRandomAccessFile>(path, it->second.bytes));
  }

  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    if (path.empty() || path.back() == '/') {
      return Status::InvalidArgument(StrCat("object name ", Quote(path), " is empty or ends with '/'"));
    }
    return std::unique_ptr<OutputStream>(std::make_unique<MemoryOutputStream>(store_, path, options));
  }

  Status Delete(const std::string& path) override {
    std::lock_guard lock(store_->mutex);
    store_->objects.erase(path);
    return Status::OK();
  }

  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    if (options.max_keys < 1) {
      return Status::InvalidArgument(StrCat("list of ", Quote(prefix), ": max_keys ", options.max_keys, " < 1"));
    }
    ListPage page;
    std::lock_guard lock(store_->mutex);
    auto it = options.start_after.empty() || options.start_after < prefix
                  ? store_->objects.lower_bound(prefix)
                  : store_->objects.upper_bound(options.start_after);
    for (; it != store_->objects.end() && StartsWith(it->first, prefix); ++it) {
      if (page.objects.size() == static_cast<size_t>(options.max_keys)) {
        page.next_start_after = page.objects.back().path;
        break;
      }
      page.objects.push_back(FileInfo{it->first, it->second.bytes.size(), it->second.mtime_ms});
    }
    return page;
  }

 private:
  std::shared_ptr<Store> store_ = std::make_shared<Store>();
};

}  // namespace

std::shared_ptr<FileIO> NewMemoryFileIO() { return std::make_shared<MemoryFileIO>(); }

}  // namespace floe
