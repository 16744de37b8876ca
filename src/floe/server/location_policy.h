// LocationPolicy: the REST server keeps every table inside its warehouse.
// A location a client names (create-table "location", set-location, a
// namespace's "location" property, register's metadata-location) must be the
// warehouse or below it, with the same scheme (and bucket) — or below one of
// the allowed locations the operator added (another bucket, a folder of
// tables to register); no "." or ".." segment may appear anywhere, so a
// location cannot climb out of them.
//
// Locations compare as segments: "file:/wh", "file:///wh" and "/wh" are the
// same local folder; "s3://b/wh/t" is below "s3://b/wh" but "s3://b/wh2" is
// not.
//
// Thread safety: immutable; Check may be called from any thread.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe::server {

class LocationPolicy {
 public:
  // `allowed` roots are accepted besides the warehouse ("/" for a local
  // root accepts every local path).
  explicit LocationPolicy(std::string warehouse, std::vector<std::string> allowed = {});

  // OK when `location` is inside the warehouse or an allowed root.
  // InvalidArgument for an empty location or one with a "." or ".." segment;
  // PermissionDenied "<what> 's3://x/t' is outside the warehouse 's3://b/wh'"
  // otherwise. `what` names the location in messages ("table location").
  Status Check(std::string_view location, std::string_view what) const;

  const std::string& warehouse() const { return warehouse_; }

 private:
  struct Root {
    std::string scheme;
    std::vector<std::string> segments;
  };

  std::string warehouse_;
  std::vector<Root> roots_;  // the warehouse first
};

}  // namespace floe::server
