// Commits through `floe serve`: commits per second and p50 / p99 latency of
// fast appends by W concurrent writers (W = 1, 8, 32 by default), each a
// thread with its own RestCatalog (its own keep-alive HTTP connections),
// on distinct tables (one per writer) and all on one table (lost races are
// retried by the append's OCC loop and counted).
//
// For each --run NAME,CATALOG_URI,WAREHOUSE the program starts the real
// `floe serve` (--floe BINARY, --port 0, --insecure-dev) over that catalog,
// runs every case against it, and stops it with SIGTERM. The warehouse is a
// local folder on disk: the server writes the metadata JSON there (durably,
// as every commit does), the writers their data file and the manifests and
// manifest lists of each append.
//
// One commit is Table::AppendFiles of the writer's one data file (a small
// Parquet file written once per writer before the clock starts): a
// LoadTable, a manifest and a manifest list written by the writer, and the
// CommitTable POST — what a real append does once its data is written.
// Latency is that whole call, as the writer sees it. CPU is the server
// process's (utime + stime from /proc) and the bench process's (all
// writers: getrusage) over the timed part, per commit.
//
// Flags: --writers 1,8,32  --modes distinct,one  --commits N (per case,
// split between the writers; default 2000)  --workers N (floe serve
// --workers; default 32)  --max-seconds S (per case: no commit starts
// after it; default 60)  --log FILE (floe serve's access log; default
// /dev/null). Prints one table row per case and a goal line for the SQLite
// distinct-table cases (>= 500 commits/s with p99 < 50 ms).

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "floe/base/strings.h"
#include "floe/catalog/rest_catalog.h"
#include "floe/columnar/builder_binary.h"
#include "floe/columnar/builder_primitive.h"
#include "floe/iceberg/data_file_writer.h"
#include "floe/iceberg/table.h"
#include "floe/io/file_io.h"
#include "testing/serve_process.h"

namespace floe {
namespace {

struct Run {
  std::string name;
  std::string catalog_uri;
  std::string warehouse;
};

struct Flags {
  std::string floe_binary;
  std::vector<Run> runs;
  std::vector<int> writers = {1, 8, 32};
  std::vector<std::string> modes = {"distinct", "one"};
  int commits = 2000;
  int workers = 32;
  double max_seconds = 60;  // per case: writers stop starting commits after it
  std::string log = "/dev/null";
};

struct CaseResult {
  std::string catalog;
  std::string mode;
  int writers = 0;
  int64_t commits = 0;
  int64_t failed = 0;
  int64_t retries = 0;
  double seconds = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double server_cpu_ms = 0;  // per commit
  double client_cpu_ms = 0;  // per commit
  double commits_per_s() const { return seconds > 0 ? static_cast<double>(commits) / seconds : 0; }
};

[[noreturn]] void Die(const std::string& message) {
  std::cerr << "serve_commit_bench: " << message << "\n";
  std::exit(1);
}

template <typename T>
T Check(Result<T> r, const std::string& what) {
  if (!r.ok()) Die(what + ": " + r.status().ToString());
  return std::move(*r);
}
void Check(const Status& s, const std::string& what) {
  if (!s.ok()) Die(what + ": " + s.ToString());
}

std::vector<std::string> SplitText(const std::string& text, char sep) {
  std::vector<std::string> parts;
  for (std::string_view part : Split(text, sep)) parts.emplace_back(part);
  return parts;
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) Die("flag " + arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--floe") {
      flags.floe_binary = value;
    } else if (arg == "--run") {
      auto parts = SplitText(value, ',');
      if (parts.size() != 3) Die("--run " + value + ": expected NAME,CATALOG_URI,WAREHOUSE");
      flags.runs.push_back({parts[0], parts[1], parts[2]});
    } else if (arg == "--writers") {
      flags.writers.clear();
      for (const auto& w : SplitText(value, ',')) flags.writers.push_back(std::max(1, std::atoi(w.c_str())));
    } else if (arg == "--modes") {
      flags.modes = SplitText(value, ',');
      for (const auto& m : flags.modes) {
        if (m != "distinct" && m != "one") Die("--modes: " + m + " is neither distinct nor one");
      }
    } else if (arg == "--commits") {
      flags.commits = std::max(1, std::atoi(value.c_str()));
    } else if (arg == "--workers") {
      flags.workers = std::max(1, std::atoi(value.c_str()));
    } else if (arg == "--max-seconds") {
      flags.max_seconds = std::atof(value.c_str());
    } else if (arg == "--log") {
      flags.log = value;
    } else {
      Die("unknown flag " + arg);
    }
  }
  if (flags.floe_binary.empty()) Die("--floe BINARY is required");
  if (flags.runs.empty()) Die("give at least one --run NAME,CATALOG_URI,WAREHOUSE");
  return flags;
}

