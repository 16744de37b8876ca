// The helpers every handler file uses (handlers.h).

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/server/handlers.h"

namespace floe::server {

using catalog::rest::ErrorForStatus;
using catalog::rest::ErrorModel;
using catalog::rest::ErrorResponseToJson;

RestResponse JsonResponse(int status, std::string body) {
  RestResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

RestResponse NoContent() {
  RestResponse r;
  r.status = 204;
  r.content_type.clear();
  return r;
}

RestResponse ErrorResponse(const Status& status) {
  ErrorModel e = ErrorForStatus(status);
  return JsonResponse(e.code, ErrorResponseToJson(e));
}

RestResponse ErrorResponse(int code, std::string type, std::string message) {
  return JsonResponse(code, ErrorResponseToJson(ErrorModel{std::move(message), std::move(type), code, {}}));
}

RestResponse CommitErrorResponse(const Status& status) {
  if (status.IsIOError() || status.IsInternal() || status.IsCorrupt() || status.IsCancelled()) {
    return ErrorResponse(503, "ServiceUnavailableException",
                         StrCat(status.message(), " (nothing was committed; the commit may be retried)"));
  }
  return ErrorResponse(status);
}

void PauseBeforeRerun(int attempt) { std::this_thread::sleep_for(std::chrono::milliseconds(2 * attempt - 1)); }

Status Authorize(const RestRequest& request, Principal::Access access, const catalog::Namespace& ns) {
  if (request.principal.Allows(access, ns)) return Status::OK();
  return Status::PermissionDenied(StrCat(request.principal.subject, " may not ",
                                         access == Principal::Access::kRead ? "read" : "write", " namespace ",
                                         ns.empty() ? std::string("(root)") : ns.ToString()));
}

namespace {

// Tokens are written in lowercase (Hex); an uppercase one was not written
// by floe and is refused, so each page has one token.
Result<std::string> Unhex(std::string_view text) {
  std::string out;
  const bool lowercase = std::none_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'F'; });
  if (!lowercase || !DecodeHex(text, &out)) {
    return Status::InvalidArgument(StrCat("pageToken ", Quote(text), " is not a floe page token"));
  }
  return out;
}

}  // namespace

std::string PageTokenFor(const std::string& last_key) { return Hex(last_key); }

Result<Page> PageOf(const ServerState& state, const RestRequest& request) {
  Page page;
  auto token = request.query.find("pageToken");
  if (token == request.query.end()) return page;
  page.paginated = true;
  FLOE_ASSIGN_OR_RETURN(page.after, Unhex(token->second));
  page.size = state.options.max_page_size;
  if (auto size = request.query.find("pageSize"); size != request.query.end()) {
    size_t n = 0;
    bool ok = !size->second.empty() && size->second.size() < 10;
    for (char c : size->second) ok = ok && c >= '0' && c <= '9';
    if (ok) n = std::stoul(size->second);
    if (!ok || n == 0) {
      return Status::InvalidArgument(StrCat("pageSize ", Quote(size->second), ": expected a positive integer"));
    }
    page.size = std::min(n, state.options.max_page_size);
  }
  return page;
}

catalog::rest::ListTablesResponse IdentifierPage(const Page& page, std::vector<catalog::TableIdentifier> sorted) {
  catalog::rest::ListTablesResponse response;
  for (auto& ident : sorted) {
    if (page.paginated && ident.name <= page.after) continue;
    if (page.paginated && response.identifiers.size() == page.size) {
      response.next_page_token = PageTokenFor(response.identifiers.back().name);
      break;
    }
    response.identifiers.push_back(std::move(ident));
  }
  return response;
}

int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace floe::server
