// `floe namespace create|list|drop`: dropping an empty namespace, and the
// one-line errors for one that still holds tables or namespaces.

#include <gtest/gtest.h>

#include "testing/table_cli.h"

namespace floe {
namespace {

using testing::SortedRows;

class NamespaceCliTest : public testing::TableCliTest {
 protected:
  std::string Namespaces(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--format", "csv", "namespace", "list"};
    args.insert(args.end(), extra.begin(), extra.end());
    return SortedRows(Ok(args));
  }
};

TEST_F(NamespaceCliTest, DropRemovesAnEmptyNamespace) {
  EXPECT_EQ(Ok({"namespace", "create", "shop"}), "created namespace shop\n");
  Ok({"namespace", "create", "scratch", "--property", "owner=ann"});
  EXPECT_EQ(Namespaces(), "scratch\nshop\n");
  EXPECT_EQ(Ok({"namespace", "drop", "scratch"}), "dropped namespace scratch\n");
  EXPECT_EQ(Namespaces(), "shop\n");
  ExpectUserError({"namespace", "drop", "scratch"}, "NotFound: namespace scratch does not exist");
  // A dropped namespace's name can be used again.
  Ok({"namespace", "create", "scratch"});
  Ok({"table", "create", "scratch.t", "--schema", "id long"});
  EXPECT_EQ(CsvRows({"table", "list", "scratch"}).size(), 1u);
}

TEST_F(NamespaceCliTest, CreateRefusesDuplicatesAndBadNames) {
  Ok({"namespace", "create", "shop"});
  ExpectUserErrors({"namespace", "create"}, {
                                                {{"shop"}, "AlreadyExists: namespace shop already exists"},
                                                {{"a..b"}, "InvalidArgument: namespace 'a..b' has an empty level"},
                                                {{""}, "InvalidArgument: cannot create the root namespace"},
                                            });
  ExpectUserError({"namespace", "list", "nosuch"}, "NotFound: namespace nosuch does not exist");
  EXPECT_EQ(Namespaces(), "shop\n");
}

TEST_F(NamespaceCliTest, DropRefusesANamespaceThatIsNotEmpty) {
  Ok({"namespace", "create", "shop"});
  Ok({"table", "create", "shop.orders", "--schema", "id long"});
  Write("a.csv", "id\n1\n");
  Ok({"table", "append", "shop.orders", "a.csv"});
  ExpectUserError({"namespace", "drop", "shop"}, "InvalidArgument: namespace shop is not empty: it has 1 table(s)");
  EXPECT_EQ(Namespaces(), "shop\n");
  EXPECT_EQ(Count("shop.orders"), 1);

  Ok({"namespace", "create", "lake"});
  Ok({"namespace", "create", "lake.raw"});
  ExpectUserError({"namespace", "drop", "lake"}, "namespace lake is not empty: it has namespace lake.raw");
  EXPECT_EQ(Namespaces({"lake"}), "lake.raw\n");

  // Emptied, both go.
  Ok({"table", "drop", "shop.orders"});
  Ok({"namespace", "drop", "shop"});
  Ok({"namespace", "drop", "lake.raw"});
  Ok({"namespace", "drop", "lake"});
  EXPECT_EQ(Namespaces(), "");
  ExpectUserError({"namespace", "drop"}, "InvalidArgument: namespace is required");
}

}  // namespace
}  // namespace floe
