// `floe demo`: the main job, on the embedded default warehouse. It shows what
// floe can do so far, on real storage, and says what each step cost.

#include <CLI/CLI.hpp>

#include <atomic>
#include <ostream>
#include <sstream>
#include <thread>

#include "floe/base/strings.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/columnar/array.h"
#include "floe/columnar/arrow_c_data.h"
#include "floe/columnar/batch_printer.h"
#include "floe/columnar/builder.h"
#include "floe/io/fault_injecting_file_io.h"

namespace floe::cli {
namespace {

struct Order {
  int64_t order_id;
  int64_t order_ts_us;  // UTC instant
  const char* city;
  int64_t amount_cents;  // decimal(18,2) unscaled
  const char* address;   // nullptr = null
};

constexpr Order kOrders[] = {
    {1001, 1792612800000000, "Lisbon", 1250, "Rua Augusta 1"},
    {1002, 1792616400000000, "Porto", 99900, nullptr},
    {1003, 1792620000000000, "Lisbon", -500, "Av. da Liberdade 10"},
    {1004, 1792623600000000, "Coimbra", 3, "Largo da Portagem, \"3\""},
    {1005, 1792627199999999, "Faro", 123456789, "Rua de Santo António"},
};

Result<RecordBatch> OrdersBatch() {
  FLOE_ASSIGN_OR_RETURN(TypePtr amount_type, DataType::Decimal128(18, 2));
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("order_id", DataType::Int64(), false, {}, 1),
      Field("order_ts", DataType::Timestamp(TimeUnit::kMicro, "UTC"), true, {}, 2),
      Field("city", DataType::Utf8(), true, {}, 3),
      Field("amount", amount_type, true, {}, 4),
      Field("address", DataType::Utf8(), true, {}, 5),
  });
  PrimitiveBuilder<int64_t> ids;
  PrimitiveBuilder<int64_t> times(schema->fields[1].type);
  StringBuilder cities, addresses;
  PrimitiveBuilder<Decimal128Value> amounts(amount_type);
  for (const auto& o : kOrders) {
    FLOE_RETURN_IF_ERROR(ids.Append(o.order_id));
    FLOE_RETURN_IF_ERROR(times.Append(o.order_ts_us));
    FLOE_RETURN_IF_ERROR(cities.Append(o.city));
    FLOE_RETURN_IF_ERROR(amounts.Append(Decimal128Value{o.amount_cents}));
    FLOE_RETURN_IF_ERROR(o.address ? addresses.Append(o.address) : addresses.AppendNulls(1));
  }
  return FinishBatch(schema, {&ids, &times, &cities, &amounts, &addresses});
}

// Export through the Arrow C Data Interface and import back, as a foreign
// engine (DuckDB, PyArrow) would receive floe's batches.
Status ShowArrowRoundTrip(CommandContext& ctx, const RecordBatch& batch) {
  ArrowArray c_array;
  ArrowSchema c_schema;
  ExportRecordBatch(batch, &c_array, &c_schema);
  const std::string format = c_schema.format;
  const int64_t children = c_schema.n_children;
  FLOE_ASSIGN_OR_RETURN(RecordBatch back, ImportRecordBatch(&c_array, &c_schema));
  bool equal = back.num_rows() == batch.num_rows() && back.schema() == batch.schema();
  for (int i = 0; equal && i < static_cast<int>(batch.columns().size()); ++i) {
    equal = ArrayEquals(back.column(i), batch.column(i));
  }
  ctx.out() << "  exported as ArrowSchema '" << format << "' with " << children
            << " children and an ArrowArray of " << batch.num_rows() << " rows; imported back: "
            << (equal ? "identical values, types and field ids" : "DIFFERENT") << "\n";
  return equal ? Status::OK() : Status::Internal("Arrow C Data Interface round trip changed the batch");
}

// 16 writers race to create one metadata file: the atomic create that every
// commit of a table rests on. Exactly one may win.
Status ShowPutIfAbsentRace(CommandContext& ctx, FileIO& io, const std::string& path) {
  FLOE_RETURN_IF_ERROR(io.Delete(path));
  constexpr int kWriters = 16;
  std::atomic<int> winners{0}, refused{0}, failed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      Status st = io.PutIfAbsent(path, StrCat("{\"writer\": ", i, "}"));
      (st.ok() ? winners : st.IsAlreadyExists() ? refused : failed).fetch_add(1);
    });
  }
  for (auto& t : threads) t.join();
  FLOE_ASSIGN_OR_RETURN(Buffer content, io.ReadAll(path));
  ctx.out() << "  " << kWriters << " writers -> " << winners.load() << " winner, " << refused.load()
            << " AlreadyExists, " << failed.load() << " other errors; the file holds " << content.view() << "\n";
  if (winners.load() != 1 || failed.load() != 0) return Status::Internal("put-if-absent race had no single winner");
  return Status::OK();
}

