// `floe table scan|describe|snapshots|history|files|manifests|partitions|
// refs|entries`: reading tables and their metadata tables.

#include <CLI/CLI.hpp>
#include <chrono>
#include <map>
#include <variant>

#include "floe/base/strings.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/cli/table_access.h"
#include "floe/columnar/batch_printer.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/manifest_list.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/scan/incremental_append_scan.h"
#include "floe/iceberg/snapshot_manifests.h"
#include "floe/iceberg/transform_function.h"

namespace floe::cli {
namespace {

// Rows of a metadata table: each cell text, a number or null.
class MetadataRows {
 public:
  using Cell = std::variant<std::monostate, int64_t, std::string>;
  explicit MetadataRows(std::vector<std::pair<std::string, bool>> columns) : columns_(std::move(columns)) {}
  void Add(std::vector<Cell> row) { rows_.push_back(std::move(row)); }

  Status Print(CommandContext& ctx) const {
    std::vector<Field> fields;
    for (const auto& [name, numeric] : columns_) fields.emplace_back(name, numeric ? DataType::Int64() : DataType::Utf8());
    auto schema = std::make_shared<const Schema>(std::move(fields));
    std::vector<Array> arrays;
    for (size_t c = 0; c < columns_.size(); ++c) {
      if (columns_[c].second) {
        Int64Builder b;
        for (const auto& row : rows_) {
          const auto* v = std::get_if<int64_t>(&row[c]);
          FLOE_RETURN_IF_ERROR(v ? b.Append(*v) : b.AppendNull());
        }
        FLOE_ASSIGN_OR_RETURN(auto a, b.Finish());
        arrays.push_back(std::move(a));
      } else {
        StringBuilder b;
        for (const auto& row : rows_) {
          const auto* v = std::get_if<std::string>(&row[c]);
          FLOE_RETURN_IF_ERROR(v ? b.Append(*v) : b.AppendNull());
        }
        FLOE_ASSIGN_OR_RETURN(auto a, b.Finish());
        arrays.push_back(std::move(a));
      }
    }
    FLOE_ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, std::move(arrays), static_cast<int64_t>(rows_.size())));
    return PrintBatches(ctx, schema, {batch});
  }

 private:
  std::vector<std::pair<std::string, bool>> columns_;
  std::vector<std::vector<Cell>> rows_;
};

std::string FormatMs(int64_t ms) {
  return iceberg::Literal::TimestampTz(ms * 1000).ToString();
}

std::string PartitionText(const iceberg::PartitionSpec* spec, const iceberg::PartitionValues& values) {
  if (spec == nullptr || spec->fields.empty()) return "";
  return iceberg::PartitionPath(*spec, values);
}

// Reads a table straight from a metadata file: for `scan --metadata`.
class StaticTableOperations : public iceberg::TableOperations {
 public:
  StaticTableOperations(std::shared_ptr<FileIO> io, std::string location)
      : io_(std::move(io)), location_(std::move(location)) {}
  Result<iceberg::TableState> Refresh() override {
    FLOE_ASSIGN_OR_RETURN(auto metadata, iceberg::ReadTableMetadata(*io_, location_));
    return iceberg::TableState{location_, std::make_shared<const iceberg::TableMetadata>(std::move(metadata))};
  }
  Result<iceberg::TableState> Commit(const iceberg::TableState&, const iceberg::TableMetadata&) override {
    return Status::InvalidArgument(StrCat("table ", Quote(location_), " was opened from a metadata file: read only"));
  }
  FileIO& io() override { return *io_; }
  std::string name() const override { return location_; }

 private:
  std::shared_ptr<FileIO> io_;
  std::string location_;
};

struct Source {
  std::string table;
  std::string metadata;
};

Result<std::shared_ptr<iceberg::Table>> OpenSource(CommandContext& ctx, const Source& source) {
  if (!source.metadata.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(source.metadata));
    return std::make_shared<iceberg::Table>(std::make_shared<StaticTableOperations>(io, source.metadata));
  }
  if (source.table.empty()) return Status::InvalidArgument("name a table (NS.T) or --metadata PATH");
  FLOE_ASSIGN_OR_RETURN(auto opened, OpenTableFor(ctx, source.table));
  return opened.table;
}

void AddSourceOptions(CLI::App* cmd, Source& source) {
  cmd->add_option("table", source.table, "NS.T");
  cmd->add_option("--metadata", source.metadata, "Read the table from this metadata JSON file, without a catalog");
}

}  // namespace

