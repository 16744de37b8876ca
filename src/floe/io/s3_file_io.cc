// S3FileIO: FileIO over S3Client.
//
// Reads: OpenRead() costs one HEAD (none when the caller passes the size);
// each ReadInto() is one ranged GET written straight into the caller's
// memory. Writes: an OutputStream gathers one part in memory; an object that
// fits is one PUT at Close() (so nothing is visible before), a larger one
// becomes a multipart upload whose parts go up in parallel on a pool of
// their own while the caller keeps appending, at most max_parallel_parts at
// a time. Any failure aborts the upload, so no object and no billed parts remain; if
// the abort itself cannot reach the server, Abort() tries again.

#include "floe/io/s3_file_io.h"

#include <condition_variable>
#include <map>
#include <mutex>

#include "floe/base/strings.h"
#include "floe/io/aws_config.h"
#include "floe/base/thread_pool.h"
#include "floe/io/s3_client.h"
#include "floe/io/s3_file_io_internal.h"
#include "floe/io/s3_location.h"
#include "floe/io/sigv4.h"

namespace floe {
namespace {

// Part uploads run on their own threads: a writer blocked waiting for a
// free upload slot may itself be a task on the I/O or compute pool, and its
// parts must never queue behind it.
ThreadPool& UploadThreadPool() {
  static ThreadPool* pool = new ThreadPool(16);  // never destroyed: tasks may run during exit
  return *pool;
}

class S3RandomAccessFile final : public RandomAccessFile {
 public:
  S3RandomAccessFile(std::shared_ptr<S3Client> client, S3Location location, std::string path, int64_t size)
      : client_(std::move(client)), location_(std::move(location)), path_(std::move(path)), size_(size) {}

  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }
  int max_parallel_reads() const override { return client_->config().max_parallel_reads; }

  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) override {
    if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
      return Status::InvalidArgument(StrCat("read of ", Quote(path_), " bytes=", offset, "-", offset + length - 1,
                                            " is outside the object (", size_, " bytes)"));
    }
    if (length == 0) return Status::OK();
    return client_->GetObjectRange(location_.bucket, location_.key, offset, length, out);
  }

 private:
  std::shared_ptr<S3Client> client_;
  S3Location location_;
  std::string path_;
  int64_t size_;
};

class S3OutputStream final : public OutputStream {
 public:
  S3OutputStream(std::shared_ptr<S3Client> client, S3Location location, std::string path, WriteOptions options)
      : client_(std::move(client)),
        location_(std::move(location)),
        path_(std::move(path)),
        options_(options),
        part_size_(client_->config().part_size) {}

  ~S3OutputStream() override { Abort(); }

  const std::string& path() const override { return path_; }
  int64_t bytes_written() const override { return bytes_written_; }

  Status Append(std::span<const uint8_t> data) override {
    if (state_ != State::kOpen) return Status::InvalidArgument(StrCat("append to ", Quote(path_), " after close or abort"));
    if (!failure_.ok()) return failure_;
    while (!data.empty()) {
      if (buffer_.capacity() == 0) buffer_.reserve(static_cast<size_t>(std::min<int64_t>(part_size_, 1 << 20)));
      const size_t take = std::min(data.size(), static_cast<size_t>(part_size_) - buffer_.size());
      buffer_.insert(buffer_.end(), data.begin(), data.begin() + static_cast<std::ptrdiff_t>(take));
      data = data.subspan(take);
      bytes_written_ += static_cast<int64_t>(take);
      if (static_cast<int64_t>(buffer_.size()) == part_size_) {
        Status st = StartPart();
        if (!st.ok()) {
          failure_ = FailUpload(st);
          return failure_;
        }
      }
    }
    return Status::OK();
  }