// A toy commit (data file, then metadata by put-if-absent) failed at each of
// its I/O calls in each failure mode: metadata must never be visible without
// its complete data file.
Status ShowFaultInjection(CommandContext& ctx) {
  auto store = NewMemoryFileIO();
  auto faulty = std::make_shared<FaultInjectingFileIO>(store, 1);
  auto commit = [&](const std::string& name) -> Status {
    FLOE_RETURN_IF_ERROR(faulty->WriteAll("mem://demo/data/" + name, std::string_view("rows")));
    return faulty->PutIfAbsent("mem://demo/metadata/" + name, "{}");
  };
  FLOE_RETURN_IF_ERROR(commit("probe"));
  const int64_t calls = faulty->calls();
  int runs = 0, failures = 0, torn = 0;
  for (int64_t nth = 1; nth <= calls; ++nth) {
    for (FaultKind kind : {FaultKind::kFailBefore, FaultKind::kFailAfter, FaultKind::kTornWrite}) {
      faulty->ClearRules();
      faulty->AddRule(FaultRule{.nth = nth, .kind = kind});
      const std::string name = StrCat("c", runs++);
      if (!commit(name).ok()) ++failures;
      FLOE_ASSIGN_OR_RETURN(bool meta, store->Exists("mem://demo/metadata/" + name));
      auto data = store->ReadAll("mem://demo/data/" + name);
      if (meta && !(data.ok() && data->view() == "rows")) ++torn;
    }
  }
  ctx.out() << "  a commit of " << calls << " I/O calls, failed at each call in 3 modes: " << runs << " runs, "
            << failures << " reported errors, " << torn << " torn states\n";
  return torn == 0 ? Status::OK() : Status::Internal("fault injection found a torn commit");
}

Status RunDemo(CommandContext& ctx) {
  const std::string& warehouse = ctx.options().warehouse;
  std::ostream& out = ctx.out();
  out << "floe demo: what floe can do so far, on warehouse " << warehouse << "\n\n";

  out << "1. A batch of orders in the Arrow columnar layout (timestamps UTC, amount decimal(18,2)):\n";
  FLOE_ASSIGN_OR_RETURN(RecordBatch orders, OrdersBatch());
  FLOE_RETURN_IF_ERROR(PrintBatches(ctx, orders.schema_ptr(), {orders}));

  out << "\n2. The Arrow C Data Interface, the zero-copy hand-off to other engines:\n";
  FLOE_RETURN_IF_ERROR(ShowArrowRoundTrip(ctx, orders));

  // Every storage request from here on is traced, and printed in step 5.
  auto trace = std::make_shared<IoTrace>();
  FLOE_ASSIGN_OR_RETURN(auto base_io, FileIOForLocation(warehouse));
  TracingFileIO io(base_io, trace);

  out << "\n3. Objects in the warehouse, published atomically (CSV and JSON lines of the batch):\n";
  for (OutputFormat format : {OutputFormat::kCsv, OutputFormat::kJsonl}) {
    FLOE_ASSIGN_OR_RETURN(std::string text, FormatBatches(orders.schema_ptr(), {&orders, 1},
                                                          PrintOptions{.format = format}));
    const std::string path = JoinLocation(warehouse, StrCat("demo/orders.", OutputFormatName(format)));
    FLOE_RETURN_IF_ERROR(io.WriteAll(path, std::string_view(text)));
    FLOE_ASSIGN_OR_RETURN(auto file, io.OpenRead(path, OpenReadOptions{.size = static_cast<int64_t>(text.size())}));
    // Read the first and the last line back with one vectored request.
    const int64_t first_end = static_cast<int64_t>(text.find('\n')) + 1;
    const int64_t last_start = static_cast<int64_t>(text.rfind('\n', text.size() - 2)) + 1;
    const std::vector<ReadRange> ranges = {{0, first_end}, {last_start, file->size() - last_start}};
    FLOE_ASSIGN_OR_RETURN(auto parts, file->ReadRanges(ranges));
    out << "  " << path << " (" << text.size() << " B), first line: " << Trim(parts[0].view()) << "\n";
  }

  out << "\n4. The put-if-absent race and fault injection, the two halves of a safe commit:\n";
  FLOE_RETURN_IF_ERROR(ShowPutIfAbsentRace(ctx, io, JoinLocation(warehouse, "demo/race/v1.metadata.json")));
  FLOE_RETURN_IF_ERROR(ShowFaultInjection(ctx));

  out << "\n5. The storage requests of steps 3 and 4, as --trace-io shows them:\n";
  std::istringstream lines(trace->Format(warehouse));
  int shown = 0;
  for (std::string line; std::getline(lines, line);) {
    // The race's 16 PUTs look alike; show a few and the totals.
    if (StartsWith(line, "totals:") || shown++ < 8) out << "  " << line << "\n";
  }
  out << "\nNext: Parquet files, Iceberg tables and their catalog (see `floe --help`).\n";
  return Status::OK();
}

}  // namespace

void AddDemoCommand(CLI::App& app, CommandSet& commands) {
  commands.Add(app, "demo", "Run the main job on the warehouse and show what floe can do", RunDemo);
}

}  // namespace floe::cli