void AddTableReadCommands(CLI::App& app, CommandSet& commands) {
  CLI::App* group = app.get_subcommand("table");

  {  // scan
    struct Args {
      Source source;
      std::string select, where, as_of;
      bool count = false, explain = false;
      int64_t limit = -1;
      int64_t from_snapshot = 0, to_snapshot = 0;
      CLI::Option* from_option = nullptr;
      CLI::Option* to_option = nullptr;
      bool from_inclusive = false;
    };
    auto& a = commands.Keep<Args>();
    CLI::App* cmd = commands.Add(*group, "scan", "Read rows: --select, --where, --as-of, --count, --explain",
                                 [&](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto table, OpenSource(ctx, a.source));
      FLOE_ASSIGN_OR_RETURN(auto state, table->Refresh());
      iceberg::TableScanOptions options;
      iceberg::AppendRange range;
      if (a.from_option->count() > 0) range.from_snapshot_id = a.from_snapshot;
      if (a.to_option->count() > 0) range.to_snapshot_id = a.to_snapshot;
      range.from_inclusive = a.from_inclusive;
      const bool incremental = a.from_option->count() > 0 || a.to_option->count() > 0;
      if (incremental && !a.as_of.empty()) {
        return Status::InvalidArgument("--as-of does not go with --from-snapshot/--to-snapshot");
      }
      if (a.from_inclusive && a.from_option->count() == 0) {
        return Status::InvalidArgument("--from-inclusive needs --from-snapshot");
      }
      FLOE_RETURN_IF_ERROR(ApplyAsOf(a.as_of, *state.metadata, &options));
      FLOE_ASSIGN_OR_RETURN(options.filter, ParseWhere(a.where));
      if (!a.select.empty()) {
        std::vector<std::string> columns;
        for (auto part : Split(a.select, ',')) columns.emplace_back(Trim(part));
        options.select = std::move(columns);
      }
      const auto started = std::chrono::steady_clock::now();
      const std::shared_ptr<FileIO> io(std::shared_ptr<FileIO>(), &table->ops().io());
      // A plain scan, or the rows appended in a snapshot range.
      std::unique_ptr<iceberg::TableScan> scan;
      std::unique_ptr<iceberg::IncrementalAppendScan> appended;
      std::unique_ptr<RecordBatchReader> reader;
      if (incremental) {
        FLOE_ASSIGN_OR_RETURN(appended, iceberg::IncrementalAppendScan::Make(io, state.metadata, range, options));
        FLOE_ASSIGN_OR_RETURN(reader, appended->Open());
      } else {
        FLOE_ASSIGN_OR_RETURN(scan, iceberg::TableScan::Make(io, state.metadata, options));
        FLOE_ASSIGN_OR_RETURN(reader, scan->Open());
      }
      // Rows print as they are read: csv, json and jsonl hold one batch at
      // a time, table a group of rows (batch_printer.h).
      FLOE_ASSIGN_OR_RETURN(OutputFormat format, ParseOutputFormat(ctx.options().format));
      BatchPrinter printer(ctx.out(), reader->schema(), PrintOptions{.format = format});
      int64_t rows = 0;
      while (a.limit < 0 || rows < a.limit) {
        FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
        if (!batch.has_value()) break;
        if (a.limit >= 0 && rows + batch->num_rows() > a.limit) *batch = batch->Slice(0, a.limit - rows);
        rows += batch->num_rows();
        if (!a.count) FLOE_RETURN_IF_ERROR(printer.Write(*batch));
      }
      if (a.count) {
        ctx.out() << rows << "\n";
      } else {
        FLOE_RETURN_IF_ERROR(printer.Finish());
      }
      if (a.explain) {
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        // The whole report, I/O included: the scan counts its own requests.
        ctx.err() << (scan ? scan->report() : appended->report()).ToString() << "\n";
        ctx.err() << StrCat("time: ", static_cast<int64_t>(ms), " ms") << "\n";
      }
      return Status::OK();
    });
    AddSourceOptions(cmd, a.source);
    cmd->add_option("--select", a.select, "Columns: a,b");
    cmd->add_option("--where", a.where, "Filter: \"ts >= '2026-10-21T20:00:00' and city in ('x','y')\"");
    cmd->add_option("--as-of", a.as_of, "Snapshot id, timestamp, branch or tag");
    cmd->add_flag("--count", a.count, "Print only the number of rows");
    cmd->add_flag("--explain", a.explain, "Print the planning report (to stderr)");
    cmd->add_option("--limit", a.limit, "At most this many rows")->check(IntegerAtLeast(0, "a number of rows"));
    a.from_option = cmd->add_option("--from-snapshot", a.from_snapshot,
                    "Only rows appended after this snapshot (incremental append scan)");
    cmd->add_flag("--from-inclusive", a.from_inclusive, "With --from-snapshot: its own appended rows too");
    a.to_option = cmd->add_option("--to-snapshot", a.to_snapshot,
                                  "Incremental append scan up to this snapshot (default: current)");
  }

  auto metadata_table = [&](const std::string& name, const std::string& description,
                            std::function<Status(CommandContext&, iceberg::Table&, const iceberg::TableState&)> run) {
    auto& source = commands.Keep<Source>();
    CLI::App* cmd = commands.Add(*group, name, description, [&source, run](CommandContext& ctx) -> Status {
      FLOE_ASSIGN_OR_RETURN(auto table, OpenSource(ctx, source));
      FLOE_ASSIGN_OR_RETURN(auto state, table->Refresh());
      return run(ctx, *table, state);
    });
    AddSourceOptions(cmd, source);
  };

  metadata_table("describe", "Schema, partitioning, sort order, properties and location",
                 [](CommandContext& ctx, iceberg::Table&, const iceberg::TableState& state) -> Status {
                   const auto& m = *state.metadata;
                   MetadataRows rows({{"field_id", true}, {"name", false}, {"type", false}, {"required", false}});
                   for (const auto& f : m.current_schema()->fields()) {
                     rows.Add({int64_t{f.field_id}, f.name, f.type->ToString(), std::string(f.required ? "yes" : "no")});
                   }
                   FLOE_RETURN_IF_ERROR(rows.Print(ctx));
                   ctx.out() << "location: " << m.location << "\nformat-version: " << m.format_version
                             << "\nmetadata: " << state.metadata_location << "\npartition spec " << m.default_spec_id << ":";
                   for (const auto& f : m.default_spec()->fields) {
                     ctx.out() << " " << f.name << "=" << f.transform.ToString() << "(" << m.current_schema()->FindColumnName(f.source_id()) << ")";
                   }
                   ctx.out() << "\nsort order " << m.default_sort_order_id << ":";
                   if (const iceberg::SortOrder* order = m.default_sort_order(); order != nullptr) {
                     for (size_t i = 0; i < order->fields.size(); ++i) {
                       const auto& f = order->fields[i];
                       ctx.out() << (i == 0 ? " " : ", ") << f.transform.ToString() << "("
                                 << m.current_schema()->FindColumnName(f.source_id()) << ") "
                                 << iceberg::SortDirectionName(f.direction) << " "
                                 << iceberg::NullOrderName(f.null_order);
                     }
                   }
                   ctx.out() << "\nproperties:";
                   for (const auto& [k, v] : m.properties) ctx.out() << " " << k << "=" << v;
                   ctx.out() << "\n";
                   return Status::OK();
                 });

  metadata_table("snapshots", "Every snapshot with its operation and summary",
                 [](CommandContext& ctx, iceberg::Table&, const iceberg::TableState& state) -> Status {
                   MetadataRows rows({{"snapshot_id", true}, {"parent_id", true}, {"sequence", true},
                                      {"committed_at", false}, {"operation", false}, {"added_files", false},
                                      {"total_records", false}, {"summary", false}});
                   for (const auto& s : state.metadata->snapshots) {
                     std::string summary;
                     for (const auto& [k, v] : s.summary) summary += StrCat(summary.empty() ? "" : ", ", k, "=", v);
                     auto get = [&](const char* key) -> MetadataRows::Cell {
                       auto it = s.summary.find(key);
                       return it == s.summary.end() ? MetadataRows::Cell() : MetadataRows::Cell(it->second);
                     };
                     rows.Add({s.snapshot_id, s.parent_snapshot_id ? MetadataRows::Cell(*s.parent_snapshot_id) : MetadataRows::Cell(),
                               s.sequence_number, FormatMs(s.timestamp_ms), s.operation.value_or(""),
                               get("added-data-files"), get("total-records"), summary});
                   }
                   return rows.Print(ctx);
                 });

  metadata_table("history", "Which snapshot was current when (the snapshot log)",
                 [](CommandContext& ctx, iceberg::Table&, const iceberg::TableState& state) -> Status {
                   MetadataRows rows({{"made_current_at", false}, {"snapshot_id", true}, {"parent_id", true}});
                   for (const auto& e : state.metadata->snapshot_log) {
                     const auto* s = state.metadata->SnapshotById(e.snapshot_id);
                     rows.Add({FormatMs(e.timestamp_ms), e.snapshot_id,
                               s && s->parent_snapshot_id ? MetadataRows::Cell(*s->parent_snapshot_id) : MetadataRows::Cell()});
                   }
                   return rows.Print(ctx);
                 });

  metadata_table("refs", "Branches and tags",
                 [](CommandContext& ctx, iceberg::Table&, const iceberg::TableState& state) -> Status {
                   MetadataRows rows({{"name", false}, {"type", false}, {"snapshot_id", true}});
                   for (const auto& [name, ref] : state.metadata->refs) {
                     rows.Add({name, std::string(iceberg::SnapshotRefTypeName(ref.type)), ref.snapshot_id});
                   }
                   return rows.Print(ctx);
                 });

  metadata_table("manifests", "The current snapshot's manifests",
                 [](CommandContext& ctx, iceberg::Table& table, const iceberg::TableState& state) -> Status {
                   MetadataRows rows({{"path", false}, {"content", false}, {"length", true}, {"spec_id", true},
                                      {"sequence", true}, {"added_snapshot_id", true}, {"added_files", true},
                                      {"existing_files", true}, {"deleted_files", true}});
                   const auto* s = state.metadata->current_snapshot();
                   if (s != nullptr) {
                     FLOE_ASSIGN_OR_RETURN(auto manifests, iceberg::SnapshotManifests(table.ops().io(), *s));
                     for (const auto& m : manifests) {
                       auto count = [](const std::optional<int32_t>& v) { return v ? MetadataRows::Cell(int64_t{*v}) : MetadataRows::Cell(); };
                       rows.Add({m.manifest_path, std::string(m.content == iceberg::ManifestContent::kData ? "data" : "deletes"),
                                 m.manifest_length, int64_t{m.partition_spec_id}, m.sequence_number, m.added_snapshot_id,
                                 count(m.added_files_count), count(m.existing_files_count), count(m.deleted_files_count)});
                     }
                   }
                   return rows.Print(ctx);
                 });

  auto entries_table = [](bool live_only, bool by_partition) {
    return [live_only, by_partition](CommandContext& ctx, iceberg::Table& table, const iceberg::TableState& state) -> Status {
      const auto& m = *state.metadata;
      const auto* s = m.current_snapshot();
      std::vector<iceberg::ManifestEntry> entries;
      std::vector<int32_t> specs;
      if (s != nullptr) {
        FLOE_ASSIGN_OR_RETURN(auto manifests, iceberg::SnapshotManifests(table.ops().io(), *s));
        for (const auto& manifest : manifests) {
          FLOE_ASSIGN_OR_RETURN(auto reader, iceberg::ManifestReader::Open(table.ops().io(), manifest));
          FLOE_ASSIGN_OR_RETURN(auto read, reader->ReadAll());
          for (auto& e : read) {
            if (live_only && !e.is_live()) continue;
            specs.push_back(manifest.partition_spec_id);
            entries.push_back(std::move(e));
          }
        }
      }
      if (by_partition) {
        std::map<std::string, std::pair<int64_t, int64_t>> partitions;  // text → (records, files)
        for (size_t i = 0; i < entries.size(); ++i) {
          if (entries[i].data_file.content != iceberg::DataFileContent::kData) continue;
          auto& p = partitions[PartitionText(m.PartitionSpecById(specs[i]), entries[i].data_file.partition)];
          p.first += entries[i].data_file.record_count;
          p.second += 1;
        }
        MetadataRows rows({{"partition", false}, {"record_count", true}, {"file_count", true}});
        for (const auto& [text, counts] : partitions) rows.Add({text, counts.first, counts.second});
        return rows.Print(ctx);
      }
      MetadataRows rows({{"status", false}, {"snapshot_id", true}, {"sequence", true}, {"content", false},
                         {"file_path", false}, {"partition", false}, {"record_count", true}, {"file_size", true}});
      static const char* kStatus[] = {"existing", "added", "deleted"};
      static const char* kContent[] = {"data", "position_deletes", "equality_deletes"};
      for (size_t i = 0; i < entries.size(); ++i) {
        const auto& e = entries[i];
        rows.Add({std::string(kStatus[static_cast<int>(e.status)]),
                  e.snapshot_id ? MetadataRows::Cell(*e.snapshot_id) : MetadataRows::Cell(),
                  e.sequence_number ? MetadataRows::Cell(*e.sequence_number) : MetadataRows::Cell(),
                  std::string(kContent[static_cast<int>(e.data_file.content)]), e.data_file.file_path,
                  PartitionText(m.PartitionSpecById(specs[i]), e.data_file.partition), e.data_file.record_count,
                  e.data_file.file_size_in_bytes});
      }
      return rows.Print(ctx);
    };
  };
  metadata_table("files", "The current snapshot's live data and delete files", entries_table(true, false));
  metadata_table("entries", "Every manifest entry of the current snapshot (deleted too)", entries_table(false, false));
  metadata_table("partitions", "Records and files per partition", entries_table(true, true));
}

}  // namespace floe::cli
