#include "floe/iceberg/manifest_writer.h"

#include <limits>

#include "floe/base/json_writer.h"
#include "floe/base/strings.h"
#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/container_writer.h"
#include "floe/iceberg/manifest_avro_schema.h"
#include "floe/iceberg/partition_summary.h"
#include "floe/iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

using avro::Encoder;

std::string SpecFieldsJson(const PartitionSpec& spec) {
  JsonWriter w;
  WritePartitionFields(w, spec);
  return w.Take();
}

// ["null", T] unions: branch 0 is null, branch 1 the value.
void WriteNull(Encoder& e) { e.WriteLong(0); }
void WriteOptionalLong(Encoder& e, const std::optional<int64_t>& v) {
  if (!v.has_value()) return WriteNull(e);
  e.WriteLong(1);
  e.WriteLong(*v);
}
void WriteOptionalString(Encoder& e, const std::optional<std::string>& v) {
  if (!v.has_value()) return WriteNull(e);
  e.WriteLong(1);
  e.WriteBytes(*v);
}

// An optional map<int, long> as an array of key/value records; an empty map
// is written as null (the model does not tell them apart).
void WriteCountMap(Encoder& e, const std::map<int32_t, int64_t>& m) {
  if (m.empty()) return WriteNull(e);
  e.WriteLong(1);
  e.WriteLong(static_cast<int64_t>(m.size()));
  for (const auto& [key, value] : m) {
    e.WriteInt(key);
    e.WriteLong(value);
  }
  e.WriteLong(0);
}
void WriteBytesMap(Encoder& e, const std::map<int32_t, std::string>& m) {
  if (m.empty()) return WriteNull(e);
  e.WriteLong(1);
  e.WriteLong(static_cast<int64_t>(m.size()));
  for (const auto& [key, value] : m) {
    e.WriteInt(key);
    e.WriteBytes(value);
  }
  e.WriteLong(0);
}
template <typename T>
void WriteList(Encoder& e, const std::vector<T>& items) {
  if (items.empty()) return WriteNull(e);
  e.WriteLong(1);
  e.WriteLong(static_cast<int64_t>(items.size()));
  for (T v : items) e.WriteLong(v);
  e.WriteLong(0);
}

// One partition value in Appendix A's Avro form (see manifest_avro_schema).
void WritePartitionValue(Encoder& e, const Type& type, const std::optional<Literal>& value) {
  if (type.id() == TypeId::kUnknown) return;  // the Avro type is "null": no bytes
  if (!value.has_value()) return WriteNull(e);
  e.WriteLong(1);
  const Literal& v = *value;
  switch (type.id()) {
    case TypeId::kBoolean: e.WriteBoolean(v.bool_value()); break;
    case TypeId::kInt:
    case TypeId::kDate: e.WriteInt(v.int_value()); break;
    case TypeId::kFloat: e.WriteFloat(v.float_value()); break;
    case TypeId::kDouble: e.WriteDouble(v.double_value()); break;
    case TypeId::kString:
    case TypeId::kBinary: e.WriteBytes(v.bytes()); break;
    case TypeId::kUuid:
    case TypeId::kFixed: e.WriteFixed(v.bytes()); break;
    case TypeId::kDecimal: {
      // A fixed of DecimalFixedSize bytes: the minimal big-endian two's
      // complement form (Appendix D), sign-extended.
      const std::string minimal = v.ToBytes();
      const size_t size = static_cast<size_t>(DecimalFixedSize(type.precision()));
      const char pad = (!minimal.empty() && (static_cast<uint8_t>(minimal[0]) & 0x80)) ? '\xff' : '\0';
      std::string fixed(size > minimal.size() ? size - minimal.size() : 0, pad);
      fixed += minimal;
      e.WriteFixed(fixed);
      break;
    }
    default: e.WriteLong(v.long_value()); break;  // long, time, timestamps
  }
}

std::string_view StatusName(ManifestEntryStatus status) {
  switch (status) {
    case ManifestEntryStatus::kAdded: return "added";
    case ManifestEntryStatus::kExisting: return "existing";
    case ManifestEntryStatus::kDeleted: return "deleted";
  }
  return "?";
}

}  // namespace

