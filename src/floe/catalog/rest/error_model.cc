#include "floe/catalog/rest/error_model.h"

#include <simdjson.h>

#include "floe/base/json_parse.h"
#include "floe/base/json_writer.h"
#include "floe/base/strings.h"
#include "floe/iceberg/json_reader.h"

namespace floe::catalog::rest {

using iceberg::internal::JsonObject;
using iceberg::internal::JsonObjectReader;

ErrorModel ErrorForStatus(const Status& status) {
  ErrorModel e;
  e.message = status.ok() ? "internal error: OK status reported as an error" : status.message();
  switch (status.code()) {
    case StatusCode::kInvalidArgument: e.code = 400, e.type = "BadRequestException"; break;
    case StatusCode::kNotFound:
      e.code = 404;
      e.type = StartsWith(e.message, "namespace ") ? "NoSuchNamespaceException"
               : StartsWith(e.message, "view ")    ? "NoSuchViewException"
                                                   : "NoSuchTableException";
      break;
    case StatusCode::kAlreadyExists: e.code = 409, e.type = "AlreadyExistsException"; break;
    case StatusCode::kCommitConflict: e.code = 409, e.type = "CommitFailedException"; break;
    case StatusCode::kCommitStateUnknown: e.code = 500, e.type = "CommitStateUnknownException"; break;
    case StatusCode::kPermissionDenied: e.code = 403, e.type = "ForbiddenException"; break;
    case StatusCode::kUnsupported: e.code = 406, e.type = "UnsupportedOperationException"; break;
    case StatusCode::kCancelled: e.code = 503, e.type = "ServiceUnavailableException"; break;
    case StatusCode::kOk:
    case StatusCode::kIOError:
    case StatusCode::kCorrupt:
    case StatusCode::kInternal: e.code = 500, e.type = "ServiceFailureException"; break;
  }
  return e;
}

Status StatusForError(const ErrorModel& error) {
  const std::string& t = error.type;
  const std::string& m = error.message;
  if (t == "NoSuchTableException" || t == "NoSuchNamespaceException" || t == "NoSuchViewException" ||
      t == "NoSuchWarehouseException" || t == "NoSuchPlanIdException" || t == "NoSuchPlanTaskException") {
    return Status::NotFound(m);
  }
  if (t == "AlreadyExistsException") return Status::AlreadyExists(m);
  if (t == "CommitFailedException") return Status::CommitConflict(m);
  if (t == "CommitStateUnknownException") return Status::CommitStateUnknown(m);
  if (t == "BadRequestException" || t == "ValidationException" || t == "NamespaceNotEmptyException" ||
      t == "IllegalArgumentException") {
    return Status::InvalidArgument(m);
  }
  if (t == "ForbiddenException" || t == "NotAuthorizedException") return Status::PermissionDenied(m);
  if (t == "UnsupportedOperationException") return Status::Unsupported(m);
  if (t == "ServiceUnavailableException" || t == "ServiceFailureException") return Status::IOError(m);
  switch (error.code) {
    case 400:
    case 422: return Status::InvalidArgument(m);
    case 401:
    case 403:
    case 419: return Status::PermissionDenied(m);
    case 404: return Status::NotFound(m);
    case 406: return Status::Unsupported(m);
    case 409: return Status::CommitConflict(m);
    default: break;
  }
  return Status::IOError(StrCat("HTTP ", error.code, " ", t, ": ", m));
}

std::string ErrorResponseToJson(const ErrorModel& error) {
  JsonWriter w;
  w.BeginObject();
  w.Key("error");
  w.BeginObject();
  w.Member("message", error.message);
  w.Member("type", error.type);
  w.Member("code", int64_t{error.code});
  if (!error.stack.empty()) {
    w.Key("stack");
    w.BeginArray();
    for (const auto& line : error.stack) w.String(line);
    w.EndArray();
  }
  w.EndObject();
  w.EndObject();
  return w.Take();
}

namespace {

Result<ErrorModel> ReadError(simdjson::dom::element root) {
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader top, JsonObject(root, ""));
  FLOE_ASSIGN_OR_RETURN(simdjson::dom::element inner, top.Get("error"));
  FLOE_ASSIGN_OR_RETURN(JsonObjectReader obj, JsonObject(inner, "error"));
  ErrorModel e;
  FLOE_ASSIGN_OR_RETURN(e.message, obj.String("message"));
  FLOE_ASSIGN_OR_RETURN(e.type, obj.String("type"));
  FLOE_ASSIGN_OR_RETURN(e.code, obj.Int32("code"));
  if (e.code < 400 || e.code > 600) {
    FLOE_ASSIGN_OR_RETURN(simdjson::dom::element code, obj.Get("code"));
    return obj.Bad("code", code, "expected an HTTP error code (400 to 600)");
  }
  FLOE_ASSIGN_OR_RETURN(e.stack, obj.StringList("stack", /*required=*/false));
  return e;
}

}  // namespace

Result<ErrorModel> ErrorResponseFromJson(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::InvalidArgument(StrCat("error response: not valid JSON (", simdjson::error_message(error), ")"));
  }
  auto r = ReadError(root);
  if (!r.ok()) return Status::InvalidArgument(StrCat("error response: ", r.status().message()));
  return r;
}

}  // namespace floe::catalog::rest
