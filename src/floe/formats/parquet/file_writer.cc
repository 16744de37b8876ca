#include "floe/formats/parquet/file_writer.h"

#include <cstring>
#include <set>

#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/base/version.h"
#include "floe/formats/parquet/column_chunk_writer.h"
#include "floe/formats/parquet/level_shredder.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/schema_writer.h"

namespace floe::parquet {
namespace {

constexpr std::string_view kMagic = "PAR1";
// spec (Encryption.md 5.4): the magic of files with an encrypted footer.
constexpr std::string_view kEncryptedMagic = "PARE";
// Batches are shredded this many rows at a time, which bounds the level and
// index scratch whatever the caller's batch size.
constexpr int64_t kMaxSliceRows = 64 * 1024;

void AppendLength(uint32_t length, std::string* out) {
  char bytes[4];
  std::memcpy(bytes, &length, 4);  // little-endian host (encoding/bit_util.h)
  out->append(bytes, 4);
}

// spec (Encryption.md 5.3-5.5): an encrypted file's footer, from the end of
// its last index to its final magic. `md` is the footer in plaintext.
Result<std::string> EncryptedFooter(const FileEncryptor& encryption, FileMetaData md) {
  // The metadata of a column the footer's own protection does not cover (a
  // column key's column, or any encrypted column under a plaintext footer)
  // is encrypted with the column's key.
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    for (size_t c = 0; c < md.row_groups[g].columns.size(); ++c) {
      const auto column = static_cast<int>(c);
      if (!encryption.encrypted(column) || (!encryption.own_key(column) && !encryption.plaintext_footer())) continue;
      ColumnChunk& chunk = md.row_groups[g].columns[c];
      std::string plain;
      FLOE_RETURN_IF_ERROR(EncodeColumnMetaData(*chunk.meta_data, &plain));
      FLOE_ASSIGN_OR_RETURN(ModuleEncryptor encryptor, encryption.ForColumn(static_cast<int64_t>(g), column));
      std::string module;
      FLOE_RETURN_IF_ERROR(encryptor.Append(ModuleType::kColumnMetaData, AsBytes(plain), 0, &module));
      chunk.encrypted_column_metadata = std::move(module);
      if (encryption.plaintext_footer()) {
        // spec 5.5: readers without the key still find the chunk, not its
        // statistics; encoding_stats go too (a dictionary's fallback tells
        // of the values), as parquet-mr and parquet-cpp redact it.
        chunk.meta_data->statistics.reset();
        chunk.meta_data->size_statistics.reset();
        chunk.meta_data->geospatial_statistics.reset();
        chunk.meta_data->encoding_stats.reset();
      } else {
        chunk.meta_data.reset();
      }
    }
  }
  FLOE_ASSIGN_OR_RETURN(ModuleEncryptor footer_encryptor, encryption.ForFooter());
  std::string tail;
  if (encryption.plaintext_footer()) {
    md.encryption_algorithm = encryption.algorithm();
    md.footer_signing_key_metadata = encryption.footer_key_metadata();
    FLOE_RETURN_IF_ERROR(EncodeFileMetaData(md, &tail));
    FLOE_ASSIGN_OR_RETURN(const std::string signature, footer_encryptor.SignFooter(AsBytes(tail)));
    tail += signature;
    AppendLength(static_cast<uint32_t>(tail.size()), &tail);
    tail.append(kMagic);
    return tail;
  }
  FileCryptoMetaData crypto;
  crypto.encryption_algorithm = encryption.algorithm();
  crypto.key_metadata = encryption.footer_key_metadata();
  FLOE_RETURN_IF_ERROR(EncodeFileCryptoMetaData(crypto, &tail));
  std::string plain;
  FLOE_RETURN_IF_ERROR(EncodeFileMetaData(md, &plain));
  FLOE_RETURN_IF_ERROR(footer_encryptor.Append(ModuleType::kFooter, AsBytes(plain), 0, &tail));
  AppendLength(static_cast<uint32_t>(tail.size()), &tail);
  tail.append(kEncryptedMagic);
  return tail;
}

}  // namespace

struct ParquetFileWriter::State {
  std::shared_ptr<FileIO> io;
  std::string path;
  std::shared_ptr<const Schema> schema;
  // `schema` with its dictionaries replaced by their value types, when it
  // has any: the batches' dictionary columns are written as their values.
  std::shared_ptr<const Schema> plain_schema;
  WriterOptions options;
  WriterSchema writer_schema;
  std::unique_ptr<OutputStream> out;
  std::vector<std::unique_ptr<ColumnChunkWriter>> columns;
  // Per column, the last finished chunk: its pages buffer goes back to the
  // column's writer for the next row group (ColumnChunkWriter::Finish).
  std::vector<FinishedColumnChunk> finished;
  ShreddedLeaf shredded;

