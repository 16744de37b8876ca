// Manifest lists (spec: "Manifest Lists"): the Avro file of a snapshot that
// lists its manifests, one ManifestFile row each, v1–v3.
//
// ManifestListWriter writes the rows of the snapshot being committed and
// does the list's part of the commit protocol:
// - a manifest whose sequence_number is kUnassignedSequenceNumber (written
//   for this commit) gets the snapshot's sequence number, and so does an
//   unassigned min_sequence_number (spec: "When a manifest list is written,
//   the (optimistic) sequence number of the snapshot is written for all new
//   manifest files tracked by the list");
// - v3: a data manifest without first_row_id gets the next row id, starting
//   at the snapshot's first-row-id and advancing by the manifest's added and
//   existing row counts (spec: "First Row ID Assignment", the simple valid
//   approach); next_row_id() - first_row_id is then the snapshot's
//   added-rows.
// The file's metadata carries `snapshot-id`, `parent-snapshot-id` ("null"
// when there is none, as Java writes), `sequence-number` (v2+),
// `first-row-id` (v3) and `format-version`.
//
// ReadManifestList reads any version: v1 lists have no content or sequence
// numbers, which read as data and 0 (spec: "use 0 when reading v1 manifest
// lists").
//
// Thread safety: a writer belongs to one thread; ReadManifestList may be
// called concurrently.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/manifest_writer.h"
#include "floe/io/file_io.h"

namespace floe::avro {
class ContainerWriter;
}

namespace floe::iceberg {

class ManifestListWriter {
 public:
  // Starts the manifest list of snapshot `snapshot_id` with sequence number
  // `sequence_number` (ignored in v1) and, in v3, `first_row_id` (required
  // there). InvalidArgument for a format version outside 1..3, a negative
  // sequence number in v2+, a v3 list without first_row_id. FileIO errors.
  static Result<std::unique_ptr<ManifestListWriter>> Open(FileIO& io, const std::string& path, int format_version,
                                                          int64_t snapshot_id,
                                                          std::optional<int64_t> parent_snapshot_id,
                                                          int64_t sequence_number,
                                                          std::optional<int64_t> first_row_id = std::nullopt,
                                                          const ManifestWriteOptions& options = {});
  ~ManifestListWriter();
  ManifestListWriter(const ManifestListWriter&) = delete;
  ManifestListWriter& operator=(const ManifestListWriter&) = delete;

  // Appends one manifest, with the assignments above, and returns the row as
  // written. InvalidArgument, naming the manifest, and nothing written for:
  // an unassigned sequence number on a manifest another snapshot added (it
  // can only be this commit's), a v2+ row without file or row counts, a
  // negative length or count, delete content in v1, a first_row_id on a
  // delete manifest. IOError from the stream.
  Result<ManifestFile> Add(const ManifestFile& manifest);
  // Flushes and publishes the file. InvalidArgument when called twice.
  Status Close();
  // Discards the file. Idempotent.
  void Abort();

  // v3: the row id after the last one assigned so far; nullopt before v3.
  std::optional<int64_t> next_row_id() const { return next_row_id_; }
  int64_t manifests_written() const { return manifests_; }

 private:
  ManifestListWriter();
  Status Check(const ManifestFile& m) const;

  std::string path_;
  int format_version_ = 2;
  int64_t snapshot_id_ = 0;
  int64_t sequence_number_ = 0;
  std::optional<int64_t> next_row_id_;
  std::unique_ptr<avro::ContainerWriter> writer_;
  std::string row_;
  int64_t manifests_ = 0;
  bool done_ = false;
};

// Reads every row of the manifest list at `path`. Errors: FileIO's;
// Corrupt, naming the file, the row and the field, for a file that is not a
// manifest list (a missing or null required field, a required v2 field
// missing in a v2+ list, a negative length or count, content outside 0..1,
// bad metadata); Unsupported for a format version above 3.
Result<std::vector<ManifestFile>> ReadManifestList(FileIO& io, const std::string& path,
                                                   const OpenReadOptions& options = {});

}  // namespace floe::iceberg
