// SmallVector<T, N>: a vector of trivially copyable values whose first N
// elements live inside the object, so that the short lists metadata is full
// of (a chunk's encodings, its two or three page-encoding counts, a level
// histogram) cost no allocation to build and nothing to destroy.
//
// The inline elements share their bytes with the heap pointer, so a
// SmallVector<int64_t, 2> is as large as a std::vector<int64_t> (24 bytes).
// Past N elements the values move to the heap and grow geometrically, as a
// std::vector's do. Only trivially copyable, trivially destructible T are
// allowed: elements are copied with memcpy and never destroyed one by one.
//
// The interface is the part of std::vector that floe uses (size, indexing,
// iteration, push_back/emplace_back, reserve, resize, insert at a position,
// comparison, also with a std::vector), and resize_for_overwrite. Sizes are capped at UINT32_MAX
// elements (FLOE_CHECK): callers that size from untrusted input cap first.
//
// Thread safety: a plain value, like std::vector.

#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "floe/base/check.h"

namespace floe {

template <typename T, uint32_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "SmallVector holds trivially copyable values only");
  static_assert(N > 0);

 public:
  using value_type = T;
  using size_type = size_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;

  // User-provided, so that value-initialization (optional::emplace(),
  // resize of a container of these) does not zero the inline bytes first.
  SmallVector() noexcept {}
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  // Implicit, so that a std::vector built elsewhere can be assigned.
  SmallVector(const std::vector<T>& values) { assign(values.data(), values.data() + values.size()); }
  SmallVector(size_t count, const T& value) { assign(count, value); }

  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { Steal(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      Release();
      Steal(other);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~SmallVector() { Release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  // Whether the elements are inside the object (no allocation held).
  bool is_inline() const { return capacity_ == N; }

  T* data() { return is_inline() ? InlineData() : heap_; }
  const T* data() const { return is_inline() ? InlineData() : heap_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity_) Grow(n);
  }
  void resize(size_t n, const T& value = T{}) {
    reserve(n);
    T* d = data();
    for (size_t i = size_; i < n; ++i) ::new (static_cast<void*>(d + i)) T(value);
    size_ = static_cast<uint32_t>(n);
  }
  // Resizes to n, leaving any added elements uninitialized: the caller
  // writes each of them before reading it (a decoder that fills a list whose
  // size it read first).
  void resize_for_overwrite(size_t n) {
    reserve(n);
    size_ = static_cast<uint32_t>(n);
  }
  void assign(size_t count, const T& value) {
    clear();
    resize(count, value);
  }
  void assign(const T* first, const T* last) {
    const auto n = static_cast<size_t>(last - first);
    clear();
    reserve(n);
    if (n != 0) std::memcpy(static_cast<void*>(data()), first, n * sizeof(T));
    size_ = static_cast<uint32_t>(n);
  }

  void push_back(const T& value) { emplace_back(value); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) [[unlikely]] {
      Grow(size_t{capacity_} * 2);
    }
    T* slot = data() + size_;
    ::new (static_cast<void*>(slot)) T(std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }
  void pop_back() { --size_; }
  // Inserts `value` before `pos` (an iterator into this vector).
  T* insert(const T* pos, const T& value) {
    const auto at = static_cast<size_t>(pos - begin());
    const T copy = value;  // `value` may be an element of this vector
    emplace_back(copy);
    T* d = data();
    std::memmove(static_cast<void*>(d + at + 1), d + at, (size_ - 1 - at) * sizeof(T));
    d[at] = copy;
    return d + at;
  }

  // Copies the values out into a std::vector.
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const SmallVector& a, const std::vector<T>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  T* InlineData() { return std::launder(reinterpret_cast<T*>(inline_)); }
  const T* InlineData() const { return std::launder(reinterpret_cast<const T*>(inline_)); }

  void Grow(size_t min_capacity) {
    FLOE_CHECK(min_capacity <= UINT32_MAX, "SmallVector of ", min_capacity, " elements");
    const size_t capacity = std::max(min_capacity, std::min<size_t>(size_t{capacity_} * 2, UINT32_MAX));
    T* fresh = static_cast<T*>(::operator new(capacity * sizeof(T), std::align_val_t{alignof(T)}));
    if (size_ != 0) std::memcpy(static_cast<void*>(fresh), data(), size_ * sizeof(T));
    Release();
    heap_ = fresh;
    capacity_ = static_cast<uint32_t>(capacity);
  }

  void Release() {
    if (!is_inline()) ::operator delete(heap_, std::align_val_t{alignof(T)});
    capacity_ = N;
  }

  // Takes other's elements (its heap block, or a copy of its inline ones)
  // and leaves it empty and inline; *this must hold no allocation.
  void Steal(SmallVector& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.is_inline()) {
      std::memcpy(inline_, other.inline_, sizeof inline_);
    } else {
      heap_ = other.heap_;
    }
    other.size_ = 0;
    other.capacity_ = N;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = N;  // == N: the elements are in inline_
  union {
    T* heap_;
    alignas(T) unsigned char inline_[N * sizeof(T)];
  };
};

}  // namespace floe
