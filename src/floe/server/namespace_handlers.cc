// The namespace routes: list (parent, paging), create, load / HEAD, drop,
// update properties.

#include <algorithm>

#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/server/handlers.h"

namespace floe::server {

namespace rest = catalog::rest;
using Access = Principal::Access;

namespace {

// A namespace's "location" property must keep its tables in the warehouse.
Status CheckLocationProperty(const ServerState& state, const catalog::Properties& properties) {
  auto it = properties.find("location");
  if (it == properties.end()) return Status::OK();
  return state.locations.Check(it->second, "namespace location");
}

}  // namespace

RestResponse ListNamespaces(ServerState& state, const RestRequest& request) {
  catalog::Namespace parent;
  if (auto it = request.query.find("parent"); it != request.query.end() && !it->second.empty()) {
    // spec: "parent" is encoded as the path's namespace is (0x1F between levels).
    auto ns = rest::SplitNamespace(it->second);
    if (!ns.ok()) return ErrorResponse(ns.status());
    parent = std::move(*ns);
  }
  if (Status s = Authorize(request, Access::kRead, parent); !s.ok()) {
    // Reading the root is open to every token; below it the scopes decide.
    return ErrorResponse(s);
  }
  auto page = PageOf(state, request);
  if (!page.ok()) return ErrorResponse(page.status());
  auto namespaces = state.catalog->ListNamespaces(parent);
  if (!namespaces.ok()) return ErrorResponse(namespaces.status());
  rest::ListNamespacesResponse response;
  for (auto& ns : *namespaces) {
    const std::string key = ns.ToString();
    if (page->paginated && key <= page->after) continue;
    if (page->paginated && response.namespaces.size() == page->size) {
      response.next_page_token = PageTokenFor(response.namespaces.back().ToString());
      break;
    }
    response.namespaces.push_back(std::move(ns));
  }
  return JsonResponse(200, rest::ToJson(response));
}

RestResponse CreateNamespace(ServerState& state, const RestRequest& request) {
  auto message = rest::ParseNamespaceMessage(request.body);
  if (!message.ok()) return ErrorResponse(message.status());
  if (Status s = Authorize(request, Access::kWrite, message->ns); !s.ok()) return ErrorResponse(s);
  if (Status s = CheckLocationProperty(state, message->properties); !s.ok()) return ErrorResponse(s);
  if (Status s = state.catalog->CreateNamespace(message->ns, message->properties); !s.ok()) return ErrorResponse(s);
  auto stored = state.catalog->LoadNamespaceMetadata(message->ns);
  rest::CreateNamespaceResponse response{message->ns, stored.ok() ? *stored : message->properties};
  return JsonResponse(200, rest::ToJson(response));
}

RestResponse LoadNamespace(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kRead, request.ns); !s.ok()) return ErrorResponse(s);
  if (request.method == "HEAD") {
    auto exists = state.catalog->NamespaceExists(request.ns);
    if (!exists.ok()) return ErrorResponse(exists.status());
    if (!*exists) return ErrorResponse(Status::NotFound(catalog::NamespaceNotFoundMessage(request.ns)));
    return NoContent();
  }
  auto properties = state.catalog->LoadNamespaceMetadata(request.ns);
  if (!properties.ok()) return ErrorResponse(properties.status());
  return JsonResponse(200, rest::ToJson(rest::GetNamespaceResponse{request.ns, std::move(*properties)}));
}

RestResponse DropNamespace(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kWrite, request.ns); !s.ok()) return ErrorResponse(s);
  Status dropped = state.catalog->DropNamespace(request.ns);
  if (dropped.IsInvalidArgument()) {
    // The name was validated by the router: the catalog refuses a namespace
    // that still holds tables or namespaces (spec: 409 NamespaceNotEmpty).
    return ErrorResponse(409, "NamespaceNotEmptyException", dropped.message());
  }
  if (!dropped.ok()) return ErrorResponse(dropped);
  return NoContent();
}

RestResponse UpdateNamespaceProperties(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kWrite, request.ns); !s.ok()) return ErrorResponse(s);
  auto update = rest::ParseUpdateNamespacePropertiesRequest(request.body);
  if (!update.ok()) return ErrorResponse(update.status());
  for (const auto& key : update->removals) {
    if (update->updates.count(key)) {
      // spec: 422 UnprocessableEntity when a key is both set and removed.
      return ErrorResponse(422, "UnprocessableEntityException",
                           StrCat("property ", Quote(key), " is in both updates and removals"));
    }
  }
  if (Status s = CheckLocationProperty(state, update->updates); !s.ok()) return ErrorResponse(s);
  auto result = state.catalog->UpdateNamespaceProperties(request.ns, update->removals, update->updates);
  if (!result.ok()) return ErrorResponse(result.status());
  return JsonResponse(200, rest::ToJson(*result));
}

}  // namespace floe::server
