// The catalog conformance suite's seam: one CatalogFactory per catalog
// implementation. Every test in tests/catalog/conformance/ runs once per
// registered factory (a parameterized gtest), so every behaviour of
// catalog.h is checked alike on SQLite, PostgreSQL and, later, a REST
// client against `floe serve`.
//
// Adding a backend: implement CatalogFactory (and CatalogInstance) in a file
// under tests/catalog/conformance/, and add it to Factories() in
// catalog_conformance.cc; give it a ctest entry in tests/CMakeLists.txt
// (--gtest_filter='*/<name>'). A backend that cannot run on this machine
// answers SkipReason(); its tests are then skipped with that message.

#pragma once

#include <memory>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"

namespace floe::catalog::testing {

// One fresh, empty catalog made for one test. Open() may be called several
// times, also in a forked child process (it opens new connections then); each
// returns another handle on the same catalog, as another process would see it.
class CatalogInstance {
 public:
  virtual ~CatalogInstance() = default;
  virtual Result<std::shared_ptr<Catalog>> Open() = 0;
  // Where default table locations go.
  virtual const std::string& warehouse() const = 0;
};

class CatalogFactory {
 public:
  virtual ~CatalogFactory() = default;

  // The test name suffix: "sqlite", "postgresql", "rest".
  virtual std::string name() const = 0;
  // Why this backend cannot run here ("" when it can); the tests then skip.
  virtual std::string SkipReason() = 0;
  // A fresh, empty catalog whose files live under `dir` (a folder that
  // outlives the instance).
  virtual Result<std::unique_ptr<CatalogInstance>> NewCatalog(const std::string& dir) = 0;

  // What the backend can do beyond the Catalog contract, so tests of
  // implementation details run only where they apply.
  virtual bool two_processes() const { return true; }  // Open() works in a forked child
  // The catalog swaps the pointer itself (the SQL catalogs): a Commit whose
  // base is no longer current conflicts even when its change would still
  // apply, and a CommitConflict says why (Status::conflict_reason). Through
  // REST the server checks only the requirements the change implies (as
  // Java's client derives them) and a 409 carries no reason.
  virtual bool swaps_the_pointer() const { return true; }
};

// Every factory, in test order (sqlite, postgresql, ...). Owned by the suite.
const std::vector<CatalogFactory*>& Factories();

}  // namespace floe::catalog::testing
