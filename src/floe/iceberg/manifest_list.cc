#include "floe/iceberg/manifest_list.h"

#include <charconv>
#include <limits>

#include "floe/base/strings.h"
#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/container_reader.h"
#include "floe/formats/avro/container_writer.h"
#include "floe/iceberg/manifest_avro_schema.h"

namespace floe::iceberg {
namespace {

using avro::Datum;
using avro::Encoder;

void WriteOptionalLong(Encoder& e, const std::optional<int64_t>& v) {
  if (!v.has_value()) return e.WriteLong(0);
  e.WriteLong(1);
  e.WriteLong(*v);
}
void WriteOptionalBytes(Encoder& e, const std::optional<std::string>& v) {
  if (!v.has_value()) return e.WriteLong(0);
  e.WriteLong(1);
  e.WriteBytes(*v);
}

// floe's reading model of manifest_file: every field of every version by
// id, all optional, so v1, v2 and v3 rows resolve into one shape and the
// checks below (not the resolver) name what is missing.
constexpr std::string_view kReaderSchema = R"({"type":"record","name":"manifest_file","fields":[
  {"name":"manifest_path","type":["null","string"],"default":null,"field-id":500},
  {"name":"manifest_length","type":["null","long"],"default":null,"field-id":501},
  {"name":"partition_spec_id","type":["null","int"],"default":null,"field-id":502},
  {"name":"content","type":["null","int"],"default":null,"field-id":517},
  {"name":"sequence_number","type":["null","long"],"default":null,"field-id":515},
  {"name":"min_sequence_number","type":["null","long"],"default":null,"field-id":516},
  {"name":"added_snapshot_id","type":["null","long"],"default":null,"field-id":503},
  {"name":"added_files_count","type":["null","int"],"default":null,"field-id":504},
  {"name":"existing_files_count","type":["null","int"],"default":null,"field-id":505},
  {"name":"deleted_files_count","type":["null","int"],"default":null,"field-id":506},
  {"name":"added_rows_count","type":["null","long"],"default":null,"field-id":512},
  {"name":"existing_rows_count","type":["null","long"],"default":null,"field-id":513},
  {"name":"deleted_rows_count","type":["null","long"],"default":null,"field-id":514},
  {"name":"partitions","type":["null",{"type":"array","element-id":508,"items":{"type":"record","name":"r508","fields":[
    {"name":"contains_null","type":["null","boolean"],"default":null,"field-id":509},
    {"name":"contains_nan","type":["null","boolean"],"default":null,"field-id":518},
    {"name":"lower_bound","type":["null","bytes"],"default":null,"field-id":510},
    {"name":"upper_bound","type":["null","bytes"],"default":null,"field-id":511}]}}],"default":null,"field-id":507},
  {"name":"key_metadata","type":["null","bytes"],"default":null,"field-id":519},
  {"name":"first_row_id","type":["null","long"],"default":null,"field-id":520}]})";

enum Col : size_t {
  kPath,
  kLength,
  kSpecId,
  kContent,
  kSequenceNumber,
  kMinSequenceNumber,
  kAddedSnapshotId,
  kAddedFiles,
  kExistingFiles,
  kDeletedFiles,
  kAddedRows,
  kExistingRows,
  kDeletedRows,
  kPartitions,
  kKeyMetadata,
  kFirstRowId,
};
constexpr const char* kColNames[] = {
    "manifest_path",        "manifest_length",     "partition_spec_id", "content",
    "sequence_number",      "min_sequence_number", "added_snapshot_id", "added_files_count",
    "existing_files_count", "deleted_files_count", "added_rows_count",  "existing_rows_count",
    "deleted_rows_count",   "partitions",          "key_metadata",      "first_row_id"};

const std::shared_ptr<const avro::Schema>& ReaderSchema() {
  static const std::shared_ptr<const avro::Schema> schema = [] {
    Result<std::shared_ptr<const avro::Schema>> s = avro::Schema::Parse(kReaderSchema);
    return s.ok() ? *s : nullptr;
  }();
  return schema;
}

