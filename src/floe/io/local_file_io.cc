// LocalFileIO: objects as files on the local file system.
//
// Publishing: a writer fills a hidden temporary file in the target folder
// (".<name>.floe-tmp-<unique>") and renames it over the final name on Close(),
// so readers see the old object or the whole new one, never a prefix. With
// if_absent the rename is renameat2(RENAME_NOREPLACE), falling back to link()
// where the file system lacks it: both fail atomically with EEXIST when the
// name is taken. A writer killed mid-write leaves only a hidden temporary,
// which List() never returns.
//
// Durability: a name is durable once its folder is fsynced, and a folder
// this process created (mkdir -p in OpenWrite) once its parent is. The
// folders created and not yet synced are remembered process-wide, so a
// durable Close() or MakeDurable() also syncs the parents of new folders (a
// new table's metadata/ folder, a new partition's data folder).

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/base/thread_pool.h"
#include "floe/io/file_io.h"
#include "floe/io/io_thread_pool.h"
#include "floe/io/local_path.h"

namespace floe {
namespace {

constexpr std::string_view kTempMarker = ".floe-tmp-";

Status ErrnoStatus(int err, std::string_view what, std::string_view path) {
  std::string msg = StrCat(what, " ", Quote(path), ": ", std::strerror(err));
  switch (err) {
    case ENOENT: return Status::NotFound(std::move(msg));
    case EACCES:
    case EPERM:
    case EROFS: return Status::PermissionDenied(std::move(msg));
    case EEXIST: return Status::AlreadyExists(std::move(msg));
    case EISDIR:
    case ENOTDIR:
    case ENAMETOOLONG:
    case EINVAL: return Status::InvalidArgument(std::move(msg));
    default: return Status::IOError(std::move(msg));
  }
}

bool IsTempName(std::string_view name) {
  return !name.empty() && name.front() == '.' && name.find(kTempMarker) != std::string_view::npos;
}

std::string UniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  thread_local std::mt19937_64 rng(std::random_device{}() ^ static_cast<uint64_t>(getpid()));
  return StrCat(getpid(), "-", counter.fetch_add(1), "-", std::hex, rng() & 0xffffffffu);
}

Status FsyncPath(const std::string& os_path, int flags) {
  const int fd = ::open(os_path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, "open for fsync", os_path);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  return rc == 0 ? Status::OK() : ErrnoStatus(err, "fsync", os_path);
}

// The folder holding `os_path` ("." for a bare name).
std::string ParentFolder(const std::string& os_path) {
  const size_t slash = os_path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : os_path.substr(0, slash);
}

// Folders this process created whose entry in their parent is not yet known
// to be durable. Process-wide: the LocalFileIO that syncs may not be the one
// that wrote.
class CreatedFolders {
 public:
  static CreatedFolders& Get() {
    static CreatedFolders* folders = new CreatedFolders();  // never destroyed: used during exit
    return *folders;
  }
  void Add(const std::string& dir) {
    std::lock_guard lock(mutex_);
    folders_.insert(dir);
  }
  // Adds to `dirs` the folders to fsync so that `os_path`'s name is durable:
  // its folder, and the parent of each created ancestor folder (those go to
  // `claimed`, to Forget once synced).
  void FoldersToSync(const std::string& os_path, std::set<std::string>* dirs, std::set<std::string>* claimed) {
    std::string dir = ParentFolder(os_path);
    dirs->insert(dir);
    std::lock_guard lock(mutex_);
    if (folders_.empty()) return;
    while (dir != "." && dir != "/") {
      std::string parent = ParentFolder(dir);
      if (folders_.count(dir) > 0) {
        claimed->insert(dir);
        dirs->insert(parent);
      }
      dir = std::move(parent);
    }
  }
  void Forget(const std::set<std::string>& dirs) {
    std::lock_guard lock(mutex_);
    for (const auto& d : dirs) folders_.erase(d);
  }

 private:
  std::mutex mutex_;
  std::set<std::string> folders_;  // guarded by mutex_
};

// mkdir -p of the folder holding `os_path`.
Status CreateParentFolders(const std::string& os_path) {
  const size_t slash = os_path.rfind('/');
  if (slash == std::string::npos || slash == 0) return Status::OK();
  const std::string dir = os_path.substr(0, slash);
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    return S_ISDIR(st.st_mode) ? Status::OK()
                               : Status::InvalidArgument(StrCat("folder ", Quote(dir), " is a file"));
  }
  FLOE_RETURN_IF_ERROR(CreateParentFolders(dir));
  if (::mkdir(dir.c_str(), 0755) != 0) {
    if (errno != EEXIST) return ErrnoStatus(errno, "create folder", dir);
    return Status::OK();
  }
  CreatedFolders::Get().Add(dir);
  return Status::OK();
}

