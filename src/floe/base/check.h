// FLOE_CHECK: aborts with a message when a caller broke a documented
// precondition (a programming error, not bad input: bad input gets a Status).
//
//   FLOE_CHECK(offset <= size, "Buffer::Slice(", offset, ", ", length, ") outside a buffer of ", size, " bytes");
//
// Checked in every build type: continuing past a broken invariant would write
// wrong data into tables.

#pragma once

#include <string>

#include "floe/base/strings.h"

namespace floe::internal {
[[noreturn]] void CheckFailed(const char* file, int line, const std::string& message);
}  // namespace floe::internal

#define FLOE_CHECK(condition, ...)                                                      \
  do {                                                                                  \
    if (!(condition)) ::floe::internal::CheckFailed(__FILE__, __LINE__, ::floe::StrCat(__VA_ARGS__)); \
  } while (false)
