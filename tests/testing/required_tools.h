// The tools cross-engine tests compare floe against (DuckDB, python3-avro)
// are installed by `make test` (dev/setup, dev/install-test-tools), so a
// missing one is a broken setup and the test fails; only where
// FLOE_ALLOW_MISSING_TOOLS=1 says a machine lacks them on purpose is the
// test skipped instead (the same rule as tests/testing/required_tools.mjs).

#pragma once

#include <gtest/gtest.h>

namespace floe::testing {

// Whether FLOE_ALLOW_MISSING_TOOLS=1 is set.
bool MissingToolsAllowed();

}  // namespace floe::testing

// In a test body or SetUp(): unless `available`, skip (when allowed) or
// fail, saying which tool (`what`) is missing, and return.
#define FLOE_REQUIRE_TOOL(available, what)                                                               \
  do {                                                                                                   \
    if (!(available)) {                                                                                  \
      if (::floe::testing::MissingToolsAllowed()) GTEST_SKIP() << what << " (FLOE_ALLOW_MISSING_TOOLS=1)"; \
      FAIL() << what << ": 'make setup' installs it (or set FLOE_ALLOW_MISSING_TOOLS=1 to skip)";         \
    }                                                                                                    \
  } while (0)
