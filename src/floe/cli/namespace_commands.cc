// `floe namespace create|list|drop` on the catalog of --catalog.

#include <CLI/CLI.hpp>

#include "floe/base/strings.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/cli/table_access.h"
#include "floe/columnar/builder_binary.h"

namespace floe::cli {

void AddNamespaceCommands(CLI::App& app, CommandSet& commands) {
  CLI::App* group = commands.AddGroup(app, "namespace", "Create, list and drop namespaces");

  auto& create_name = commands.Keep<std::string>();
  auto& create_props = commands.Keep<std::vector<std::string>>();
  CLI::App* create = commands.Add(*group, "create", "Create a namespace (a.b for nested)", [&](CommandContext& ctx) {
    FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalogFor(ctx));
    FLOE_ASSIGN_OR_RETURN(auto ns, catalog::Namespace::Parse(create_name));
    catalog::Properties properties;
    for (const auto& kv : create_props) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) return Status::InvalidArgument(StrCat("--property ", Quote(kv), ": expected k=v"));
      properties[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    FLOE_RETURN_IF_ERROR(catalog->CreateNamespace(ns, properties));
    ctx.out() << "created namespace " << ns.ToString() << "\n";
    return Status::OK();
  });
  create->add_option("namespace", create_name, "Namespace name")->required();
  create->add_option("--property", create_props, "k=v (repeatable)");

  auto& list_parent = commands.Keep<std::string>();
  CLI::App* list = commands.Add(*group, "list", "List namespaces (under a parent)", [&](CommandContext& ctx) {
    FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalogFor(ctx));
    catalog::Namespace parent;
    if (!list_parent.empty()) {
      FLOE_ASSIGN_OR_RETURN(parent, catalog::Namespace::Parse(list_parent));
    }
    FLOE_ASSIGN_OR_RETURN(auto namespaces, catalog->ListNamespaces(parent));
    auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("namespace", DataType::Utf8(), false)});
    StringBuilder names;
    for (const auto& ns : namespaces) FLOE_RETURN_IF_ERROR(names.Append(ns.ToString()));
    FLOE_ASSIGN_OR_RETURN(auto batch, FinishBatch(schema, {&names}));
    return PrintBatches(ctx, schema, {batch});
  });
  list->add_option("parent", list_parent, "Parent namespace");

  auto& drop_name = commands.Keep<std::string>();
  CLI::App* drop = commands.Add(*group, "drop", "Drop an empty namespace", [&](CommandContext& ctx) {
    FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalogFor(ctx));
    FLOE_ASSIGN_OR_RETURN(auto ns, catalog::Namespace::Parse(drop_name));
    FLOE_RETURN_IF_ERROR(catalog->DropNamespace(ns));
    ctx.out() << "dropped namespace " << ns.ToString() << "\n";
    return Status::OK();
  });
  drop->add_option("namespace", drop_name, "Namespace name")->required();
}

}  // namespace floe::cli
