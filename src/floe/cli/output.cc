#include "floe/cli/output.h"

#include "floe/columnar/batch_printer.h"

namespace floe::cli {

Status PrintBatches(CommandContext& ctx, const std::shared_ptr<const Schema>& schema,
                    const std::vector<RecordBatch>& batches) {
  FLOE_ASSIGN_OR_RETURN(OutputFormat format, ParseOutputFormat(ctx.options().format));
  BatchPrinter printer(ctx.out(), schema, PrintOptions{.format = format});
  for (const auto& batch : batches) FLOE_RETURN_IF_ERROR(printer.Write(batch));
  return printer.Finish();
}

Result<RecordBatch> FinishBatch(const std::shared_ptr<const Schema>& schema,
                                std::initializer_list<ArrayBuilder*> builders) {
  std::vector<Array> columns;
  columns.reserve(builders.size());
  for (ArrayBuilder* b : builders) {
    FLOE_ASSIGN_OR_RETURN(Array a, b->Finish());
    columns.push_back(std::move(a));
  }
  return RecordBatch::Make(schema, std::move(columns));
}

}  // namespace floe::cli
