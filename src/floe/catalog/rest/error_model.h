// The REST catalog's error model and its mapping onto floe::Status.
//
// spec (IcebergErrorResponse): every non-2xx answer carries
//   {"error": {"message": "...", "type": "NoSuchTableException", "code": 404}}
// ErrorForStatus picks the HTTP code and exception type a server answers
// for a Status; StatusForError gives a client the Status for an answer.
//
//   Status kind         code  type
//   InvalidArgument     400   BadRequestException
//   NotFound            404   NoSuchNamespaceException when the message starts
//                             with "namespace ", NoSuchViewException with
//                             "view ", else NoSuchTableException
//   AlreadyExists       409   AlreadyExistsException
//   CommitConflict      409   CommitFailedException
//   CommitStateUnknown  500   CommitStateUnknownException
//   PermissionDenied    403   ForbiddenException
//   Unsupported         406   UnsupportedOperationException
//   Cancelled           503   ServiceUnavailableException
//   IOError, Corrupt,   500   ServiceFailureException
//   Internal
// The server uses other codes where the spec asks for them (401
// NotAuthorizedException, 409 NamespaceNotEmptyException, 502/504
// CommitStateUnknownException) by building the ErrorModel itself.
//
// Thread safety: free functions on values.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::catalog::rest {

struct ErrorModel {
  std::string message;
  std::string type;  // "NoSuchTableException", ...
  int code = 500;    // the HTTP status, 400..600
  std::vector<std::string> stack;
  bool operator==(const ErrorModel&) const = default;
};

// The answer for a non-OK `status` (OK maps to a 500 Internal: a bug).
ErrorModel ErrorForStatus(const Status& status);

// The Status a client reports for an error answer: by `type` first (the
// table above read backwards, plus NamespaceNotEmptyException →
// InvalidArgument, NotAuthorizedException → PermissionDenied,
// ValidationException → InvalidArgument, ServiceUnavailableException →
// IOError), then by `code` (400/422 InvalidArgument, 401/403/419
// PermissionDenied, 404 NotFound, 406 Unsupported, 409 CommitConflict, 5xx
// IOError). The message is kept verbatim.
Status StatusForError(const ErrorModel& error);

// {"error": {...}}; `stack` only when non-empty.
std::string ErrorResponseToJson(const ErrorModel& error);
// InvalidArgument naming the field for a body that is not an
// IcebergErrorResponse ("field 'error.code' is missing").
Result<ErrorModel> ErrorResponseFromJson(std::string_view json);

}  // namespace floe::catalog::rest
