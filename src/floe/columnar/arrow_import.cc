// Import through the Arrow C Data Interface. Schemas are copied into floe
// types and released at once; arrays are moved into one shared owner whose
// deleter calls the producer's release, and every imported Buffer holds a
// reference to that owner.

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "floe/base/strings.h"
#include "floe/columnar/arrow_c_data.h"
#include "floe/columnar/c_data_metadata.h"
#include "floe/columnar/layout.h"

namespace floe {
namespace {

// Deeper nesting than any table holds; the bound keeps a cyclic or hostile
// producer from exhausting the stack.
constexpr int kMaxDepth = 64;
// More columns than any table holds; bounds the allocation a bad count asks for.
constexpr int64_t kMaxChildren = int64_t{1} << 20;

// Releases a schema at scope exit: every schema import consumes its input.
class SchemaReleaser {
 public:
  explicit SchemaReleaser(ArrowSchema* schema) : schema_(schema) {}
  ~SchemaReleaser() {
    if (schema_ != nullptr && schema_->release != nullptr) schema_->release(schema_);
  }
  SchemaReleaser(const SchemaReleaser&) = delete;
  SchemaReleaser& operator=(const SchemaReleaser&) = delete;

 private:
  ArrowSchema* schema_;
};

void ReleaseIfLive(ArrowArray* array) {
  if (array != nullptr && array->release != nullptr) array->release(array);
}

// ---- Schemas ----

// A dictionary-encoded field's format is its index type's: floe models int32
// indices only.
Status CheckDictionaryIndexFormat(std::string_view format) {
  if (format == "i") return Status::OK();
  if (format == "c" || format == "C" || format == "s" || format == "S" || format == "I" || format == "l" ||
      format == "L") {
    return Status::Unsupported(
        StrCat("dictionary with Arrow index format ", Quote(format), ": floe reads only int32 ('i') indices"));
  }
  return Status::InvalidArgument(StrCat("dictionary index format ", Quote(format), " is not an integer type"));
}

Result<Field> FieldFromC(const ArrowSchema& c, int depth) {
  const std::string name = c.name == nullptr ? "" : c.name;
  // Errors name the path of fields down to the one at fault (a schema's own name is usually "").
  auto fail = [&](Status status) { return name.empty() ? status : status.WithContext(StrCat("field ", Quote(name))); };
  if (c.release == nullptr) return fail(Status::InvalidArgument("struct is released"));
  if (depth > kMaxDepth) return fail(Status::InvalidArgument(StrCat("nesting is deeper than ", kMaxDepth)));
  if (c.format == nullptr) return fail(Status::InvalidArgument("format is null"));
  if (c.n_children < 0 || c.n_children > kMaxChildren || (c.n_children > 0 && c.children == nullptr)) {
    return fail(Status::InvalidArgument(StrCat("n_children is ", c.n_children, " with children ",
                                               c.children == nullptr ? "null" : "set")));
  }
  std::vector<Field> children;
  children.reserve(static_cast<size_t>(c.n_children));
  for (int64_t i = 0; i < c.n_children; ++i) {
    if (c.children[i] == nullptr) return fail(Status::InvalidArgument(StrCat("child ", i, " is null")));
    Result<Field> child = FieldFromC(*c.children[i], depth + 1);
    if (!child.ok()) return fail(child.status());
    children.push_back(std::move(child).value());
  }

  Result<KeyValueMetadata> decoded = c_data::DecodeMetadata(c.metadata);
  if (!decoded.ok()) return fail(decoded.status());
  KeyValueMetadata metadata;
  std::optional<int32_t> field_id;
  bool is_uuid = false;
  for (auto& [key, value] : *decoded) {
    if (key == c_data::kFieldIdKey) {
      int32_t id;
      const char* end = value.data() + value.size();
      auto [ptr, ec] = std::from_chars(value.data(), end, id);
      if (ec != std::errc() || ptr != end || value.empty()) {
        return fail(Status::InvalidArgument(StrCat("metadata ", c_data::kFieldIdKey, " ", Quote(value),
                                                   " is not an int32")));
      }
      field_id = id;
    } else if (key == c_data::kExtensionNameKey && value == c_data::kUuidExtensionName) {
      is_uuid = true;
    } else {
      metadata.emplace_back(std::move(key), std::move(value));
    }
  }

  if (c.dictionary != nullptr) {
    if (Status status = CheckDictionaryIndexFormat(c.format); !status.ok()) return fail(std::move(status));
  }
  Result<TypePtr> type = ParseArrowFormat(c.format, std::move(children), (c.flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0);
  if (!type.ok()) return fail(type.status());
  if (c.dictionary != nullptr) {
    // The field's format described the indices; its type is the dictionary's.
    Result<Field> values = FieldFromC(*c.dictionary, depth + 1);
    if (!values.ok()) return fail(values.status().WithContext("dictionary"));
    const TypePtr& value_type = values->type;
    if (value_type->id() != TypeId::kString && value_type->id() != TypeId::kBinary) {
      return fail(Status::Unsupported(
          StrCat("dictionary of ", value_type->ToString(), " values: floe reads only string and binary dictionaries")));
    }
    type = DataType::Dictionary(value_type);
  }
  if (is_uuid) {
    // spec (canonical extensions): arrow.uuid has storage fixed_size_binary(16)
    // and empty extension metadata.
    if ((*type)->id() != TypeId::kFixedSizeBinary || (*type)->byte_width() != 16) {
      return fail(Status::InvalidArgument(StrCat("extension arrow.uuid needs storage w:16, got ", Quote(c.format))));
    }
    std::erase_if(metadata, [](const auto& kv) { return kv.first == c_data::kExtensionMetadataKey; });
    type = DataType::Uuid();
  }
  return Field(name, std::move(type).value(), (c.flags & ARROW_FLAG_NULLABLE) != 0, std::move(metadata), field_id);
}

// ---- Arrays ----

class ArrayImporter {
 public:
  explicit ArrayImporter(std::shared_ptr<const void> owner) : owner_(std::move(owner)) {}

  // The ArrayData of `c` (a node at `path`, "" for the top) and its children.
  Result<std::shared_ptr<ArrayData>> Import(const ArrowArray& c, const TypePtr& type, const std::string& path,
                                            int depth) {
    const DataType& t = *type;
    if (depth > kMaxDepth) return Invalid(path, t, "nesting is deeper than ", kMaxDepth);
    if (c.release == nullptr) return Invalid(path, t, "is released");
    if (t.id() == TypeId::kDictionary && c.dictionary == nullptr) return Invalid(path, t, "dictionary is null");
    if (t.id() != TypeId::kDictionary && c.dictionary != nullptr) {
      return Invalid(path, t, "has a dictionary but its type is not dictionary-encoded");
    }
    if (c.length < 0 || c.offset < 0 || c.null_count < -1) {
      return Invalid(path, t, "length ", c.length, ", offset ", c.offset, ", null_count ", c.null_count);
    }
    int64_t end;
    if (__builtin_add_overflow(c.offset, c.length, &end) || end > (int64_t{1} << 48)) {
      return Invalid(path, t, "offset ", c.offset, " + length ", c.length, " is too large");
    }
    const int64_t want_buffers = layout::NumBuffers(t.id());
    if (c.n_buffers != want_buffers) return Invalid(path, t, "n_buffers is ", c.n_buffers, ", expected ", want_buffers);
    if (c.n_buffers > 0 && c.buffers == nullptr) return Invalid(path, t, "buffers is null");
    const auto want_children = static_cast<int64_t>(t.fields().size());
    if (c.n_children != want_children) {
      return Invalid(path, t, "n_children is ", c.n_children, ", expected ", want_children);
    }
    if (c.n_children > 0 && c.children == nullptr) return Invalid(path, t, "children is null");

    int64_t offset = c.offset;
    std::vector<Buffer> buffers;
    if (t.id() != TypeId::kNull) {
      if (c.buffers[0] != nullptr) {
        buffers.push_back(Wrap(c.buffers[0], bit_util::BytesForBits(end), 1));
      } else {
        // spec: the validity buffer "MAY be null only if the array's null count is 0".
        if (c.null_count > 0) return Invalid(path, t, "validity buffer is null but null_count is ", c.null_count);
        buffers.emplace_back();
      }
    }
    auto required = [&](int index, std::string_view what, int64_t size) -> Status {
      if (c.buffers[index] == nullptr && size > 0) {
        return Invalid(path, t, what, " (buffer ", index, ") is null, ", size, " bytes needed");
      }
      return Status::OK();
    };
    switch (t.id()) {
      case TypeId::kNull:
      case TypeId::kStruct:
        break;
      case TypeId::kBool: {
        const int64_t size = bit_util::BytesForBits(end);
        FLOE_RETURN_IF_ERROR(required(1, "values bitmap", size));
        buffers.push_back(c.buffers[1] == nullptr ? Buffer() : Wrap(c.buffers[1], size, 1));
        break;
      }
      case TypeId::kString:
      case TypeId::kBinary:
      case TypeId::kList:
      case TypeId::kMap: {
        if (c.buffers[1] == nullptr && c.length == 0) {
          // An empty array may come without offsets; give it the one offset floe's layout keeps.
          static const int32_t kZeroOffset = 0;
          buffers.push_back(Buffer::Wrap(nullptr, reinterpret_cast<const uint8_t*>(&kZeroOffset), sizeof kZeroOffset));
          offset = 0;
          end = 0;
        } else {
          const int64_t size = (end + 1) * static_cast<int64_t>(sizeof(int32_t));
          FLOE_RETURN_IF_ERROR(required(1, "offsets", size));
          buffers.push_back(Wrap(c.buffers[1], size, alignof(int32_t)));
        }
        if (t.id() == TypeId::kString || t.id() == TypeId::kBinary) {
          // The data size is the last offset; Validate() checks the offsets against it.
          const int32_t last = reinterpret_cast<const int32_t*>(buffers[1].data())[end];
          const int64_t size = last < 0 ? 0 : last;
          FLOE_RETURN_IF_ERROR(required(2, "data", size));
          buffers.push_back(c.buffers[2] == nullptr ? Buffer() : Wrap(c.buffers[2], size, 1));
        }
        break;
      }
      case TypeId::kDictionary: {
        const int64_t size = end * static_cast<int64_t>(sizeof(int32_t));  // end <= 2^48: no overflow
        FLOE_RETURN_IF_ERROR(required(1, "indices", size));
        buffers.push_back(c.buffers[1] == nullptr ? Buffer() : Wrap(c.buffers[1], size, alignof(int32_t)));
        break;
      }
      default: {
        int64_t size;
        if (__builtin_mul_overflow(end, int64_t{t.byte_width()}, &size)) {
          return Invalid(path, t, end, " values of ", t.byte_width(), " bytes overflow");
        }
        FLOE_RETURN_IF_ERROR(required(1, "values", size));
        buffers.push_back(c.buffers[1] == nullptr ? Buffer() : Wrap(c.buffers[1], size, layout::ValueAlignment(t)));
        break;
      }
    }

    std::vector<std::shared_ptr<const ArrayData>> children;
    children.reserve(t.fields().size());
    for (size_t i = 0; i < t.fields().size(); ++i) {
      const Field& field = t.fields()[i];
      const std::string child_path = path.empty() ? field.name : path + "." + field.name;
      if (c.children[i] == nullptr) return Invalid(path, t, "child ", i, " is null");
      FLOE_ASSIGN_OR_RETURN(auto child, Import(*c.children[i], field.type, child_path, depth + 1));
      children.push_back(std::move(child));
    }
    // Every element of the null type is null, whatever count the producer gave.
    const int64_t null_count = t.id() == TypeId::kNull ? c.length : c.null_count;
    auto data =
        std::make_shared<ArrayData>(type, c.length, std::move(buffers), std::move(children), null_count, offset);
    if (t.id() == TypeId::kDictionary) {
      // Released by the parent's release callback (spec), so its buffers share the parent's owner.
      const std::string dictionary_path = path.empty() ? "(dictionary)" : path + " (dictionary)";
      FLOE_ASSIGN_OR_RETURN(data->dictionary, Import(*c.dictionary, t.value_type(), dictionary_path, depth + 1));
    }
    return data;
  }

 private:
  template <typename... Args>
  static Status Invalid(const std::string& path, const DataType& type, const Args&... args) {
    const std::string where = path.empty() ? StrCat("ArrowArray of type ", type.ToString())
                                           : StrCat("ArrowArray child ", Quote(path), " of type ", type.ToString());
    return Status::InvalidArgument(StrCat(where, ": ", args...));
  }

  // A buffer of `size` bytes at `pointer`, owned by the producer's struct, or
  // an aligned copy when `pointer` is not aligned to `alignment`.
  Buffer Wrap(const void* pointer, int64_t size, int64_t alignment) const {
    const auto* bytes = static_cast<const uint8_t*>(pointer);
    if (reinterpret_cast<uintptr_t>(bytes) % static_cast<uintptr_t>(alignment) != 0) {
      return Buffer::CopyOf(std::span<const uint8_t>(bytes, static_cast<size_t>(size)));
    }
    return Buffer::Wrap(owner_, bytes, size);
  }

  std::shared_ptr<const void> owner_;
};

// Moves `*array` into a shared owner that releases it when the last Buffer
// over its memory goes; marks the source released (spec: "Moving an array").
std::shared_ptr<ArrowArray> TakeArray(ArrowArray* array) {
  auto owner = std::shared_ptr<ArrowArray>(new ArrowArray(*array), [](ArrowArray* moved) {
    ReleaseIfLive(moved);
    delete moved;
  });
  array->release = nullptr;
  return owner;
}

// ---- Streams ----

Status StreamError(ArrowArrayStream* stream, const char* operation, int code) {
  const char* detail = stream->get_last_error == nullptr ? nullptr : stream->get_last_error(stream);
  std::string message = StrCat("ArrowArrayStream ", operation, " failed with code ", code);
  if (detail != nullptr) message += StrCat(": ", detail);
  switch (code) {
    case EINVAL:
      return Status::InvalidArgument(std::move(message));
    case ENOSYS:
      return Status::Unsupported(std::move(message));
    case ENOMEM:
      return Status::Internal(std::move(message));
    default:
      return Status::IOError(std::move(message));
  }
}

class ImportedStreamReader final : public RecordBatchReader {
 public:
  explicit ImportedStreamReader(ArrowArrayStream* stream) : stream_(*stream) { stream->release = nullptr; }
  ~ImportedStreamReader() override {
    if (stream_.release != nullptr) stream_.release(&stream_);
  }
  ImportedStreamReader(const ImportedStreamReader&) = delete;
  ImportedStreamReader& operator=(const ImportedStreamReader&) = delete;

  Status ReadSchema() {
    ArrowSchema c_schema{};
    const int code = stream_.get_schema(&stream_, &c_schema);
    if (code != 0) return StreamError(&stream_, "get_schema", code);
    FLOE_ASSIGN_OR_RETURN(Schema schema, ImportSchema(&c_schema));
    schema_ = std::make_shared<const Schema>(std::move(schema));
    return Status::OK();
  }

  const std::shared_ptr<const Schema>& schema() const override { return schema_; }

  Result<std::optional<RecordBatch>> Next() override {
    if (!error_.ok()) return error_;
    if (done_) return std::optional<RecordBatch>();
    ArrowArray c_array{};
    const int code = stream_.get_next(&stream_, &c_array);
    if (code != 0) {
      error_ = StreamError(&stream_, "get_next", code);
      return error_;
    }
    if (c_array.release == nullptr) {
      done_ = true;
      return std::optional<RecordBatch>();
    }
    Result<RecordBatch> batch = ImportRecordBatch(&c_array, schema_);
    if (!batch.ok()) {
      error_ = batch.status();
      return error_;
    }
    return std::optional<RecordBatch>(std::move(batch).value());
  }

 private:
  ArrowArrayStream stream_;
  std::shared_ptr<const Schema> schema_;
  Status error_;
  bool done_ = false;
};

}  // namespace

Result<Field> ImportField(ArrowSchema* schema) {
  if (schema == nullptr) return Status::InvalidArgument("ArrowSchema is null");
  if (schema->release == nullptr) return Status::InvalidArgument("ArrowSchema is released");
  SchemaReleaser releaser(schema);
  Result<Field> field = FieldFromC(*schema, 0);
  if (!field.ok()) return field.status().WithContext("ArrowSchema");
  return field;
}

Result<TypePtr> ImportType(ArrowSchema* schema) {
  FLOE_ASSIGN_OR_RETURN(Field field, ImportField(schema));
  return field.type;
}

Result<Schema> ImportSchema(ArrowSchema* schema) {
  FLOE_ASSIGN_OR_RETURN(Field field, ImportField(schema));
  if (field.type->id() != TypeId::kStruct) {
    return Status::InvalidArgument(
        StrCat("ArrowSchema of a record batch must be a struct ('+s'), got ", field.type->ToString()));
  }
  return Schema(field.type->fields(), std::move(field.metadata));
}

Result<Array> ImportArray(ArrowArray* array, const TypePtr& type) {
  if (array == nullptr) return Status::InvalidArgument("ArrowArray is null");
  if (array->release == nullptr) return Status::InvalidArgument("ArrowArray is released");
  std::shared_ptr<ArrowArray> owner = TakeArray(array);
  if (type == nullptr) return Status::InvalidArgument("ArrowArray imported without a type");
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> data, ArrayImporter(owner).Import(*owner, type, "", 0));
  Array imported(std::move(data));
  FLOE_RETURN_IF_ERROR(imported.Validate().WithContext("ArrowArray"));
  return imported;
}

Result<Array> ImportArray(ArrowArray* array, ArrowSchema* schema) {
  Result<TypePtr> type = ImportType(schema);
  if (!type.ok()) {
    ReleaseIfLive(array);
    return type.status();
  }
  return ImportArray(array, *type);
}

Result<RecordBatch> ImportRecordBatch(ArrowArray* array, std::shared_ptr<const Schema> schema) {
  if (schema == nullptr) {
    ReleaseIfLive(array);
    return Status::InvalidArgument("ArrowArray record batch imported without a schema");
  }
  FLOE_ASSIGN_OR_RETURN(Array rows, ImportArray(array, DataType::Struct(schema->fields)));
  if (rows.null_count() != 0) {
    return Status::InvalidArgument(StrCat("ArrowArray record batch: ", rows.null_count(), " of ", rows.length(),
                                          " rows of its struct array are null"));
  }
  std::vector<Array> columns;
  columns.reserve(schema->fields.size());
  for (int i = 0; i < rows.num_fields(); ++i) columns.push_back(rows.field(i));
  return RecordBatch::Make(std::move(schema), std::move(columns), rows.length());
}

Result<RecordBatch> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema) {
  Result<Schema> imported = ImportSchema(schema);
  if (!imported.ok()) {
    ReleaseIfLive(array);
    return imported.status();
  }
  return ImportRecordBatch(array, std::make_shared<const Schema>(std::move(imported).value()));
}

Result<std::unique_ptr<RecordBatchReader>> ImportArrayStream(ArrowArrayStream* stream) {
  if (stream == nullptr) return Status::InvalidArgument("ArrowArrayStream is null");
  if (stream->release == nullptr) return Status::InvalidArgument("ArrowArrayStream is released");
  auto reader = std::make_unique<ImportedStreamReader>(stream);
  FLOE_RETURN_IF_ERROR(reader->ReadSchema());
  return std::unique_ptr<RecordBatchReader>(std::move(reader));
}

}  // namespace floe