// CPU seconds (user + system) the process `pid` has used.
double ProcessCpuSeconds(pid_t pid) {
  std::ifstream in(StrCat("/proc/", pid, "/stat"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  double utime = 0, stime = 0;
  // After "(comm) ": state is field 3; utime and stime are fields 14 and 15.
  for (int n = 3; n <= 15 && fields >> field; ++n) {
    if (n == 14) utime = std::atof(field.c_str());
    if (n == 15) stime = std::atof(field.c_str());
  }
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double SelfCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return StrCat(one, " ", five, " ", fifteen);
}

// `floe serve` over one catalog, on a free port; SIGTERM when destroyed.
class Server {
 public:
  Server(const Flags& flags, const Run& run) {
    std::vector<std::string> args = {flags.floe_binary, "serve",       "--host",
                                     "127.0.0.1",       "--port",      "0",
                                     "--insecure-dev",  "--workers",   std::to_string(flags.workers),
                                     "--catalog",       run.catalog_uri, "--warehouse",
                                     run.warehouse};
    auto process = floe::testing::ServeProcess::Start(std::move(args), flags.log);
    if (!process.ok()) Die(StrCat("floe serve over ", run.catalog_uri, ": ", process.status().message()));
    process_ = std::move(*process);
  }
  const std::string& url() const { return process_->url(); }
  pid_t pid() const { return process_->pid(); }

 private:
  std::unique_ptr<floe::testing::ServeProcess> process_;
};

std::shared_ptr<catalog::RestCatalog> OpenRest(const std::string& url, std::shared_ptr<FileIO> io) {
  catalog::RestCatalogOptions options;
  options.uri = url;
  return Check(catalog::RestCatalog::Open(std::move(options), std::move(io)), "opening the REST catalog " + url);
}

iceberg::NestedField Column(int32_t id, const char* name, iceberg::TypePtr type) {
  iceberg::NestedField field;
  field.field_id = id;
  field.name = name;
  field.type = std::move(type);
  return field;
}

catalog::CreateTableRequest TableRequest() {
  catalog::CreateTableRequest request;
  request.schema =
      iceberg::Schema::Make(0, {Column(1, "id", iceberg::Type::Long()), Column(2, "name", iceberg::Type::String())})
          .value();
  // Writers on one table lose races; they retry with short pauses rather
  // than Java's 100 ms minimum, so the bench measures the catalog, not sleeps.
  request.properties = {{"commit.retry.num-retries", "100"},
                        {"commit.retry.min-wait-ms", "2"},
                        {"commit.retry.max-wait-ms", "100"},
                        {"commit.retry.total-timeout-ms", "120000"}};
  return request;
}

// The writer's one data file: ten rows of Parquet, written once.
iceberg::DataFile WriteDataFile(const std::shared_ptr<FileIO>& io, const iceberg::TableMetadata& metadata, int writer) {
  auto options = Check(iceberg::DataWriterOptions::FromTable(metadata), "data writer options");
  auto writer_ptr = Check(iceberg::DataFileWriter::Make(io, metadata, options), "data writer");
  Int64Builder ids;
  StringBuilder names;
  for (int64_t i = 0; i < 10; ++i) {
    Check(ids.Append(writer * 1000 + i), "ids");
    Check(names.Append(StrCat("writer-", writer, "-row-", i)), "names");
  }
  auto batch = Check(RecordBatch::Make(writer_ptr->schema(), {Check(ids.Finish(), "ids"), Check(names.Finish(), "names")}),
                     "batch");
  Check(writer_ptr->Write(batch), "writing the data file");
  auto files = Check(writer_ptr->Close(), "closing the data file");
  if (files.size() != 1) Die(StrCat("expected one data file, got ", files.size()));
  return files[0];
}

double Percentile(std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const size_t index = std::min(sorted.size() - 1, static_cast<size_t>(q * static_cast<double>(sorted.size())));
  return sorted[index];
}

CaseResult RunCase(const Flags& flags, const Run& run, const Server& server, const std::string& mode, int writers,
                   int case_number) {
  auto io = NewLocalFileIO();
  auto setup = OpenRest(server.url(), io);
  const catalog::Namespace ns{{StrCat("bench_", case_number, "_", mode, "_w", writers)}};
  Check(setup->CreateNamespace(ns, {}), "creating namespace " + ns.ToString());
  const int tables = mode == "one" ? 1 : writers;
  for (int t = 0; t < tables; ++t) {
    Check(setup->CreateTable(catalog::TableIdentifier{ns, StrCat("t", t)}, TableRequest()), "creating a table");
  }
  const int per_writer = std::max(1, (flags.commits + writers - 1) / writers);

  struct Writer {
    std::vector<double> latencies_ms;
    int64_t retries = 0;
    int64_t failed = 0;
    std::string first_error;
  };
  std::vector<Writer> results(static_cast<size_t>(writers));
  std::barrier ready(writers + 1);
  std::barrier done(writers + 1);
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&, w] {
      Writer& me = results[static_cast<size_t>(w)];
      auto catalog = OpenRest(server.url(), NewLocalFileIO());
      const catalog::TableIdentifier ident{ns, StrCat("t", mode == "one" ? 0 : w)};
      iceberg::Table table(catalog->NewTableOps(ident));
      auto state = Check(table.Refresh(), "loading " + ident.ToString());
      const iceberg::DataFile file = WriteDataFile(catalog->io(), *state.metadata, w);
      // One untimed append: the connections are open and warm after it.
      Check(table.AppendFiles({file}).status(), "warm-up append");
      ready.arrive_and_wait();
      me.latencies_ms.reserve(static_cast<size_t>(per_writer));
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(flags.max_seconds);
      for (int i = 0; i < per_writer && std::chrono::steady_clock::now() < deadline; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto appended = table.AppendFiles({file});
        const auto end = std::chrono::steady_clock::now();
        if (!appended.ok()) {
          ++me.failed;
          if (me.first_error.empty()) me.first_error = appended.status().ToString();
          continue;
        }
        me.retries += appended->commit.conflicts;
        me.latencies_ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
      }
      done.arrive_and_wait();
    });
  }
  ready.arrive_and_wait();
  const double server_cpu0 = ProcessCpuSeconds(server.pid());
  const double client_cpu0 = SelfCpuSeconds();
  const auto start = std::chrono::steady_clock::now();
  done.arrive_and_wait();
  const auto end = std::chrono::steady_clock::now();
  const double server_cpu = ProcessCpuSeconds(server.pid()) - server_cpu0;
  const double client_cpu = SelfCpuSeconds() - client_cpu0;
  for (auto& t : threads) t.join();

  CaseResult result{run.name, mode, writers};
  std::vector<double> all;
  for (const Writer& w : results) {
    all.insert(all.end(), w.latencies_ms.begin(), w.latencies_ms.end());
    result.retries += w.retries;
    result.failed += w.failed;
    if (!w.first_error.empty()) std::cerr << "serve_commit_bench: a commit failed: " << w.first_error << "\n";
  }
  std::sort(all.begin(), all.end());
  result.commits = static_cast<int64_t>(all.size());
  result.seconds = std::chrono::duration<double>(end - start).count();
  result.p50_ms = Percentile(all, 0.50);
  result.p99_ms = Percentile(all, 0.99);
  const double n = static_cast<double>(std::max<int64_t>(result.commits, 1));
  result.server_cpu_ms = server_cpu * 1000 / n;
  result.client_cpu_ms = client_cpu * 1000 / n;

  // Every commit landed: each table has its snapshots (warm-up included).
  int64_t snapshots = 0;
  for (int t = 0; t < tables; ++t) {
    auto loaded = Check(setup->LoadTable(catalog::TableIdentifier{ns, StrCat("t", t)}), "reloading a table");
    snapshots += static_cast<int64_t>(loaded.metadata->snapshots.size());
  }
  if (snapshots != result.commits + writers) {
    Die(StrCat(run.name, " ", mode, " W=", writers, ": ", result.commits, " commits + ", writers,
               " warm-ups reported, but the tables have ", snapshots, " snapshots"));
  }
  return result;
}

