// Result<T>: a value of type T, or the Status saying why there is none.
//
// Accessing the value of an errored Result is a programming error and aborts
// (it is checked in every build). Thread safety: as for T.

#pragma once

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <variant>

#include "floe/base/status.h"

namespace floe {

template <typename T>
class [[nodiscard]] Result {
  static_assert(!std::is_same_v<T, Status>, "use Status directly");

 public:
  // An errored result. `status` must not be OK: an OK status with no value
  // becomes an Internal error, so the bug shows instead of hiding.
  Result(Status status)  // NOLINT(google-explicit-constructor): mirrors Status returns
      : state_(status.ok() ? Status::Internal("Result constructed from an OK status without a value")
                           : std::move(status)) {}
  Result(T value) : state_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  template <typename U,
            typename = std::enable_if_t<std::is_convertible_v<U&&, T> && !std::is_same_v<std::decay_t<U>, T> &&
                                        !std::is_same_v<std::decay_t<U>, Status>>>
  Result(U&& value) : state_(T(std::forward<U>(value))) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(state_); }

  // The error; OK when a value is held.
  Status status() const { return ok() ? Status::OK() : std::get<Status>(state_); }

  const T& value() const& {
    CheckOk();
    return std::get<T>(state_);
  }
  T& value() & {
    CheckOk();
    return std::get<T>(state_);
  }
  // By value, not T&&: `for (auto& x : F().value())` must not iterate a
  // destroyed temporary (C++20 does not extend the Result's lifetime).
  T value() && {
    CheckOk();
    return std::get<T>(std::move(state_));
  }
  // The value, or `fallback` when errored.
  T value_or(T fallback) const& { return ok() ? std::get<T>(state_) : std::move(fallback); }

  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  void CheckOk() const {
    if (!ok()) {
      std::fprintf(stderr, "floe: value of an errored Result accessed: %s\n",
                   std::get<Status>(state_).ToString().c_str());
      std::abort();
    }
  }

  std::variant<Status, T> state_;
};

template <typename T>
Status ToStatus(const Result<T>& r) {
  return r.status();
}

}  // namespace floe

#define FLOE_CONCAT_INNER_(a, b) a##b
#define FLOE_CONCAT_(a, b) FLOE_CONCAT_INNER_(a, b)

// Evaluates `rexpr` (a Result<T>); on error returns its Status from the
// enclosing function, else moves the value into `lhs` (which may declare a
// variable: FLOE_ASSIGN_OR_RETURN(auto file, io.OpenRead(path))).
#define FLOE_ASSIGN_OR_RETURN(lhs, rexpr) \
  FLOE_ASSIGN_OR_RETURN_IMPL_(FLOE_CONCAT_(floe_result_, __LINE__), lhs, rexpr)

#define FLOE_ASSIGN_OR_RETURN_IMPL_(result_name, lhs, rexpr) \
  auto result_name = (rexpr);                                \
  if (!result_name.ok()) return result_name.status();        \
  lhs = std::move(result_name).value()