// One row of the reading model as a ManifestFile.
Status FromDatum(const Datum& row, int format_version, ManifestFile* m) {
  auto missing = [](Col c) { return Status::Corrupt(StrCat("field ", Quote(kColNames[c]), " is missing or null")); };
  auto negative = [](Col c, int64_t v) { return Status::Corrupt(StrCat("field ", Quote(kColNames[c]), " is ", v)); };
  auto get = [&](Col c) -> const Datum& { return row.field(c); };
  for (Col c : {kPath, kLength, kSpecId, kAddedSnapshotId}) {
    if (get(c).is_null()) return missing(c);
  }
  m->manifest_path = get(kPath).bytes_value();
  m->manifest_length = get(kLength).long_value();
  if (m->manifest_length < 0) return negative(kLength, m->manifest_length);
  m->partition_spec_id = get(kSpecId).int_value();
  m->added_snapshot_id = get(kAddedSnapshotId).long_value();
  // spec: content, sequence numbers and counts are required from v2; v1
  // lists lack them ("use 0 when reading v1 manifest lists").
  if (format_version >= 2) {
    for (Col c : {kContent, kSequenceNumber, kMinSequenceNumber, kAddedFiles, kExistingFiles, kDeletedFiles, kAddedRows,
                  kExistingRows, kDeletedRows}) {
      if (get(c).is_null()) return missing(c);
    }
  }
  m->content = ManifestContent::kData;
  if (!get(kContent).is_null()) {
    const int32_t content = get(kContent).int_value();
    if (content != 0 && content != 1) {
      return Status::Corrupt(StrCat("field 'content' is ", content, ", not 0 (data) or 1 (deletes)"));
    }
    m->content = static_cast<ManifestContent>(content);
  }
  m->sequence_number = get(kSequenceNumber).is_null() ? 0 : get(kSequenceNumber).long_value();
  m->min_sequence_number = get(kMinSequenceNumber).is_null() ? 0 : get(kMinSequenceNumber).long_value();
  if (m->sequence_number < 0) return negative(kSequenceNumber, m->sequence_number);
  if (m->min_sequence_number < 0) return negative(kMinSequenceNumber, m->min_sequence_number);
  auto count32 = [&](Col c, std::optional<int32_t>* out) -> Status {
    out->reset();
    if (get(c).is_null()) return Status::OK();
    if (get(c).int_value() < 0) return negative(c, get(c).int_value());
    *out = get(c).int_value();
    return Status::OK();
  };
  auto count64 = [&](Col c, std::optional<int64_t>* out) -> Status {
    out->reset();
    if (get(c).is_null()) return Status::OK();
    if (get(c).long_value() < 0) return negative(c, get(c).long_value());
    *out = get(c).long_value();
    return Status::OK();
  };
  FLOE_RETURN_IF_ERROR(count32(kAddedFiles, &m->added_files_count));
  FLOE_RETURN_IF_ERROR(count32(kExistingFiles, &m->existing_files_count));
  FLOE_RETURN_IF_ERROR(count32(kDeletedFiles, &m->deleted_files_count));
  FLOE_RETURN_IF_ERROR(count64(kAddedRows, &m->added_rows_count));
  FLOE_RETURN_IF_ERROR(count64(kExistingRows, &m->existing_rows_count));
  FLOE_RETURN_IF_ERROR(count64(kDeletedRows, &m->deleted_rows_count));
  m->partitions.clear();
  if (!get(kPartitions).is_null()) {
    for (const Datum& s : get(kPartitions).children()) {
      if (s.is_null() || s.field(0).is_null()) {
        return Status::Corrupt(
            StrCat("field 'partitions[", m->partitions.size(), "].contains_null' is missing or null"));
      }
      PartitionFieldSummary summary;
      summary.contains_null = s.field(0).boolean_value();
      if (!s.field(1).is_null()) summary.contains_nan = s.field(1).boolean_value();
      if (!s.field(2).is_null()) summary.lower_bound = s.field(2).bytes_value();
      if (!s.field(3).is_null()) summary.upper_bound = s.field(3).bytes_value();
      m->partitions.push_back(std::move(summary));
    }
  }
  m->key_metadata.reset();
  if (!get(kKeyMetadata).is_null()) m->key_metadata = get(kKeyMetadata).bytes_value();
  m->first_row_id.reset();
  if (!get(kFirstRowId).is_null()) m->first_row_id = get(kFirstRowId).long_value();
  return Status::OK();
}

}  // namespace

ManifestListWriter::ManifestListWriter() = default;
ManifestListWriter::~ManifestListWriter() = default;

