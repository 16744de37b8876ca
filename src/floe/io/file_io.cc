#include "floe/io/file_io.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/base/thread_pool.h"
#include "floe/io/io_thread_pool.h"
#include "floe/io/s3_file_io.h"

namespace floe {

std::vector<ReadRange> CoalesceRanges(std::span<const ReadRange> ranges, const CoalesceOptions& options) {
  std::vector<ReadRange> sorted;
  sorted.reserve(ranges.size());
  for (const auto& r : ranges) {
    if (r.length > 0) sorted.push_back(r);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const ReadRange& a, const ReadRange& b) { return a.offset < b.offset; });
  std::vector<ReadRange> merged;
  for (const auto& r : sorted) {
    if (!merged.empty()) {
      ReadRange& last = merged.back();
      const int64_t end = std::max(last.end(), r.end());
      if (r.offset <= last.end() + options.hole_size_limit && end - last.offset <= options.range_size_limit) {
        last.length = end - last.offset;
        continue;
      }
      if (r.offset < last.end()) {
        // Overlaps but would grow too large: read only the part not yet covered.
        merged.push_back({last.end(), r.end() - last.end()});
        if (merged.back().length <= 0) merged.pop_back();
        continue;
      }
    }
    merged.push_back(r);
  }
  return merged;
}

Result<Buffer> RandomAccessFile::Read(int64_t offset, int64_t length) {
  if (length < 0) return Status::InvalidArgument(StrCat("read of ", Quote(path()), " with negative length ", length));
  FLOE_ASSIGN_OR_RETURN(Buffer buffer, Buffer::Allocate(length));
  FLOE_RETURN_IF_ERROR(ReadInto(offset, length, buffer.mutable_data()));
  return buffer;
}

Result<std::vector<Buffer>> RandomAccessFile::ReadRanges(std::span<const ReadRange> ranges,
                                                         const CoalesceOptions& options) {
  for (const auto& r : ranges) {
    if (r.offset < 0 || r.length < 0 || r.offset > size() || r.length > size() - r.offset) {
      return Status::InvalidArgument(StrCat("read of ", Quote(path()), " bytes=", r.offset, "-", r.end() - 1,
                                            " is outside the object (", size(), " bytes)"));
    }
  }
  const std::vector<ReadRange> requests = CoalesceRanges(ranges, options);
  std::vector<Buffer> fetched(requests.size());
  if (max_parallel_reads() > 1 && requests.size() > 1) {
    FLOE_RETURN_IF_ERROR(ParallelFor(
        static_cast<int64_t>(requests.size()),
        [&](int64_t i) -> Status {
          FLOE_ASSIGN_OR_RETURN(fetched[i], Read(requests[i].offset, requests[i].length));
          return Status::OK();
        },
        ParallelForOptions{.grain = 1, .max_parallelism = max_parallel_reads()}, IoThreadPool()));
  } else {
    for (size_t i = 0; i < requests.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(fetched[i], Read(requests[i].offset, requests[i].length));
    }
  }
  std::vector<Buffer> out;
  out.reserve(ranges.size());
  for (const auto& r : ranges) {
    if (r.length == 0) {
      out.emplace_back();
      continue;
    }
    // The last request starting at or before r.offset covers r entirely,
    // unless r was split by range_size_limit; then gather from several.
    auto it = std::upper_bound(requests.begin(), requests.end(), r.offset,
                               [](int64_t off, const ReadRange& q) { return off < q.offset; });
    const size_t idx = static_cast<size_t>(it - requests.begin()) - 1;
    if (r.end() <= requests[idx].end()) {
      out.push_back(fetched[idx].Slice(r.offset - requests[idx].offset, r.length));
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(Buffer joined, Buffer::Allocate(r.length));
    int64_t pos = r.offset;
    for (size_t j = idx; pos < r.end(); ++j) {
      const int64_t take = std::min(r.end(), requests[j].end()) - pos;
      std::copy_n(fetched[j].data() + (pos - requests[j].offset), take, joined.mutable_data() + (pos - r.offset));
      pos += take;
    }
    out.push_back(std::move(joined));
  }
  return out;
}

Status FileIO::DeleteMany(std::span<const std::string> paths) {
  Status first;
  for (const auto& p : paths) {
    Status st = Delete(p);
    if (!st.ok() && first.ok()) first = std::move(st);
  }
  return first;
}

// Object stores acknowledge a PUT once it is durable, and memory holds
// nothing across a crash: nothing to do.
Status FileIO::MakeDurable(std::span<const std::string>) { return Status::OK(); }

Result<bool> FileIO::Exists(const std::string& path) {
  auto info = Stat(path);
  if (info.ok()) return true;
  if (info.status().IsNotFound()) return false;
  return info.status();
}

Result<Buffer> FileIO::ReadAll(const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto file, OpenRead(path));
  return file->Read(0, file->size());
}