  int64_t offset = 0;  // bytes appended so far
  int64_t row_group_rows = 0;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  // Per row group, per column: the page index, written before the footer.
  std::vector<std::vector<std::optional<ColumnIndex>>> column_indexes;
  std::vector<std::vector<OffsetIndex>> offset_indexes;
  std::optional<FileEncryptor> encryption;
  Status error;
  bool closed = false;

  Status Append(std::span<const uint8_t> bytes) {
    if (bytes.empty()) return Status::OK();
    FLOE_RETURN_IF_ERROR(out->Append(bytes));
    offset += static_cast<int64_t>(bytes.size());
    return Status::OK();
  }
  Status Append(std::string_view bytes) { return Append(AsBytes(bytes)); }

  // Appends a column or offset index of chunk (g, c), as a module of its own
  // when the column is encrypted; *bytes is scratch.
  Status AppendIndex(ModuleType type, size_t g, size_t c, std::string* bytes) {
    const auto column = static_cast<int>(c);
    if (!encryption || !encryption->encrypted(column)) return Append(*bytes);
    FLOE_ASSIGN_OR_RETURN(ModuleEncryptor encryptor, encryption->ForColumn(static_cast<int64_t>(g), column));
    std::string module;
    FLOE_RETURN_IF_ERROR(encryptor.Append(type, AsBytes(*bytes), 0, &module));
    bytes->swap(module);
    return Append(*bytes);
  }

  int64_t BufferedBytes() const {
    int64_t total = 0;
    for (const auto& c : columns) total += c->buffered_bytes();
    return total;
  }
};

ParquetFileWriter::ParquetFileWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

ParquetFileWriter::~ParquetFileWriter() { Abort(); }