class LocalRandomAccessFile final : public RandomAccessFile {
 public:
  LocalRandomAccessFile(std::string path, int fd, int64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  ~LocalRandomAccessFile() override { ::close(fd_); }

  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }

  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) override {
    if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
      return Status::InvalidArgument(StrCat("read of ", Quote(path_), " bytes=", offset, "-", offset + length - 1,
                                            " is outside the object (", size_, " bytes)"));
    }
    int64_t done = 0;
    while (done < length) {
      const ssize_t n = ::pread(fd_, out + done, static_cast<size_t>(length - done), offset + done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(errno, "read", path_);
      }
      if (n == 0) {
        return Status::IOError(StrCat("read of ", Quote(path_), " ended at byte ", offset + done,
                                      ": the object shrank below ", size_, " bytes while open"));
      }
      done += n;
    }
    return Status::OK();
  }

 private:
  std::string path_;
  int fd_;
  int64_t size_;
};

class LocalOutputStream final : public OutputStream {
 public:
  LocalOutputStream(std::string path, std::string final_os_path, std::string temp_os_path, int fd,
                    WriteOptions options)
      : path_(std::move(path)),
        final_os_path_(std::move(final_os_path)),
        temp_os_path_(std::move(temp_os_path)),
        fd_(fd),
        options_(options) {}

  ~LocalOutputStream() override { Abort(); }

  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return bytes_written_; }

  Status Append(std::span<const uint8_t> data) override {
    if (fd_ < 0) return Status::InvalidArgument(StrCat("append to ", Quote(path_), " after close or abort"));
    // Small appends gather in a buffer; large ones go straight to the file.
    if (pending_.size() + data.size() <= kBufferSize) {
      pending_.insert(pending_.end(), data.begin(), data.end());
      bytes_written_ += static_cast<int64_t>(data.size());
      return Status::OK();
    }
    FLOE_RETURN_IF_ERROR(FlushPending());
    if (data.size() >= kBufferSize) {
      FLOE_RETURN_IF_ERROR(WriteFully(data.data(), data.size()));
    } else {
      pending_.assign(data.begin(), data.end());
    }
    bytes_written_ += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::InvalidArgument(StrCat("close of ", Quote(path_), " after close or abort"));
    Status st = FlushPending();
    if (st.ok() && options_.durable && ::fsync(fd_) != 0) st = ErrnoStatus(errno, "fsync", temp_os_path_);
    if (::close(fd_) != 0 && st.ok()) st = ErrnoStatus(errno, "close", temp_os_path_);
    fd_ = -1;
    if (st.ok()) st = Publish();
    if (!st.ok()) {
      ::unlink(temp_os_path_.c_str());
      return st;
    }
    if (options_.durable) {
      std::set<std::string> dirs;
      std::set<std::string> claimed;
      CreatedFolders::Get().FoldersToSync(final_os_path_, &dirs, &claimed);
      for (const auto& dir : dirs) FLOE_RETURN_IF_ERROR(FsyncPath(dir, O_RDONLY | O_DIRECTORY));
      CreatedFolders::Get().Forget(claimed);
    }
    return Status::OK();
  }

  void Abort() override {
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
    ::unlink(temp_os_path_.c_str());
  }

 private:
  static constexpr size_t kBufferSize = 256 * 1024;

  Status Publish() {
    if (!options_.if_absent) {
      if (::rename(temp_os_path_.c_str(), final_os_path_.c_str()) != 0) {
        return ErrnoStatus(errno, "publish", path_);
      }
      return Status::OK();
    }
    if (::renameat2(AT_FDCWD, temp_os_path_.c_str(), AT_FDCWD, final_os_path_.c_str(), RENAME_NOREPLACE) == 0) {
      return Status::OK();
    }
    int err = errno;
    if (err == EINVAL || err == ENOSYS) {
      // No RENAME_NOREPLACE on this file system: link() is atomic create too.
      if (::link(temp_os_path_.c_str(), final_os_path_.c_str()) == 0) {
        ::unlink(temp_os_path_.c_str());
        return Status::OK();
      }
      err = errno;
    }
    if (err == EEXIST) return Status::AlreadyExists(StrCat("object ", Quote(path_), " already exists"));
    return ErrnoStatus(err, "publish", path_);
  }

  Status FlushPending() {
    if (pending_.empty()) return Status::OK();
    Status st = WriteFully(pending_.data(), pending_.size());
    pending_.clear();
    return st;
  }

  Status WriteFully(const uint8_t* data, size_t n) {
    size_t done = 0;
    while (done < n) {
      const ssize_t w = ::write(fd_, data + done, n - done);
      if (w < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(errno, "write", path_);
      }
      done += static_cast<size_t>(w);
    }
    return Status::OK();
  }

  std::string path_;
  std::string final_os_path_;
  std::string temp_os_path_;
  int fd_;
  WriteOptions options_;
  std::vector<uint8_t> pending_;
  int64_t bytes_written_ = 0;
};

