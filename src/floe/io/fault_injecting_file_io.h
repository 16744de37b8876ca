// FaultInjectingFileIO: a FileIO wrapper that makes chosen calls fail.
//
// Commit paths are tested by running an operation once to count its I/O
// calls, then once per call with that call failing (FaultRule::nth), in each
// failure mode: the request never reached storage (kFailBefore), it took
// effect but the answer was lost (kFailAfter: what makes a commit's state
// unknown), a write stopped part-way (kTornWrite), or it was slow (kLatency).
// Random faults (probability) are deterministic for a given seed and call order.
//
// Thread safety: all methods may be called concurrently; rules and counters
// are guarded by one mutex.

#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "floe/io/file_io.h"

namespace floe {

// The calls a rule can match, as a bit mask.
enum IoOp : uint32_t {
  kIoStat = 1u << 0,
  kIoOpenRead = 1u << 1,
  kIoRead = 1u << 2,       // RandomAccessFile::ReadInto (each request of ReadRanges too)
  kIoOpenWrite = 1u << 3,
  kIoAppend = 1u << 4,     // OutputStream::Append
  kIoClose = 1u << 5,      // OutputStream::Close: the publish
  kIoDelete = 1u << 6,     // each path of DeleteMany too
  kIoList = 1u << 7,
  kIoSync = 1u << 8,       // each path of MakeDurable
  kIoAllOps = (1u << 9) - 1,  // kIoOpCount bits
  kIoWriteOps = kIoOpenWrite | kIoAppend | kIoClose,
};

// How many kinds of call there are: op i is the bit 1u << i.
inline constexpr int kIoOpCount = 9;

// "stat", "open_read", "read", "open_write", "append", "close", "delete", "list", "sync".
const char* IoOpName(IoOp op);

enum class FaultKind {
  kFailBefore,  // return the error; storage is untouched
  kFailAfter,   // perform the call, then return the error anyway
  kTornWrite,   // Append: pass the first torn_bytes on, then fail; other calls: as kFailBefore
  kLatency,     // sleep `latency`, then perform the call normally
};

struct FaultRule {
  uint32_t ops = kIoAllOps;  // which calls the rule sees
  std::string path_glob{};   // fnmatch(3) pattern on the path; empty matches every path
  // Fire on the nth call this rule sees (1-based); 0 fires on every call it
  // sees, subject to `probability`.
  int64_t nth = 0;
  double probability = 1.0;
  int64_t max_faults = -1;  // stop after this many; -1 = no limit
  FaultKind kind = FaultKind::kFailBefore;
  StatusCode code = StatusCode::kIOError;
  int64_t torn_bytes = -1;  // kTornWrite: bytes let through; -1 = half the chunk
  std::chrono::microseconds latency{0};
};

class FaultInjectingFileIO final : public FileIO {
 public:
  explicit FaultInjectingFileIO(std::shared_ptr<FileIO> base, uint64_t seed = 0);

  void AddRule(FaultRule rule);
  void ClearRules();

  // Calls seen so far, of the ops in `mask`.
  int64_t calls(uint32_t mask = kIoAllOps) const;
  int64_t faults_injected() const;
  void ResetCounters();

  std::string_view scheme() const override { return base_->scheme(); }
  Result<FileInfo> Stat(const std::string& path) override;
  Result<std::unique_ptr<RandomAccessFile>> OpenRead(const std::string& path,
                                                     const OpenReadOptions& options = {}) override;
  Result<std::unique_ptr<OutputStream>> OpenWrite(const std::string& path, const WriteOptions& options = {}) override;
  Status Delete(const std::string& path) override;
  Status DeleteMany(std::span<const std::string> paths) override;
  // Decides per path; any kFailBefore fails the call before storage sees
  // it, else the paths are synced and any kFailAfter fails it then.
  Status MakeDurable(std::span<const std::string> paths) override;
  Result<ListPage> List(const std::string& prefix, const ListOptions& options = {}) override;

  // What a call should do, decided under the lock (also sleeps for latency).
  struct Decision {
    bool fail = false;
    FaultKind kind = FaultKind::kFailBefore;
    Status error;
    int64_t torn_bytes = -1;
  };
  Decision Decide(IoOp op, const std::string& path);

 private:
  struct RuleState {
    FaultRule rule;
    int64_t seen = 0;
    int64_t fired = 0;
  };

  std::shared_ptr<FileIO> base_;
  mutable std::mutex mutex_;
  std::vector<RuleState> rules_;  // guarded by mutex_
  std::mt19937_64 rng_;           // guarded by mutex_
  int64_t op_calls_[kIoOpCount] = {};  // guarded by mutex_
  int64_t faults_ = 0;            // guarded by mutex_
};

}  // namespace floe
