#include "floe/base/status.h"

#include <string>

namespace floe {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "InvalidArgument";
    case StatusCode::kNotFound: return "NotFound";
    case StatusCode::kAlreadyExists: return "AlreadyExists";
    case StatusCode::kCommitConflict: return "CommitConflict";
    case StatusCode::kCommitStateUnknown: return "CommitStateUnknown";
    case StatusCode::kIOError: return "IOError";
    case StatusCode::kCorrupt: return "Corrupt";
    case StatusCode::kUnsupported: return "Unsupported";
    case StatusCode::kPermissionDenied: return "PermissionDenied";
    case StatusCode::kCancelled: return "Cancelled";
    case StatusCode::kInternal: return "Internal";
  }
  return "Unknown";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk) state_ = std::make_unique<State>(State{code, std::move(message)});
}

Status::Status(const Status& other)
    : state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
  return *this;
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return state_ ? state_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(state_->code));
  out += ": ";
  out += state_->message;
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return Status();
  std::string msg(context);
  msg += ": ";
  msg += state_->message;
  Status out(state_->code, std::move(msg));
  out.state_->reason = state_->reason;
  return out;
}

Status Status::WithConflictReason(ConflictReason reason) const {
  Status out(*this);
  if (out.IsCommitConflict()) out.state_->reason = reason;
  return out;
}

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return 0;
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kAlreadyExists:
    case StatusCode::kCommitConflict:
    case StatusCode::kCorrupt:
    case StatusCode::kUnsupported:
    case StatusCode::kPermissionDenied:
    case StatusCode::kCancelled:
      return 1;
    case StatusCode::kCommitStateUnknown:
    case StatusCode::kIOError:
    case StatusCode::kInternal:
      return 2;
  }
  return 2;
}

}  // namespace floe
