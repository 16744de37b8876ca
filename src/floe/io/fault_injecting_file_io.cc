#include "floe/io/fault_injecting_file_io.h"

#include <fnmatch.h>

#include <algorithm>
#include <bit>
#include <thread>

#include "floe/base/strings.h"

namespace floe {
namespace {

int OpIndex(IoOp op) { return std::countr_zero(static_cast<uint32_t>(op)); }

Status InjectedError(const FaultRule& rule, IoOp op, const std::string& path) {
  return Status(rule.code, StrCat("injected fault: ", IoOpName(op), " ", Quote(path)));
}

class FaultInjectingRandomAccessFile final : public RandomAccessFile {
 public:
  FaultInjectingRandomAccessFile(FaultInjectingFileIO* io, std::unique_ptr<RandomAccessFile> base)
      : io_(io), base_(std::move(base)) {}

  const std::string& path() const override { return base_->path(); }
  int64_t size() const override { return base_->size(); }
  int max_parallel_reads() const override { return base_->max_parallel_reads(); }

  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) override {
    auto d = io_->Decide(kIoRead, path());
    if (d.fail && d.kind != FaultKind::kFailAfter) return d.error;
    FLOE_RETURN_IF_ERROR(base_->ReadInto(offset, length, out));
    return d.fail ? d.error : Status::OK();
  }

 private:
  FaultInjectingFileIO* io_;
  std::unique_ptr<RandomAccessFile> base_;
};

class FaultInjectingOutputStream final : public OutputStream {
 public:
  FaultInjectingOutputStream(FaultInjectingFileIO* io, std::unique_ptr<OutputStream> base)
      : io_(io), base_(std::move(base)) {}

  const std::string& path() const override { return base_->path(); }
  int64_t bytes_written() const override { return base_->bytes_written(); }

  Status Append(std::span<const uint8_t> data) override {
    auto d = io_->Decide(kIoAppend, path());
    if (d.fail && d.kind == FaultKind::kTornWrite) {
      const auto keep = static_cast<size_t>(
          d.torn_bytes < 0 ? data.size() / 2 : std::min<int64_t>(d.torn_bytes, static_cast<int64_t>(data.size())));
      FLOE_RETURN_IF_ERROR(base_->Append(data.first(keep)));
      return d.error;
    }
    if (d.fail && d.kind == FaultKind::kFailBefore) return d.error;
    FLOE_RETURN_IF_ERROR(base_->Append(data));
    return d.fail ? d.error : Status::OK();
  }

  Status Close() override {
    auto d = io_->Decide(kIoClose, path());
    if (d.fail && d.kind != FaultKind::kFailAfter) {
      base_->Abort();
      return d.error;
    }
    FLOE_RETURN_IF_ERROR(base_->Close());
    return d.fail ? d.error : Status::OK();
  }

  void Abort() override { base_->Abort(); }

 private:
  FaultInjectingFileIO* io_;
  std::unique_ptr<OutputStream> base_;
};

}  // namespace

const char* IoOpName(IoOp op) {
  switch (op) {
    case kIoStat: return "stat";
    case kIoOpenRead: return "open_read";
    case kIoRead: return "read";
    case kIoOpenWrite: return "open_write";
    case kIoAppend: return "append";
    case kIoClose: return "close";
    case kIoDelete: return "delete";
    case kIoList: return "list";
    case kIoSync: return "sync";
    default: return "io";
  }
}

FaultInjectingFileIO::FaultInjectingFileIO(std::shared_ptr<FileIO> base, uint64_t seed)
    : base_(std::move(base)), rng_(seed) {}

void FaultInjectingFileIO::AddRule(FaultRule rule) {
  std::lock_guard lock(mutex_);
  rules_.push_back(RuleState{std::move(rule)});
}

void FaultInjectingFileIO::ClearRules() {
  std::lock_guard lock(mutex_);
  rules_.clear();
}

int64_t FaultInjectingFileIO::calls(uint32_t mask) const {
  std::lock_guard lock(mutex_);
  int64_t total = 0;
  for (int i = 0; i < kIoOpCount; ++i) {
    if (mask & (1u << i)) total += op_calls_[i];
  }
  return total;
}

int64_t FaultInjectingFileIO::faults_injected() const {
  std::lock_guard lock(mutex_);
  return faults_;
}