Status FileIO::WriteAll(const std::string& path, std::span<const uint8_t> data, const WriteOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto out, OpenWrite(path, options));
  Status st = out->Append(data);
  if (!st.ok()) {
    out->Abort();
    return st;
  }
  return out->Close();
}

Status FileIO::WriteAll(const std::string& path, std::string_view data, const WriteOptions& options) {
  return WriteAll(path, AsBytes(data), options);
}

Status FileIO::PutIfAbsent(const std::string& path, std::string_view data, bool durable) {
  return WriteAll(path, data, WriteOptions{.if_absent = true, .durable = durable});
}

Result<std::vector<FileInfo>> FileIO::ListAll(const std::string& prefix) {
  std::vector<FileInfo> all;
  ListOptions options;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(ListPage page, List(prefix, options));
    for (auto& info : page.objects) all.push_back(std::move(info));
    if (page.next_start_after.empty()) return all;
    options.start_after = std::move(page.next_start_after);
  }
}

std::string_view LocationScheme(std::string_view location) {
  // RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
  const size_t colon = location.find(':');
  if (colon == std::string_view::npos || colon < 2) return {};  // "C:" style and plain paths
  for (size_t i = 0; i < colon; ++i) {
    const char c = location[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
    if (!ok) return {};
  }
  return location.substr(0, colon);
}

std::string JoinLocation(std::string_view base, std::string_view relative) {
  while (!relative.empty() && relative.front() == '/') relative.remove_prefix(1);
  std::string out(base);
  if (out.empty()) return std::string(relative);
  if (out.back() != '/') out += '/';
  out += relative;
  return out;
}

namespace {

struct SchemeRegistry {
  std::mutex mutex;
  std::map<std::string, FileIOFactory, std::less<>> factories;
};

SchemeRegistry& Registry() {
  static SchemeRegistry* registry = new SchemeRegistry();
  return *registry;
}

// The schemes built into this library, registered on first lookup rather
// than by static initialisers (which a static library's linker may drop).
// A factory the application registered first is kept.
void RegisterBuiltInSchemes() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& reg = Registry();
    std::lock_guard lock(reg.mutex);
    for (const char* scheme : {"s3", "s3a"}) reg.factories.try_emplace(scheme, S3FileIOForLocation);
  });
}

}  // namespace

bool IsFileIOProperty(std::string_view key) { return StartsWith(key, "s3.") || StartsWith(key, "client."); }

void RegisterFileIOScheme(std::string scheme, FileIOFactory factory) {
  auto& reg = Registry();
  std::lock_guard lock(reg.mutex);
  reg.factories[std::move(scheme)] = std::move(factory);
}

Result<std::shared_ptr<FileIO>> FileIOForLocation(std::string_view location, const FileIOProperties& properties) {
  const std::string_view scheme = LocationScheme(location);
  if (scheme.empty() || scheme == "file") {
    static const std::shared_ptr<FileIO> local = NewLocalFileIO();
    return local;
  }
  if (scheme == "mem") {
    static const std::shared_ptr<FileIO> memory = NewMemoryFileIO();
    return memory;
  }
  RegisterBuiltInSchemes();
  FileIOFactory factory;
  {
    auto& reg = Registry();
    std::lock_guard lock(reg.mutex);
    auto it = reg.factories.find(scheme);
    if (it != reg.factories.end()) factory = it->second;
  }
  // Called outside the lock: a factory may itself resolve locations.
  if (factory) return factory(location, properties);
  if (scheme == "gs" || scheme == "abfs" || scheme == "abfss") {
    return Status::Unsupported(StrCat("storage scheme '", scheme, "' of location ", Quote(location),
                                      " is not available in this build"));
  }
  return Status::InvalidArgument(StrCat("unknown storage scheme '", scheme, "' in location ", Quote(location)));
}

}  // namespace floe
