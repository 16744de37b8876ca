#include "floe/base/buffer.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "floe/base/check.h"
#include "floe/base/strings.h"

namespace floe {
namespace {

constexpr int64_t kAlignment = 64;
std::atomic<int64_t> g_live_bytes{0};

struct AlignedFree {
  int64_t bytes;
  void operator()(void* p) const {
    std::free(p);
    g_live_bytes.fetch_sub(bytes, std::memory_order_relaxed);
  }
};

}  // namespace

Result<Buffer> Buffer::Allocate(int64_t size) {
  if (size < 0) return Status::InvalidArgument(StrCat("buffer size ", size, " is negative"));
  const int64_t padded = (size + kAlignment - 1) / kAlignment * kAlignment;
  const int64_t alloc = padded == 0 ? kAlignment : padded;
  void* p = std::aligned_alloc(kAlignment, static_cast<size_t>(alloc));
  if (p == nullptr) return Status::Internal(StrCat("out of memory allocating ", size, " bytes"));
  // Zero the padding so buffers exported through the Arrow C Data Interface
  // never leak uninitialised memory past their logical end.
  std::memset(static_cast<uint8_t*>(p) + size, 0, static_cast<size_t>(alloc - size));
  g_live_bytes.fetch_add(alloc, std::memory_order_relaxed);
  Buffer b;
  b.owner_ = std::shared_ptr<void>(p, AlignedFree{alloc});
  b.data_ = static_cast<const uint8_t*>(p);
  b.size_ = size;
  return b;
}

Buffer Buffer::CopyOf(std::span<const uint8_t> bytes) {
  Buffer b = Allocate(static_cast<int64_t>(bytes.size())).value();
  if (!bytes.empty()) std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  return b;
}

Buffer Buffer::CopyOf(std::string_view bytes) {
  return CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

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
