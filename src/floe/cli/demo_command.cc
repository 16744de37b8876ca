// `floe demo`: the main job on the embedded default — ./warehouse with the
// SQLite catalog — telling floe's two stories on real Iceberg files:
//   1. mini-lake: snapshots, a pinned reader, partition overwrite, schema
//      evolution, deletes, two writers racing, compaction, time travel;
//   2. orders: three days of 1,000,000 orders, then an evening's orders and
//      amount by city, with the planning report and the bytes it read.
// Each run starts the demo tables afresh.

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <sstream>

#include "floe/base/strings.h"
#include "floe/catalog/catalog_uri.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/cli/table_access.h"
#include "floe/cli/table_syntax.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/update/merging_snapshot_producer.h"
#include "floe/iceberg/update/schema_update.h"
#include "floe/io/tracing_file_io.h"

namespace floe::cli {
namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000LL;
constexpr int32_t kOct1 = 20727;   // 2026-10-01
constexpr int32_t kOct20 = 20746;  // 2026-10-20
constexpr const char* kCities[] = {"Lisbon", "Porto", "Coimbra", "Faro", "Braga", "Aveiro", "Evora", "Madrid",
                                   "Sevilla", "Valencia", "Bilbao", "Paris", "Lyon", "Berlin", "Hamburg", "Rome"};

using iceberg::BatchSource;
using iceberg::Table;

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// --- the mini-lake -------------------------------------------------------

struct Event {
  int64_t id;
  int64_t ts;
  std::string user;
  std::optional<std::string> channel;
};

// Rows of the events table's schema at the time (with or without `channel`).
Result<RecordBatch> EventsBatch(const std::shared_ptr<const Schema>& schema, const std::vector<Event>& events) {
  Int64Builder ids;
  PrimitiveBuilder<int64_t> ts(schema->field(1).type);
  StringBuilder users;
  StringBuilder channels;
  for (const auto& e : events) {
    FLOE_RETURN_IF_ERROR(ids.Append(e.id));
    FLOE_RETURN_IF_ERROR(ts.Append(e.ts));
    FLOE_RETURN_IF_ERROR(users.Append(e.user));
    FLOE_RETURN_IF_ERROR(e.channel ? channels.Append(*e.channel) : channels.AppendNull());
  }
  if (schema->num_fields() == 3) return FinishBatch(schema, {&ids, &ts, &users});
  return FinishBatch(schema, {&ids, &ts, &users, &channels});
}

constexpr int64_t kMicrosPerEvent = 20 * 60'000'000LL;  // an event every 20 minutes
constexpr int kMicroBatches = 4;                          // of each streaming writer

std::vector<Event> Day(int32_t day, int64_t first_id, int count, std::optional<std::string> channel = std::nullopt) {
  std::vector<Event> events;
  for (int i = 0; i < count; ++i) {
    events.push_back({first_id + i, int64_t{day} * kMicrosPerDay + int64_t{i} * kMicrosPerEvent,
                      StrCat("user", (first_id + i) % 7), channel});
  }
  return events;
}

BatchSource Once(RecordBatch batch) {
  auto done = std::make_shared<bool>(false);
  return [batch, done]() -> Result<std::optional<RecordBatch>> {
    if (*done) return std::optional<RecordBatch>();
    *done = true;
    return std::optional<RecordBatch>(batch);
  };
}

Result<int64_t> CountAt(Table& table, std::optional<int64_t> snapshot_id) {
  iceberg::TableScanOptions options;
  options.snapshot_id = snapshot_id;
  FLOE_ASSIGN_OR_RETURN(auto scan, table.NewScan(options));
  FLOE_ASSIGN_OR_RETURN(auto reader, scan->Open());
  int64_t rows = 0;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch.has_value()) return rows;
    rows += batch->num_rows();
  }
}

// The live data files of the table's current snapshot, as planning lists them.
Result<int64_t> DataFileCount(Table& table) {
  FLOE_ASSIGN_OR_RETURN(auto scan, table.NewScan({}));
  FLOE_ASSIGN_OR_RETURN(auto files, scan->PlanFiles());
  return static_cast<int64_t>(files.size());
}

