// Export through the Arrow C Data Interface: each exported struct owns a
// private_data object that keeps what its pointers refer to alive, and its
// release callback frees that object after releasing the children.

#include <cerrno>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/columnar/arrow_c_data.h"
#include "floe/columnar/c_data_metadata.h"

namespace floe {
namespace {

// ---- Schemas ----

struct ExportedSchema {
  std::string format;
  std::string name;
  std::string metadata;
  // Each child is its own exported struct (with its own private data), so a
  // consumer may move one out and release it separately, as the spec allows.
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};  // a dictionary type's value type; released (unused) otherwise
};

// As the spec has it, a struct's release callback releases its children and
// its dictionary (those a consumer did not move out first).
void ReleaseSchema(ArrowSchema* schema) {
  if (schema->release == nullptr) return;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    ArrowSchema* child = schema->children[i];
    if (child->release != nullptr) child->release(child);
  }
  if (schema->dictionary != nullptr && schema->dictionary->release != nullptr) {
    schema->dictionary->release(schema->dictionary);
  }
  delete static_cast<ExportedSchema*>(schema->private_data);
  schema->release = nullptr;
  schema->private_data = nullptr;
}

// The metadata a field travels with: its own, then the field id and the uuid
// extension keys, which replace any same-named keys of its own.
KeyValueMetadata ExportedMetadata(const KeyValueMetadata& own, std::optional<int32_t> field_id, bool is_uuid) {
  KeyValueMetadata metadata;
  for (const auto& kv : own) {
    const bool replaced = (field_id && kv.first == c_data::kFieldIdKey) ||
                          (is_uuid && (kv.first == c_data::kExtensionNameKey ||
                                       kv.first == c_data::kExtensionMetadataKey));
    if (!replaced) metadata.push_back(kv);
  }
  if (field_id) metadata.emplace_back(std::string(c_data::kFieldIdKey), std::to_string(*field_id));
  if (is_uuid) {
    metadata.emplace_back(std::string(c_data::kExtensionNameKey), std::string(c_data::kUuidExtensionName));
    metadata.emplace_back(std::string(c_data::kExtensionMetadataKey), "");
  }
  return metadata;
}

// Fills `out` with one schema node; the type's child fields become children.
void FillSchema(std::string format, std::string name, const KeyValueMetadata& metadata, int64_t flags,
                const std::vector<Field>& fields, ArrowSchema* out) {
  auto* priv = new ExportedSchema;
  priv->format = std::move(format);
  priv->name = std::move(name);
  priv->metadata = c_data::EncodeMetadata(metadata);
  priv->children.resize(fields.size());
  priv->child_pointers.resize(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    ExportField(fields[i], &priv->children[i]);
    priv->child_pointers[i] = &priv->children[i];
  }
  out->format = priv->format.c_str();
  out->name = priv->name.c_str();
  out->metadata = priv->metadata.empty() ? nullptr : priv->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(fields.size());
  out->children = priv->child_pointers.empty() ? nullptr : priv->child_pointers.data();
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = priv;
}

void FillTypeSchema(const DataType& type, std::string name, bool nullable, const KeyValueMetadata& own_metadata,
                    std::optional<int32_t> field_id, ArrowSchema* out) {
  int64_t flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  if (type.id() == TypeId::kMap && type.keys_sorted()) flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  FillSchema(ArrowFormat(type), std::move(name), ExportedMetadata(own_metadata, field_id, type.id() == TypeId::kUuid),
             flags, type.fields(), out);
  if (type.id() == TypeId::kDictionary) {
    // The indices are the field ("i"); the values' type hangs off `dictionary`,
    // nullable because a dictionary may hold nulls. Not ordered: the
    // ARROW_FLAG_DICTIONARY_ORDERED flag stays off.
    auto* priv = static_cast<ExportedSchema*>(out->private_data);
    FillTypeSchema(*type.value_type(), "", /*nullable=*/true, {}, std::nullopt, &priv->dictionary);
    out->dictionary = &priv->dictionary;
  }
}

// ---- Arrays ----

// Non-validity buffers that are empty still get a valid pointer: consumers
// may dereference a data buffer without checking the (zero) size.
alignas(64) const uint8_t kEmptyBuffer[64] = {};

struct ExportedArray {
  std::shared_ptr<const ArrayData> data;  // keeps the buffers alive; null for a batch
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;  // each independently releasable, as for schemas
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};  // a dictionary array's values; released (unused) otherwise
};

void ReleaseArray(ArrowArray* array) {
  if (array->release == nullptr) return;
  for (int64_t i = 0; i < array->n_children; ++i) {
    ArrowArray* child = array->children[i];
    if (child->release != nullptr) child->release(child);
  }
  if (array->dictionary != nullptr && array->dictionary->release != nullptr) {
    array->dictionary->release(array->dictionary);
  }
  delete static_cast<ExportedArray*>(array->private_data);
  array->release = nullptr;
  array->private_data = nullptr;
}