Result<std::unique_ptr<ParquetFileWriter>> ParquetFileWriter::Open(std::shared_ptr<FileIO> io, std::string path,
                                                                   std::shared_ptr<const Schema> schema,
                                                                   WriterOptions options) {
  const std::string name = StrCat("parquet writer ", Quote(path));
  if (options.row_group_rows <= 0 || options.row_group_bytes <= 0) {
    return Status::InvalidArgument(StrCat(name, ": row_group_rows and row_group_bytes must be positive"));
  }
  if (options.boolean_encoding != Encoding::PLAIN && options.boolean_encoding != Encoding::RLE) {
    return Status::InvalidArgument(StrCat(name, ": boolean_encoding ", EncodingName(options.boolean_encoding),
                                          " (must be PLAIN or RLE)"));
  }
  auto state = std::make_unique<State>();
  std::vector<Field> plain_fields = schema->fields;
  bool dictionaries = false;
  for (Field& field : plain_fields) {
    dictionaries = dictionaries || HasDictionary(field.type);
    field.type = WithoutDictionaries(field.type);
  }
  if (dictionaries) state->plain_schema = std::make_shared<const Schema>(std::move(plain_fields), schema->metadata);
  const Schema& layout = dictionaries ? *state->plain_schema : *schema;
  // The default layout first, to learn the leaves; then, when some leaf
  // takes INT96 or FLOAT16, the layout again with those.
  FLOE_ASSIGN_OR_RETURN(state->writer_schema, MakeWriterSchema(layout));
  std::set<std::string> leaves;
  WriterSchemaOptions schema_options;
  for (const auto& c : state->writer_schema.columns) {
    const std::string path = c.dotted_path();
    leaves.insert(path);
    const auto it = options.columns.find(path);
    const ColumnWriterOptions* co = it == options.columns.end() ? nullptr : &it->second;
    const bool timestamp = c.type->id() == TypeId::kTimestamp;
    if (co != nullptr && co->int96 ? *co->int96 : (options.int96_timestamps && timestamp)) {
      schema_options.storage[path] = LeafStorage::kInt96;
    }
    if (co != nullptr && co->float16) schema_options.storage[path] = LeafStorage::kFloat16;
  }
  for (const auto& [key, unused] : options.columns) {
    if (!leaves.contains(key)) {
      return Status::InvalidArgument(StrCat(name, ": column option for ", Quote(key), ", which is no leaf column"));
    }
  }
  if (!schema_options.storage.empty()) {
    auto with_storage = MakeWriterSchema(layout, schema_options);
    if (!with_storage.ok()) return with_storage.status().WithContext(name);
    state->writer_schema = std::move(with_storage).value();
  }
  if (options.encryption) {
    std::vector<ColumnPath> paths;
    for (const WriterColumn& column : state->writer_schema.columns) paths.emplace_back(column.path);
    auto encryption = FileEncryptor::Make(*options.encryption, paths);
    if (!encryption.ok()) return encryption.status().WithContext(name);
    state->encryption = std::move(encryption).value();
  }
  for (const WriterColumn& column : state->writer_schema.columns) {
    const auto ordinal = static_cast<int>(state->columns.size());
    ColumnChunkOptions o;
    o.codec = options.codec;
    o.compression_level = options.compression_level;
    o.data_page_version = options.data_page_version;
    o.dictionary = options.dictionary;
    o.dictionary_page_size_limit = options.dictionary_page_size_limit;
    o.page_bytes = options.page_bytes;
    o.page_rows = options.page_rows;
    o.page_index = options.page_index;
    o.page_checksums = options.page_checksums;
    o.statistics_truncate_length = options.statistics_truncate_length;
    if (column.physical_type == Type::BOOLEAN) o.encoding = options.boolean_encoding;
    if (auto it = options.columns.find(column.dotted_path()); it != options.columns.end()) {
      const ColumnWriterOptions& c = it->second;
      if (c.dictionary) o.dictionary = *c.dictionary;
      if (c.encoding) o.encoding = *c.encoding;
      o.bloom_filter = c.bloom_filter;
      o.bloom_ndv = c.bloom_ndv;
      o.bloom_fpp = c.bloom_fpp;
    }
    if (state->encryption && state->encryption->encrypted(ordinal)) {
      const FileEncryptor& e = *state->encryption;
      o.encryption = ChunkEncryption{e.column_key(ordinal), e.file_aad(), e.ctr_pages(), static_cast<int16_t>(ordinal)};
    }
    auto writer = ColumnChunkWriter::Make(column, o);
    if (!writer.ok()) return writer.status().WithContext(name);
    state->columns.push_back(std::move(writer).value());
  }

  FLOE_ASSIGN_OR_RETURN(state->out, io->OpenWrite(path));
  state->io = std::move(io);
  state->path = std::move(path);
  state->schema = std::move(schema);
  state->options = std::move(options);
  if (state->options.created_by.empty()) state->options.created_by = StrCat("floe version ", kVersion);
  auto writer = std::unique_ptr<ParquetFileWriter>(new ParquetFileWriter(std::move(state)));
  const bool encrypted_footer = writer->state_->encryption && !writer->state_->encryption->plaintext_footer();
  FLOE_RETURN_IF_ERROR(writer->Fail(writer->state_->Append(encrypted_footer ? kEncryptedMagic : kMagic)));
  return writer;
}

Status ParquetFileWriter::Fail(Status status) {
  if (!status.ok() && state_->error.ok()) state_->error = status;
  return status;
}

int64_t ParquetFileWriter::num_rows() const { return state_->num_rows + state_->row_group_rows; }

int64_t ParquetFileWriter::EstimatedSize() const { return state_->offset + state_->BufferedBytes(); }

Status ParquetFileWriter::Write(const RecordBatch& batch) {
  State& s = *state_;
  if (s.closed) return Status::InvalidArgument(StrCat("parquet writer ", Quote(s.path), ": already closed"));
  FLOE_RETURN_IF_ERROR(s.error);
  if (batch.schema().fields != s.schema->fields) {
    return Status::InvalidArgument(StrCat("parquet writer ", Quote(s.path), ": batch schema (", batch.schema().ToString(),
                                          ") differs from the file's (", s.schema->ToString(), ")"));
  }
  // An array whose layout is broken (a child shorter than its parent,
  // offsets past its data) would be read out of bounds: refused before
  // anything is written, so the writer stays usable.
  for (int i = 0; i < batch.num_columns(); ++i) {
    const Status valid = batch.column(i).Validate();
    if (!valid.ok()) {
      return Status::InvalidArgument(StrCat("parquet writer ", Quote(s.path), ": column ",
                                            Quote(batch.schema().field(i).name), ": ", valid.message()));
    }
  }
  if (s.plain_schema == nullptr) return WriteRows(batch);
  // Dictionary columns are decoded a slice of rows at a time: a batch of
  // indices may stand for more bytes than one array's int32 offsets address,
  // and for more memory than the writer should hold at once.
  constexpr int64_t kDecodeRows = 4096;
  // Rows of earlier slices are written by the time a later one fails.
  return Fail(ForEachDecodedSlice(batch, kDecodeRows, [this](const RecordBatch& plain) { return WriteRows(plain); }));
}