Result<std::shared_ptr<Table>> Recreate(CommandContext& ctx, catalog::Catalog& catalog, const std::string& name,
                                        const std::string& schema_text, const std::string& partition,
                                        const std::string& sort, std::map<std::string, std::string> properties) {
  FLOE_ASSIGN_OR_RETURN(auto ident, catalog::TableIdentifier::Parse(name));
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, catalog.NamespaceExists(ident.ns));
  if (!ns_exists) FLOE_RETURN_IF_ERROR(catalog.CreateNamespace(ident.ns, {}));
  FLOE_ASSIGN_OR_RETURN(bool exists, catalog.TableExists(ident));
  if (exists) FLOE_RETURN_IF_ERROR(catalog.DropTable(ident, /*purge=*/true));
  catalog::CreateTableRequest request;
  FLOE_ASSIGN_OR_RETURN(request.schema, ParseSchemaText(schema_text));
  FLOE_ASSIGN_OR_RETURN(request.partition_spec, ParsePartitionText(partition, request.schema));
  if (!sort.empty()) {
    FLOE_ASSIGN_OR_RETURN(request.sort_order, ParseSortText(sort, request.schema));
  }
  request.properties = std::move(properties);
  FLOE_ASSIGN_OR_RETURN(auto state, catalog.CreateTable(ident, request));
  ctx.out() << "  created " << name << " at " << state.metadata->location << "\n";
  return std::make_shared<Table>(catalog.NewTableOps(ident));
}

