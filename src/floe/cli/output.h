// Printing command results in the format chosen with --format.

#pragma once

#include <initializer_list>
#include <memory>
#include <vector>

#include "floe/base/status.h"
#include "floe/cli/command.h"
#include "floe/columnar/array_builder.h"
#include "floe/columnar/record_batch.h"

namespace floe::cli {

// Prints `batches` (all of `schema`) to ctx.out() as table, csv, json or jsonl.
Status PrintBatches(CommandContext& ctx, const std::shared_ptr<const Schema>& schema,
                    const std::vector<RecordBatch>& batches);

// Finishes one builder per column of `schema`, in order, into a batch.
// The first builder error, or InvalidArgument when the columns do not fit.
Result<RecordBatch> FinishBatch(const std::shared_ptr<const Schema>& schema,
                                std::initializer_list<ArrayBuilder*> builders);

}  // namespace floe::cli
