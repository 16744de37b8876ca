// POST /v1/{prefix}/transactions/commit: several tables, atomically
// (Catalog::CommitTransaction).

#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/server/handlers.h"

namespace floe::server {

namespace rest = catalog::rest;

RestResponse CommitTransaction(ServerState& state, const RestRequest& request) {
  auto parsed = rest::ParseCommitTransactionRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  std::vector<catalog::TableCommit> commits;
  commits.reserve(parsed->table_changes.size());
  for (auto& change : parsed->table_changes) {
    const catalog::TableIdentifier& ident = *change.identifier;  // required by the parser
    if (Status s = Authorize(request, Principal::Access::kWrite, ident.ns); !s.ok()) return ErrorResponse(s);
    for (const auto& u : change.updates) {
      if (const auto* loc = std::get_if<iceberg::SetLocation>(&u)) {
        if (Status s = state.locations.Check(loc->location, "table location"); !s.ok()) return ErrorResponse(s);
      }
    }
    commits.push_back(catalog::TableCommit{ident, std::move(change.requirements), std::move(change.updates)});
  }
  // A transaction that lost a swap is re-run whole: every table's
  // requirements are checked again on its new metadata.
  auto committed = RerunLostSwaps([&] { return state.catalog->CommitTransaction(commits); });
  if (!committed.ok()) return CommitErrorResponse(committed.status());
  return NoContent();
}

}  // namespace floe::server
