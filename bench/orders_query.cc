// floe's side of bench/orders-vs-duckdb.sh: the demo's orders query —
// orders and amount by city for 2026-10-21 20:00-22:00 — through the
// Iceberg scan (partition and page pruning, one thread), aggregated the way
// a query engine would, best wall time of N runs; the bytes are the data
// files' bytes of the scan's report (its FileIO counted by a tracing one).
//
// Usage: floe_orders_query METADATA_JSON RUNS
// Output: "<best ms> <bytes read from data files> orders=<n> amount=<cents>"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "floe/base/strings.h"
#include "floe/iceberg/expression/parser.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/scan/table_scan.h"

namespace floe {
namespace {

struct Answer {
  int64_t orders = 0;
  __int128 cents = 0;
  int64_t data_bytes = 0;
};

Result<Answer> Query(const std::shared_ptr<FileIO>& io, std::shared_ptr<const iceberg::TableMetadata> metadata) {
  iceberg::TableScanOptions options;
  FLOE_ASSIGN_OR_RETURN(options.filter, iceberg::ParseExpression("order_ts >= '2026-10-21T20:00:00' and "
                                                                 "order_ts < '2026-10-21T22:00:00'"));
  options.select = std::vector<std::string>{"city", "amount"};
  FLOE_ASSIGN_OR_RETURN(auto scan, iceberg::TableScan::Make(io, std::move(metadata), options));
  FLOE_ASSIGN_OR_RETURN(auto reader, scan->Open());
  std::map<std::string, std::pair<int64_t, __int128>, std::less<>> by_city;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch.has_value()) break;
    const Array& cities = batch->column(0);
    const Array& amounts = batch->column(1);
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const std::string_view city = cities.GetString(i);
      auto it = by_city.find(city);
      if (it == by_city.end()) it = by_city.emplace(std::string(city), std::pair<int64_t, __int128>{0, 0}).first;
      ++it->second.first;
      it->second.second += amounts.GetDecimal128(i);
    }
  }
  Answer answer;
  for (const auto& [city, agg] : by_city) {
    answer.orders += agg.first;
    answer.cents += agg.second;
  }
  answer.data_bytes = scan->report().data_file_io.bytes_read;
  return answer;
}

int Main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: floe_orders_query METADATA_JSON RUNS\n");
    return 2;
  }
  const std::string path = argv[1];
  const int runs = std::max(1, std::atoi(argv[2]));
  auto io = NewLocalFileIO();
  auto metadata = iceberg::ReadTableMetadata(*io, path);
  if (!metadata.ok()) {
    std::fprintf(stderr, "%s\n", metadata.status().ToString().c_str());
    return 1;
  }
  auto shared = std::make_shared<const iceberg::TableMetadata>(std::move(*metadata));
  double best = 1e300;
  Answer answer;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    auto result = Query(io, shared);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result.ok()) {
      std::fprintf(stderr, "%s\n", result.status().ToString().c_str());
      return 1;
    }
    answer = *result;
    best = std::min(best, ms);
  }
  std::printf("%.3f %lld orders=%lld amount=%lld\n", best, static_cast<long long>(answer.data_bytes),
              static_cast<long long>(answer.orders), static_cast<long long>(answer.cents));
  return 0;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) { return floe::Main(argc, argv); }