void FaultInjectingFileIO::ResetCounters() {
  std::lock_guard lock(mutex_);
  std::fill(std::begin(op_calls_), std::end(op_calls_), 0);
  faults_ = 0;
  for (auto& r : rules_) r.seen = r.fired = 0;
}

FaultInjectingFileIO::Decision FaultInjectingFileIO::Decide(IoOp op, const std::string& path) {
  Decision decision;
  std::chrono::microseconds delay{0};
  {
    std::lock_guard lock(mutex_);
    ++op_calls_[OpIndex(op)];
    for (auto& rs : rules_) {
      const FaultRule& rule = rs.rule;
      if (!(rule.ops & op)) continue;
      if (!rule.path_glob.empty() && ::fnmatch(rule.path_glob.c_str(), path.c_str(), 0) != 0) continue;
      ++rs.seen;
      if (rule.max_faults >= 0 && rs.fired >= rule.max_faults) continue;
      if (rule.nth > 0 && rs.seen != rule.nth) continue;
      if (rule.probability < 1.0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) >= rule.probability) {
        continue;
      }
      ++rs.fired;
      if (rule.kind == FaultKind::kLatency) {
        delay += rule.latency;
        continue;
      }
      if (decision.fail) continue;  // the first failing rule decides
      ++faults_;
      decision.fail = true;
      decision.kind = rule.kind;
      decision.error = InjectedError(rule, op, path);
      decision.torn_bytes = rule.torn_bytes;
    }
  }
  if (delay.count() > 0) std::this_thread::sleep_for(delay);
  return decision;
}

Result<FileInfo> FaultInjectingFileIO::Stat(const std::string& path) {
  auto d = Decide(kIoStat, path);
  if (d.fail && d.kind != FaultKind::kFailAfter) return d.error;
  auto r = base_->Stat(path);
  if (d.fail) return d.error;
  return r;
}

Result<std::unique_ptr<RandomAccessFile>> FaultInjectingFileIO::OpenRead(const std::string& path,
                                                                         const OpenReadOptions& options) {
  auto d = Decide(kIoOpenRead, path);
  if (d.fail && d.kind != FaultKind::kFailAfter) return d.error;
  FLOE_ASSIGN_OR_RETURN(auto file, base_->OpenRead(path, options));
  if (d.fail) return d.error;
  return std::unique_ptr<RandomAccessFile>(std::make_unique<FaultInjectingRandomAccessFile>(this, std::move(file)));
}

Result<std::unique_ptr<OutputStream>> FaultInjectingFileIO::OpenWrite(const std::string& path,
                                                                      const WriteOptions& options) {
  auto d = Decide(kIoOpenWrite, path);
  if (d.fail && d.kind != FaultKind::kFailAfter) return d.error;
  FLOE_ASSIGN_OR_RETURN(auto out, base_->OpenWrite(path, options));
  if (d.fail) {
    out->Abort();
    return d.error;
  }
  return std::unique_ptr<OutputStream>(std::make_unique<FaultInjectingOutputStream>(this, std::move(out)));
}

Status FaultInjectingFileIO::Delete(const std::string& path) {
  auto d = Decide(kIoDelete, path);
  if (d.fail && d.kind != FaultKind::kFailAfter) return d.error;
  FLOE_RETURN_IF_ERROR(base_->Delete(path));
  return d.fail ? d.error : Status::OK();
}

Status FaultInjectingFileIO::DeleteMany(std::span<const std::string> paths) {
  // Per path, so a rule can fail one object of a batch delete.
  Status first;
  for (const auto& p : paths) {
    Status st = Delete(p);
    if (!st.ok() && first.ok()) first = std::move(st);
  }
  return first;
}

Status FaultInjectingFileIO::MakeDurable(std::span<const std::string> paths) {
  Status before;
  Status after;
  for (const auto& p : paths) {
    auto d = Decide(kIoSync, p);
    if (!d.fail) continue;
    Status& slot = d.kind == FaultKind::kFailAfter ? after : before;
    if (slot.ok()) slot = std::move(d.error);
  }
  if (!before.ok()) return before;
  FLOE_RETURN_IF_ERROR(base_->MakeDurable(paths));
  return after;
}

Result<ListPage> FaultInjectingFileIO::List(const std::string& prefix, const ListOptions& options) {
  auto d = Decide(kIoList, prefix);
  if (d.fail && d.kind != FaultKind::kFailAfter) return d.error;
  auto r = base_->List(prefix, options);
  if (d.fail) return d.error;
  return r;
}

}  // namespace floe
