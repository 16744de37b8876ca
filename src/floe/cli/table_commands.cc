// `floe table create|list|drop|append|overwrite|delete|compact|evolve|
// rollback|set-current|cherry-pick|fast-forward|tag|branch|expire`: the
// write side of the table commands.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <limits>

#include "floe/base/strings.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/cli/row_input.h"
#include "floe/cli/table_access.h"
#include "floe/cli/table_syntax.h"
#include "floe/columnar/builder_binary.h"
#include "floe/iceberg/literal.h"
#include "floe/iceberg/update/partition_spec_update.h"
#include "floe/iceberg/update/schema_update.h"

namespace floe::cli {
namespace {

Result<std::map<std::string, std::string>> ParseProperties(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> properties;
  for (const auto& kv : pairs) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return Status::InvalidArgument(StrCat("--property ", Quote(kv), ": expected k=v"));
    properties[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return properties;
}

Result<iceberg::BatchSource> InputRows(CommandContext& ctx, iceberg::Table& table, const std::vector<std::string>& files) {
  FLOE_ASSIGN_OR_RETURN(auto state, table.Refresh());
  const iceberg::Schema* schema = state.metadata->current_schema();
  FLOE_ASSIGN_OR_RETURN(auto columnar, table.WriteSchema());
  return OpenRowInput(files, *schema, columnar, [&ctx](const std::string& path) { return ctx.FileIOFor(path); });
}

void PrintWrite(CommandContext& ctx, const std::string& what, const iceberg::WriteResult& r) {
  const iceberg::Snapshot* s = r.state.metadata ? r.state.metadata->current_snapshot() : nullptr;
  if (r.commit.attempts == 0) {  // the operation found nothing to change
    ctx.out() << what << ": no rows changed, no snapshot committed";
    if (s != nullptr) ctx.out() << "; the table stays at snapshot " << s->snapshot_id;
    ctx.out() << "\n";
    return;
  }
  ctx.out() << what << ": " << r.rows_written << " rows written, " << r.data_files_added << " files added";
  if (r.data_files_removed > 0) ctx.out() << ", " << r.data_files_removed << " files removed";
  if (r.data_files_rewritten > 0) ctx.out() << ", " << r.data_files_rewritten << " files rewritten";
  if (r.delete_files_added > 0) {
    ctx.out() << ", " << r.rows_deleted << " rows marked deleted in " << r.delete_files_added << " delete files";
  }
  if (s != nullptr) ctx.out() << "; snapshot " << s->snapshot_id;
  if (r.commit.attempts > 1) ctx.out() << " (" << r.commit.attempts << " attempts)";
  ctx.out() << "\n";
}

// Applies a metadata change built by `change` from the current metadata.
Status CommitMetadata(CommandContext& ctx, const std::string& name, const iceberg::Table::ChangeBuilder& change,
                      const std::string& done) {
  FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
  FLOE_RETURN_IF_ERROR(opened.table->CommitChanges(change).status());
  ctx.out() << done << "\n";
  return Status::OK();
}

// A dropped column must not be the source of a partition field (of any
// spec: scans bind every spec their manifests were written with) or of the
// sort order: the table would be left unreadable or unwritable.
Status CheckDropKeepsSources(const iceberg::TableMetadata& m, const iceberg::Schema& after, const std::string& column) {
  const iceberg::Schema& before = *m.current_schema();
  auto dropped = [&](const std::vector<int32_t>& ids) {
    return std::any_of(ids.begin(), ids.end(), [&](int32_t id) {
      return before.FindFieldById(id) != nullptr && after.FindFieldById(id) == nullptr;
    });
  };
  for (const auto& field : m.default_spec()->fields) {
    if (dropped(field.source_ids)) {
      return Status::InvalidArgument(
          StrCat("cannot drop column ", Quote(column), ": partition field ", Quote(field.name), " is derived from it"));
    }
  }
  for (const auto& spec : m.partition_specs) {
    for (const auto& field : spec.fields) {
      if (dropped(field.source_ids)) {
        return Status::InvalidArgument(StrCat("cannot drop column ", Quote(column), ": partition field ",
                                              Quote(field.name), " of spec ", spec.spec_id,
                                              ", which older data files were written with, is derived from it"));
      }
    }
  }
  if (const iceberg::SortOrder* order = m.default_sort_order(); order != nullptr) {
    for (const auto& field : order->fields) {
      if (dropped(field.source_ids)) {
        return Status::InvalidArgument(
            StrCat("cannot drop column ", Quote(column), ": the table's sort order uses it"));
      }
    }
  }
  return Status::OK();
}

}  // namespace

void AddTableCommands(CLI::App& app, CommandSet& commands) {
  CLI::App* group = commands.AddGroup(app, "table", "Create, write, evolve, maintain and scan Iceberg tables");

  {  // create
    struct Args {
      std::string name, schema, partition, sort;
      std::vector<std::string> properties;
      int format_version = 2;
    };
    auto& a = commands.Keep<Args>();
    CLI::App* cmd = commands.Add(*group, "create", "Create a table", [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalogFor(ctx));
      FLOE_ASSIGN_OR_RETURN(auto ident, catalog::TableIdentifier::Parse(a.name));
      catalog::CreateTableRequest request;
      FLOE_ASSIGN_OR_RETURN(request.schema, ParseSchemaText(a.schema));
      if (!a.partition.empty()) {
        FLOE_ASSIGN_OR_RETURN(request.partition_spec, ParsePartitionText(a.partition, request.schema));
      }
      if (!a.sort.empty()) {
        FLOE_ASSIGN_OR_RETURN(request.sort_order, ParseSortText(a.sort, request.schema));
      }
      FLOE_ASSIGN_OR_RETURN(request.properties, ParseProperties(a.properties));
      request.format_version = a.format_version;
      FLOE_ASSIGN_OR_RETURN(auto state, catalog->CreateTable(ident, request));
      ctx.out() << "created table " << ident.ToString() << " at " << state.metadata->location << "\n";
      return Status::OK();
    });
    cmd->add_option("table", a.name, "NS.T")->required();
    cmd->add_option("--schema", a.schema, "Columns: 'id long not null, ts timestamp, ...'")->required();
    cmd->add_option("--partition", a.partition, "Partition terms: 'day(ts), bucket(16, id)'");
    cmd->add_option("--sort", a.sort, "Sort order: 'ts, id desc'");
    cmd->add_option("--property", a.properties, "k=v (repeatable)");
    cmd->add_option("--format-version", a.format_version, "1, 2 or 3")->check(CLI::Range(1, 3));
  }

