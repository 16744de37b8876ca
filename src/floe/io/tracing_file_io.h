// TracingFileIO: a FileIO wrapper that records every request and its cost.
//
// Requests are named as an object store would see them: HEAD (stat, or open
// without a known size), GET (one ranged read), PUT (a published object; one
// line when the stream closes), DELETE, LIST (one page), and SYNC for one
// FileIO::MakeDurable call (local disk fsyncs; no request on an object
// store, so it is counted apart from the requests). `floe --trace-io`
// prints IoTrace::Format() after a command:
//
//   GET data/x.parquet bytes=19456000-19491839 (35840 B) 1.2 ms
//   totals: 3 requests (GET 2, HEAD 1), 36.0 KiB read, 0 B written, 1.9 ms
//
// Thread safety: IoTrace and TracingFileIO may be used from any thread.
// Files and streams opened through a TracingFileIO must not outlive its IoTrace
// (they hold a shared reference to it, so they cannot).

#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "floe/io/file_io.h"

namespace floe {

struct IoRequest {
  std::string method{};  // HEAD, GET, PUT, DELETE, LIST, SYNC
  std::string path{};
  int64_t offset = -1;  // GET: first byte
  int64_t length = -1;  // GET: bytes asked for
  int64_t bytes = 0;    // bytes moved: read for GET, written for PUT, keys for LIST, objects for SYNC
  std::string detail{};  // e.g. "if-none-match=*"
  StatusCode status = StatusCode::kOk;
  double duration_ms = 0;
};

struct IoTotals {
  int64_t requests = 0;  // every method but SYNC
  int64_t heads = 0, gets = 0, puts = 0, deletes = 0, lists = 0;
  int64_t syncs = 0;           // MakeDurable calls
  int64_t synced_objects = 0;  // paths they named
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
  int64_t errors = 0;
  double duration_ms = 0;
};

class IoTrace {
 public:
  // What a trace keeps: every request (for printing), or only the running
  // totals, so a long-lived counter (a table scan's report) costs no memory
  // per request.
  enum class Keep { kRequests, kTotals };
  explicit IoTrace(Keep keep = Keep::kRequests) : keep_(keep) {}

  void Record(IoRequest request);
  // The requests recorded since the last Clear(); empty with Keep::kTotals.
  std::vector<IoRequest> requests() const;
  IoTotals totals() const;
  void Clear();

  // One line per request, then the totals line. Paths starting with
  // `strip_prefix` are shown relative to it.
  std::string Format(const std::string& strip_prefix = "") const;
  static std::string FormatRequest(const IoRequest& request, const std::string& strip_prefix = "");
  static std::string FormatTotals(const IoTotals& totals);

 private:
  const Keep keep_;
  mutable std::mutex mutex_;
  std::vector<IoRequest> requests_;  // guarded by mutex_
  IoTotals totals_;                  // guarded by mutex_
};

class TracingFileIO final : public FileIO {
 public:
  TracingFileIO(std::shared_ptr<FileIO> base, std::shared_ptr<IoTrace> trace);

  const std::shared_ptr<IoTrace>& trace() const { return trace_; }

  std::string_view scheme() const override { return base_->scheme(); }
  Result<FileInfo> Stat(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options = {}) override;
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options = {}) override;
  Status Delete(const std::string& path) override;
  Status DeleteMany(std::span<const std::string> paths) override;
  Status MakeDurable(std::span<const std::string> paths) override;
  Result<ListPage> List(const std::string& prefix, const ListOptions& options = {}) override;

 private:
  std::shared_ptr<FileIO> base_;
  std::shared_ptr<IoTrace> trace_;
};

}  // namespace floe