Status MiniLake(CommandContext& ctx, catalog::Catalog& catalog) {
  ctx.out() << "\n== 1. mini-lake: demo.events, partitioned by day(ts) ==\n";
  FLOE_ASSIGN_OR_RETURN(auto table, Recreate(ctx, catalog, "demo.events", "id long not null, ts timestamp, user string",
                                             "day(ts)", "", {{"commit.retry.min-wait-ms", "10"}}));
  FLOE_ASSIGN_OR_RETURN(auto schema, table->WriteSchema());

  FLOE_ASSIGN_OR_RETURN(auto day1, EventsBatch(schema, Day(kOct1, 1, 60)));
  FLOE_ASSIGN_OR_RETURN(auto s1, table->Append(Once(day1)));
  const int64_t s1_id = *s1.state.metadata->current_snapshot_id;
  ctx.out() << "  s1: appended 60 rows of 2026-10-01 (snapshot " << s1_id << ")\n";
  FLOE_ASSIGN_OR_RETURN(auto day2, EventsBatch(schema, Day(kOct1 + 1, 61, 60)));
  FLOE_ASSIGN_OR_RETURN(auto s2, table->Append(Once(day2)));
  ctx.out() << "  s2: appended 60 rows of 2026-10-02 (snapshot " << *s2.state.metadata->current_snapshot_id << ")\n";

  FLOE_ASSIGN_OR_RETURN(auto day2_again, EventsBatch(schema, Day(kOct1 + 1, 1001, 50)));
  FLOE_ASSIGN_OR_RETURN(auto s3, table->ReplacePartitions(Once(day2_again)));
  ctx.out() << "  s3: overwrote partition 2026-10-02 with 50 rows (" << s3.data_files_added
            << " file replaces the partition's files)\n";

  FLOE_RETURN_IF_ERROR(table
                           ->CommitChanges([](const iceberg::TableMetadata& m)
                                               -> Result<std::pair<std::vector<iceberg::TableRequirement>,
                                                                   std::vector<iceberg::TableUpdate>>> {
                             iceberg::SchemaUpdate update(*m.current_schema(), m.last_column_id, m.format_version);
                             update.AddColumn("channel", iceberg::Type::String());
                             FLOE_ASSIGN_OR_RETURN(auto applied, update.Apply());
                             std::vector<iceberg::TableRequirement> reqs = {
                                 iceberg::AssertCurrentSchemaId{m.current_schema_id}};
                             std::vector<iceberg::TableUpdate> updates = {iceberg::AddSchema{applied.schema},
                                                                          iceberg::SetCurrentSchema{iceberg::kLastAdded}};
                             return std::make_pair(std::move(reqs), std::move(updates));
                           })
                           .status());
  FLOE_ASSIGN_OR_RETURN(schema, table->WriteSchema());
  FLOE_ASSIGN_OR_RETURN(auto day3, EventsBatch(schema, Day(kOct1 + 2, 2001, 30, "app")));
  FLOE_ASSIGN_OR_RETURN(auto s4, table->Append(Once(day3)));
  ctx.out() << "  added column channel; s4: appended 30 rows of 2026-10-03 with channel 'app'\n";
  {
    iceberg::TableScanOptions options;
    options.select = std::vector<std::string>{"channel"};
    FLOE_ASSIGN_OR_RETURN(auto scan, table->NewScan(options));
    FLOE_ASSIGN_OR_RETURN(auto reader, scan->Open());
    int64_t nulls = 0, app = 0;
    while (true) {
      FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
      if (!batch.has_value()) break;
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        if (batch->column(0).IsNull(i)) {
          ++nulls;
        } else if (batch->column(0).GetString(i) == "app") {
          ++app;
        }
      }
    }
    ctx.out() << "    channel: " << nulls << " old rows read null, " << app << " new rows read 'app'\n";
  }

  FLOE_ASSIGN_OR_RETURN(auto filter, iceberg::ParseExpression("id >= 1 and id <= 5"));
  FLOE_ASSIGN_OR_RETURN(auto s5, table->Delete(filter));
  ctx.out() << "  s5: deleted 5 rows (id 1..5): " << s5.data_files_rewritten << " file rewritten without them\n";

  // Two streaming writers append from the same base snapshot. Each commits
  // four micro-batches of ten rows (five of 2026-10-04, five of 10-05) and,
  // as a streaming job's writer does, closes a file per micro-batch and day:
  // the small files compaction is for.
  {
    FLOE_ASSIGN_OR_RETURN(auto base, table->Refresh());
    auto write = [&](int64_t first_id) -> Result<std::vector<iceberg::DataFile>> {
      std::vector<iceberg::DataFile> written;
      for (int b = 0; b < kMicroBatches; ++b) {
        FLOE_ASSIGN_OR_RETURN(auto options, iceberg::DataWriterOptions::FromTable(*base.metadata));
        FLOE_ASSIGN_OR_RETURN(auto writer, iceberg::DataFileWriter::Make(
                                               std::shared_ptr<FileIO>(std::shared_ptr<FileIO>(), &table->ops().io()),
                                               *base.metadata, std::move(options)));
        const int64_t id = first_id + b * 10;
        std::vector<Event> events = Day(kOct1 + 3, id, 5, "web");
        for (Event& e : Day(kOct1 + 4, id + 5, 5, "web")) events.push_back(std::move(e));
        for (Event& e : events) e.ts += int64_t{b} * 5 * kMicrosPerEvent;  // later micro-batches, later events
        FLOE_ASSIGN_OR_RETURN(auto batch, EventsBatch(schema, events));
        FLOE_RETURN_IF_ERROR(writer->Write(batch));
        FLOE_ASSIGN_OR_RETURN(auto files, writer->Close());
        for (auto& f : files) written.push_back(std::move(f));
      }
      return written;
    };
    FLOE_ASSIGN_OR_RETURN(auto files_a, write(3001));
    FLOE_ASSIGN_OR_RETURN(auto files_b, write(4001));
    std::shared_ptr<iceberg::TableOperations> ops(std::shared_ptr<iceberg::TableOperations>(), &table->ops());
    iceberg::MergingSnapshotProducer writer_a(ops, "append");
    iceberg::MergingSnapshotProducer writer_b(ops, "append");
    writer_a.set_starting_state(base);
    writer_b.set_starting_state(base);
    for (auto& f : files_a) writer_a.AddFile(f);
    for (auto& f : files_b) writer_b.AddFile(f);
    FLOE_RETURN_IF_ERROR(writer_a.Commit().status());
    // B's first attempt uses the base A already replaced: the catalog refuses
    // the swap, B reloads, revalidates (an append still holds) and retries.
    auto b = writer_b.Commit();
    FLOE_RETURN_IF_ERROR(b.status());
    ctx.out() << "  s6, s7: two streaming writers appended from the same base snapshot, " << kMicroBatches * 10
              << " rows of 2026-10-04/05 each in " << files_a.size() << " and " << files_b.size()
              << " small files: A landed in " << writer_a.report().attempts
              << " attempt, B lost the race, retried and landed in " << writer_b.report().attempts << " attempts ("
              << writer_b.report().conflicts << " conflict)\n";
  }

  FLOE_ASSIGN_OR_RETURN(const int64_t before, CountAt(*table, std::nullopt));
  FLOE_ASSIGN_OR_RETURN(const int64_t files_before, DataFileCount(*table));
  FLOE_ASSIGN_OR_RETURN(auto compacted, table->Compact());
  FLOE_ASSIGN_OR_RETURN(const int64_t after, CountAt(*table, std::nullopt));
  FLOE_ASSIGN_OR_RETURN(const int64_t files_after, DataFileCount(*table));
  if (compacted.has_value()) {
    ctx.out() << "  s8: compacted " << compacted->data_files_rewritten << " small files into "
              << compacted->data_files_added << " (data files " << files_before << " before, " << files_after
              << " after); rows " << before << " before, " << after << " after\n";
  }
  if (before != after) return Status::Internal("compaction changed the row count");

  FLOE_ASSIGN_OR_RETURN(const int64_t pinned, CountAt(*table, s1_id));
  ctx.out() << "  a reader pinned at s1 still reads " << pinned << " rows\n\n";

  // The snapshot log with time travel counts.
  FLOE_ASSIGN_OR_RETURN(auto state, table->Refresh());
  auto log_schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("snapshot", DataType::Utf8()), Field("parent", DataType::Utf8()), Field("operation", DataType::Utf8()),
      Field("files", DataType::Int64()), Field("rows", DataType::Int64()), Field("time_travel_rows", DataType::Int64()),
      Field("summary", DataType::Utf8())});
  StringBuilder ids, parents, operations, summaries;
  Int64Builder files, rows, travel;
  int n = 0;
  for (const auto& entry : state.metadata->snapshot_log) {
    const auto* s = state.metadata->SnapshotById(entry.snapshot_id);
    if (s == nullptr) continue;
    ++n;
    FLOE_RETURN_IF_ERROR(ids.Append(StrCat("s", n, " ", s->snapshot_id)));
    FLOE_RETURN_IF_ERROR(s->parent_snapshot_id ? parents.Append(StrCat(*s->parent_snapshot_id)) : parents.AppendNull());
    FLOE_RETURN_IF_ERROR(operations.Append(s->operation.value_or("")));
    auto total = [&](const char* key) {
      auto it = s->summary.find(key);
      int64_t v = 0;
      return it != s->summary.end() && ParseInt64(it->second, &v) ? v : -1;
    };
    FLOE_RETURN_IF_ERROR(files.Append(total("total-data-files")));
    FLOE_RETURN_IF_ERROR(rows.Append(total("total-records")));
    FLOE_ASSIGN_OR_RETURN(const int64_t count, CountAt(*table, s->snapshot_id));
    FLOE_RETURN_IF_ERROR(travel.Append(count));
    std::string summary;
    for (const char* key : {"added-data-files", "deleted-data-files", "added-records", "deleted-records"}) {
      if (auto it = s->summary.find(key); it != s->summary.end()) summary += StrCat(summary.empty() ? "" : " ", key, "=", it->second);
    }
    FLOE_RETURN_IF_ERROR(summaries.Append(summary));
  }
  FLOE_ASSIGN_OR_RETURN(auto log, FinishBatch(log_schema, {&ids, &parents, &operations, &files, &rows, &travel, &summaries}));
  return PrintBatches(ctx, log_schema, {log});
}