void ExportArrayData(const std::shared_ptr<const ArrayData>& data, ArrowArray* out);

void FillArray(ExportedArray* priv, int64_t length, int64_t null_count, int64_t offset,
               const std::vector<std::shared_ptr<const ArrayData>>& children, ArrowArray* out) {
  priv->children.resize(children.size());
  priv->child_pointers.resize(children.size());
  for (size_t i = 0; i < children.size(); ++i) {
    ExportArrayData(children[i], &priv->children[i]);
    priv->child_pointers[i] = &priv->children[i];
  }
  out->length = length;
  out->null_count = null_count;
  out->offset = offset;
  out->n_buffers = static_cast<int64_t>(priv->buffers.size());
  out->n_children = static_cast<int64_t>(children.size());
  out->buffers = priv->buffers.empty() ? nullptr : priv->buffers.data();
  out->children = priv->child_pointers.empty() ? nullptr : priv->child_pointers.data();
  out->dictionary = nullptr;
  out->release = ReleaseArray;
  out->private_data = priv;
}

void ExportArrayData(const std::shared_ptr<const ArrayData>& data, ArrowArray* out) {
  auto* priv = new ExportedArray;
  priv->data = data;
  priv->buffers.reserve(data->buffers.size());
  for (size_t i = 0; i < data->buffers.size(); ++i) {
    const Buffer& buffer = data->buffers[i];
    if (i == 0) {
      // spec: the validity pointer "MAY be null only if the array's null count is 0".
      priv->buffers.push_back(buffer.empty() ? nullptr : buffer.data());
    } else {
      priv->buffers.push_back(buffer.data() == nullptr ? kEmptyBuffer : buffer.data());
    }
  }
  FillArray(priv, data->length, data->GetNullCount(), data->offset, data->children, out);
  if (data->dictionary != nullptr) {
    ExportArrayData(data->dictionary, &priv->dictionary);
    out->dictionary = &priv->dictionary;
  }
}

// ---- Streams ----

struct ExportedStream {
  std::unique_ptr<RecordBatchReader> reader;
  std::string last_error;
};

ExportedStream& StreamOf(ArrowArrayStream* stream) { return *static_cast<ExportedStream*>(stream->private_data); }

int ErrnoFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kCorrupt:
      return EINVAL;
    case StatusCode::kUnsupported:
      return ENOSYS;
    default:
      return EIO;
  }
}

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  ExportSchema(*StreamOf(stream).reader->schema(), out);
  return 0;
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  ExportedStream& priv = StreamOf(stream);
  Result<std::optional<RecordBatch>> next = priv.reader->Next();
  if (!next.ok()) {
    priv.last_error = next.status().ToString();
    return ErrnoFor(next.status());
  }
  if (!next->has_value()) {
    *out = ArrowArray{};  // spec: end of stream is a released array (release == NULL)
    return 0;
  }
  ExportRecordBatch(**next, out);
  return 0;
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  const std::string& error = StreamOf(stream).last_error;
  return error.empty() ? nullptr : error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  if (stream->release == nullptr) return;
  delete static_cast<ExportedStream*>(stream->private_data);
  stream->release = nullptr;
  stream->private_data = nullptr;
}

}  // namespace

void ExportType(const DataType& type, ArrowSchema* out) {
  FillTypeSchema(type, "", /*nullable=*/true, {}, std::nullopt, out);
}

void ExportField(const Field& field, ArrowSchema* out) {
  FillTypeSchema(*field.type, field.name, field.nullable, field.metadata, field.field_id, out);
}

void ExportSchema(const Schema& schema, ArrowSchema* out) {
  FillSchema("+s", "", schema.metadata, /*flags=*/0, schema.fields, out);
}

void ExportArray(const Array& array, ArrowArray* out) { ExportArrayData(array.data(), out); }

void ExportRecordBatch(const RecordBatch& batch, ArrowArray* out_array, ArrowSchema* out_schema) {
  auto* priv = new ExportedArray;
  priv->buffers.push_back(nullptr);  // the struct's validity: no nulls
  std::vector<std::shared_ptr<const ArrayData>> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (const Array& column : batch.columns()) columns.push_back(column.data());
  FillArray(priv, batch.num_rows(), /*null_count=*/0, /*offset=*/0, columns, out_array);
  if (out_schema != nullptr) ExportSchema(batch.schema(), out_schema);
}

void ExportRecordBatchReader(std::unique_ptr<RecordBatchReader> reader, ArrowArrayStream* out) {
  auto* priv = new ExportedStream;
  priv->reader = std::move(reader);
  out->get_schema = StreamGetSchema;
  out->get_next = StreamGetNext;
  out->get_last_error = StreamGetLastError;
  out->release = StreamRelease;
  out->private_data = priv;
}

}  // namespace floe
