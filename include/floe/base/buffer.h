// Buffer: an immutable, shared, sliceable run of bytes.
//
// Buffers carry column data, pages and whole objects between layers without
// copies: a slice shares its parent's memory, which lives until the last
// Buffer (or Arrow C Data Interface export) that refers to it is dropped.
// Memory from Allocate() is 64-byte aligned and padded to a multiple of 64, as
// the Arrow layout recommends.
//
// Thread safety: a Buffer is a value over immutable bytes; copies may be used
// from any thread. mutable_data() is for the creator only, before the buffer is
// shared.

#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "floe/base/result.h"

namespace floe {

class Buffer {
 public:
  // An empty buffer (size 0, data() may be null).
  Buffer() = default;

  // A new uninitialised, 64-byte aligned buffer of `size` bytes (padding bytes
  // are zeroed). InvalidArgument when size < 0; Internal when memory runs out.
  // Blocks of 4 MiB and more are not handed back to the system when freed
  // but kept, up to 256 MiB in all, for the next Allocate of about their
  // size (decision 0068): a process's resident memory can stay that much
  // above LiveAllocatedBytes().
  static Result<Buffer> Allocate(int64_t size);
  // Copies `bytes` into a new buffer.
  static Buffer CopyOf(std::span<const uint8_t> bytes);
  static Buffer CopyOf(std::string_view bytes);
  // Takes `bytes` without copying.
  static Buffer FromString(std::string bytes);
  // Wraps memory owned by `owner`; the memory must stay valid and unchanged
  // while `owner` is alive.
  static Buffer Wrap(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size);

  const uint8_t* data() const { return data_; }
  // Writable view for the creator of an Allocate()d buffer, before sharing.
  uint8_t* mutable_data() const { return const_cast<uint8_t*>(data_); }
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  std::span<const uint8_t> span() const { return {data_, static_cast<size_t>(size_)}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)}; }

  // The bytes [offset, offset + length) sharing this buffer's memory. The
  // range must lie inside the buffer (checked; aborts otherwise, a caller bug).
  Buffer Slice(int64_t offset, int64_t length) const;

  // Bytes currently held by live Allocate()d buffers in this process; tests use
  // it to prove that every owner released its memory.
  static int64_t LiveAllocatedBytes();

 private:
  std::shared_ptr<const void> owner_;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
};

}  // namespace floe