// --- orders ------------------------------------------------------------------

// The seeds' sizes; `--orders-per-day` scales them down (tests), keeping eight
// row groups a day. Pages of 4,096 rows (Java's default is 20,000): the
// query selects a time range, and page-index pruning reads whole pages at
// each end of it, so a page should hold minutes of orders, not half an hour
// (docs/decisions/0040-orders-bytes.md).
struct OrdersSize {
  int64_t per_day = 1'000'000;
  int64_t row_group_rows() const { return std::max<int64_t>(1, per_day / 8); }
  int64_t page_rows() const { return std::max<int64_t>(1, std::min<int64_t>(4096, row_group_rows())); }
};

// One day of orders, ascending in time, in batches of a row group.
BatchSource OrdersOfDay(std::shared_ptr<const Schema> schema, int32_t day, OrdersSize size) {
  const int64_t orders_per_day = size.per_day;
  const int64_t row_group_rows = size.row_group_rows();
  auto next = std::make_shared<int64_t>(0);
  auto rng = std::make_shared<std::mt19937_64>(0x0d3a + day);
  return [schema, day, next, rng, orders_per_day, row_group_rows]() -> Result<std::optional<RecordBatch>> {
    if (*next >= orders_per_day) return std::optional<RecordBatch>();
    const int64_t begin = *next;
    const int64_t end = std::min(orders_per_day, begin + row_group_rows);
    Int64Builder ids;
    PrimitiveBuilder<int64_t> ts(schema->field(1).type);
    StringBuilder cities;
    PrimitiveBuilder<Decimal128Value> amounts(schema->field(3).type);
    StringBuilder addresses;
    for (int64_t i = begin; i < end; ++i) {
      FLOE_RETURN_IF_ERROR(ids.Append(int64_t{day} * orders_per_day + i));
      FLOE_RETURN_IF_ERROR(ts.Append(int64_t{day} * kMicrosPerDay + i * (kMicrosPerDay / orders_per_day)));
      const uint64_t r = (*rng)();
      FLOE_RETURN_IF_ERROR(cities.Append(kCities[r % std::size(kCities)]));
      FLOE_RETURN_IF_ERROR(amounts.Append(Decimal128Value{static_cast<int64_t>(100 + (r >> 8) % 49900)}));
      FLOE_RETURN_IF_ERROR(addresses.Append(StrCat("Rua ", (r >> 24) % 5000, ", ", kCities[(r >> 40) % std::size(kCities)])));
    }
    *next = end;
    FLOE_ASSIGN_OR_RETURN(auto batch, FinishBatch(schema, {&ids, &ts, &cities, &amounts, &addresses}));
    return std::optional<RecordBatch>(std::move(batch));
  };
}

