// Boxed<T>: an optional T kept on the heap. It reads like std::optional
// (has_value, operator bool, *, ->, emplace, reset, value_or, comparison)
// and copies deeply like it, but an unset one is a single null pointer.
// For members that are large and rarely set (a column chunk's geospatial
// statistics or encryption metadata), so that the structs holding them stay
// small in the common case; a set one costs one allocation.
//
// Thread safety: a plain value, like std::optional.

#pragma once

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace floe {

template <typename T>
class Boxed {
 public:
  using value_type = T;

  Boxed() = default;
  Boxed(std::nullopt_t) {}
  // From anything a T can be made of, as std::optional's converting
  // constructor (`chunk.file_path = "x.parquet"`).
  template <typename U = T>
  requires(!std::is_same_v<std::remove_cvref_t<U>, Boxed> && !std::is_same_v<std::remove_cvref_t<U>, std::nullopt_t> &&
           std::is_constructible_v<T, U&&>)
  Boxed(U&& value) : value_(std::make_unique<T>(std::forward<U>(value))) {}
  Boxed(const std::optional<T>& value) {
    if (value) value_ = std::make_unique<T>(*value);
  }

  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(std::nullopt_t) {
    value_.reset();
    return *this;
  }
  template <typename U = T>
  requires(!std::is_same_v<std::remove_cvref_t<U>, Boxed> && !std::is_same_v<std::remove_cvref_t<U>, std::nullopt_t> &&
           std::is_constructible_v<T, U&&>)
  Boxed& operator=(U&& value) {
    emplace(std::forward<U>(value));
    return *this;
  }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return value_ != nullptr; }
  // Precondition (as for std::optional): has_value().
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  template <typename U>
  T value_or(U&& fallback) const {
    return value_ ? *value_ : static_cast<T>(std::forward<U>(fallback));
  }

  template <typename... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  friend bool operator==(const Boxed& a, const Boxed& b) {
    if (!a.value_ || !b.value_) return !a.value_ && !b.value_;
    return *a.value_ == *b.value_;
  }
  friend bool operator==(const Boxed& a, std::nullopt_t) { return !a.value_; }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace floe