Status ParquetFileWriter::WriteRows(const RecordBatch& batch) {
  State& s = *state_;
  int64_t done = 0;
  while (done < batch.num_rows()) {
    const int64_t room = s.options.row_group_rows - s.row_group_rows;
    const int64_t n = std::min({batch.num_rows() - done, room, kMaxSliceRows});
    const bool whole = done == 0 && n == batch.num_rows();
    FLOE_RETURN_IF_ERROR(Fail(WriteSlice(whole ? batch : batch.Slice(done, n))));
    done += n;
    if (s.row_group_rows >= s.options.row_group_rows || s.BufferedBytes() >= s.options.row_group_bytes) {
      FLOE_RETURN_IF_ERROR(FlushRowGroup());
    }
  }
  return Status::OK();
}

Status ParquetFileWriter::WriteSlice(const RecordBatch& batch) {
  State& s = *state_;
  for (size_t i = 0; i < s.columns.size(); ++i) {
    const WriterColumn& column = s.writer_schema.columns[i];
    FLOE_RETURN_IF_ERROR(ShredLeaf(column, batch.column(column.top_level_field), &s.shredded));
    FLOE_RETURN_IF_ERROR(s.columns[i]->Write(s.shredded));
  }
  s.row_group_rows += batch.num_rows();
  return Status::OK();
}

Status ParquetFileWriter::FlushRowGroup() {
  State& s = *state_;
  if (s.closed) return Status::InvalidArgument(StrCat("parquet writer ", Quote(s.path), ": already closed"));
  FLOE_RETURN_IF_ERROR(s.error);
  if (s.row_group_rows == 0) return Status::OK();
  RowGroup group;
  group.num_rows = s.row_group_rows;
  group.file_offset = s.offset;
  group.ordinal = static_cast<int16_t>(s.row_groups.size());
  std::vector<std::optional<ColumnIndex>> column_indexes;
  std::vector<OffsetIndex> offset_indexes;
  std::vector<std::optional<SplitBlockBloomFilter>> blooms;
  int64_t compressed = 0;
  s.finished.resize(s.columns.size());
  for (size_t c = 0; c < s.columns.size(); ++c) {
    FinishedColumnChunk& chunk = s.finished[c];
    FLOE_RETURN_IF_ERROR(Fail(s.columns[c]->Finish(&chunk)));
    const int64_t start = s.offset;
    FLOE_RETURN_IF_ERROR(Fail(s.Append(chunk.dictionary_page)));
    FLOE_RETURN_IF_ERROR(Fail(s.Append(chunk.data_pages)));
    ColumnChunk cc;
    cc.file_offset = start;
    ColumnMetaData& m = chunk.meta_data;
    m.data_page_offset += start;
    if (m.dictionary_page_offset) *m.dictionary_page_offset += start;
    for (auto& loc : chunk.offset_index.page_locations) loc.offset += start;
    group.total_byte_size += m.total_uncompressed_size;
    compressed += m.total_compressed_size;
    cc.meta_data = std::move(m);
    group.columns.push_back(std::move(cc));
    column_indexes.push_back(std::move(chunk.column_index));
    offset_indexes.push_back(std::move(chunk.offset_index));
    blooms.push_back(std::move(chunk.bloom_filter));
  }
  group.total_compressed_size = compressed;
  // spec (BloomFilter.md): each filter is a BloomFilterHeader and its bitset,
  // found through bloom_filter_offset/length; in an encrypted column, two
  // modules (Encryption.md 4.4).
  std::string header;
  std::string encrypted;
  for (size_t i = 0; i < blooms.size(); ++i) {
    if (!blooms[i]) continue;
    BloomFilterHeader h;
    h.numBytes = static_cast<int32_t>(blooms[i]->num_bytes());
    header.clear();
    FLOE_RETURN_IF_ERROR(Fail(EncodeBloomFilterHeader(h, &header)));
    std::span<const uint8_t> bitset = blooms[i]->bytes();
    if (s.encryption && s.encryption->encrypted(static_cast<int>(i))) {
      auto encryptor = s.encryption->ForColumn(static_cast<int64_t>(s.row_groups.size()), static_cast<int>(i));
      if (!encryptor.ok()) return Fail(encryptor.status());
      encrypted.clear();
      FLOE_RETURN_IF_ERROR(Fail(encryptor->Append(ModuleType::kBloomFilterHeader, AsBytes(header), 0, &encrypted)));
      header.swap(encrypted);
      encrypted.clear();
      FLOE_RETURN_IF_ERROR(Fail(encryptor->Append(ModuleType::kBloomFilterBitset, bitset, 0, &encrypted)));
      bitset = AsBytes(encrypted);
    }
    ColumnMetaData& m = *group.columns[i].meta_data;
    m.bloom_filter_offset = s.offset;
    m.bloom_filter_length = static_cast<int32_t>(header.size() + bitset.size());
    FLOE_RETURN_IF_ERROR(Fail(s.Append(header)));
    FLOE_RETURN_IF_ERROR(Fail(s.Append(bitset)));
  }
  if (s.encryption) {
    for (size_t i = 0; i < group.columns.size(); ++i) {
      if (s.encryption->encrypted(static_cast<int>(i))) {
        group.columns[i].crypto_metadata = s.encryption->crypto_metadata(static_cast<int>(i));
      }
    }
  }
  s.row_groups.push_back(std::move(group));
  s.column_indexes.push_back(std::move(column_indexes));
  s.offset_indexes.push_back(std::move(offset_indexes));
  s.num_rows += s.row_group_rows;
  s.row_group_rows = 0;
  return Status::OK();
}