Result<std::unique_ptr<ManifestListWriter>> ManifestListWriter::Open(FileIO& io, const std::string& path,
                                                                     int format_version, int64_t snapshot_id,
                                                                     std::optional<int64_t> parent_snapshot_id,
                                                                     int64_t sequence_number,
                                                                     std::optional<int64_t> first_row_id,
                                                                     const ManifestWriteOptions& options) {
  const std::string what = StrCat("manifest list ", Quote(path));
  if (format_version < kMinManifestFormatVersion || format_version > kMaxManifestFormatVersion) {
    return Status::InvalidArgument(StrCat(what, ": format version ", format_version, " is not 1, 2 or 3"));
  }
  if (format_version >= 2 && sequence_number < 0) {
    return Status::InvalidArgument(StrCat(what, ": sequence number ", sequence_number, " is negative"));
  }
  if (format_version >= 3 && (!first_row_id.has_value() || *first_row_id < 0)) {
    // spec: a v3 snapshot's first-row-id is "required".
    return Status::InvalidArgument(StrCat(what, ": a v3 manifest list needs the snapshot's first row id"));
  }
  Result<std::shared_ptr<const avro::Schema>> schema = ManifestFileAvroSchema(format_version);
  if (!schema.ok()) return schema.status().WithContext(what);
  avro::ContainerWriterOptions container;
  container.codec = options.codec;
  container.level = options.level;
  container.block_size_bytes = options.block_size_bytes;
  container.metadata = {{"snapshot-id", StrCat(snapshot_id)},
                        {"parent-snapshot-id", parent_snapshot_id ? StrCat(*parent_snapshot_id) : "null"}};
  if (format_version >= 2) container.metadata.emplace_back("sequence-number", StrCat(sequence_number));
  if (format_version >= 3) container.metadata.emplace_back("first-row-id", StrCat(*first_row_id));
  container.metadata.emplace_back("format-version", StrCat(format_version));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> out, io.OpenWrite(path, options.write));
  Result<std::unique_ptr<avro::ContainerWriter>> writer =
      avro::ContainerWriter::Open(std::move(out), *schema, container);
  if (!writer.ok()) return writer.status().WithContext(what);

  std::unique_ptr<ManifestListWriter> w(new ManifestListWriter());
  w->path_ = path;
  w->format_version_ = format_version;
  w->snapshot_id_ = snapshot_id;
  w->sequence_number_ = sequence_number;
  if (format_version >= 3) w->next_row_id_ = first_row_id;
  w->writer_ = std::move(writer).value();
  return w;
}

Status ManifestListWriter::Check(const ManifestFile& m) const {
  auto bad = [&](auto&&... parts) {
    return Status::InvalidArgument(
        StrCat("manifest list ", Quote(path_), ": manifest ", Quote(m.manifest_path), ": ", parts...));
  };
  if (m.manifest_path.empty()) return bad("manifest_path is empty");
  if (m.manifest_length < 0) return bad("manifest_length is ", m.manifest_length);
  if (format_version_ == 1 && m.content != ManifestContent::kData) return bad("v1 lists hold data manifests only");
  if (m.content != ManifestContent::kData && m.content != ManifestContent::kDeletes) {
    return bad("content ", static_cast<int32_t>(m.content), " is not 0 or 1");
  }
  if (format_version_ >= 2) {
    if (m.sequence_number == ManifestFile::kUnassignedSequenceNumber && m.added_snapshot_id != snapshot_id_) {
      return bad("its sequence number is unassigned but snapshot ", m.added_snapshot_id,
                 " added it, not this list's snapshot ", snapshot_id_);
    }
    if (m.sequence_number < ManifestFile::kUnassignedSequenceNumber ||
        m.min_sequence_number < ManifestFile::kUnassignedSequenceNumber) {
      return bad("sequence numbers ", m.sequence_number, " / ", m.min_sequence_number, " are negative");
    }
    if (!m.added_files_count || !m.existing_files_count || !m.deleted_files_count || !m.added_rows_count ||
        !m.existing_rows_count || !m.deleted_rows_count) {
      // spec: the counts are required from v2.
      return bad("a v", format_version_, " manifest list needs its file and row counts");
    }
  }
  for (const auto& c : {m.added_files_count, m.existing_files_count, m.deleted_files_count}) {
    if (c && *c < 0) return bad("a file count is ", *c);
  }
  for (const auto& c : {m.added_rows_count, m.existing_rows_count, m.deleted_rows_count}) {
    if (c && *c < 0) return bad("a row count is ", *c);
  }
  if (format_version_ >= 3 && m.content == ManifestContent::kDeletes && m.first_row_id.has_value()) {
    // spec: "The value of first_row_id for delete manifests is always null."
    return bad("a delete manifest has no first_row_id");
  }
  return Status::OK();
}

