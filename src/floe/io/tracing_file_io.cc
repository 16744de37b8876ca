#include "floe/io/tracing_file_io.h"

#include <cstdio>
#include <map>

#include "floe/base/strings.h"

namespace floe {
namespace {

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

class TracingRandomAccessFile final : public RandomAccessFile {
 public:
  TracingRandomAccessFile(std::shared_ptr<IoTrace> trace, std::unique_ptr<RandomAccessFile> base)
      : trace_(std::move(trace)), base_(std::move(base)) {}

  const std::string& path() const override { return base_->path(); }
  int64_t size() const override { return base_->size(); }
  int max_parallel_reads() const override { return base_->max_parallel_reads(); }

  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) override {
    const auto start = Clock::now();
    Status st = base_->ReadInto(offset, length, out);
    trace_->Record(IoRequest{.method = "GET",
                             .path = path(),
                             .offset = offset,
                             .length = length,
                             .bytes = st.ok() ? length : 0,
                             .status = st.code(),
                             .duration_ms = MillisSince(start)});
    return st;
  }

 private:
  std::shared_ptr<IoTrace> trace_;
  std::unique_ptr<RandomAccessFile> base_;
};

class TracingOutputStream final : public OutputStream {
 public:
  TracingOutputStream(std::shared_ptr<IoTrace> trace, std::unique_ptr<OutputStream> base, bool if_absent)
      : trace_(std::move(trace)), base_(std::move(base)), if_absent_(if_absent), start_(Clock::now()) {}

  const std::string& path() const override { return base_->path(); }
  int64_t bytes_written() const override { return base_->bytes_written(); }
  Status Append(std::span<const uint8_t> data) override { return base_->Append(data); }
  void Abort() override { base_->Abort(); }

  Status Close() override {
    Status st = base_->Close();
    trace_->Record(IoRequest{.method = "PUT",
                             .path = path(),
                             .bytes = base_->bytes_written(),
                             .detail = if_absent_ ? "if-none-match=*" : "",
                             .status = st.code(),
                             .duration_ms = MillisSince(start_)});
    return st;
  }

 private:
  std::shared_ptr<IoTrace> trace_;
  std::unique_ptr<OutputStream> base_;
  bool if_absent_;
  Clock::time_point start_;
};

}  // namespace

void IoTrace::Record(IoRequest request) {
  std::lock_guard lock(mutex_);
  IoTotals& t = totals_;
  t.duration_ms += request.duration_ms;
  if (request.status != StatusCode::kOk) ++t.errors;
  if (request.method == "SYNC") {
    ++t.syncs;
    t.synced_objects += request.bytes;
  } else {
    ++t.requests;
    if (request.method == "GET") {
      ++t.gets;
      t.bytes_read += request.bytes;
    } else if (request.method == "PUT") {
      ++t.puts;
      if (request.status == StatusCode::kOk) t.bytes_written += request.bytes;
    } else if (request.method == "HEAD") {
      ++t.heads;
    } else if (request.method == "DELETE") {
      ++t.deletes;
    } else if (request.method == "LIST") {
      ++t.lists;
    }
  }
  if (keep_ == Keep::kRequests) requests_.push_back(std::move(request));
}

std::vector<IoRequest> IoTrace::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void IoTrace::Clear() {
  std::lock_guard lock(mutex_);
  requests_.clear();
  totals_ = IoTotals{};
}

IoTotals IoTrace::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

std::string IoTrace::FormatRequest(const IoRequest& r, const std::string& strip_prefix) {
  std::string path = r.path;
  if (!strip_prefix.empty() && StartsWith(path, strip_prefix)) {
    path = path.substr(strip_prefix.size());
    while (!path.empty() && path.front() == '/') path.erase(0, 1);
  }
  std::string line = r.method + " " + path;
  if (r.method == "GET") {
    line += StrCat(" bytes=", r.offset, "-", r.offset + r.length - 1, " (", r.bytes, " B)");
  } else if (r.method == "PUT") {
    line += StrCat(" (", r.bytes, " B)");
  } else if (r.method == "LIST") {
    line += StrCat(" (", r.bytes, " keys)");
  } else if (r.method == "SYNC") {
    line += StrCat(" (", r.bytes, " objects)");
  }
  if (!r.detail.empty()) line += " " + r.detail;
  char ms[32];
  std::snprintf(ms, sizeof ms, " %.1f ms", r.duration_ms);
  line += ms;
  if (r.status != StatusCode::kOk) line += StrCat(" -> ", StatusCodeName(r.status));
  return line;
}