Result<WrittenFile> ParquetFileWriter::Close() {
  State& s = *state_;
  if (s.closed) return Status::InvalidArgument(StrCat("parquet writer ", Quote(s.path), ": already closed"));
  if (!s.error.ok()) {
    Abort();
    return s.error;
  }
  Status status = FlushRowGroup();
  if (status.ok() && s.options.page_index) {
    // spec (PageIndex.md): column indexes, then offset indexes, after the
    // row groups and before the footer.
    std::string bytes;
    for (size_t g = 0; g < s.row_groups.size() && status.ok(); ++g) {
      for (size_t c = 0; c < s.column_indexes[g].size() && status.ok(); ++c) {
        if (!s.column_indexes[g][c]) continue;
        bytes.clear();
        status = EncodeColumnIndex(*s.column_indexes[g][c], &bytes);
        ColumnChunk& cc = s.row_groups[g].columns[c];
        const int64_t start = s.offset;
        if (status.ok()) status = s.AppendIndex(ModuleType::kColumnIndex, g, c, &bytes);
        cc.column_index_offset = start;
        cc.column_index_length = static_cast<int32_t>(s.offset - start);
      }
    }
    for (size_t g = 0; g < s.row_groups.size() && status.ok(); ++g) {
      for (size_t c = 0; c < s.offset_indexes[g].size() && status.ok(); ++c) {
        bytes.clear();
        status = EncodeOffsetIndex(s.offset_indexes[g][c], &bytes);
        ColumnChunk& cc = s.row_groups[g].columns[c];
        const int64_t start = s.offset;
        if (status.ok()) status = s.AppendIndex(ModuleType::kOffsetIndex, g, c, &bytes);
        cc.offset_index_offset = start;
        cc.offset_index_length = static_cast<int32_t>(s.offset - start);
      }
    }
  }
  WrittenFile written;
  if (status.ok()) {
    FileMetaData& md = written.metadata;
    md.version = 1;  // spec: "writers should always populate 1"
    md.schema = s.writer_schema.elements;
    md.num_rows = s.num_rows;
    md.row_groups = std::move(s.row_groups);
    if (!s.options.key_value_metadata.empty()) md.key_value_metadata = s.options.key_value_metadata;
    md.created_by = s.options.created_by;
    md.column_orders.emplace(s.writer_schema.columns.size(), ColumnOrder::TYPE_ORDER);
    if (s.encryption) {
      auto footer = EncryptedFooter(*s.encryption, md);
      status = footer.ok() ? s.Append(*footer) : footer.status();
    } else {
      std::string footer;
      status = EncodeFileMetaData(md, &footer);
      if (status.ok()) {
        AppendLength(static_cast<uint32_t>(footer.size()), &footer);
        footer.append(kMagic);
        status = s.Append(footer);
      }
    }
  }
  if (status.ok()) status = s.out->Close();
  if (!status.ok()) {
    Fail(status);
    Abort();
    return status.WithContext(StrCat("parquet writer ", Quote(s.path)));
  }
  s.closed = true;
  written.file_size = s.offset;
  return written;
}

void ParquetFileWriter::Abort() {
  State& s = *state_;
  if (s.closed) return;
  s.closed = true;
  if (s.out) s.out->Abort();
}

}  // namespace floe::parquet
