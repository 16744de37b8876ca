#include "floe/base/buffer.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define FLOE_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define FLOE_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define FLOE_POISON(p, n) ((void)(p), (void)(n))
#define FLOE_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#include "floe/base/bytes.h"
#include "floe/base/check.h"
#include "floe/base/strings.h"

namespace floe {
namespace {

constexpr int64_t kAlignment = 64;
std::atomic<int64_t> g_live_bytes{0};

// Freed blocks of 4 MiB and more, kept for the next Allocate they fit.
// The allocator hands blocks that large back to the kernel as they are
// freed (jemalloc: those above its 8 MiB oversize_threshold at once), and
// the next one is faulted in again page by page, which on this project's VMs
// costs more than reading the bytes: a scan of 8.4 MB column chunks took 7x
// as long (docs/benchmarks.md). Up to 256 MiB stays cached (decision
// 0068). Under AddressSanitizer a cached block is poisoned, so a use after
// its buffer is gone is still caught.
class LargeBlockCache {
 public:
  static constexpr int64_t kMinBlock = int64_t{4} << 20;
  static constexpr int64_t kMaxCached = int64_t{256} << 20;

  // A cached block of at least `bytes` and at most half as many more, and
  // its size; nullptr when none fits.
  void* Take(int64_t bytes, int64_t* block_bytes) {
    if (bytes < kMinBlock) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = blocks_.lower_bound(bytes);
    if (it == blocks_.end() || it->first > bytes + bytes / 2) return nullptr;
    void* p = it->second;
    *block_bytes = it->first;
    cached_ -= it->first;
    blocks_.erase(it);
    FLOE_UNPOISON(p, static_cast<size_t>(*block_bytes));
    return p;
  }

  // Keeps `p` (a block of `bytes`) when there is room; false otherwise (the
  // caller frees it).
  bool Put(void* p, int64_t bytes) {
    if (bytes < kMinBlock) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_ + bytes > kMaxCached) return false;
    FLOE_POISON(p, static_cast<size_t>(bytes));
    blocks_.emplace(bytes, p);
    cached_ += bytes;
    return true;
  }

 private:
  std::mutex mutex_;
  std::multimap<int64_t, void*> blocks_;  // by size
  int64_t cached_ = 0;
};

// Never destroyed: buffers held by other static objects may be freed after
// static destructors run.
LargeBlockCache& Cache() {
  static auto* cache = new LargeBlockCache();
  return *cache;
}

struct AlignedFree {
  int64_t bytes;
  void operator()(void* p) const {
    if (!Cache().Put(p, bytes)) std::free(p);
    g_live_bytes.fetch_sub(bytes, std::memory_order_relaxed);
  }
};

}  // namespace

Result<Buffer> Buffer::Allocate(int64_t size) {
  if (size < 0) return Status::InvalidArgument(StrCat("buffer size ", size, " is negative"));
  const int64_t padded = (size + kAlignment - 1) / kAlignment * kAlignment;
  const int64_t wanted = padded == 0 ? kAlignment : padded;
  int64_t block = wanted;  // a cached block may be larger
  void* p = Cache().Take(wanted, &block);
  if (p == nullptr) p = std::aligned_alloc(kAlignment, static_cast<size_t>(block));
  if (p == nullptr) return Status::Internal(StrCat("out of memory allocating ", size, " bytes"));
  // Zero the padding so buffers exported through the Arrow C Data Interface
  // never leak uninitialised memory past their logical end.
  std::memset(static_cast<uint8_t*>(p) + size, 0, static_cast<size_t>(wanted - size));
  g_live_bytes.fetch_add(block, std::memory_order_relaxed);
  Buffer b;
  b.owner_ = std::shared_ptr<void>(p, AlignedFree{block});
  b.data_ = static_cast<const uint8_t*>(p);
  b.size_ = size;
  return b;
}

Buffer Buffer::CopyOf(std::span<const uint8_t> bytes) {
  Buffer b = Allocate(static_cast<int64_t>(bytes.size())).value();
  if (!bytes.empty()) std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  return b;
}

Buffer Buffer::CopyOf(std::string_view bytes) { return CopyOf(AsBytes(bytes)); }

Buffer Buffer::FromString(std::string bytes) {
  auto owner = std::make_shared<const std::string>(std::move(bytes));
  const auto* data = reinterpret_cast<const uint8_t*>(owner->data());
  const auto size = static_cast<int64_t>(owner->size());
  return Wrap(std::move(owner), data, size);
}

Buffer Buffer::Wrap(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size) {
  Buffer b;
  b.owner_ = std::move(owner);
  b.data_ = data;
  b.size_ = size;
  return b;
}

Buffer Buffer::Slice(int64_t offset, int64_t length) const {
  FLOE_CHECK(offset >= 0 && length >= 0 && offset <= size_ && length <= size_ - offset, "Buffer::Slice(", offset,
             ", ", length, ") outside a buffer of ", size_, " bytes");
  Buffer b;
  b.owner_ = owner_;
  b.data_ = data_ == nullptr ? nullptr : data_ + offset;
  b.size_ = length;
  return b;
}

int64_t Buffer::LiveAllocatedBytes() { return g_live_bytes.load(std::memory_order_relaxed); }

}  // namespace floe