std::string IoTrace::FormatTotals(const IoTotals& t) {
  std::string by_method;
  const std::pair<const char*, int64_t> counts[] = {
      {"GET", t.gets}, {"PUT", t.puts}, {"HEAD", t.heads}, {"LIST", t.lists}, {"DELETE", t.deletes}};
  for (const auto& [name, n] : counts) {
    if (n == 0) continue;
    if (!by_method.empty()) by_method += ", ";
    by_method += StrCat(name, " ", n);
  }
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f ms", t.duration_ms);
  std::string line = StrCat("totals: ", t.requests, " requests");
  if (!by_method.empty()) line += " (" + by_method + ")";
  line += StrCat(", ", FormatBytes(t.bytes_read), " read, ", FormatBytes(t.bytes_written), " written");
  if (t.syncs > 0) line += StrCat(", ", t.synced_objects, " objects synced in ", t.syncs, " calls");
  line += StrCat(", ", ms);
  if (t.errors > 0) line += StrCat(", ", t.errors, " failed");
  return line;
}

std::string IoTrace::Format(const std::string& strip_prefix) const {
  std::string out;
  for (const auto& r : requests()) out += FormatRequest(r, strip_prefix) + "\n";
  out += FormatTotals(totals()) + "\n";
  return out;
}

TracingFileIO::TracingFileIO(std::shared_ptr<FileIO> base, std::shared_ptr<IoTrace> trace)
    : base_(std::move(base)), trace_(std::move(trace)) {}

Result<FileInfo> TracingFileIO::Stat(const std::string& path) {
  const auto start = Clock::now();
  auto r = base_->Stat(path);
  trace_->Record(IoRequest{
      .method = "HEAD", .path = path, .status = r.status().code(), .duration_ms = MillisSince(start)});
  return r;
}

Result<std::unique_ptr<RandomAccessFile>> TracingFileIO::OpenRead(const std::string& path,
                                                                  const OpenReadOptions& options) {
  const auto start = Clock::now();
  auto r = base_->OpenRead(path, options);
  // A known size means no request is needed to learn it; an object store
  // would send nothing until the first GET. Failures are always shown.
  if (options.size < 0 || !r.ok()) {
    trace_->Record(IoRequest{
        .method = "HEAD", .path = path, .status = r.status().code(), .duration_ms = MillisSince(start)});
  }
  FLOE_ASSIGN_OR_RETURN(auto file, std::move(r));
  return std::unique_ptr<RandomAccessFile>(std::make_unique<TracingRandomAccessFile>(trace_, std::move(file)));
}

Result<std::unique_ptr<OutputStream>> TracingFileIO::OpenWrite(const std::string& path,
                                                               const WriteOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto out, base_->OpenWrite(path, options));
  return std::unique_ptr<OutputStream>(
      std::make_unique<TracingOutputStream>(trace_, std::move(out), options.if_absent));
}

Status TracingFileIO::Delete(const std::string& path) {
  const auto start = Clock::now();
  Status st = base_->Delete(path);
  trace_->Record(IoRequest{.method = "DELETE", .path = path, .status = st.code(), .duration_ms = MillisSince(start)});
  return st;
}

Status TracingFileIO::DeleteMany(std::span<const std::string> paths) {
  const auto start = Clock::now();
  Status st = base_->DeleteMany(paths);
  // One batch request (DeleteObjects on S3), not one per key.
  trace_->Record(IoRequest{.method = "DELETE",
                           .path = paths.empty() ? "" : paths.front(),
                           .bytes = static_cast<int64_t>(paths.size()),
                           .detail = StrCat("batch of ", paths.size()),
                           .status = st.code(),
                           .duration_ms = MillisSince(start)});
  return st;
}

Status TracingFileIO::MakeDurable(std::span<const std::string> paths) {
  const auto start = Clock::now();
  Status st = base_->MakeDurable(paths);
  trace_->Record(IoRequest{.method = "SYNC",
                           .path = paths.empty() ? "" : paths.front(),
                           .bytes = static_cast<int64_t>(paths.size()),
                           .status = st.code(),
                           .duration_ms = MillisSince(start)});
  return st;
}

Result<ListPage> TracingFileIO::List(const std::string& prefix, const ListOptions& options) {
  const auto start = Clock::now();
  auto r = base_->List(prefix, options);
  trace_->Record(IoRequest{.method = "LIST",
                           .path = prefix,
                           .bytes = r.ok() ? static_cast<int64_t>(r->objects.size()) : 0,
                           .status = r.status().code(),
                           .duration_ms = MillisSince(start)});
  return r;
}

}  // namespace floe