ManifestWriter::ManifestWriter() = default;
ManifestWriter::~ManifestWriter() = default;

Result<std::unique_ptr<ManifestWriter>> ManifestWriter::Open(FileIO& io, const std::string& path, int format_version,
                                                             const PartitionSpec& spec, const Schema& schema,
                                                             int64_t snapshot_id, ManifestContent content,
                                                             const ManifestWriteOptions& options) {
  const std::string what = StrCat("manifest ", Quote(path));
  if (format_version < kMinManifestFormatVersion || format_version > kMaxManifestFormatVersion) {
    return Status::InvalidArgument(StrCat(what, ": format version ", format_version, " is not 1, 2 or 3"));
  }
  if (format_version == 1 && content != ManifestContent::kData) {
    return Status::InvalidArgument(StrCat(what, ": v1 manifests hold data files only"));
  }
  for (const PartitionField& f : spec.fields) {
    if (f.transform.is_unknown()) {
      return Status::InvalidArgument(StrCat(what, ": partition field ", Quote(f.name), " has the unknown transform ",
                                            Quote(f.transform.ToString())));
    }
  }
  Result<TypePtr> partition_type = spec.PartitionType(schema);
  if (!partition_type.ok()) return partition_type.status().WithContext(what);
  Result<std::shared_ptr<const avro::Schema>> avro_schema = ManifestEntryAvroSchema(format_version, **partition_type);
  if (!avro_schema.ok()) return avro_schema.status().WithContext(what);

  avro::ContainerWriterOptions container;
  container.codec = options.codec;
  container.level = options.level;
  container.block_size_bytes = options.block_size_bytes;
  container.metadata = {{"schema", SchemaToJson(schema)},
                        {"schema-id", StrCat(schema.schema_id())},
                        {"partition-spec", SpecFieldsJson(spec)},
                        {"partition-spec-id", StrCat(spec.spec_id)},
                        {"format-version", StrCat(format_version)}};
  if (format_version >= 2) {
    container.metadata.emplace_back("content", content == ManifestContent::kData ? "data" : "deletes");
  }
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> out, io.OpenWrite(path, options.write));
  Result<std::unique_ptr<avro::ContainerWriter>> writer =
      avro::ContainerWriter::Open(std::move(out), *avro_schema, container);
  if (!writer.ok()) return writer.status().WithContext(what);

  std::unique_ptr<ManifestWriter> w(new ManifestWriter());
  w->path_ = path;
  w->format_version_ = format_version;
  w->spec_id_ = spec.spec_id;
  w->snapshot_id_ = snapshot_id;
  w->content_ = content;
  w->partition_type_ = *partition_type;
  w->writer_ = std::move(writer).value();
  w->summary_ = std::make_unique<PartitionSummaryBuilder>(**partition_type);
  return w;
}

