// ManifestWriter: writes one Iceberg manifest (spec: "Manifests"), v1–v3,
// as an Avro container file through FileIO, and summarises it as the
// ManifestFile row its manifest list will carry.
//
// The file's key-value metadata is the spec's: `schema` (the table schema
// JSON), `schema-id`, `partition-spec` (the fields array JSON),
// `partition-spec-id`, `format-version` and, from v2, `content` ("data" or
// "deletes"). Entries are encoded straight from DataFile values.
//
// Sequence numbers follow the spec's "Sequence Number Inheritance": an ADDED
// entry is written with a null file sequence number (and a null data
// sequence number unless the caller gives one), so the manifest can be
// written once and committed with whatever sequence number the commit gets;
// Close() returns the ManifestFile with sequence_number (and, when no live
// entry has a known one, min_sequence_number) set to
// ManifestFile::kUnassignedSequenceNumber for the manifest list writer to
// fill in.
//
// Nothing is visible under the path until Close() succeeds; a writer
// destroyed or aborted before that publishes nothing.
//
// Thread safety: a ManifestWriter belongs to one thread.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/block_codec.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/io/file_io.h"

namespace floe::avro {
class ContainerWriter;
}

namespace floe::iceberg {

// How manifests and manifest lists are encoded and published.
struct ManifestWriteOptions {
  // Java and PyIceberg write deflate by default (write.avro.compression-codec).
  avro::BlockCodec codec = avro::BlockCodec::kDeflate;
  std::optional<int> level;  // codec level; see avro::CompressBlock
  int64_t block_size_bytes = 64 * 1024;
  WriteOptions write;  // e.g. if_absent for names that must not be reused
};

class PartitionSummaryBuilder;

class ManifestWriter {
 public:
  // Starts a manifest at `path` for files of `spec` (partition tuples of
  // spec.PartitionType(schema)) added by snapshot `snapshot_id`.
  // InvalidArgument for a format version outside 1..3, a spec that does not
  // apply to `schema` or has an unknown transform (spec: "Writers are not
  // allowed to commit files with a partition spec that contains a field with
  // an unknown transform"), or delete content in v1. Errors of FileIO.
  static Result<std::unique_ptr<ManifestWriter>> Open(FileIO& io, const std::string& path, int format_version,
                                                      const PartitionSpec& spec, const Schema& schema,
                                                      int64_t snapshot_id, ManifestContent content,
                                                      const ManifestWriteOptions& options = {});
  ~ManifestWriter();
  ManifestWriter(const ManifestWriter&) = delete;
  ManifestWriter& operator=(const ManifestWriter&) = delete;

  // An ADDED entry for `entry.data_file`: the writer's snapshot id, the
  // entry's data sequence number if it has one (a file whose data belongs
  // to an older sequence number), else null; file sequence number null.
  Status Add(const ManifestEntry& entry);
  // An EXISTING entry: a file carried over from another manifest, keeping
  // its snapshot id and (v2+) both sequence numbers, which it must have.
  Status Existing(const ManifestEntry& entry);
  // A DELETED entry: the file is removed by the writer's snapshot; (v2+) it
  // keeps both sequence numbers, which it must have.
  //
  // Add, Existing and Delete return InvalidArgument, naming the file, and
  // write nothing when the entry does not fit the manifest: a partition
  // tuple of the wrong arity or types, another spec id, content of the other
  // manifest kind, negative counts, fields the format version lacks (v1: no
  // equality ids or referenced data file; v1/v2: no first_row_id or DV
  // offsets), missing sequence numbers or snapshot id as said above.
  // IOError from the stream; InvalidArgument after Close() or Abort().
  Status Delete(const ManifestEntry& entry);

  // Flushes and publishes the file and returns its manifest list row:
  // path, length, spec id, content, counts of files and rows by status,
  // partition field summaries over all entries, min_sequence_number,
  // added_snapshot_id, and sequence_number = kUnassignedSequenceNumber
  // (v1, which has no sequence numbers: 0 and 0).
  // Errors of the stream (nothing published); InvalidArgument when called
  // twice.
  Result<ManifestFile> Close();
  // Discards the file; later calls fail. Idempotent.
  void Abort();

  const std::string& path() const { return path_; }
  int format_version() const { return format_version_; }
  int64_t entries_written() const { return entries_; }

 private:
  ManifestWriter();
  Status Write(ManifestEntryStatus status, const ManifestEntry& entry);
  Status Check(ManifestEntryStatus status, const ManifestEntry& entry) const;
  void Encode(ManifestEntryStatus status, const ManifestEntry& entry);

  std::string path_;
  int format_version_ = 2;
  int32_t spec_id_ = 0;
  int64_t snapshot_id_ = 0;
  ManifestContent content_ = ManifestContent::kData;
  TypePtr partition_type_;
  std::unique_ptr<avro::ContainerWriter> writer_;
  std::unique_ptr<PartitionSummaryBuilder> summary_;
  std::string row_;  // scratch: one encoded entry
  int64_t entries_ = 0;
  int64_t files_[3] = {0, 0, 0};  // by ManifestEntryStatus
  int64_t rows_[3] = {0, 0, 0};
  std::optional<int64_t> min_sequence_number_;
  bool done_ = false;
};

}  // namespace floe::iceberg
