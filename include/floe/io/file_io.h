// FileIO: the only way floe code touches storage.
//
// The model is an object store, because that is what tables live on: objects
// are written whole and published atomically (a reader never sees a partial
// object), read by byte ranges, listed by key prefix in lexicographic order,
// and deleted. There are no directories. put-if-absent (WriteOptions::if_absent)
// is the atomic create that commit protocols build on.
//
// Implementations: local disk (plain paths and file:), memory (mem:), and
// wrappers for fault injection and request tracing (src/floe/io/). Locations
// are resolved by scheme with FileIOForLocation().
//
// Thread safety: every FileIO method may be called concurrently. A
// RandomAccessFile may be read from several threads at once; an OutputStream
// belongs to one thread.

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/result.h"

namespace floe {

struct FileInfo {
  std::string path{};    // the location, in the form it was asked for
  int64_t size = 0;      // bytes
  int64_t mtime_ms = 0;  // last modification, ms since the Unix epoch; 0 if unknown
};

struct ReadRange {
  int64_t offset = 0;
  int64_t length = 0;
  int64_t end() const { return offset + length; }
  bool operator==(const ReadRange&) const = default;
};

// How ReadRanges() merges nearby ranges into fewer requests. The defaults
// suit object stores, where a request costs ~the time of reading 100s of KiB.
struct CoalesceOptions {
  int64_t hole_size_limit = 8 * 1024;           // merge across gaps up to this size
  int64_t range_size_limit = 32 * 1024 * 1024;  // but never beyond this request size
};

// Merges `ranges` (any order, may overlap) into sorted requests per `options`.
// Pure function; exposed for tests and for callers that plan their own reads.
std::vector<ReadRange> CoalesceRanges(std::span<const ReadRange> ranges, const CoalesceOptions& options = {});

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;

  virtual const std::string& path() const = 0;
  // The object's size, fixed when it was opened.
  virtual int64_t size() const = 0;

  // Reads exactly bytes [offset, offset + length) into `out`. InvalidArgument
  // when the range is not inside [0, size()); IOError when storage fails.
  virtual Status ReadInto(int64_t offset, int64_t length, uint8_t* out) = 0;

  // How many requests ReadRanges() may have in flight; 1 reads them in turn.
  virtual int max_parallel_reads() const { return 1; }

  // Reads [offset, offset + length) into a new buffer. Errors as ReadInto.
  Result<Buffer> Read(int64_t offset, int64_t length);

  // Reads several ranges with as few requests as `options` allow: one Buffer
  // per input range, in input order (slices of the merged reads, no copies).
  // Errors as ReadInto, for the first failing request.
  Result<std::vector<Buffer>> ReadRanges(std::span<const ReadRange> ranges, const CoalesceOptions& options = {});
};

struct WriteOptions {
  // Publish only if no object has the name yet; Close() then returns
  // AlreadyExists, atomically with respect to every other writer.
  bool if_absent = false;
  // Make the object survive a crash before Close() returns (local disk: fsync
  // of the file and its folder). For commit-critical metadata written one
  // at a time; files written in bulk are made durable together with
  // FileIO::MakeDurable before the commit that references them.
  bool durable = false;
};

// A new object being written. Nothing is visible under the name until Close()
// succeeds; Abort() or destruction without Close() leaves nothing visible.
class OutputStream {
 public:
  virtual ~OutputStream() = default;

  virtual const std::string& path() const = 0;
  // Appends bytes. IOError when storage fails (the stream is then unusable).
  virtual Status Append(std::span<const uint8_t> data) = 0;
  Status Append(std::string_view data) {
    return Append(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
  }
  // Publishes the object: it then replaces any object of the same name, or with
  // WriteOptions::if_absent, fails with AlreadyExists if one exists. After an
  // error nothing was published. Calling Close() twice is InvalidArgument.
  virtual Status Close() = 0;
  // Discards everything written. Idempotent; a no-op after Close().
  virtual void Abort() = 0;
  virtual int64_t bytes_written() const = 0;
};

struct ListOptions {
  // Return only keys strictly greater than this (the pagination cursor).
  std::string start_after{};
  // At most this many keys per page (>= 1).
  int max_keys = 1000;
};

struct ListPage {
  std::vector<FileInfo> objects;  // sorted by path
  // Pass as ListOptions::start_after for the next page; empty when this is the last.
  std::string next_start_after{};
};

struct OpenReadOptions {
  // The object's size when the caller already knows it (Iceberg manifests
  // record file sizes); saves the request that would learn it. -1 = unknown.
  int64_t size = -1;
};

class FileIO {
 public:
  virtual ~FileIO() = default;

  // The URI scheme this FileIO serves: "file", "mem", ...
  virtual std::string_view scheme() const = 0;

