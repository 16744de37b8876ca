// RestCatalog's views (rest_catalog.h): the spec's view routes, each used
// only when the server's config lists it.

#include "floe/base/strings.h"
#include "floe/catalog/rest/error_model.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/catalog/rest/view_messages.h"
#include "floe/catalog/rest_catalog.h"

namespace floe::catalog {
namespace {

constexpr std::string_view kListViews = "GET /v1/{prefix}/namespaces/{namespace}/views";
constexpr std::string_view kCreateView = "POST /v1/{prefix}/namespaces/{namespace}/views";
constexpr std::string_view kLoadView = "GET /v1/{prefix}/namespaces/{namespace}/views/{view}";
constexpr std::string_view kViewExists = "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}";
constexpr std::string_view kReplaceView = "POST /v1/{prefix}/namespaces/{namespace}/views/{view}";
constexpr std::string_view kDropView = "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}";
constexpr std::string_view kRenameView = "POST /v1/{prefix}/views/rename";

bool Ok2xx(const HttpResponse& r) { return r.status >= 200 && r.status < 300; }

Status BadBody(const RestRequest& request, const RestHttp& http, const Status& status) {
  return Status::Corrupt(StrCat("REST catalog ", request.method, " ", http.Url(request), ": ", status.message()));
}

iceberg::ViewState StateOf(rest::LoadViewResult result) {
  return iceberg::ViewState{std::move(result.metadata_location),
                            std::make_shared<const iceberg::ViewMetadata>(std::move(result.metadata))};
}

}  // namespace

bool RestCatalog::Offers(std::string_view endpoint) const { return endpoints_.find(endpoint) != endpoints_.end(); }

Status RestCatalog::RequireEndpoint(std::string_view endpoint) const {
  if (Offers(endpoint)) return Status::OK();
  return Status::Unsupported(
      StrCat(ViewsUnsupported().message(), " (the REST server at ", options_.uri, " does not offer ", endpoint, ")"));
}

std::string RestCatalog::ViewPath(const TableIdentifier& ident) const {
  return StrCat(NamespacePath(ident.ns), "/views/", rest::UrlEncode(ident.name));
}

Result<std::vector<TableIdentifier>> RestCatalog::ListViews(const Namespace& ns) {
  FLOE_RETURN_IF_ERROR(RequireEndpoint(kListViews));
  return ListIdentifiers(ns, "views");
}

Result<iceberg::ViewState> RestCatalog::CreateView(const TableIdentifier& ident, const CreateViewRequest& request) {
  FLOE_RETURN_IF_ERROR(RequireEndpoint(kCreateView));
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest http_request;
  http_request.method = "POST";
  http_request.path = NamespacePath(ident.ns) + "/views";
  http_request.body = rest::ToJson(rest::CreateViewRequest{ident.name, request});
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(http_request, &ident.ns));
  auto result = rest::ParseLoadViewResult(response.body);
  if (!result.ok()) return BadBody(http_request, *http_, result.status());
  return StateOf(std::move(*result));
}

Result<iceberg::ViewState> RestCatalog::LoadView(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(RequireEndpoint(kLoadView));
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.path = ViewPath(ident);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, Call(request, nullptr, &ident, /*view=*/true));
  auto result = rest::ParseLoadViewResult(response.body);
  if (!result.ok()) return BadBody(request, *http_, result.status());
  return StateOf(std::move(*result));
}

Result<bool> RestCatalog::ViewExists(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(RequireEndpoint(kViewExists));
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.method = "HEAD";
  request.path = ViewPath(ident);
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(request));
  if (Ok2xx(response)) return true;
  if (response.status == 404) return false;
  return ErrorStatus(request, response, nullptr, &ident, /*view=*/true);
}

Status RestCatalog::DropView(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(RequireEndpoint(kDropView));
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.method = "DELETE";
  request.path = ViewPath(ident);
  return Call(std::move(request), nullptr, &ident, /*view=*/true).status();
}

Status RestCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(RequireEndpoint(kRenameView));
  FLOE_RETURN_IF_ERROR(from.Validate());
  FLOE_RETURN_IF_ERROR(to.Validate());
  RestRequest request;
  request.method = "POST";
  request.path = Path("views/rename");
  request.body = rest::ToJson(rest::RenameTableRequest{from, to});
  // A missing source is the view's NotFound, a missing target namespace the
  // namespace's (told apart by the exception type).
  FLOE_ASSIGN_OR_RETURN(HttpResponse response, http_->Send(request));
  if (Ok2xx(response)) return Status::OK();
  return ErrorStatus(request, response, &to.ns, &from, /*view=*/true);
}

Result<iceberg::ViewState> RestCatalog::ReplaceView(const TableIdentifier& ident,
                                                    const std::vector<iceberg::ViewRequirement>& requirements,
                                                    const std::vector<iceberg::ViewUpdate>& updates) {
  FLOE_RETURN_IF_ERROR(RequireEndpoint(kReplaceView));
  FLOE_RETURN_IF_ERROR(ident.Validate());
  RestRequest request;
  request.method = "POST";
  request.path = ViewPath(ident);
  request.body = rest::ToJson(rest::CommitViewRequest{ident, requirements, updates});
  return SendViewCommit(ident, request);
}

Result<iceberg::ViewState> RestCatalog::SendViewCommit(const TableIdentifier& ident, const RestRequest& request) {
  TransportFailure failure = TransportFailure::kNone;
  auto response = http_->Send(request, &failure);
  if (!response.ok()) {
    // Sent, and no answer: the server may have committed.
    if (failure == TransportFailure::kOutcomeUnknown) {
      return Status::CommitStateUnknown(StrCat("view ", ident.ToString(), ": ", response.status().message()));
    }
    return response.status();
  }
  // spec (replaceView): 500, 502 and 504 mean "the commit state is unknown".
  if (response->status == 500 || response->status == 502 || response->status == 504) {
    auto parsed = rest::ErrorResponseFromJson(response->body);
    return Status::CommitStateUnknown(StrCat("view ", ident.ToString(), ": commit state unknown (HTTP ",
                                             response->status, parsed.ok() ? ": " + parsed->message : "", ")"));
  }
  if (!Ok2xx(*response)) {
    Status status = ErrorStatus(request, *response, nullptr, &ident, /*view=*/true);
    // spec: 409 is CommitFailedException here, "the client may retry".
    if (response->status == 409) return Status::CommitConflict(status.message());
    return status;
  }
  auto result = rest::ParseLoadViewResult(response->body);
  if (!result.ok()) {
    // The commit happened; only its answer is unreadable.
    return Status::CommitStateUnknown(
        StrCat("view ", ident.ToString(), ": unreadable commit response: ", result.status().message()));
  }
  return StateOf(std::move(*result));
}

}  // namespace floe::catalog