  {  // list
    auto& ns_name = commands.Keep<std::string>();
    CLI::App* cmd = commands.Add(*group, "list", "List the tables of a namespace", [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalogFor(ctx));
      FLOE_ASSIGN_OR_RETURN(auto ns, catalog::Namespace::Parse(ns_name));
      FLOE_ASSIGN_OR_RETURN(auto tables, catalog->ListTables(ns));
      auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("table", DataType::Utf8(), false)});
      StringBuilder names;
      for (const auto& t : tables) FLOE_RETURN_IF_ERROR(names.Append(t.ToString()));
      FLOE_ASSIGN_OR_RETURN(auto batch, FinishBatch(schema, {&names}));
      return PrintBatches(ctx, schema, {batch});
    });
    cmd->add_option("namespace", ns_name, "Namespace")->required();
  }

  {  // drop
    auto& name = commands.Keep<std::string>();
    auto& purge = commands.Keep<bool>(false);
    CLI::App* cmd = commands.Add(*group, "drop", "Drop a table (--purge deletes its files)", [&](CommandContext& ctx) {
      FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalogFor(ctx));
      FLOE_ASSIGN_OR_RETURN(auto ident, catalog::TableIdentifier::Parse(name));
      FLOE_RETURN_IF_ERROR(catalog->DropTable(ident, purge));
      ctx.out() << "dropped table " << ident.ToString() << (purge ? " and its files" : "") << "\n";
      return Status::OK();
    });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_flag("--purge", purge, "Delete the table's data and metadata files");
  }

  {  // append
    auto& name = commands.Keep<std::string>();
    auto& files = commands.Keep<std::vector<std::string>>();
    CLI::App* cmd = commands.Add(*group, "append", "Append rows from CSV, JSON lines or Parquet files",
                                 [&](CommandContext& ctx) -> Status {
                                   FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
                                   FLOE_ASSIGN_OR_RETURN(auto rows, InputRows(ctx, *opened.table, files));
                                   FLOE_ASSIGN_OR_RETURN(auto result, opened.table->Append(rows));
                                   PrintWrite(ctx, "appended", result);
                                   return Status::OK();
                                 });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_option("files", files, "Input files")->required();
  }

  {  // overwrite
    struct Args {
      std::string name, where;
      std::vector<std::string> files;
    };
    auto& a = commands.Keep<Args>();
    CLI::App* cmd = commands.Add(*group, "overwrite", "Replace the rows matching --where with the files' rows",
                                 [&](CommandContext& ctx) -> Status {
                                   FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, a.name));
                                   FLOE_ASSIGN_OR_RETURN(auto filter, ParseWhere(a.where));
                                   FLOE_ASSIGN_OR_RETURN(auto rows, InputRows(ctx, *opened.table, a.files));
                                   if (filter == nullptr) {
                                     FLOE_ASSIGN_OR_RETURN(auto result, opened.table->ReplacePartitions(rows));
                                     // The partitions' old files are found at commit; its summary counts them.
                                     if (const iceberg::Snapshot* s = result.state.metadata->current_snapshot()) {
                                       auto it = s->summary.find("deleted-data-files");
                                       if (it != s->summary.end()) ParseInt64(it->second, &result.data_files_removed);
                                     }
                                     PrintWrite(ctx, "replaced partitions", result);
                                     return Status::OK();
                                   }
                                   FLOE_ASSIGN_OR_RETURN(auto result, opened.table->Overwrite(filter, rows));
                                   PrintWrite(ctx, "overwrote", result);
                                   return Status::OK();
                                 });
    cmd->add_option("table", a.name, "NS.T")->required();
    cmd->add_option("--where", a.where, "Rows to replace; without it, the partitions the new rows fall into");
    cmd->add_option("files", a.files, "Input files")->required();
  }

  {  // delete
    auto& name = commands.Keep<std::string>();
    auto& where = commands.Keep<std::string>();
    CLI::App* cmd = commands.Add(*group, "delete", "Delete the rows matching --where", [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
      FLOE_ASSIGN_OR_RETURN(auto filter, ParseWhere(where));
      if (filter == nullptr) return Status::InvalidArgument("delete needs --where (use 'true' to delete every row)");
      FLOE_ASSIGN_OR_RETURN(auto result, opened.table->Delete(filter));
      PrintWrite(ctx, "deleted", result);
      return Status::OK();
    });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_option("--where", where, "Filter")->required();
  }

  {  // compact
    auto& name = commands.Keep<std::string>();
    auto& min_files = commands.Keep<int>(2);
    CLI::App* cmd = commands.Add(*group, "compact", "Bin-pack small files into target-size files", [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
      FLOE_ASSIGN_OR_RETURN(auto result, opened.table->Compact(min_files));
      if (!result.has_value()) {
        ctx.out() << "nothing to compact\n";
        return Status::OK();
      }
      PrintWrite(ctx, "compacted", *result);
      return Status::OK();
    });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_option("--min-input-files", min_files, "Smallest group of files worth rewriting");
  }

  {  // evolve
    struct Args {
      std::string name, add_column, rename_column, drop_column, promote, add_partition, drop_partition;
      std::vector<std::string> set_properties;
    };
    auto& a = commands.Keep<Args>();
    CLI::App* cmd = commands.Add(*group, "evolve", "Change the schema, partitioning or properties", [&](CommandContext& ctx) -> Status {
      auto change = [&](const iceberg::TableMetadata& m)
          -> Result<std::pair<std::vector<iceberg::TableRequirement>, std::vector<iceberg::TableUpdate>>> {
        std::vector<iceberg::TableRequirement> reqs = {iceberg::AssertCurrentSchemaId{m.current_schema_id},
                                                       iceberg::AssertDefaultSpecId{m.default_spec_id}};
        std::vector<iceberg::TableUpdate> updates;
        const iceberg::Schema* schema = m.current_schema();
        if (!a.add_column.empty() || !a.rename_column.empty() || !a.drop_column.empty() || !a.promote.empty()) {
          iceberg::SchemaUpdate update(*schema, m.last_column_id, m.format_version);
          if (!a.add_column.empty()) {
            FLOE_ASSIGN_OR_RETURN(auto column, ParseColumnText(a.add_column));
            // AddColumn adds an optional column: `not null` must not be dropped silently.
            if (column.required) {
              return Status::InvalidArgument(StrCat("cannot add required column ", Quote(column.name),
                                                    ": the rows already written have no value for it"));
            }
            update.AddColumn(column.name, column.type, column.doc);
          }
          if (!a.rename_column.empty()) {
            const size_t eq = a.rename_column.find('=');
            if (eq == std::string::npos) return Status::InvalidArgument("--rename-column expects old=new");
            update.RenameColumn(a.rename_column.substr(0, eq), a.rename_column.substr(eq + 1));
          }
          if (!a.drop_column.empty()) update.DeleteColumn(a.drop_column);
          if (!a.promote.empty()) {
            FLOE_ASSIGN_OR_RETURN(auto column, ParseColumnText(a.promote));
            // --promote changes the type only; `not null` on an optional column would be dropped silently.
            if (const iceberg::NestedField* field = schema->FindFieldByName(column.name);
                column.required && field != nullptr && !field->required) {
              return Status::InvalidArgument(
                  StrCat("cannot make column ", Quote(column.name), " required: --promote changes only the type"));
            }
            update.UpdateColumnType(column.name, column.type);
          }
          FLOE_ASSIGN_OR_RETURN(auto applied, update.Apply());
          if (!a.drop_column.empty()) FLOE_RETURN_IF_ERROR(CheckDropKeepsSources(m, applied.schema, a.drop_column));
          updates.push_back(iceberg::AddSchema{applied.schema});
          updates.push_back(iceberg::SetCurrentSchema{iceberg::kLastAdded});
          schema = &applied.schema;
          if (!a.add_partition.empty() || !a.drop_partition.empty()) {
            return Status::InvalidArgument("change the schema and the partitioning in separate commands");
          }
        }
        if (!a.add_partition.empty() || !a.drop_partition.empty()) {
          iceberg::PartitionSpecUpdate update(m.partition_specs, *m.default_spec(), *schema, m.last_partition_id,
                                              m.format_version);
          if (!a.add_partition.empty()) {
            FLOE_ASSIGN_OR_RETURN(auto terms, ParsePartitionTerms(a.add_partition));
            for (const auto& t : terms) update.AddField(t.column, t.transform);
          }
          if (!a.drop_partition.empty()) update.RemoveField(a.drop_partition);
          FLOE_ASSIGN_OR_RETURN(auto applied, update.Apply());
          updates.push_back(iceberg::AddPartitionSpec{applied.spec});
          updates.push_back(iceberg::SetDefaultSpec{iceberg::kLastAdded});
        }
        if (!a.set_properties.empty()) {
          FLOE_ASSIGN_OR_RETURN(auto properties, ParseProperties(a.set_properties));
          updates.push_back(iceberg::SetProperties{properties});
        }
        if (updates.empty()) return Status::InvalidArgument("evolve: nothing to change (see --help)");
        return std::make_pair(std::move(reqs), std::move(updates));
      };
      return CommitMetadata(ctx, a.name, change, StrCat("evolved table ", a.name));
    });
    cmd->add_option("table", a.name, "NS.T")->required();
    cmd->add_option("--add-column", a.add_column, "'name type'");
    cmd->add_option("--rename-column", a.rename_column, "old=new");
    cmd->add_option("--drop-column", a.drop_column, "name");
    cmd->add_option("--promote", a.promote, "'name wider-type' (int→long, float→double, decimal precision)");
    cmd->add_option("--add-partition", a.add_partition, "'hour(order_ts)'");
    cmd->add_option("--drop-partition", a.drop_partition, "partition field name");
    cmd->add_option("--property", a.set_properties, "k=v (repeatable)");
  }

  {  // rollback
    auto& name = commands.Keep<std::string>();
    auto& snapshot = commands.Keep<int64_t>(0);
    CLI::App* cmd = commands.Add(*group, "rollback", "Point main back at an ancestor snapshot", [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
      FLOE_RETURN_IF_ERROR(opened.table->Rollback(snapshot).status());
      ctx.out() << "rolled back " << name << " to snapshot " << snapshot << "\n";
      return Status::OK();
    });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_option("snapshot", snapshot, "Snapshot id")->required();
  }

  {  // set-current
    auto& name = commands.Keep<std::string>();
    auto& snapshot = commands.Keep<int64_t>(0);
    CLI::App* cmd = commands.Add(*group, "set-current", "Point main at any snapshot of the table", [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
      FLOE_RETURN_IF_ERROR(opened.table->SetCurrent(snapshot).status());
      ctx.out() << "set " << name << " to snapshot " << snapshot << "\n";
      return Status::OK();
    });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_option("snapshot", snapshot, "Snapshot id")->required();
  }

  {  // cherry-pick
    auto& name = commands.Keep<std::string>();
    auto& snapshot = commands.Keep<int64_t>(0);
    CLI::App* cmd = commands.Add(*group, "cherry-pick", "Apply a snapshot of a branch or a staged (WAP) snapshot to main",
                                 [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
      FLOE_ASSIGN_OR_RETURN(auto state, opened.table->CherryPick(snapshot));
      const iceberg::Snapshot* head = state.metadata->current_snapshot();
      ctx.out() << "cherry-picked snapshot " << snapshot;
      if (head != nullptr && head->snapshot_id == snapshot) {
        ctx.out() << " (fast-forward)";
      } else if (head != nullptr) {
        ctx.out() << " as snapshot " << head->snapshot_id;
      }
      ctx.out() << "\n";
      return Status::OK();
    });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_option("snapshot", snapshot, "Snapshot id")->required();
  }

  {  // fast-forward
    auto& name = commands.Keep<std::string>();
    auto& branch = commands.Keep<std::string>();
    auto& to = commands.Keep<std::string>();
    CLI::App* cmd = commands.Add(*group, "fast-forward", "Move a branch to the head of a branch or tag it is an ancestor of",
                                 [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, name));
      FLOE_RETURN_IF_ERROR(opened.table->FastForward(branch, to).status());
      ctx.out() << "fast-forwarded " << branch << " to " << to << "\n";
      return Status::OK();
    });
    cmd->add_option("table", name, "NS.T")->required();
    cmd->add_option("branch", branch, "Branch to move")->required();
    cmd->add_option("to", to, "Branch or tag to move it to")->required();
  }

  for (const char* kind : {"tag", "branch"}) {  // tag / branch
    struct Args {
      std::string name, ref;
      int64_t snapshot = 0;
      bool remove = false;
    };
    auto& a = commands.Keep<Args>();
    const bool is_tag = std::string(kind) == "tag";
    CLI::App* cmd = commands.Add(*group, kind, is_tag ? "Create, move or remove a tag" : "Create, move or remove a branch",
                                 [&a, is_tag](CommandContext& ctx) -> Status {
                                   FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, a.name));
                                   if (a.remove) {
                                     // `tag --remove` removes only tags, `branch --remove` only branches.
                                     FLOE_ASSIGN_OR_RETURN(auto state, opened.table->Refresh());
                                     const auto ref = state.metadata->refs.find(a.ref);
                                     const auto kind =
                                         is_tag ? iceberg::SnapshotRefType::kTag : iceberg::SnapshotRefType::kBranch;
                                     if (ref != state.metadata->refs.end() && ref->second.type != kind) {
                                       return Status::InvalidArgument(StrCat(
                                           Quote(a.ref), " is a ", iceberg::SnapshotRefTypeName(ref->second.type),
                                           ", not a ", iceberg::SnapshotRefTypeName(kind)));
                                     }
                                     FLOE_RETURN_IF_ERROR(opened.table->RemoveRef(a.ref).status());
                                     ctx.out() << "removed " << a.ref << "\n";
                                     return Status::OK();
                                   }
                                   int64_t id = a.snapshot;
                                   if (id == 0) {
                                     FLOE_ASSIGN_OR_RETURN(auto state, opened.table->Refresh());
                                     if (!state.metadata->current_snapshot_id) {
                                       return Status::InvalidArgument("the table has no snapshot yet");
                                     }
                                     id = *state.metadata->current_snapshot_id;
                                   }
                                   FLOE_RETURN_IF_ERROR(opened.table
                                                            ->SetRef(a.ref, is_tag ? iceberg::SnapshotRefType::kTag
                                                                                   : iceberg::SnapshotRefType::kBranch,
                                                                     id)
                                                            .status());
                                   ctx.out() << (is_tag ? "tag " : "branch ") << a.ref << " -> snapshot " << id << "\n";
                                   return Status::OK();
                                 });
    cmd->add_option("table", a.name, "NS.T")->required();
    cmd->add_option("ref", a.ref, "Name")->required();
    cmd->add_option("--snapshot", a.snapshot, "Snapshot id (default: the current one)");
    cmd->add_flag("--remove", a.remove, "Remove it");
  }

  {  // expire
    struct Args {
      std::string name, older_than;
      int retain_last = 1;
      CLI::Option* retain_last_option = nullptr;
    };
    auto& a = commands.Keep<Args>();
    CLI::App* cmd = commands.Add(*group, "expire", "Expire old snapshots and delete the files only they used",
                                 [&](CommandContext& ctx) -> Status {
                                   FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, a.name));
                                   iceberg::ExpireOptions options;
                                   // Without --retain-last, the table's history.expire.min-snapshots-to-keep.
                                   if (a.retain_last_option->count() > 0) options.retain_last = a.retain_last;
                                   if (!a.older_than.empty()) {
                                     auto ts = iceberg::Literal::Parse(iceberg::Type::TimestampTz(), a.older_than);
                                     if (!ts.ok()) return ts.status().WithContext("--older-than");
                                     options.older_than_ms = ts->long_value() / 1000;
                                   }
                                   FLOE_ASSIGN_OR_RETURN(auto result, opened.table->ExpireSnapshots(options));
                                   ctx.out() << "expired " << result.expired_snapshot_ids.size() << " snapshots; deleted "
                                             << result.deleted_data_files << " data files, " << result.deleted_manifests
                                             << " manifests, " << result.deleted_manifest_lists << " manifest lists\n";
                                   if (!result.cleanup.ok()) {
                                     ctx.err() << "warning: some files of expired snapshots were left behind: "
                                               << result.cleanup.ToString() << "\n";
                                   }
                                   return Status::OK();
                                 });
    cmd->add_option("table", a.name, "NS.T")->required();
    cmd->add_option("--older-than", a.older_than, "Timestamp (default: 5 days ago)");
    // 0 would expire the heads of the branches, main's too (as Java, at least 1).
    a.retain_last_option = cmd->add_option("--retain-last", a.retain_last,
                                           "Snapshots of each branch to keep at least (default: the table's "
                                           "history.expire.min-snapshots-to-keep, 1)")
                               ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  }
}

}  // namespace floe::cli