  // Size and time of one object. NotFound when no object has that name (a
  // local folder is not an object).
  virtual Result<FileInfo> Stat(const std::string& path) = 0;
  // Opens an object for ranged reads. NotFound / PermissionDenied / IOError.
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                             const OpenReadOptions& options = {}) = 0;
  // Starts writing a new object; see OutputStream. Errors: PermissionDenied,
  // InvalidArgument (path unusable), IOError.
  virtual Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path,
                                                          const WriteOptions& options = {}) = 0;
  // Removes one object. OK when it does not exist (as on object stores).
  virtual Status Delete(const std::string& path) = 0;
  // Removes many objects, trying every one; returns the first error.
  virtual Status DeleteMany(std::span<const std::string> paths);
  // Makes objects written without WriteOptions::durable survive a crash or
  // power loss once this returns OK: their bytes and their names. A commit
  // calls it for the files its new metadata references, just before the
  // pointer swap. Local disk: fsync of every file and of every distinct
  // folder holding one (and of the parents of folders this process
  // created), run in parallel on the io pool, so N files cost about one
  // fsync latency; NotFound when a path names no object, IOError (naming
  // the path) when an fsync fails, and then durability of any of them is
  // unknown. Object stores and memory: OK without a request (an
  // acknowledged PUT is durable; memory never is). Duplicates are allowed.
  virtual Status MakeDurable(std::span<const std::string> paths);
  // One page of the objects whose path starts with `prefix` (plain string
  // prefix, not a folder: "t/data/a" matches "t/data/a1.parquet").
  virtual Result<ListPage> List(const std::string& prefix, const ListOptions& options = {}) = 0;

  // Conveniences built on the calls above.
  Result<bool> Exists(const std::string& path);
  Result<Buffer> ReadAll(const std::string& path);
  Status WriteAll(const std::string& path, std::span<const uint8_t> data, const WriteOptions& options = {});
  Status WriteAll(const std::string& path, std::string_view data, const WriteOptions& options = {});
  // Atomically creates `path` with `data`; AlreadyExists if it exists.
  Status PutIfAbsent(const std::string& path, std::string_view data, bool durable = true);
  // Every page of List(prefix).
  Result<std::vector<FileInfo>> ListAll(const std::string& prefix);
};

// A FileIO on the local file system (plain paths, file:/abs, file:///abs).
// Objects are published by rename from a hidden temporary file in the same
// folder; put-if-absent uses renameat2(RENAME_NOREPLACE) or link().
std::shared_ptr<FileIO> NewLocalFileIO();

// A FileIO holding objects in process memory, keyed by the full location.
std::shared_ptr<FileIO> NewMemoryFileIO();

// Storage settings by the names PyIceberg and Iceberg Java use in catalog
// and table properties (s3.endpoint, s3.access-key-id, client.region, ...).
using FileIOProperties = std::map<std::string, std::string>;

// Whether a catalog or table property configures storage ("s3.*", "client.*"),
// so that a table setting one needs a FileIO of its own.
bool IsFileIOProperty(std::string_view key);

// Builds a FileIO for a location's scheme (e.g. "s3") and the storage
// properties given (empty: the environment's defaults), registered by the
// module that implements it.
using FileIOFactory =
    std::function<Result<std::shared_ptr<FileIO>>(std::string_view location, const FileIOProperties& properties)>;
// Registers or replaces the factory for `scheme`. Thread-safe.
void RegisterFileIOScheme(std::string scheme, FileIOFactory factory);

// The FileIO serving `location`: local disk for plain paths and file:,
// one process-wide memory store for mem:, a registered factory otherwise,
// which is given `properties` (local disk and memory take none).
// InvalidArgument for an unknown scheme or a malformed property, Unsupported
// for a known scheme that is not built in.
Result<std::shared_ptr<FileIO>> FileIOForLocation(std::string_view location, const FileIOProperties& properties = {});

// A FileIO that serves every location by its own scheme, as
// FileIOForLocation(location, properties) resolves it: for a client whose
// tables live wherever a remote catalog put them (a REST catalog's table on
// s3:// while the client's default warehouse is a local folder). Each call
// fails as FileIOForLocation would for its location (unknown scheme,
// malformed property) before any request. DeleteMany asks each location's
// FileIO in turn. Thread-safe.
std::shared_ptr<FileIO> NewResolvingFileIO(FileIOProperties properties = {});

// The scheme of a location ("file", "mem", "s3"), or "" for a plain path.
std::string_view LocationScheme(std::string_view location);

// Joins a location and a relative key with exactly one '/'.
std::string JoinLocation(std::string_view base, std::string_view relative);

}  // namespace floe