void PrintRow(const CaseResult& r) {
  std::printf("%-10s %-9s %7d %8lld %10.0f %8.2f %8.2f %8lld %6lld %11.2f %11.2f\n", r.catalog.c_str(), r.mode.c_str(),
              r.writers, static_cast<long long>(r.commits), r.commits_per_s(), r.p50_ms, r.p99_ms,
              static_cast<long long>(r.retries), static_cast<long long>(r.failed), r.server_cpu_ms, r.client_cpu_ms);
  std::fflush(stdout);
}

int Main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  std::printf("# floe serve --workers %d; warehouse: local FileIO (disk); %d commits per case; %ld cores; load %s\n",
              flags.workers, flags.commits, sysconf(_SC_NPROCESSORS_ONLN), LoadAverage().c_str());
  std::printf("%-10s %-9s %7s %8s %10s %8s %8s %8s %6s %11s %11s\n", "catalog", "tables", "writers", "commits",
              "commits/s", "p50_ms", "p99_ms", "retries", "failed", "srv_cpu_ms", "cli_cpu_ms");
  std::vector<CaseResult> results;
  int case_number = 0;
  for (const Run& run : flags.runs) {
    Server server(flags, run);
    for (const std::string& mode : flags.modes) {
      for (int writers : flags.writers) {
        results.push_back(RunCase(flags, run, server, mode, writers, case_number++));
        PrintRow(results.back());
      }
    }
  }
  std::printf("# load after: %s (cpu columns: ms of CPU per commit, server process / all writers)\n",
              LoadAverage().c_str());
  // spec of the goal (issue 5): >= 500 commits/s on distinct tables with
  // SQLite, p99 < 50 ms — both in one case. Reported: the fastest case
  // whose p99 is under 50 ms, else the fastest case.
  const CaseResult* best = nullptr;
  const CaseResult* best_in_latency = nullptr;
  for (const CaseResult& r : results) {
    if (r.catalog != "sqlite" || r.mode != "distinct") continue;
    if (best == nullptr || r.commits_per_s() > best->commits_per_s()) best = &r;
    if (r.p99_ms < 50 && (best_in_latency == nullptr || r.commits_per_s() > best_in_latency->commits_per_s())) {
      best_in_latency = &r;
    }
  }
  const CaseResult* shown = best_in_latency != nullptr ? best_in_latency : best;
  if (shown != nullptr) {
    const bool met = shown->commits_per_s() >= 500 && shown->p99_ms < 50;
    std::printf("goal (sqlite, distinct tables: >= 500 commits/s, p99 < 50 ms): %s — %.0f commits/s at %d "
                "writers, p99 %.1f ms\n",
                met ? "met" : "NOT met", shown->commits_per_s(), shown->writers, shown->p99_ms);
  }
  for (const CaseResult& r : results) {
    if (r.failed > 0) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) { return floe::Main(argc, argv); }
