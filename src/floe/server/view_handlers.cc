// The view routes: list, create, load / HEAD, replace (CommitViewRequest),
// drop, rename. Scopes as for tables (read: list, load, HEAD; write: the
// rest); view locations obey the warehouse's LocationPolicy as table
// locations do.

#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/view_messages.h"
#include "floe/server/handlers.h"

namespace floe::server {

namespace rest = catalog::rest;
using Access = Principal::Access;

namespace {

catalog::TableIdentifier IdentOf(const RestRequest& request) { return {request.ns, request.table}; }

RestResponse ViewResult(const iceberg::ViewState& state) {
  auto json = rest::ToJson(rest::LoadViewResult{state.metadata_location, *state.metadata, {}});
  if (!json.ok()) return ErrorResponse(json.status());
  return JsonResponse(200, std::move(*json));
}

Status CheckUpdateLocations(const ServerState& state, const std::vector<iceberg::ViewUpdate>& updates) {
  for (const auto& u : updates) {
    if (const auto* loc = std::get_if<iceberg::SetLocation>(&u)) {
      FLOE_RETURN_IF_ERROR(state.locations.Check(loc->location, "view location"));
    }
  }
  return Status::OK();
}

}  // namespace

RestResponse ListViews(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kRead, request.ns); !s.ok()) return ErrorResponse(s);
  auto page = PageOf(state, request);
  if (!page.ok()) return ErrorResponse(page.status());
  auto views = state.catalog->ListViews(request.ns);
  if (!views.ok()) return ErrorResponse(views.status());
  return JsonResponse(200, rest::ToJson(IdentifierPage(*page, std::move(*views))));
}

RestResponse CreateView(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kWrite, request.ns); !s.ok()) return ErrorResponse(s);
  auto parsed = rest::ParseCreateViewRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  const catalog::TableIdentifier ident{request.ns, parsed->name};
  if (parsed->view.location) {
    if (Status s = state.locations.Check(*parsed->view.location, "view location"); !s.ok()) return ErrorResponse(s);
  }
  auto created = state.catalog->CreateView(ident, parsed->view);
  if (!created.ok()) return ErrorResponse(created.status());
  return ViewResult(*created);
}

RestResponse LoadView(ServerState& state, const RestRequest& request) {
  const catalog::TableIdentifier ident = IdentOf(request);
  if (Status s = Authorize(request, Access::kRead, ident.ns); !s.ok()) return ErrorResponse(s);
  // spec: "referenced-by" names the views a load goes through, for access
  // decisions; floe's scopes are per namespace, so it changes nothing here.
  if (request.method == "HEAD") {
    auto exists = state.catalog->ViewExists(ident);
    if (!exists.ok()) return ErrorResponse(exists.status());
    if (!*exists) return ErrorResponse(Status::NotFound(catalog::ViewNotFoundMessage(ident)));
    return NoContent();
  }
  auto loaded = state.catalog->LoadView(ident);
  if (!loaded.ok()) return ErrorResponse(loaded.status());
  return ViewResult(*loaded);
}

RestResponse ReplaceView(ServerState& state, const RestRequest& request) {
  const catalog::TableIdentifier ident = IdentOf(request);
  if (Status s = Authorize(request, Access::kWrite, ident.ns); !s.ok()) return ErrorResponse(s);
  auto parsed = rest::ParseCommitViewRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  if (parsed->identifier && *parsed->identifier != ident) {
    return ErrorResponse(
        Status::InvalidArgument(StrCat("CommitViewRequest: identifier ", parsed->identifier->ToString(),
                                       " does not match the path's ", ident.ToString())));
  }
  if (Status s = CheckUpdateLocations(state, parsed->updates); !s.ok()) return ErrorResponse(s);
  auto replaced =
      RerunLostSwaps([&] { return state.catalog->ReplaceView(ident, parsed->requirements, parsed->updates); });
  if (!replaced.ok()) return CommitErrorResponse(replaced.status());
  return ViewResult(*replaced);
}

RestResponse DropView(ServerState& state, const RestRequest& request) {
  const catalog::TableIdentifier ident = IdentOf(request);
  if (Status s = Authorize(request, Access::kWrite, ident.ns); !s.ok()) return ErrorResponse(s);
  Status dropped = state.catalog->DropView(ident);
  if (!dropped.ok()) return ErrorResponse(dropped);
  return NoContent();
}

RestResponse RenameView(ServerState& state, const RestRequest& request) {
  auto parsed = rest::ParseRenameTableRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  if (Status s = Authorize(request, Access::kWrite, parsed->source.ns); !s.ok()) return ErrorResponse(s);
  if (Status s = Authorize(request, Access::kWrite, parsed->destination.ns); !s.ok()) return ErrorResponse(s);
  Status renamed = state.catalog->RenameView(parsed->source, parsed->destination);
  if (!renamed.ok()) return ErrorResponse(renamed);
  return NoContent();
}

}  // namespace floe::server
