// POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics.

#include "floe/base/logging.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/server/handlers.h"

namespace floe::server {

RestResponse ReportMetrics(ServerState& state, const RestRequest& request) {
  const catalog::TableIdentifier ident{request.ns, request.table};
  if (Status s = Authorize(request, Principal::Access::kRead, ident.ns); !s.ok()) return ErrorResponse(s);
  auto report = catalog::rest::ParseReportMetricsRequest(request.body);
  if (!report.ok()) return ErrorResponse(report.status());
  auto exists = state.catalog->TableExists(ident);
  if (!exists.ok()) return ErrorResponse(exists.status());
  if (!*exists) return ErrorResponse(Status::NotFound(catalog::TableNotFoundMessage(ident)));
  // Reports are only counted in the log: floe keeps no metrics store.
  FLOE_LOG(kDebug) << "rest: " << report->report_type << " for " << ident.ToString() << " at snapshot "
                   << report->snapshot_id;
  return NoContent();
}

}  // namespace floe::server
