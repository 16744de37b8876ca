// Printing command results in the format chosen with --format.

#pragma once

#include <memory>
#include <vector>

#include "floe/base/status.h"
#include "floe/cli/command.h"
#include "floe/columnar/record_batch.h"

namespace floe::cli {

// Prints `batches` (all of `schema`) to ctx.out() as table, csv, json or jsonl.
Status PrintBatches(CommandContext& ctx, const std::shared_ptr<const Schema>& schema,
                    const std::vector<RecordBatch>& batches);

}  // namespace floe::cli