  Status Close() override {
    if (state_ != State::kOpen) return Status::InvalidArgument(StrCat("close of ", Quote(path_), " after close or abort"));
    state_ = State::kClosed;
    if (!failure_.ok()) return failure_;
    if (upload_id_.empty()) {
      // The whole object is in memory: one PUT publishes it atomically.
      const std::span<const uint8_t> body(buffer_.data(), buffer_.size());
      Status st = options_.if_absent ? client_->PutObjectIfAbsent(location_.bucket, location_.key, body)
                                     : client_->PutObject(location_.bucket, location_.key, body).status();
      buffer_ = {};
      return st;
    }
    Status st = buffer_.empty() ? Status::OK() : StartPart();
    if (st.ok()) st = WaitForParts(0);
    if (st.ok() && options_.if_absent) {
      // Narrows the race on servers that ignore If-None-Match on Complete.
      auto exists = client_->HeadObject(location_.bucket, location_.key);
      if (exists.ok()) {
        st = Status::AlreadyExists(StrCat("object ", Quote(path_), " already exists"));
      } else if (!exists.status().IsNotFound()) {
        st = exists.status();
      }
    }
    if (st.ok()) {
      std::vector<S3CompletedPart> parts;
      {
        std::lock_guard lock(mutex_);
        for (size_t i = 0; i < etags_.size(); ++i) parts.push_back({static_cast<int>(i + 1), etags_[i]});
      }
      st = client_->CompleteMultipartUpload(location_.bucket, location_.key, upload_id_, parts, bytes_written_,
                                            options_.if_absent);
      if (st.ok()) {
        upload_id_.clear();
        return Status::OK();
      }
    }
    failure_ = FailUpload(st);
    return failure_;
  }

  void Abort() override {
    if (state_ == State::kOpen) state_ = State::kAborted;
    (void)WaitForParts(0);
    buffer_ = {};
    if (!upload_id_.empty() && client_->AbortMultipartUpload(location_.bucket, location_.key, upload_id_).ok()) {
      upload_id_.clear();
    }
  }

 private:
  enum class State { kOpen, kClosed, kAborted };

  // Uploads the buffer as the next part, in the background.
  Status StartPart() {
    if (upload_id_.empty()) {
      FLOE_ASSIGN_OR_RETURN(upload_id_, client_->CreateMultipartUpload(location_.bucket, location_.key));
    }
    FLOE_RETURN_IF_ERROR(WaitForParts(client_->config().max_parallel_parts - 1));
    auto body = std::make_shared<std::vector<uint8_t>>(std::move(buffer_));
    buffer_ = {};
    int part_number;
    {
      std::lock_guard lock(mutex_);
      etags_.emplace_back();
      part_number = static_cast<int>(etags_.size());
      ++in_flight_;
    }
    UploadThreadPool().Submit([this, body, part_number, upload_id = upload_id_] {
      auto etag = client_->UploadPart(location_.bucket, location_.key, upload_id, part_number,
                                      std::span<const uint8_t>(body->data(), body->size()));
      std::lock_guard lock(mutex_);
      if (etag.ok()) {
        etags_[static_cast<size_t>(part_number - 1)] = std::move(*etag);
      } else if (part_error_.ok()) {
        part_error_ = etag.status();
      }
      --in_flight_;
      cv_.notify_all();
    });
    return Status::OK();
  }

  // Waits until at most `max_in_flight` parts are uploading; the first part
  // failure, if any.
  Status WaitForParts(int max_in_flight) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return in_flight_ <= max_in_flight; });
    return part_error_;
  }

  // Aborts the upload after `cause`; the error to report.
  Status FailUpload(const Status& cause) {
    (void)WaitForParts(0);
    buffer_ = {};
    if (upload_id_.empty()) return cause;
    Status abort = client_->AbortMultipartUpload(location_.bucket, location_.key, upload_id_);
    if (abort.ok()) {
      upload_id_.clear();
      return Status(cause.code(), StrCat(cause.message(), "; the multipart upload of ", Quote(path_), " was aborted"));
    }
    return Status(cause.code(), StrCat(cause.message(), "; the multipart upload ", Quote(upload_id_),
                                       " could not be aborted either (Abort() retries; a bucket lifecycle rule ",
                                       "removes it): ", abort.message()));
  }

  std::shared_ptr<S3Client> client_;
  S3Location location_;
  std::string path_;
  WriteOptions options_;
  int64_t part_size_;
  State state_ = State::kOpen;
  std::vector<uint8_t> buffer_;
  int64_t bytes_written_ = 0;
  std::string upload_id_;  // of the multipart upload in progress; empty if none
  Status failure_;         // once set, the stream is unusable

  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> etags_;  // guarded by mutex_; index = part number - 1
  int in_flight_ = 0;               // guarded by mutex_
  Status part_error_;               // guarded by mutex_
};

