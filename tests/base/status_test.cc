#include "floe/base/status.h"

#include <gtest/gtest.h>

#include <string>

#include "floe/base/result.h"

namespace floe {
namespace {

TEST(StatusTest, DefaultIsOkWithEmptyMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, EveryKindKeepsCodeAndMessage) {
  struct Case {
    Status status;
    StatusCode code;
    const char* name;
    int exit_code;
  };
  const Case cases[] = {
      {Status::InvalidArgument("m"), StatusCode::kInvalidArgument, "InvalidArgument", 1},
      {Status::NotFound("m"), StatusCode::kNotFound, "NotFound", 1},
      {Status::AlreadyExists("m"), StatusCode::kAlreadyExists, "AlreadyExists", 1},
      {Status::CommitConflict("m"), StatusCode::kCommitConflict, "CommitConflict", 1},
      {Status::CommitStateUnknown("m"), StatusCode::kCommitStateUnknown, "CommitStateUnknown", 2},
      {Status::IOError("m"), StatusCode::kIOError, "IOError", 2},
      {Status::Corrupt("m"), StatusCode::kCorrupt, "Corrupt", 1},
      {Status::Unsupported("m"), StatusCode::kUnsupported, "Unsupported", 1},
      {Status::PermissionDenied("m"), StatusCode::kPermissionDenied, "PermissionDenied", 1},
      {Status::Cancelled("m"), StatusCode::kCancelled, "Cancelled", 1},
      {Status::Internal("m"), StatusCode::kInternal, "Internal", 2},
  };
  for (const auto& c : cases) {
    EXPECT_FALSE(c.status.ok());
    EXPECT_EQ(c.status.code(), c.code);
    EXPECT_EQ(c.status.message(), "m");
    EXPECT_EQ(StatusCodeName(c.code), c.name);
    EXPECT_EQ(c.status.ToString(), std::string(c.name) + ": m");
    EXPECT_EQ(ExitCodeFor(c.status), c.exit_code) << c.name;
  }
  EXPECT_EQ(ExitCodeFor(Status::OK()), 0);
}

TEST(StatusTest, PredicatesMatchOnlyTheirOwnCode) {
  Status s = Status::Corrupt("x");
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_FALSE(s.IsInternal());
  EXPECT_FALSE(s.IsIOError());
  EXPECT_TRUE(Status::CommitConflict("x").IsCommitConflict());
  EXPECT_FALSE(Status::CommitConflict("x").IsCommitStateUnknown());
}

TEST(StatusTest, CopyIsDeepAndMoveLeavesValue) {
  Status a = Status::NotFound("table 'db.t' does not exist");
  Status b = a;
  EXPECT_EQ(a, b);
  Status c = std::move(b);
  EXPECT_EQ(c.message(), "table 'db.t' does not exist");
  a = Status::OK();
  EXPECT_TRUE(a.ok());
  EXPECT_EQ(c.code(), StatusCode::kNotFound);
}

TEST(StatusTest, WithContextPrefixesAndKeepsCode) {
  Status s = Status::Corrupt("field 'record_count' is -3").WithContext("manifest 'm0.avro'");
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_EQ(s.message(), "manifest 'm0.avro': field 'record_count' is -3");
  EXPECT_TRUE(Status::OK().WithContext("ignored").ok());
}

TEST(StatusTest, ConflictReasonTravelsWithACommitConflictOnly) {
  Status lost = Status::CommitConflict("table db.t was changed").WithConflictReason(ConflictReason::kSwapLost);
  EXPECT_TRUE(lost.IsSwapLost());
  EXPECT_EQ(lost.conflict_reason(), ConflictReason::kSwapLost);
  // Context and copies keep it; the message is unchanged by it.
  Status wrapped = lost.WithContext("commit");
  EXPECT_TRUE(wrapped.IsSwapLost());
  EXPECT_EQ(wrapped.message(), "commit: table db.t was changed");
  Status copy = wrapped;
  EXPECT_TRUE(copy.IsSwapLost());

  Status failed =
      Status::CommitConflict("requirement failed").WithConflictReason(ConflictReason::kRequirementFailed);
  EXPECT_FALSE(failed.IsSwapLost());
  EXPECT_EQ(failed.conflict_reason(), ConflictReason::kRequirementFailed);
  EXPECT_EQ(Status::CommitConflict("x").conflict_reason(), ConflictReason::kUnspecified);
  // Other codes never carry a reason.
  Status io = Status::IOError("disk gone").WithConflictReason(ConflictReason::kSwapLost);
  EXPECT_TRUE(io.IsIOError());
  EXPECT_EQ(io.conflict_reason(), ConflictReason::kUnspecified);
  EXPECT_FALSE(Status::OK().WithConflictReason(ConflictReason::kSwapLost).IsSwapLost());
}

Status FailsWhen(bool fail) { return fail ? Status::IOError("disk gone") : Status::OK(); }

Status PropagatesError(bool fail, int* reached) {
  FLOE_RETURN_IF_ERROR(FailsWhen(fail));
  ++*reached;
  return Status::OK();
}

TEST(StatusTest, ReturnIfErrorStopsAtFirstError) {
  int reached = 0;
  EXPECT_TRUE(PropagatesError(false, &reached).ok());
  EXPECT_EQ(reached, 1);
  Status s = PropagatesError(true, &reached);
  EXPECT_TRUE(s.IsIOError());
  EXPECT_EQ(s.message(), "disk gone");
  EXPECT_EQ(reached, 1);
}

}  // namespace
}  // namespace floe
