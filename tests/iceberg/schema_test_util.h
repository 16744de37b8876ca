// A NestedField in one call, for tests that build Iceberg schemas by hand.
// Shared so that a test binary compiled in unity batches has one of it
// (tests/CMakeLists.txt).

#pragma once

#include <string>
#include <utility>

#include "floe/iceberg/schema.h"

namespace floe::iceberg::testing {

inline NestedField Column(int32_t id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, {}, {}, {}};
}

}  // namespace floe::iceberg::testing