Result<ManifestFile> ManifestListWriter::Add(const ManifestFile& manifest) {
  if (done_) return Status::InvalidArgument(StrCat("manifest list ", Quote(path_), " is already closed or aborted"));
  FLOE_RETURN_IF_ERROR(Check(manifest));
  ManifestFile m = manifest;
  const int v = format_version_;
  if (v >= 2) {
    if (m.sequence_number == ManifestFile::kUnassignedSequenceNumber) m.sequence_number = sequence_number_;
    if (m.min_sequence_number == ManifestFile::kUnassignedSequenceNumber) m.min_sequence_number = sequence_number_;
  } else {
    m.sequence_number = 0;
    m.min_sequence_number = 0;
  }
  std::optional<int64_t> next_row_id = next_row_id_;
  if (v >= 3 && m.content == ManifestContent::kData && !m.first_row_id.has_value()) {
    m.first_row_id = *next_row_id;
    const int64_t rows = *m.added_rows_count + *m.existing_rows_count;
    if (rows > std::numeric_limits<int64_t>::max() - *next_row_id) {
      return Status::InvalidArgument(StrCat("manifest list ", Quote(path_), ": row ids overflow"));
    }
    next_row_id = *next_row_id + rows;
  }
  if (v < 3) m.first_row_id.reset();

  row_.clear();
  Encoder e(&row_);
  e.WriteBytes(m.manifest_path);
  e.WriteLong(m.manifest_length);
  e.WriteInt(m.partition_spec_id);
  if (v >= 2) {
    e.WriteInt(static_cast<int32_t>(m.content));
    e.WriteLong(m.sequence_number);
    e.WriteLong(m.min_sequence_number);
  }
  e.WriteLong(m.added_snapshot_id);
  auto count = [&](const auto& c) {
    if (v >= 2) return e.WriteLong(*c);  // required: checked above
    WriteOptionalLong(e, c ? std::optional<int64_t>(*c) : std::nullopt);
  };
  count(m.added_files_count);
  count(m.existing_files_count);
  count(m.deleted_files_count);
  count(m.added_rows_count);
  count(m.existing_rows_count);
  count(m.deleted_rows_count);
  // Java and PyIceberg write an empty list for an unpartitioned manifest.
  e.WriteLong(1);
  if (!m.partitions.empty()) {
    e.WriteLong(static_cast<int64_t>(m.partitions.size()));
    for (const PartitionFieldSummary& s : m.partitions) {
      e.WriteBoolean(s.contains_null);
      if (s.contains_nan.has_value()) {
        e.WriteLong(1);
        e.WriteBoolean(*s.contains_nan);
      } else {
        e.WriteLong(0);
      }
      WriteOptionalBytes(e, s.lower_bound);
      WriteOptionalBytes(e, s.upper_bound);
    }
  }
  e.WriteLong(0);
  WriteOptionalBytes(e, m.key_metadata);
  if (v >= 3) WriteOptionalLong(e, m.first_row_id);
  FLOE_RETURN_IF_ERROR(writer_->AppendEncoded(row_));
  next_row_id_ = next_row_id;
  ++manifests_;
  return m;
}

Status ManifestListWriter::Close() {
  if (done_) return Status::InvalidArgument(StrCat("manifest list ", Quote(path_), " is already closed or aborted"));
  done_ = true;
  Status s = writer_->Close();
  writer_.reset();
  if (!s.ok()) return s.WithContext(StrCat("manifest list ", Quote(path_)));
  return Status::OK();
}

void ManifestListWriter::Abort() {
  done_ = true;
  writer_.reset();
}

Result<std::vector<ManifestFile>> ReadManifestList(FileIO& io, const std::string& path,
                                                   const OpenReadOptions& options) {
  const std::string what = StrCat("manifest list ", Quote(path));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, io.OpenRead(path, options));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<avro::ContainerReader> reader, avro::ContainerReader::Open(std::move(file)));
  int format_version = 1;
  if (const std::string* v = reader->FindMetadata("format-version")) {
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), format_version);
    if (ec != std::errc() || end != v->data() + v->size() || format_version < 1) {
      return Status::Corrupt(StrCat(what, ": metadata 'format-version' is ", Quote(*v)));
    }
    if (format_version > kMaxManifestFormatVersion) {
      return Status::Unsupported(StrCat(what, ": format version ", format_version, " is newer than 3"));
    }
  }
  if (ReaderSchema() == nullptr) return Status::Internal("manifest list reader schema does not parse");
  FLOE_RETURN_IF_ERROR(reader->SetReaderSchema(ReaderSchema()));
  std::vector<ManifestFile> manifests;
  Datum row;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(&row));
    if (!more) return manifests;
    ManifestFile m;
    Status s = FromDatum(row, format_version, &m);
    if (!s.ok()) return Status(s.code(), StrCat(what, ": manifest ", manifests.size(), ": ", s.message()));
    manifests.push_back(std::move(m));
  }
}

}  // namespace floe::iceberg