class LocalFileIO final : public FileIO {
 public:
  std::string_view scheme() const override { return "file"; }

  Result<FileInfo> Stat(const std::string& path) override {
    FLOE_ASSIGN_OR_RETURN(LocalPath lp, ParseLocalPath(path));
    struct stat st;
    if (::stat(lp.os_path.c_str(), &st) != 0) return ErrnoStatus(errno, "stat", path);
    if (!S_ISREG(st.st_mode)) return Status::NotFound(StrCat("object ", Quote(path), " is a folder, not an object"));
    return FileInfo{path, static_cast<int64_t>(st.st_size), MtimeMillis(st)};
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path, const OpenReadOptions&) override {
    FLOE_ASSIGN_OR_RETURN(LocalPath lp, ParseLocalPath(path));
    const int fd = ::open(lp.os_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus(errno, "open", path);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      return ErrnoStatus(err, "stat", path);
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      return Status::NotFound(StrCat("object ", Quote(path), " is a folder, not an object"));
    }
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<LocalRandomAccessFile>(path, fd, static_cast<int64_t>(st.st_size)));
  }

  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    FLOE_ASSIGN_OR_RETURN(LocalPath lp, ParseLocalPath(path));
    if (lp.os_path.empty() || lp.os_path.back() == '/') {
      return Status::InvalidArgument(StrCat("object name ", Quote(path), " ends with '/'"));
    }
    FLOE_RETURN_IF_ERROR(CreateParentFolders(lp.os_path));
    const size_t slash = lp.os_path.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : lp.os_path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? lp.os_path : lp.os_path.substr(slash + 1);
    std::string temp = StrCat(dir, ".", name.substr(0, 100), kTempMarker, UniqueSuffix());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoStatus(errno, "create", path);
    return std::unique_ptr<OutputStream>(
        std::make_unique<LocalOutputStream>(path, lp.os_path, std::move(temp), fd, options));
  }

  Status Delete(const std::string& path) override {
    FLOE_ASSIGN_OR_RETURN(LocalPath lp, ParseLocalPath(path));
    if (::unlink(lp.os_path.c_str()) != 0 && errno != ENOENT) return ErrnoStatus(errno, "delete", path);
    return Status::OK();
  }

  Status MakeDurable(std::span<const std::string> paths) override {
    struct Target {
      std::string os_path;
      std::string path;  // as the caller named it, for errors
      bool folder;
    };
    std::vector<Target> targets;
    std::set<std::string> files;
    std::set<std::string> dirs;
    std::set<std::string> claimed;
    for (const auto& path : paths) {
      FLOE_ASSIGN_OR_RETURN(LocalPath lp, ParseLocalPath(path));
      if (!files.insert(lp.os_path).second) continue;
      CreatedFolders::Get().FoldersToSync(lp.os_path, &dirs, &claimed);
      targets.push_back(Target{std::move(lp.os_path), path, false});
    }
    for (const auto& dir : dirs) targets.push_back(Target{dir, dir, true});
    // Files and folders at once: the commit that needs them waits for all,
    // and a name made durable before its bytes is harmless until it returns.
    FLOE_RETURN_IF_ERROR(ParallelFor(
        static_cast<int64_t>(targets.size()),
        [&](int64_t i) { return SyncOne(targets[i].os_path, targets[i].path, targets[i].folder); },
        ParallelForOptions{.grain = 1, .max_parallelism = 0}, IoThreadPool()));
    CreatedFolders::Get().Forget(claimed);
    return Status::OK();
  }

  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    if (options.max_keys < 1) {
      return Status::InvalidArgument(StrCat("list of ", Quote(prefix), ": max_keys ", options.max_keys, " < 1"));
    }
    FLOE_ASSIGN_OR_RETURN(LocalPath lp, ParseLocalPath(prefix));
    // Keys are compared as OS paths; the caller's form (scheme) is re-added.
    const std::string os_prefix = lp.os_path;
    std::string start_after;
    if (!options.start_after.empty()) {
      FLOE_ASSIGN_OR_RETURN(LocalPath sa, ParseLocalPath(options.start_after));
      start_after = sa.os_path;
    }
    const size_t slash = os_prefix.rfind('/');
    std::string root = slash == std::string::npos ? "" : os_prefix.substr(0, slash + 1);
    ListPage page;
    Walker walker{os_prefix, start_after, static_cast<size_t>(options.max_keys) + 1, {}};
    FLOE_RETURN_IF_ERROR(walker.Walk(root));
    for (auto& [os_path, size, mtime] : walker.found) {
      if (page.objects.size() == static_cast<size_t>(options.max_keys)) {
        page.next_start_after = page.objects.back().path;
        break;
      }
      page.objects.push_back(FileInfo{lp.prefix_form + os_path, size, mtime});
    }
    return page;
  }

 private:
  static Status SyncOne(const std::string& os_path, const std::string& path, bool folder) {
    const int fd = ::open(os_path.c_str(), O_RDONLY | O_CLOEXEC | (folder ? O_DIRECTORY : 0));
    if (fd < 0) {
      const int err = errno;
      if (err == ENOENT) return Status::NotFound(StrCat("make durable: object ", Quote(path), " does not exist"));
      return ErrnoStatus(err, folder ? "open folder for fsync" : "open for fsync", path);
    }
    Status st;
    struct stat info;
    if (!folder && (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))) {
      st = Status::NotFound(StrCat("make durable: ", Quote(path), " is a folder, not an object"));
    } else if (::fsync(fd) != 0) {
      // An fsync error is never a NotFound: the bytes may be lost.
      st = Status::IOError(StrCat("fsync ", Quote(path), ": ", std::strerror(errno)));
    }
    ::close(fd);
    return st;
  }

  static int64_t MtimeMillis(const struct stat& st) {
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
  }

  // Depth-first walk in global key order: a folder's entries are sorted by
  // name, with "/" appended to sub-folders, which orders every key under
  // "a/" exactly where S3 would put it relative to "a-b" or "a0". Subtrees
  // wholly before start_after or outside the prefix are skipped unread.
  struct Walker {
    std::string prefix;
    std::string start_after;
    size_t limit;
    struct Found {
      std::string path;
      int64_t size;
      int64_t mtime;
    };
    std::vector<Found> found;

    // Could a key beginning with `p` both match the prefix and follow start_after?
    bool MayContain(const std::string& p) const {
      const size_t n = std::min(p.size(), prefix.size());
      if (p.compare(0, n, prefix, 0, n) != 0) return false;
      if (start_after.empty() || p > start_after) return true;
      return StartsWith(start_after, p);
    }

    Status Walk(const std::string& dir) {
      DIR* d = ::opendir(dir.empty() ? "." : dir.c_str());
      if (d == nullptr) {
        if (errno == ENOENT || errno == ENOTDIR) return Status::OK();  // empty listing, as on S3
        return ErrnoStatus(errno, "list folder", dir);
      }
      struct Entry {
        std::string key;  // name, plus '/' for folders
        bool is_dir;
      };
      std::vector<Entry> entries;
      while (struct dirent* e = ::readdir(d)) {
        const std::string_view name = e->d_name;
        if (name == "." || name == ".." || IsTempName(name)) continue;
        bool is_dir = e->d_type == DT_DIR;
        if (e->d_type == DT_UNKNOWN || e->d_type == DT_LNK) {
          struct stat st;
          if (::stat((dir + std::string(name)).c_str(), &st) != 0) continue;
          is_dir = S_ISDIR(st.st_mode);
          if (!is_dir && !S_ISREG(st.st_mode)) continue;
        } else if (!is_dir && e->d_type != DT_REG) {
          continue;
        }
        entries.push_back({std::string(name) + (is_dir ? "/" : ""), is_dir});
      }
      ::closedir(d);
      std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
      for (const auto& e : entries) {
        if (found.size() >= limit) return Status::OK();
        const std::string full = dir + e.key;
        if (!MayContain(full)) continue;
        if (e.is_dir) {
          FLOE_RETURN_IF_ERROR(Walk(full));
          continue;
        }
        if (!StartsWith(full, prefix) || (!start_after.empty() && full <= start_after)) continue;
        struct stat st;
        if (::stat(full.c_str(), &st) != 0) continue;  // removed while listing
        found.push_back({full, static_cast<int64_t>(st.st_size), MtimeMillis(st)});
      }
      return Status::OK();
    }
  };
};

}  // namespace

std::shared_ptr<FileIO> NewLocalFileIO() { return std::make_shared<LocalFileIO>(); }

}  // namespace floe
