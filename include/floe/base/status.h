// Status: the outcome of an operation that returns no value.
//
// Every floe call that can fail returns a Status or a Result<T> (result.h);
// no exception crosses a module boundary. A Status is either OK or carries a
// StatusCode and a one-line message that names the object and the value
// concerned, e.g. `manifest 'metadata/abc-m0.avro': field 'record_count' is -3`.
//
// Thread safety: a Status is a value; distinct objects may be used from
// distinct threads, and const methods may be called concurrently.

#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace floe {

// The error kinds. Names follow the words table-format specs and catalogs use,
// so an error maps onto a REST error type or a CLI exit code without guessing.
enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalidArgument,     // the caller's input is malformed or out of range
  kNotFound,            // the named object, table, namespace or key does not exist
  kAlreadyExists,       // create / put-if-absent found the name taken
  kCommitConflict,      // optimistic commit lost a race and cannot be re-applied
  kCommitStateUnknown,  // the commit may or may not have happened; never retry blindly
  kIOError,             // the storage or network failed
  kCorrupt,             // bytes read from storage violate their format
  kUnsupported,         // valid input that floe does not implement
  kPermissionDenied,    // the store or catalog refused access
  kCancelled,           // the operation was cancelled before it finished
  kInternal,            // a floe bug: an invariant did not hold
};

// The spec-style name of a code: "InvalidArgument", "CommitConflict", ...
std::string_view StatusCodeName(StatusCode code);

// Why a CommitConflict happened, for a caller that decides whether to re-run
// a commit (the REST server re-runs a lost swap on the new metadata, where
// the requirements are checked again). Set where the conflict is found, never
// inferred from the message; other codes carry kUnspecified.
enum class ConflictReason : unsigned char {
  kUnspecified = 0,    // not said
  kRequirementFailed,  // a requirement (assert-*) does not hold on the current metadata
  kSwapLost,           // the pointer swap did not happen, whatever the requirements: the
                       // compare-and-swap found the pointer moved or the row gone, or a
                       // swap whose answer was lost proved not to have landed
};

class Status {
 public:
  // An OK status. Cheap: holds no allocation.
  Status() noexcept = default;
  Status(StatusCode code, std::string message);

  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&& other) noexcept = default;
  Status& operator=(Status&& other) noexcept = default;
  ~Status() = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {StatusCode::kAlreadyExists, std::move(msg)}; }
  static Status CommitConflict(std::string msg) { return {StatusCode::kCommitConflict, std::move(msg)}; }
  static Status CommitStateUnknown(std::string msg) { return {StatusCode::kCommitStateUnknown, std::move(msg)}; }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status Corrupt(std::string msg) { return {StatusCode::kCorrupt, std::move(msg)}; }
  static Status Unsupported(std::string msg) { return {StatusCode::kUnsupported, std::move(msg)}; }
  static Status PermissionDenied(std::string msg) { return {StatusCode::kPermissionDenied, std::move(msg)}; }
  static Status Cancelled(std::string msg) { return {StatusCode::kCancelled, std::move(msg)}; }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  // The message without the code name; empty for OK.
  const std::string& message() const;

  bool IsInvalidArgument() const { return code() == StatusCode::kInvalidArgument; }
  bool IsNotFound() const { return code() == StatusCode::kNotFound; }
  bool IsAlreadyExists() const { return code() == StatusCode::kAlreadyExists; }
  bool IsCommitConflict() const { return code() == StatusCode::kCommitConflict; }
  bool IsCommitStateUnknown() const { return code() == StatusCode::kCommitStateUnknown; }
  bool IsIOError() const { return code() == StatusCode::kIOError; }
  bool IsCorrupt() const { return code() == StatusCode::kCorrupt; }
  bool IsUnsupported() const { return code() == StatusCode::kUnsupported; }
  bool IsPermissionDenied() const { return code() == StatusCode::kPermissionDenied; }
  bool IsCancelled() const { return code() == StatusCode::kCancelled; }
  bool IsInternal() const { return code() == StatusCode::kInternal; }

  // The CommitConflict's reason; kUnspecified for every other status.
  ConflictReason conflict_reason() const {
    return state_ && state_->code == StatusCode::kCommitConflict ? state_->reason : ConflictReason::kUnspecified;
  }
  // A CommitConflict whose pointer swap was lost to another writer.
  bool IsSwapLost() const { return conflict_reason() == ConflictReason::kSwapLost; }
  // A copy carrying `reason`. Only a CommitConflict keeps it; any other
  // status is returned unchanged.
  Status WithConflictReason(ConflictReason reason) const;

  // "OK", or "<CodeName>: <message>".
  std::string ToString() const;

  // The same code with "<context>: " put before the message, so an error that
  // travels up names every object on the way: `table 'db.t': manifest 'm0.avro': ...`.
  // Returns OK unchanged; keeps the conflict reason.
  Status WithContext(std::string_view context) const;

  bool operator==(const Status& other) const {
    return code() == other.code() && message() == other.message();
  }

 private:
  struct State {
    StatusCode code;
    std::string message;
    ConflictReason reason = ConflictReason::kUnspecified;
  };
  std::unique_ptr<State> state_;  // null means OK
};

// The CLI's exit code for a status: 0 ok; 1 user error (bad input, not found,
// conflict, corrupt or unsupported input, permission); 2 internal error
// (Internal, IOError, CommitStateUnknown). See docs/decisions/0004-exit-codes.md.
int ExitCodeFor(const Status& status);

}  // namespace floe

// Returns the Status of `expr` from the enclosing function when it is not OK.
#define FLOE_RETURN_IF_ERROR(expr)                        \
  do {                                                    \
    ::floe::Status floe_status_ = ::floe::ToStatus(expr); \
    if (!floe_status_.ok()) return floe_status_;          \
  } while (false)

namespace floe {
inline const Status& ToStatus(const Status& s) { return s; }
inline Status ToStatus(Status&& s) { return std::move(s); }
}  // namespace floe
