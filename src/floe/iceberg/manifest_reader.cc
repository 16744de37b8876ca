#include "floe/iceberg/manifest_reader.h"

#include <charconv>

#include "floe/base/strings.h"
#include "floe/iceberg/manifest_avro_schema.h"
#include "floe/iceberg/manifest_entry_decoder.h"
#include "floe/iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

// The partition type a manifest's own metadata describes: its spec's
// fields applied to the table schema it was written with.
Result<TypePtr> PartitionTypeFromMetadata(const avro::ContainerReader& reader, const PartitionSpec& spec) {
  if (spec.fields.empty()) return Type::Struct({});
  const std::string* schema_json = reader.FindMetadata("schema");
  if (schema_json == nullptr) {
    return Status::Corrupt("metadata 'schema' is missing, so the partition type is unknown");
  }
  Result<Schema> schema = SchemaFromJson(*schema_json);
  if (!schema.ok()) return Status::Corrupt(schema.status().WithContext("metadata 'schema'").message());
  Result<TypePtr> type = spec.PartitionType(*schema);
  if (!type.ok()) return Status::Corrupt(type.status().WithContext("metadata 'partition-spec'").message());
  return type;
}

}  // namespace

ManifestReader::ManifestReader() = default;
ManifestReader::~ManifestReader() = default;

Result<std::unique_ptr<ManifestReader>> ManifestReader::Open(FileIO& io, const ManifestFile& manifest,
                                                             const ManifestReaderOptions& options) {
  const std::string what = StrCat("manifest ", Quote(manifest.manifest_path));
  OpenReadOptions read_options;
  if (manifest.manifest_length > 0) read_options.size = manifest.manifest_length;
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, io.OpenRead(manifest.manifest_path, read_options));
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<avro::ContainerReader> container,
                        avro::ContainerReader::Open(std::move(file), options.container));

  std::unique_ptr<ManifestReader> r(new ManifestReader());
  r->manifest_ = manifest;
  r->next_row_id_ = manifest.first_row_id.value_or(0);
  auto corrupt = [&](const Status& s) { return Status(s.code(), StrCat(what, ": ", s.message())); };

  if (const std::string* v = container->FindMetadata("format-version")) {
    int version = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), version);
    if (ec != std::errc() || end != v->data() + v->size() || version < 1) {
      return Status::Corrupt(StrCat(what, ": metadata 'format-version' is ", Quote(*v)));
    }
    if (version > kMaxManifestFormatVersion) {
      return Status::Unsupported(StrCat(what, ": format version ", version, " is newer than 3"));
    }
    r->format_version_ = version;
  }
  if (const std::string* v = container->FindMetadata("content")) {
    if (*v == "deletes") {
      r->content_ = ManifestContent::kDeletes;
    } else if (*v != "data") {
      return Status::Corrupt(StrCat(what, ": metadata 'content' is ", Quote(*v), ", not 'data' or 'deletes'"));
    }
  }
  r->spec_.spec_id = manifest.partition_spec_id;
  if (const std::string* v = container->FindMetadata("partition-spec")) {
    Result<PartitionSpec> spec = PartitionSpecFromJson(*v, manifest.partition_spec_id);
    if (!spec.ok()) return corrupt(Status::Corrupt(spec.status().WithContext("metadata 'partition-spec'").message()));
    r->spec_ = std::move(spec).value();
  } else if (options.partition_type == nullptr) {
    return Status::Corrupt(StrCat(what, ": metadata 'partition-spec' is missing, so the partition type is unknown"));
  }
  if (options.partition_type != nullptr) {
    if (options.partition_type->id() != TypeId::kStruct) {
      return Status::InvalidArgument(
          StrCat(what, ": partition type ", options.partition_type->ToString(), " is not a struct"));
    }
    r->partition_type_ = options.partition_type;
  } else {
    Result<TypePtr> type = PartitionTypeFromMetadata(*container, r->spec_);
    if (!type.ok()) return corrupt(type.status());
    r->partition_type_ = std::move(type).value();
  }
  Result<std::unique_ptr<internal::ManifestEntryDecoder>> decoder = internal::ManifestEntryDecoder::Make(
      container->writer_schema()->root(), r->partition_type_, r->format_version_, options.read_stats);
  if (!decoder.ok()) return corrupt(decoder.status());
  r->decoder_ = std::move(decoder).value();
  r->reader_ = std::move(container);
  return r;
}

Status ManifestReader::Fail(Status s) {
  error_ = std::move(s);
  return error_;
}

Result<bool> ManifestReader::Next(ManifestEntry* entry) {
  if (!error_.ok()) return error_;
  Result<avro::Decoder*> row = reader_->NextRow();
  if (!row.ok()) return Fail(row.status());
  if (*row == nullptr) return false;
  Status s = decoder_->Decode(*row, entry);
  if (!s.ok()) {
    return Fail(Status(s.code(), StrCat("manifest ", Quote(path()), ": entry ", entries_read_, ": ", s.message())));
  }
  ++entries_read_;

  // spec: "Sequence Number Inheritance" and "First Row ID Inheritance".
  const ManifestFile& m = manifest_;
  if (!entry->snapshot_id.has_value()) entry->snapshot_id = m.added_snapshot_id;
  if (m.sequence_number >= 0 && (entry->status == ManifestEntryStatus::kAdded || m.sequence_number == 0)) {
    if (!entry->sequence_number.has_value()) entry->sequence_number = m.sequence_number;
    if (!entry->file_sequence_number.has_value()) entry->file_sequence_number = m.sequence_number;
  }
  DataFile& f = entry->data_file;
  f.spec_id = m.partition_spec_id;
  if (m.first_row_id.has_value() && f.content == DataFileContent::kData && !f.first_row_id.has_value()) {
    f.first_row_id = next_row_id_;
    next_row_id_ += f.record_count;
  }
  return true;
}

Result<std::vector<ManifestEntry>> ManifestReader::ReadAll() {
  std::vector<ManifestEntry> entries;
  ManifestEntry entry;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, Next(&entry));
    if (!more) return entries;
    entries.push_back(entry);
  }
}

}  // namespace floe::iceberg