Status ManifestWriter::Check(ManifestEntryStatus status, const ManifestEntry& entry) const {
  const DataFile& f = entry.data_file;
  auto bad = [&](auto&&... parts) {
    return Status::InvalidArgument(
        StrCat("manifest ", Quote(path_), ": ", StatusName(status), " file ", Quote(f.file_path), ": ", parts...));
  };
  if (f.file_path.empty()) return bad("file_path is empty");
  if (f.file_format.empty()) return bad("file_format is empty");
  if (f.record_count < 0) return bad("record_count is ", f.record_count);
  if (f.file_size_in_bytes < 0) return bad("file_size_in_bytes is ", f.file_size_in_bytes);
  if (f.spec_id != spec_id_) return bad("written with partition spec ", f.spec_id, ", the manifest's is ", spec_id_);
  const bool is_data = f.content == DataFileContent::kData;
  if (is_data != (content_ == ManifestContent::kData)) {
    return bad(is_data ? "a data file cannot go in a delete manifest" : "a delete file cannot go in a data manifest");
  }
  if (f.content != DataFileContent::kData && f.content != DataFileContent::kPositionDeletes &&
      f.content != DataFileContent::kEqualityDeletes) {
    return bad("content ", static_cast<int32_t>(f.content), " is not 0, 1 or 2");
  }
  const auto& fields = partition_type_->fields();
  if (f.partition.size() != fields.size()) {
    return bad("partition tuple has ", f.partition.size(), " values, the spec has ", fields.size(), " fields");
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::optional<Literal>& v = f.partition[i];
    if (!v.has_value()) continue;
    if (fields[i].type->id() == TypeId::kUnknown || !TypeEquals(v->type(), fields[i].type)) {
      return bad("partition field ", Quote(fields[i].name), " is a ", v->type()->ToString(), " value, not ",
                 fields[i].type->ToString());
    }
  }
  if (format_version_ < 2) {
    if (!f.equality_ids.empty()) return bad("equality_ids need format version 2");
    if (f.referenced_data_file.has_value()) return bad("referenced_data_file needs format version 2");
  }
  if (format_version_ < 3) {
    if (f.first_row_id.has_value()) return bad("first_row_id needs format version 3");
    if (f.content_offset.has_value() || f.content_size_in_bytes.has_value()) {
      return bad("content_offset and content_size_in_bytes need format version 3");
    }
  }
  if (f.content == DataFileContent::kEqualityDeletes && f.equality_ids.empty()) {
    // spec: equality_ids are "Required when content=2".
    return bad("an equality delete file needs equality_ids");
  }
  if (f.is_deletion_vector() &&
      (!f.referenced_data_file.has_value() || !f.content_offset.has_value() || !f.content_size_in_bytes.has_value())) {
    // spec: "Setting the referenced file is required for deletion vectors";
    // the blob's offset and size "are required".
    return bad("a deletion vector needs referenced_data_file, content_offset and content_size_in_bytes");
  }
  if (f.content_offset.has_value() != f.content_size_in_bytes.has_value()) {
    // spec: content_size_in_bytes is "required if content_offset is present".
    return bad("content_offset and content_size_in_bytes must be given together");
  }
  if (status == ManifestEntryStatus::kExisting && !entry.snapshot_id.has_value()) {
    return bad("an existing entry needs the snapshot id that added it");
  }
  if (status != ManifestEntryStatus::kAdded && format_version_ >= 2 &&
      (!entry.sequence_number.has_value() || !entry.file_sequence_number.has_value())) {
    // spec: "If the entry status is 0 (existing) or 2 (deleted), the entry
    // must include both sequence numbers explicitly."
    return bad("an ", StatusName(status), " entry needs its data and file sequence numbers");
  }
  if (files_[static_cast<int>(status)] >= std::numeric_limits<int32_t>::max()) {
    return bad("more than 2^31 - 1 ", StatusName(status), " entries");
  }
  return Status::OK();
}

void ManifestWriter::Encode(ManifestEntryStatus status, const ManifestEntry& entry) {
  const DataFile& f = entry.data_file;
  const int v = format_version_;
  row_.clear();
  Encoder e(&row_);
  e.WriteInt(static_cast<int32_t>(status));
  // snapshot_id: the writer's for added and deleted entries, the original
  // for existing ones.
  const int64_t snapshot_id =
      status == ManifestEntryStatus::kExisting ? entry.snapshot_id.value_or(snapshot_id_) : snapshot_id_;
  if (v == 1) {
    e.WriteLong(snapshot_id);
  } else {
    WriteOptionalLong(e, snapshot_id);
    // Added entries inherit the commit's sequence numbers; a data sequence
    // number given by the caller is kept ("a new file with data that
    // logically belongs to an older sequence number").
    WriteOptionalLong(e, entry.sequence_number);
    WriteOptionalLong(e, status == ManifestEntryStatus::kAdded ? std::nullopt : entry.file_sequence_number);
  }
  if (v >= 2) e.WriteInt(static_cast<int32_t>(f.content));
  e.WriteBytes(f.file_path);
  e.WriteBytes(f.file_format);
  const auto& fields = partition_type_->fields();
  for (size_t i = 0; i < fields.size(); ++i) WritePartitionValue(e, *fields[i].type, f.partition[i]);
  e.WriteLong(f.record_count);
  e.WriteLong(f.file_size_in_bytes);
  if (v == 1) e.WriteLong(kV1BlockSizeInBytes);
  WriteCountMap(e, f.column_sizes);
  WriteCountMap(e, f.value_counts);
  WriteCountMap(e, f.null_value_counts);
  WriteCountMap(e, f.nan_value_counts);
  WriteBytesMap(e, f.lower_bounds);
  WriteBytesMap(e, f.upper_bounds);
  WriteOptionalString(e, f.key_metadata);
  WriteList(e, f.split_offsets);
  if (v >= 2) WriteList(e, f.equality_ids);
  if (f.sort_order_id.has_value()) {
    e.WriteLong(1);
    e.WriteInt(*f.sort_order_id);
  } else {
    WriteNull(e);
  }
  if (v >= 3) WriteOptionalLong(e, f.first_row_id);
  if (v >= 2) WriteOptionalString(e, f.referenced_data_file);
  if (v >= 3) {
    WriteOptionalLong(e, f.content_offset);
    WriteOptionalLong(e, f.content_size_in_bytes);
  }
}