class S3FileIO final : public FileIO {
 public:
  explicit S3FileIO(std::shared_ptr<S3Client> client) : client_(std::move(client)) {}

  std::string_view scheme() const override { return "s3"; }

  Result<FileInfo> Stat(const std::string& path) override {
    FLOE_ASSIGN_OR_RETURN(S3Location loc, ObjectLocation(path));
    FLOE_ASSIGN_OR_RETURN(S3ObjectInfo info, client_->HeadObject(loc.bucket, loc.key));
    return FileInfo{path, info.size, info.mtime_ms};
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options) override {
    FLOE_ASSIGN_OR_RETURN(S3Location loc, ObjectLocation(path));
    int64_t size = options.size;
    if (size < 0) {
      FLOE_ASSIGN_OR_RETURN(S3ObjectInfo info, client_->HeadObject(loc.bucket, loc.key));
      size = info.size;
    }
    return std::unique_ptr<RandomAccessFile>(
        std::make_unique<S3RandomAccessFile>(client_, std::move(loc), path, size));
  }

  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options) override {
    FLOE_ASSIGN_OR_RETURN(S3Location loc, ObjectLocation(path));
    if (loc.key.back() == '/') return Status::InvalidArgument(StrCat("object name ", Quote(path), " ends with '/'"));
    // `durable` needs nothing more: S3 acknowledges a PUT once it is stored redundantly.
    return std::unique_ptr<OutputStream>(std::make_unique<S3OutputStream>(client_, std::move(loc), path, options));
  }

  Status Delete(const std::string& path) override {
    FLOE_ASSIGN_OR_RETURN(S3Location loc, ObjectLocation(path));
    return client_->DeleteObject(loc.bucket, loc.key);
  }

  Status DeleteMany(std::span<const std::string> paths) override {
    // One DeleteObjects request per bucket and 1000 keys.
    std::map<std::string, std::vector<std::string>> by_bucket;
    std::map<std::string, std::string> scheme_of;
    for (const auto& p : paths) {
      FLOE_ASSIGN_OR_RETURN(S3Location loc, ObjectLocation(p));
      by_bucket[loc.bucket].push_back(loc.key);
      scheme_of[loc.bucket] = loc.scheme;
    }
    // Every batch is tried, as the FileIO contract says; the first error wins.
    Status first;
    auto note = [&first](Status st) {
      if (!st.ok() && first.ok()) first = std::move(st);
    };
    for (const auto& [bucket, keys] : by_bucket) {
      for (size_t i = 0; i < keys.size(); i += 1000) {
        std::vector<std::string> chunk(keys.begin() + static_cast<std::ptrdiff_t>(i),
                                       keys.begin() + static_cast<std::ptrdiff_t>(std::min(keys.size(), i + 1000)));
        auto failures = client_->DeleteObjects(bucket, chunk);
        if (!failures.ok()) {
          note(failures.status());
          continue;
        }
        for (const auto& f : *failures) {
          if (f.code == "NoSuchKey") continue;
          const std::string name = Quote(StrCat(scheme_of[bucket], "://", bucket, "/", f.key));
          note(f.code == "AccessDenied"
                   ? Status::PermissionDenied(StrCat("access denied: DELETE ", name, " (", f.message, ")"))
                   : Status::IOError(StrCat("DELETE ", name, " failed: ", f.code, ": ", f.message)));
        }
      }
    }
    return first;
  }

  Result<ListPage> List(const std::string& prefix, const ListOptions& options) override {
    if (options.max_keys < 1) {
      return Status::InvalidArgument(StrCat("list of ", Quote(prefix), ": max_keys ", options.max_keys, " < 1"));
    }
    FLOE_ASSIGN_OR_RETURN(S3Location loc, ParseS3Location(prefix));
    std::string start_after;
    if (!options.start_after.empty()) {
      FLOE_ASSIGN_OR_RETURN(S3Location sa, ParseS3Location(options.start_after));
      if (sa.bucket != loc.bucket) {
        return Status::InvalidArgument(StrCat("list of ", Quote(prefix), ": start_after ",
                                              Quote(options.start_after), " is in another bucket"));
      }
      start_after = sa.key;
    }
    FLOE_ASSIGN_OR_RETURN(S3ListResult result,
                          client_->ListObjectsV2(loc.bucket, loc.key, start_after, std::min(options.max_keys, 1000)));
    ListPage page;
    page.objects.reserve(result.objects.size());
    for (auto& o : result.objects) {
      page.objects.push_back(FileInfo{StrCat(loc.scheme, "://", loc.bucket, "/", o.key), o.size, o.mtime_ms});
    }
    if (result.is_truncated && !page.objects.empty()) page.next_start_after = page.objects.back().path;
    return page;
  }

 private:
  static Result<S3Location> ObjectLocation(const std::string& path) {
    FLOE_ASSIGN_OR_RETURN(S3Location loc, ParseS3Location(path));
    if (loc.key.empty()) {
      return Status::InvalidArgument(StrCat("location ", Quote(path), " names a bucket, not an object"));
    }
    return loc;
  }

  std::shared_ptr<S3Client> client_;
};

}  // namespace

