// ManifestEntryDecoder (internal to manifest_reader): decodes Avro
// manifest_entry rows straight into ManifestEntry values, without a generic
// Datum tree in between.
//
// Make() compiles the file's writer schema once into a plan: each writer
// field is matched to a ManifestEntry member by Iceberg field id (by name
// when the field has no id), its Avro type is checked against what the
// member can hold (ints and longs interchangeably for integers, strings and
// bytes for text, ["null", T] unions for anything), and every other field is
// skipped by schema. So manifests of every version and writer read into one
// model, and a file that cannot be a manifest fails before its first row.
//
// Thread safety: Decode() may be called from several threads at once, each
// with its own Decoder and entry.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/schema.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/manifest_entry_plan.h"
#include "floe/iceberg/type.h"

namespace floe::iceberg::internal {

class ManifestEntryDecoder {
 public:
  // Plans decoding rows of `writer` (the file's manifest_entry record) with
  // partition tuples of `partition_type` (a struct; writer partition fields
  // match its fields by id). `read_stats`: false skips the column metrics
  // maps (sizes, counts, bounds), which are left empty. Corrupt, naming the
  // field, for a schema that is not a manifest entry: a required field
  // missing (content too, from `format_version` 2), a field whose Avro type
  // cannot hold the member, a partition value type that does not fit the
  // partition type.
  static Result<std::unique_ptr<ManifestEntryDecoder>> Make(const avro::Node& writer, TypePtr partition_type,
                                                            int format_version, bool read_stats);
  ~ManifestEntryDecoder();
  ManifestEntryDecoder(const ManifestEntryDecoder&) = delete;
  ManifestEntryDecoder& operator=(const ManifestEntryDecoder&) = delete;

  // Decodes one row into `entry`, reusing its strings, vectors and map
  // nodes. Members the writer lacks take their defaults (v1: content data).
  // Sequence numbers and snapshot ids are as written (null when absent):
  // inheritance is the reader's. Corrupt naming the field for bad bytes, a
  // null in a required field, a status or content outside 0..2, a negative
  // record count or file size.
  Status Decode(avro::Decoder* decoder, ManifestEntry* entry) const;

 private:
  ManifestEntryDecoder();
  Status DecodeSteps(const std::vector<Step>& steps, avro::Decoder* d, ManifestEntry* e) const;
  Status DecodeStep(const Step& s, avro::Decoder* d, ManifestEntry* e) const;
  Status DecodePartition(avro::Decoder* d, PartitionValues* out) const;
  Status DecodeCountMap(const Step& s, avro::Decoder* d, std::map<int32_t, int64_t>* out) const;
  Status DecodeBytesMap(const Step& s, avro::Decoder* d, std::map<int32_t, std::string>* out) const;
  void ResetAbsent(ManifestEntry* e) const;

  ManifestEntryPlan plan_;
  bool read_stats_ = true;
};

}  // namespace floe::iceberg::internal
