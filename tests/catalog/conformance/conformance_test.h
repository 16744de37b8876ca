// The fixture every conformance test derives from: a fresh catalog from the
// test's factory (tests/catalog/catalog_conformance.h), skipped when the
// backend cannot run here.

#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "catalog/catalog_conformance.h"
#include "catalog/catalog_test_util.h"
#include "testing/temp_dir.h"

namespace floe::catalog::testing {

class CatalogConformanceTest : public ::testing::TestWithParam<CatalogFactory*> {
 protected:
  void SetUp() override {
    const std::string reason = GetParam()->SkipReason();
    if (!reason.empty()) GTEST_SKIP() << GetParam()->name() << ": " << reason;
    auto instance = GetParam()->NewCatalog(dir_.path());
    ASSERT_TRUE(instance.ok()) << instance.status().ToString();
    instance_ = std::move(*instance);
    auto catalog = instance_->Open();
    ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
    catalog_ = *catalog;
  }

  // Another handle on the same catalog (what another process sees).
  std::shared_ptr<Catalog> OpenAgain() {
    auto catalog = instance_->Open();
    EXPECT_TRUE(catalog.ok()) << catalog.status().ToString();
    return catalog.ok() ? *catalog : nullptr;
  }

  const std::string& warehouse() const { return instance_->warehouse(); }

  floe::testing::TempDir dir_;
  std::unique_ptr<CatalogInstance> instance_;
  std::shared_ptr<Catalog> catalog_;
};

std::string FactoryName(const ::testing::TestParamInfo<CatalogFactory*>& info);

}  // namespace floe::catalog::testing

// Runs the TEST_Ps of `fixture` (CatalogConformanceTest or a subclass) on
// every factory.
#define FLOE_CATALOG_CONFORMANCE(fixture)                                                                        \
  INSTANTIATE_TEST_SUITE_P(Catalogs, fixture, ::testing::ValuesIn(::floe::catalog::testing::Factories()), \
                           ::floe::catalog::testing::FactoryName)