std::shared_ptr<FileIO> NewS3FileIOWithClient(std::shared_ptr<S3Client> client) {
  return std::make_shared<S3FileIO>(std::move(client));
}

Result<std::shared_ptr<FileIO>> NewS3FileIO(const FileIOProperties& properties) {
  FLOE_ASSIGN_OR_RETURN(S3Config config, ResolveS3Config(properties));
  FLOE_ASSIGN_OR_RETURN(auto client, S3Client::Make(std::move(config)));
  return NewS3FileIOWithClient(std::move(client));
}

Result<std::shared_ptr<FileIO>> S3FileIOForLocation(std::string_view location, const FileIOProperties& properties) {
  FLOE_ASSIGN_OR_RETURN(S3Location loc, ParseS3Location(location));
  (void)loc;
  FLOE_ASSIGN_OR_RETURN(S3Config config, ResolveS3Config(properties));
  // The environment rarely changes within a process; when it does (tests),
  // a new configuration gets its own client instead of a stale one. The
  // properties are part of the key since they also carry the tuning
  // settings (part size, timeouts) the resolved fields below leave out.
  std::string key =
      StrCat(config.endpoint, "\n", config.region, "\n", config.credentials.access_key_id, "\n",
             Sha256Hex(config.credentials.secret_access_key), "\n", Sha256Hex(config.credentials.session_token), "\n",
             config.path_style.has_value() ? (*config.path_style ? "path" : "virtual") : "auto");
  for (const auto& [name, value] : properties) {
    if (IsFileIOProperty(name)) key += StrCat("\n", name, "=", Sha256Hex(value));
  }
  static std::mutex mutex;
  static auto* cache = new std::map<std::string, std::shared_ptr<FileIO>>();
  std::lock_guard lock(mutex);
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  FLOE_ASSIGN_OR_RETURN(auto client, S3Client::Make(std::move(config)));
  auto io = NewS3FileIOWithClient(std::move(client));
  cache->emplace(key, io);
  return io;
}

}  // namespace floe