Status ManifestWriter::Write(ManifestEntryStatus status, const ManifestEntry& entry) {
  if (done_) return Status::InvalidArgument(StrCat("manifest ", Quote(path_), " is already closed or aborted"));
  FLOE_RETURN_IF_ERROR(Check(status, entry));
  Encode(status, entry);
  FLOE_RETURN_IF_ERROR(writer_->AppendEncoded(row_));
  ++entries_;
  files_[static_cast<int>(status)] += 1;
  rows_[static_cast<int>(status)] += entry.data_file.record_count;
  summary_->Update(entry.data_file.partition);
  // spec: min_sequence_number is over "all live data or delete files"; an
  // added entry without one gets the commit's, which no earlier number
  // exceeds, so only known numbers count.
  if (status != ManifestEntryStatus::kDeleted && format_version_ >= 2 && entry.sequence_number.has_value()) {
    if (!min_sequence_number_ || *entry.sequence_number < *min_sequence_number_) {
      min_sequence_number_ = entry.sequence_number;
    }
  }
  return Status::OK();
}

Status ManifestWriter::Add(const ManifestEntry& entry) { return Write(ManifestEntryStatus::kAdded, entry); }
Status ManifestWriter::Existing(const ManifestEntry& entry) { return Write(ManifestEntryStatus::kExisting, entry); }
Status ManifestWriter::Delete(const ManifestEntry& entry) { return Write(ManifestEntryStatus::kDeleted, entry); }

Result<ManifestFile> ManifestWriter::Close() {
  if (done_) return Status::InvalidArgument(StrCat("manifest ", Quote(path_), " is already closed or aborted"));
  done_ = true;
  Status s = writer_->Close();
  if (!s.ok()) return s.WithContext(StrCat("manifest ", Quote(path_)));
  ManifestFile m;
  m.manifest_path = path_;
  m.manifest_length = writer_->bytes_written();
  m.partition_spec_id = spec_id_;
  m.content = content_;
  if (format_version_ == 1) {
    // spec: v1 has no sequence numbers; readers use 0.
    m.sequence_number = 0;
    m.min_sequence_number = 0;
  } else {
    m.sequence_number = ManifestFile::kUnassignedSequenceNumber;
    m.min_sequence_number = min_sequence_number_.value_or(ManifestFile::kUnassignedSequenceNumber);
  }
  m.added_snapshot_id = snapshot_id_;
  auto idx = [](ManifestEntryStatus st) { return static_cast<int>(st); };
  m.added_files_count = static_cast<int32_t>(files_[idx(ManifestEntryStatus::kAdded)]);
  m.existing_files_count = static_cast<int32_t>(files_[idx(ManifestEntryStatus::kExisting)]);
  m.deleted_files_count = static_cast<int32_t>(files_[idx(ManifestEntryStatus::kDeleted)]);
  m.added_rows_count = rows_[idx(ManifestEntryStatus::kAdded)];
  m.existing_rows_count = rows_[idx(ManifestEntryStatus::kExisting)];
  m.deleted_rows_count = rows_[idx(ManifestEntryStatus::kDeleted)];
  m.partitions = summary_->Summaries();
  writer_.reset();
  return m;
}

void ManifestWriter::Abort() {
  done_ = true;
  writer_.reset();  // the container writer aborts its stream when not closed
}

}  // namespace floe::iceberg
