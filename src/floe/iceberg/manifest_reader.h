// ManifestReader: reads the entries of one Iceberg manifest (spec:
// "Manifests"), any format version, written by any engine, through FileIO.
//
// Rows are decoded by Iceberg field id straight into ManifestEntry values
// (manifest_entry_decoder.h), and the spec's inheritance from the manifest's
// row in the manifest list is applied:
// - snapshot_id null -> the manifest's added_snapshot_id;
// - sequence_number / file_sequence_number null -> the manifest's
//   sequence_number for ADDED entries ("Inherited when null and status is 1
//   (added)"), and for every entry of a manifest whose sequence number is 0
//   (v1: "sequence numbers for all files must default to 0"); an EXISTING or
//   DELETED entry of a later manifest without them is left null, as the spec
//   forbids writing one;
// - data_file.first_row_id null on a data file -> the manifest's
//   first_row_id plus the record counts of the data files before it that
//   inherited too (spec: "First Row ID Inheritance"), when the manifest has
//   a first_row_id;
// - data_file.spec_id -> the manifest's partition_spec_id.
// A manifest whose sequence number is still kUnassignedSequenceNumber (read
// back before its commit) inherits nothing but the snapshot id.
//
// Partition values are Literals of the partition type: the caller's, or the
// one the manifest's own `schema` and `partition-spec` metadata give.
//
// Thread safety: a ManifestReader belongs to one thread.

#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/container_reader.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/io/file_io.h"

namespace floe::iceberg {

namespace internal {
class ManifestEntryDecoder;
}

struct ManifestReaderOptions {
  // Whether to read the column metrics maps (column_sizes, value_counts,
  // null_value_counts, nan_value_counts, lower_bounds, upper_bounds). A
  // listing that does not filter on column statistics skips them and reads
  // several times faster; the maps are then empty.
  bool read_stats = true;
  // The partition tuple type (PartitionSpec::PartitionType of the table's
  // spec with the manifest's spec id). Null: derived from the manifest's
  // `schema` and `partition-spec` metadata.
  TypePtr partition_type;
  avro::ContainerReaderOptions container;
};

class ManifestReader {
 public:
  // Opens `manifest.manifest_path` (its manifest_length, when positive,
  // saves a size request) and reads the header. Errors: those of FileIO
  // (NotFound, IOError); Corrupt, naming the file, for a file that is not a
  // manifest: not Avro, a missing required field, an Avro type that cannot
  // hold its field, metadata that does not parse (format-version, content,
  // schema, partition-spec); Unsupported for a format version above 3.
  static Result<std::unique_ptr<ManifestReader>> Open(FileIO& io, const ManifestFile& manifest,
                                                      const ManifestReaderOptions& options = {});
  ~ManifestReader();
  ManifestReader(const ManifestReader&) = delete;
  ManifestReader& operator=(const ManifestReader&) = delete;

  // Decodes the next entry into `entry` (reusing its storage) with
  // inheritance applied. Returns false at the end. Corrupt naming the file,
  // the entry's index and the field for bad bytes or values (a status or
  // content outside 0..2, a null required field, a negative record count or
  // file size). After an error every later call returns it again.
  Result<bool> Next(ManifestEntry* entry);
  // Every remaining entry.
  Result<std::vector<ManifestEntry>> ReadAll();

  const std::string& path() const { return manifest_.manifest_path; }
  // "format-version" of the file's metadata (1 when absent, as in early v1).
  int format_version() const { return format_version_; }
  // "content" of the file's metadata (data when absent).
  ManifestContent content() const { return content_; }
  // The spec from "partition-spec" (its fields; the id is the manifest's
  // partition_spec_id); empty when the metadata lacks it and the caller
  // gave the partition type.
  const PartitionSpec& partition_spec() const { return spec_; }
  const TypePtr& partition_type() const { return partition_type_; }
  // Key-value metadata of the file.
  const std::string* FindMetadata(std::string_view key) const { return reader_->FindMetadata(key); }

 private:
  ManifestReader();
  Status Fail(Status s);

  ManifestFile manifest_;
  std::unique_ptr<avro::ContainerReader> reader_;
  std::unique_ptr<internal::ManifestEntryDecoder> decoder_;
  int format_version_ = 1;
  ManifestContent content_ = ManifestContent::kData;
  PartitionSpec spec_;
  TypePtr partition_type_;
  int64_t next_row_id_ = 0;  // first_row_id inheritance
  int64_t entries_read_ = 0;
  Status error_;
};

}  // namespace floe::iceberg