Status Orders(CommandContext& ctx, catalog::Catalog& catalog, OrdersSize size) {
  ctx.out() << "\n== 2. orders: shop.orders, partitioned by day(order_ts) ==\n";
  FLOE_ASSIGN_OR_RETURN(auto table,
                        Recreate(ctx, catalog, "shop.orders",
                                 "order_id long not null, order_ts timestamp, city string, amount decimal(18,2), address string",
                                 "day(order_ts)", "order_ts",
                                 {{"write.parquet.row-group-limit", StrCat(size.row_group_rows())},
                                  {"write.parquet.compression-codec", "zstd"},
                                  {"write.parquet.page-row-limit", StrCat(size.page_rows())}}));
  FLOE_ASSIGN_OR_RETURN(auto schema, table->WriteSchema());
  for (int32_t d = 0; d < 3; ++d) {
    const auto started = std::chrono::steady_clock::now();
    FLOE_ASSIGN_OR_RETURN(auto result, table->Append(OrdersOfDay(schema, kOct20 + d, size)));
    ctx.out() << "  day 2026-10-" << 20 + d << ": " << result.rows_written << " rows in " << result.data_files_added
              << " file, committed in " << StrCat(static_cast<int64_t>(Seconds(started) * 1000)) << " ms (snapshot "
              << *result.state.metadata->current_snapshot_id << ")\n";
  }

  const std::string where = "order_ts >= '2026-10-21T20:00:00' and order_ts < '2026-10-21T22:00:00'";
  ctx.out() << "\n  orders and amount by city where " << where << "\n";
  // The scan counts its requests and bytes for its report; the query also
  // runs on a traced FileIO, to list each request.
  auto trace = std::make_shared<IoTrace>();
  auto traced = std::make_shared<TracingFileIO>(std::shared_ptr<FileIO>(std::shared_ptr<FileIO>(), &table->ops().io()),
                                                trace);
  FLOE_ASSIGN_OR_RETURN(auto state, table->Refresh());
  iceberg::TableScanOptions options;
  FLOE_ASSIGN_OR_RETURN(options.filter, iceberg::ParseExpression(where));
  options.select = std::vector<std::string>{"city", "amount"};
  const auto started = std::chrono::steady_clock::now();
  FLOE_ASSIGN_OR_RETURN(auto scan, iceberg::TableScan::Make(traced, state.metadata, options));
  FLOE_ASSIGN_OR_RETURN(auto reader, scan->Open());
  std::map<std::string, std::pair<int64_t, Decimal128Value>> by_city;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch.has_value()) break;
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      auto& agg = by_city[std::string(batch->column(0).GetString(i))];
      ++agg.first;
      agg.second += batch->column(1).GetDecimal128(i);
    }
  }
  const double ms = Seconds(started) * 1000;
  FLOE_ASSIGN_OR_RETURN(auto amount_type, DataType::Decimal128(38, 2));
  auto result_schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("city", DataType::Utf8()), Field("orders", DataType::Int64()), Field("amount", amount_type)});
  StringBuilder cities;
  Int64Builder counts;
  PrimitiveBuilder<Decimal128Value> amounts(amount_type);
  for (const auto& [city, agg] : by_city) {
    FLOE_RETURN_IF_ERROR(cities.Append(city));
    FLOE_RETURN_IF_ERROR(counts.Append(agg.first));
    FLOE_RETURN_IF_ERROR(amounts.Append(agg.second));
  }
  FLOE_ASSIGN_OR_RETURN(auto result, FinishBatch(result_schema, {&cities, &counts, &amounts}));
  FLOE_RETURN_IF_ERROR(PrintBatches(ctx, result_schema, {result}));

  int64_t table_bytes = 0;
  FLOE_ASSIGN_OR_RETURN(auto full_scan, iceberg::TableScan::Make(std::shared_ptr<FileIO>(std::shared_ptr<FileIO>(),
                                                                                           &table->ops().io()),
                                                                 state.metadata, {}));
  FLOE_ASSIGN_OR_RETURN(auto all_files, full_scan->PlanFiles());
  for (const auto& task : all_files) table_bytes += task.file.file_size_in_bytes();
  ctx.out() << "\n  planning report:\n";
  const iceberg::ScanReport& report = scan->report();
  const std::string report_text = report.ToString();  // Split's views point into it
  for (auto line : Split(report_text, '\n')) ctx.out() << "    " << line << "\n";
  const int64_t data_bytes = report.data_file_io.bytes_read;
  char share[32];
  std::snprintf(share, sizeof share, "%.2f%%", 100.0 * static_cast<double>(data_bytes) /
                                                   static_cast<double>(std::max<int64_t>(table_bytes, 1)));
  ctx.out() << "  floe read " << FormatBytes(data_bytes) << " of the " << FormatBytes(table_bytes)
            << " of data files (" << share << ") in " << report.data_file_io.requests << " requests, "
            << FormatBytes(report.bytes_read()) << " in all, " << StrCat(static_cast<int64_t>(ms)) << " ms\n";
  ctx.out() << "\n  the requests of the query:\n";
  std::istringstream lines(trace->Format(ctx.options().warehouse));
  for (std::string line; std::getline(lines, line);) ctx.out() << "    " << line << "\n";
  return Status::OK();
}

Status RunDemo(CommandContext& ctx, OrdersSize size) {
  ctx.out() << "floe demo on warehouse " << ctx.options().warehouse << " (catalog "
            << catalog::RedactCatalogUri(ctx.options().catalog) << ")\n";
  FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalogFor(ctx));
  FLOE_RETURN_IF_ERROR(MiniLake(ctx, *catalog));
  return Orders(ctx, *catalog, size);
}

}  // namespace

void AddDemoCommand(CLI::App& app, CommandSet& commands) {
  auto& per_day = commands.Keep<int64_t>(1'000'000);
  CLI::App* demo = commands.Add(app, "demo", "Run the main job on the warehouse: the mini-lake and orders stories",
                                [&per_day](CommandContext& ctx) { return RunDemo(ctx, OrdersSize{per_day}); });
  demo->add_option("--orders-per-day", per_day, "Rows of each day of the orders story (default 1000000)")
      ->check(CLI::Range(int64_t{8}, int64_t{100'000'000}));
}

}  // namespace floe::cli
