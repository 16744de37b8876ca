// `floe parquet ...`: look inside Parquet files written by any engine.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <optional>
#include <ostream>
#include <variant>

#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/columnar/batch_printer.h"
#include "floe/columnar/builder.h"
#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/field_annotation.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/file_writer.h"
#include "floe/formats/parquet/geospatial_statistics.h"
#include "floe/formats/parquet/key_tools.h"
#include "floe/formats/parquet/page_headers.h"
#include "floe/formats/parquet/page_index.h"
#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/statistics.h"
#include "floe/formats/parquet/variant/variant_json.h"

namespace floe::cli {
namespace {

using parquet::ParquetFileReader;

// Keys for files with Parquet modular encryption, given on the command line.
struct KeyArgs {
  std::string footer_key;                // hex
  std::vector<std::string> column_keys;  // PATH=HEX
  std::optional<std::string> aad_prefix;
  std::vector<std::string> master_keys;  // ID=HEX, for key tools material
};

Result<std::string> KeyFromHex(std::string_view hex, std::string_view what) {
  std::string key;
  if (!DecodeHex(hex, &key) || (key.size() != 16 && key.size() != 24 && key.size() != 32)) {
    // The key is not echoed: it would land in logs.
    return Status::InvalidArgument(StrCat(what, " takes an AES key as 32, 48 or 64 hex digits, not ", hex.size(),
                                          " characters of which some may not be hex"));
  }
  return key;
}

// NAME=HEX, as --column-key and --encrypt-column-key (PATH=HEX) and
// --master-key (ID=HEX) take it: a column's dotted path or a key's id, and
// the key.
Result<std::pair<std::string, std::string>> NamedKeyFromArg(const std::string& arg, std::string_view flag,
                                                            std::string_view name) {
  const size_t eq = arg.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    // The argument is not echoed: it may hold a key.
    return Status::InvalidArgument(StrCat(flag, " takes ", name, "=HEX; the ", arg.size(), "-character argument has ",
                                          eq == std::string::npos ? "no '='" : StrCat("no ", name, " before its '='")));
  }
  FLOE_ASSIGN_OR_RETURN(std::string key, KeyFromHex(std::string_view(arg).substr(eq + 1), flag));
  return std::pair<std::string, std::string>(arg.substr(0, eq), std::move(key));
}

void AddKeyOptions(CLI::App* command, KeyArgs* keys) {
  command->add_option("--footer-key", keys->footer_key, "Encrypted files: the footer key, in hex");
  command->add_option("--column-key", keys->column_keys, "Encrypted files: a column's key, as PATH=HEX (repeatable)");
  command->add_option("--aad-prefix", keys->aad_prefix, "Encrypted files: the AAD prefix the file does not store");
  command->add_option("--master-key", keys->master_keys,
                      "Encrypted files whose keys parquet's key tools wrapped: a KMS master key, as ID=HEX "
                      "(repeatable); rewrite's --encrypt-footer-master-key wraps the output's keys with them too");
}

// A KMS holding the --master-key keys; null without any.
Result<std::shared_ptr<parquet::LocalKms>> LocalKmsFromArgs(const KeyArgs& key_args) {
  if (key_args.master_keys.empty()) return std::shared_ptr<parquet::LocalKms>();
  std::map<std::string, std::string, std::less<>> master_keys;
  for (const std::string& arg : key_args.master_keys) {
    FLOE_ASSIGN_OR_RETURN(auto master_key, NamedKeyFromArg(arg, "--master-key", "ID"));
    master_keys[master_key.first] = std::move(master_key.second);
  }
  return std::make_shared<parquet::LocalKms>(std::move(master_keys));
}

Result<std::unique_ptr<ParquetFileReader>> OpenParquet(CommandContext& ctx, const std::string& path,
                                                       const KeyArgs& key_args) {
  FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(path));
  parquet::ReaderOptions options;
  if (!key_args.footer_key.empty() || !key_args.column_keys.empty() || key_args.aad_prefix ||
      !key_args.master_keys.empty()) {
    auto keys = std::make_shared<parquet::DecryptionKeys>();
    if (!key_args.footer_key.empty()) {
      FLOE_ASSIGN_OR_RETURN(keys->footer_key, KeyFromHex(key_args.footer_key, "--footer-key"));
    }
    for (const std::string& arg : key_args.column_keys) {
      FLOE_ASSIGN_OR_RETURN(auto column_key, NamedKeyFromArg(arg, "--column-key", "PATH"));
      keys->column_keys[column_key.first] = std::move(column_key.second);
    }
    keys->aad_prefix = key_args.aad_prefix;
    FLOE_ASSIGN_OR_RETURN(std::shared_ptr<parquet::LocalKms> kms, LocalKmsFromArgs(key_args));
    if (kms) keys->key_retriever = parquet::MakeKeyToolsRetriever(std::move(kms), io, path);
    options.decryption = std::move(keys);
  }
  return ParquetFileReader::Open(io, path, std::move(options));
}

struct FileArgs {
  std::string path;
  KeyArgs keys;
};

// The annotation of a node as parquet-format's schema syntax writes it.
std::string Annotation(const parquet::SchemaNode& n) {
  if (n.logical_type && !std::holds_alternative<parquet::UnknownUnionMember>(*n.logical_type)) {
    return parquet::LogicalTypeText(*n.logical_type);
  }
  if (n.converted_type) {
    if (*n.converted_type == parquet::ConvertedType::DECIMAL) return StrCat("DECIMAL(", n.precision, ",", n.scale, ")");
    return parquet::ConvertedTypeName(*n.converted_type);
  }
  return "";
}

void PrintNode(const parquet::ParquetSchema& schema, int index, int depth, std::ostream& out) {
  const parquet::SchemaNode& n = schema.nodes()[static_cast<size_t>(index)];
  const std::string indent(static_cast<size_t>(depth) * 2, ' ');
  std::string rep = parquet::FieldRepetitionTypeName(n.repetition);
  for (char& c : rep) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  out << indent << rep << " ";
  if (n.is_leaf()) {
    std::string phys = parquet::TypeName(*n.physical_type);
    for (char& c : phys) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out << phys;
    if (*n.physical_type == parquet::Type::FIXED_LEN_BYTE_ARRAY) out << "(" << n.type_length << ")";
    out << " ";
  } else {
    out << "group ";
  }
  out << n.name;
  const std::string annotation = Annotation(n);
  if (!annotation.empty()) out << " (" << annotation << ")";
  if (n.field_id) out << " = " << *n.field_id;
  if (n.is_leaf()) {
    const auto& c = schema.column(n.column);
    out << ";  -- " << c.type->ToString() << ", def " << c.max_definition_level << " rep " << c.max_repetition_level
        << "\n";
    return;
  }
  out << " {\n";
  for (int child : n.children) PrintNode(schema, child, depth + 1, out);
  out << indent << "}\n";
}

Status Schema(CommandContext& ctx, const FileArgs& args) {
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenParquet(ctx, args.path, args.keys));
  const auto& schema = reader->schema();
  std::ostream& out = ctx.out();
  out << "message " << schema.nodes()[0].name << " {\n";
  for (int child : schema.nodes()[0].children) PrintNode(schema, child, 1, out);
  out << "}\n";
  return Status::OK();
}

// "AES_GCM_V1, AAD prefix 'x' stored" and the like.
std::string EncryptionText(const parquet::EncryptionAlgorithm& algorithm) {
  const std::optional<parquet::EncryptionAlgorithmFields> fields = parquet::FieldsOf(algorithm);
  if (!fields) return "an unknown algorithm";
  const std::string name(fields->name);
  if (*fields->aad_prefix) return name + ", AAD prefix " + Quote(**fields->aad_prefix) + " stored";
  if (fields->supply_aad_prefix) return name + ", AAD prefix not stored (the reader supplies it)";
  return name + ", no AAD prefix";
}

// How a column chunk is encrypted, for `meta`: null for a plaintext chunk.
std::optional<std::string> ChunkEncryptionText(const parquet::ColumnChunk& chunk) {
  if (!chunk.crypto_metadata) return std::nullopt;
  const auto* with_key = std::get_if<parquet::EncryptionWithColumnKey>(&*chunk.crypto_metadata);
  if (with_key == nullptr) return "footer key";
  const std::string& id = with_key->key_metadata.value_or("");
  const bool printable = !id.empty() && id.size() <= 40 && std::all_of(id.begin(), id.end(), [](char ch) {
    return ch >= 0x20 && ch < 0x7f;
  });
  return printable ? "column key " + Quote(id) : "column key";
}

Status Meta(CommandContext& ctx, const FileArgs& args) {
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenParquet(ctx, args.path, args.keys));
  const parquet::FileMetaData& md = reader->metadata();
  std::ostream& out = ctx.out();
  out << "file: " << args.path << " (" << reader->file_size() << " bytes)\n"
      << "created_by: " << md.created_by.value_or("(not set)") << "\n"
      << "format version: " << md.version << ", rows: " << md.num_rows << ", row groups: " << md.row_groups.size()
      << ", columns: " << reader->schema().num_columns() << "\n";
  if (const parquet::EncryptionAlgorithm* algorithm = reader->encryption_algorithm()) {
    out << "encryption: " << EncryptionText(*algorithm)
        << (reader->has_encrypted_footer() ? ", encrypted footer" : ", signed plaintext footer") << "\n";
  }
  if (md.key_value_metadata) {
    for (const auto& kv : *md.key_value_metadata) {
      const std::string value = kv.value.value_or("");
      out << "metadata " << Quote(kv.key) << ": " << value.size() << " bytes"
          << (value.size() <= 80 ? ", " + Quote(value) : "") << "\n";
    }
  }
  out << "\n";

  static const auto schema = std::make_shared<const floe::Schema>(std::vector<Field>{
      Field("row_group", DataType::Int32(), false), Field("column", DataType::Utf8(), false),
      // Nullable where an encrypted chunk without its key leaves them unknown.
      Field("type", DataType::Utf8(), false), Field("codec", DataType::Utf8(), true),
      Field("encodings", DataType::Utf8(), true), Field("values", DataType::Int64(), true),
      Field("nulls", DataType::Int64(), true), Field("compressed", DataType::Int64(), true),
      Field("uncompressed", DataType::Int64(), true), Field("min", DataType::Utf8(), true),
      Field("max", DataType::Utf8(), true), Field("page_index", DataType::Utf8(), false),
      Field("bloom_filter", DataType::Bool(), true), Field("unencoded_bytes", DataType::Int64(), true),
      Field("level_histograms", DataType::Utf8(), true), Field("geospatial", DataType::Utf8(), true),
      Field("encryption", DataType::Utf8(), true)});
  PrimitiveBuilder<int32_t> group_b;
  StringBuilder column_b, type_b, codec_b, enc_b, min_b, max_b, index_b, hist_b, crypt_b, geo_b;
  PrimitiveBuilder<int64_t> values_b, nulls_b, comp_b, uncomp_b, unencoded_b;
  BoolBuilder bloom_b;
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    for (int c = 0; c < reader->schema().num_columns(); ++c) {
      const auto& desc = reader->schema().column(c);
      const parquet::ColumnChunk& chunk = md.row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(c)];
      const std::optional<std::string> encryption = ChunkEncryptionText(chunk);
      std::string page_index = chunk.column_index_offset && chunk.offset_index_offset ? "column+offset"
                               : chunk.offset_index_offset                            ? "offset"
                               : chunk.column_index_offset                            ? "column"
                                                                                      : "none";
      auto meta = reader->ColumnChunkMeta(g, c);
      if (!meta.ok() && encryption && meta.status().IsPermissionDenied()) {
        // Encrypted metadata this reader has no key (or a wrong one) for: listed,
        // its contents unknown.
        FLOE_RETURN_IF_ERROR(group_b.Append(g));
        FLOE_RETURN_IF_ERROR(column_b.Append(desc.dotted_path()));
        FLOE_RETURN_IF_ERROR(type_b.Append(desc.type->ToString()));
        for (StringBuilder* unknown : {&codec_b, &enc_b, &min_b, &max_b, &hist_b, &geo_b}) {
          FLOE_RETURN_IF_ERROR(unknown->AppendNulls(1));
        }
        for (PrimitiveBuilder<int64_t>* unknown : {&values_b, &nulls_b, &comp_b, &uncomp_b, &unencoded_b}) {
          FLOE_RETURN_IF_ERROR(unknown->AppendNulls(1));
        }
        FLOE_RETURN_IF_ERROR(bloom_b.AppendNulls(1));
        FLOE_RETURN_IF_ERROR(index_b.Append(page_index));
        FLOE_RETURN_IF_ERROR(crypt_b.Append(*encryption + ", metadata not decrypted"));
        continue;
      }
      FLOE_RETURN_IF_ERROR(meta.status());
      const parquet::ColumnMetaData* m = *meta;
      FLOE_RETURN_IF_ERROR(encryption ? crypt_b.Append(*encryption) : crypt_b.AppendNulls(1));
      std::string encodings;
      for (auto e : m->encodings) encodings += (encodings.empty() ? "" : " ") + parquet::EncodingName(e);
      parquet::ColumnStatistics stats;
      if (m->statistics) stats = parquet::EffectiveStatistics(desc, *m->statistics);
      FLOE_RETURN_IF_ERROR(group_b.Append(g));
      FLOE_RETURN_IF_ERROR(column_b.Append(desc.dotted_path()));
      FLOE_RETURN_IF_ERROR(type_b.Append(desc.type->ToString()));
      FLOE_RETURN_IF_ERROR(codec_b.Append(parquet::CompressionCodecName(m->codec)));
      FLOE_RETURN_IF_ERROR(enc_b.Append(encodings));
      FLOE_RETURN_IF_ERROR(values_b.Append(m->num_values));
      FLOE_RETURN_IF_ERROR(stats.null_count ? nulls_b.Append(*stats.null_count) : nulls_b.AppendNulls(1));
      FLOE_RETURN_IF_ERROR(comp_b.Append(m->total_compressed_size));
      FLOE_RETURN_IF_ERROR(uncomp_b.Append(m->total_uncompressed_size));
      FLOE_RETURN_IF_ERROR(stats.min ? min_b.Append(parquet::FormatStatisticsValue(desc, *stats.min) +
                                                    (stats.min_exact ? "" : " (bound)"))
                                     : min_b.AppendNulls(1));
      FLOE_RETURN_IF_ERROR(stats.max ? max_b.Append(parquet::FormatStatisticsValue(desc, *stats.max) +
                                                    (stats.max_exact ? "" : " (bound)"))
                                     : max_b.AppendNulls(1));
      FLOE_RETURN_IF_ERROR(index_b.Append(page_index));
      FLOE_RETURN_IF_ERROR(bloom_b.Append(m->bloom_filter_offset.has_value()));
      // SizeStatistics: "def 3,97 rep 10,90" (counts of each level from 0 up).
      const parquet::SizeStatistics* size = m->size_statistics ? &*m->size_statistics : nullptr;
      FLOE_RETURN_IF_ERROR(size && size->unencoded_byte_array_data_bytes
                               ? unencoded_b.Append(*size->unencoded_byte_array_data_bytes)
                               : unencoded_b.AppendNulls(1));
      std::string histograms;
      const auto add_histogram = [&](const char* name, const std::optional<parquet::LevelHistogram>& h) {
        if (!h) return;
        histograms += (histograms.empty() ? "" : " ") + std::string(name) + " ";
        for (size_t i = 0; i < h->size(); ++i) histograms += (i == 0 ? "" : ",") + std::to_string((*h)[i]);
      };
      if (size) {
        add_histogram("def", size->definition_level_histogram);
        add_histogram("rep", size->repetition_level_histogram);
      }
      FLOE_RETURN_IF_ERROR(histograms.empty() ? hist_b.AppendNulls(1) : hist_b.Append(histograms));
      FLOE_RETURN_IF_ERROR(m->geospatial_statistics
                               ? geo_b.Append(parquet::GeospatialStatisticsText(*m->geospatial_statistics))
                               : geo_b.AppendNulls(1));
    }
  }
  FLOE_ASSIGN_OR_RETURN(
      RecordBatch batch,
      FinishBatch(schema, {&group_b, &column_b, &type_b, &codec_b, &enc_b, &values_b, &nulls_b, &comp_b, &uncomp_b,
                           &min_b, &max_b, &index_b, &bloom_b, &unencoded_b, &hist_b, &geo_b, &crypt_b}));
  return PrintBatches(ctx, schema, {batch});
}

struct PagesArgs {
  std::string path;
  std::string columns;  // comma-separated dotted leaf paths; empty: all
  bool index_only = false;
  KeyArgs keys;
};

// One row of `floe parquet pages`; nullopt prints as null.
struct PageRow {
  int32_t row_group = 0;
  std::string column;
  std::optional<int32_t> page;  // the chunk's data page number
  std::optional<std::string> type;
  std::optional<int64_t> offset;
  std::optional<int64_t> bytes;  // as stored, header included
  std::optional<int64_t> uncompressed;
  std::optional<int64_t> values;
  std::optional<std::string> encoding;
  std::optional<int64_t> first_row;
  std::optional<int64_t> rows;
  std::optional<int64_t> nulls;
  std::optional<std::string> min;
  std::optional<std::string> max;
  std::optional<std::string> crc;
  std::optional<std::string> note;
};

// A row about a whole chunk rather than one of its pages.
PageRow ChunkNote(int32_t row_group, std::string column, std::string note) {
  PageRow row;
  row.row_group = row_group;
  row.column = std::move(column);
  row.note = std::move(note);
  return row;
}

class PagesTable {
 public:
  Status Append(const PageRow& row) {
    FLOE_RETURN_IF_ERROR(row_group_.Append(row.row_group));
    FLOE_RETURN_IF_ERROR(column_.Append(row.column));
    FLOE_RETURN_IF_ERROR(AppendOptional(page_, row.page));
    FLOE_RETURN_IF_ERROR(AppendOptional(type_, row.type));
    FLOE_RETURN_IF_ERROR(AppendOptional(offset_, row.offset));
    FLOE_RETURN_IF_ERROR(AppendOptional(bytes_, row.bytes));
    FLOE_RETURN_IF_ERROR(AppendOptional(uncompressed_, row.uncompressed));
    FLOE_RETURN_IF_ERROR(AppendOptional(values_, row.values));
    FLOE_RETURN_IF_ERROR(AppendOptional(encoding_, row.encoding));
    FLOE_RETURN_IF_ERROR(AppendOptional(first_row_, row.first_row));
    FLOE_RETURN_IF_ERROR(AppendOptional(rows_, row.rows));
    FLOE_RETURN_IF_ERROR(AppendOptional(nulls_, row.nulls));
    FLOE_RETURN_IF_ERROR(AppendOptional(min_, row.min));
    FLOE_RETURN_IF_ERROR(AppendOptional(max_, row.max));
    FLOE_RETURN_IF_ERROR(AppendOptional(crc_, row.crc));
    return AppendOptional(note_, row.note);
  }

  Status Print(CommandContext& ctx) {
    static const auto schema = std::make_shared<const floe::Schema>(
        std::vector<Field>{Field("row_group", DataType::Int32(), false), Field("column", DataType::Utf8(), false),
                           Field("page", DataType::Int32(), true), Field("type", DataType::Utf8(), true),
                           Field("offset", DataType::Int64(), true), Field("bytes", DataType::Int64(), true),
                           Field("uncompressed", DataType::Int64(), true), Field("values", DataType::Int64(), true),
                           Field("encoding", DataType::Utf8(), true), Field("first_row", DataType::Int64(), true),
                           Field("rows", DataType::Int64(), true), Field("nulls", DataType::Int64(), true),
                           Field("min", DataType::Utf8(), true), Field("max", DataType::Utf8(), true),
                           Field("crc", DataType::Utf8(), true), Field("note", DataType::Utf8(), true)});
    FLOE_ASSIGN_OR_RETURN(
        RecordBatch batch,
        FinishBatch(schema, {&row_group_, &column_, &page_, &type_, &offset_, &bytes_, &uncompressed_, &values_,
                             &encoding_, &first_row_, &rows_, &nulls_, &min_, &max_, &crc_, &note_}));
    return PrintBatches(ctx, schema, {batch});
  }

 private:
  template <typename Builder, typename T>
  static Status AppendOptional(Builder& builder, const std::optional<T>& value) {
    return value ? builder.Append(*value) : builder.AppendNulls(1);
  }

  PrimitiveBuilder<int32_t> row_group_, page_;
  PrimitiveBuilder<int64_t> offset_, bytes_, uncompressed_, values_, first_row_, rows_, nulls_;
  StringBuilder column_, type_, encoding_, min_, max_, crc_, note_;
};

// What the page index says of one data page, when the chunk has one.
struct IndexedPage {
  const parquet::PageLocation* location = nullptr;
  int64_t end_row = 0;
  std::optional<int64_t> nulls;
  std::optional<std::string> min;
  std::optional<std::string> max;
  // "all null", or why the chunk's column index is not used.
  std::optional<std::string> note;
};

IndexedPage IndexedPageAt(const parquet::ColumnDescriptor& desc, const parquet::ColumnPageIndex& index,
                          int64_t row_group_rows, size_t p) {
  const std::vector<parquet::PageLocation>& locations = index.offset_index->page_locations;
  IndexedPage page;
  page.location = &locations[p];
  page.end_row = parquet::PageEndRow(*index.offset_index, p, row_group_rows);
  if (!index.column_index_unused.empty()) page.note = "column index not used: " + index.column_index_unused;
  if (!index.column_index) return page;
  const parquet::ColumnIndex& bounds = *index.column_index;
  if (bounds.null_counts) page.nulls = (*bounds.null_counts)[p];
  if (bounds.null_pages[p]) {
    page.note = "all null";
  } else {
    page.min = parquet::FormatStatisticsValue(desc, bounds.min_values[p]);
    page.max = parquet::FormatStatisticsValue(desc, bounds.max_values[p]);
  }
  return page;
}

// The chunk's page index, nullopt when it has no offset index.
Result<std::optional<parquet::ColumnPageIndex>> ChunkPageIndex(const ParquetFileReader& reader, int row_group,
                                                               int column) {
  const parquet::ColumnChunk& chunk =
      reader.metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(column)];
  if (!chunk.offset_index_offset) return std::optional<parquet::ColumnPageIndex>();
  const int one[] = {column};
  FLOE_ASSIGN_OR_RETURN(std::vector<parquet::ColumnPageIndex> index, parquet::ReadPageIndex(reader, row_group, one));
  if (!index[0].offset_index) return std::optional<parquet::ColumnPageIndex>();
  return std::optional<parquet::ColumnPageIndex>(std::move(index[0]));
}

// --index: each data page from the page index alone, reading no page.
Status ListChunkFromIndex(const ParquetFileReader& reader, int g, int c, PagesTable& table) {
  const auto& desc = reader.schema().column(c);
  const parquet::ColumnChunk& chunk =
      reader.metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(c)];
  auto index = ChunkPageIndex(reader, g, c);
  if (!index.ok() && index.status().IsPermissionDenied() && ChunkEncryptionText(chunk)) {
    return table.Append(ChunkNote(g, desc.dotted_path(), "encrypted, no key for its page index"));
  }
  FLOE_RETURN_IF_ERROR(index.status());
  if (!*index) return table.Append(ChunkNote(g, desc.dotted_path(), "no page index"));
  const int64_t row_group_rows = reader.metadata().row_groups[static_cast<size_t>(g)].num_rows;
  const size_t pages = (*index)->offset_index->page_locations.size();
  for (size_t p = 0; p < pages; ++p) {
    const IndexedPage page = IndexedPageAt(desc, **index, row_group_rows, p);
    PageRow row;
    row.row_group = g;
    row.column = desc.dotted_path();
    row.page = static_cast<int32_t>(p);
    row.offset = page.location->offset;
    row.bytes = page.location->compressed_page_size;
    row.first_row = page.location->first_row_index;
    row.rows = page.end_row - page.location->first_row_index;
    row.nulls = page.nulls;
    row.min = page.min;
    row.max = page.max;
    row.note = page.note;
    if (!(*index)->column_index && !row.note) row.note = "no column index";
    FLOE_RETURN_IF_ERROR(table.Append(row));
  }
  return Status::OK();
}

// Each page from its header, with the page index's first row, null count
// and bounds where the chunk has one that agrees with the headers.
Status ListChunkFromHeaders(const ParquetFileReader& reader, int g, int c, PagesTable& table) {
  const auto& desc = reader.schema().column(c);
  const parquet::ColumnChunk& chunk =
      reader.metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(c)];
  auto meta = reader.ColumnChunkMeta(g, c);
  // Writers point the chunk of an empty row group anywhere, even at byte 0
  // (parquet-testing column_chunk_key_value_metadata.parquet).
  if (meta.ok() && (*meta)->num_values == 0) return table.Append(ChunkNote(g, desc.dotted_path(), "no values"));
  auto headers = parquet::ReadPageHeaders(reader, g, c);
  if (!headers.ok() && headers.status().IsPermissionDenied() && ChunkEncryptionText(chunk)) {
    return table.Append(ChunkNote(g, desc.dotted_path(), "encrypted, no key for its pages"));
  }
  FLOE_RETURN_IF_ERROR(headers.status());
  // A page index that cannot be read is noted, not fatal: the headers are
  // what this lists, and it is the tool to look at such a file with.
  auto index_read = ChunkPageIndex(reader, g, c);
  std::optional<parquet::ColumnPageIndex> index;
  std::optional<std::string> index_note;
  if (index_read.ok()) {
    index = std::move(*index_read);
  } else {
    index_note = "page index not read: " + index_read.status().ToString();
  }
  // The index is used only if it locates exactly the data pages the headers do.
  const bool index_agrees = index && parquet::OffsetIndexLocates(*index->offset_index, *headers);
  const int64_t row_group_rows = reader.metadata().row_groups[static_cast<size_t>(g)].num_rows;
  // Without repetition a value is a row; a v1 page of a repeated column
  // does not say how many rows it holds, and neither does the rest then.
  const bool flat = desc.max_repetition_level == 0;
  std::optional<int64_t> next_row = 0;
  for (const parquet::StoredPageHeader& stored : *headers) {
    const parquet::PageHeader& header = stored.header;
    PageRow row;
    row.row_group = g;
    row.column = desc.dotted_path();
    row.type = parquet::PageTypeName(header.type);
    row.offset = stored.file_offset;
    row.bytes = stored.stored_size;
    row.uncompressed = header.uncompressed_page_size;
    if (stored.crc_matches) row.crc = *stored.crc_matches ? "ok" : "mismatch";
    const parquet::Statistics* statistics = nullptr;
    if (header.dictionary_page_header) {
      row.values = header.dictionary_page_header->num_values;
      row.encoding = parquet::EncodingName(header.dictionary_page_header->encoding);
    }
    if (stored.data_page_ordinal >= 0) {
      row.page = stored.data_page_ordinal;
      if (header.data_page_header) {
        const parquet::DataPageHeader& data = *header.data_page_header;
        row.values = data.num_values;
        row.encoding = parquet::EncodingName(data.encoding);
        if (flat) row.rows = data.num_values;
        if (desc.max_definition_level == 0) row.nulls = 0;
        statistics = data.statistics ? &*data.statistics : nullptr;
      } else if (header.data_page_header_v2) {
        const parquet::DataPageHeaderV2& data = *header.data_page_header_v2;
        row.values = data.num_values;
        row.encoding = parquet::EncodingName(data.encoding);
        row.rows = data.num_rows;
        row.nulls = data.num_nulls;
        statistics = data.statistics ? &*data.statistics : nullptr;
      }
      if (statistics) {
        const parquet::ColumnStatistics effective = parquet::EffectiveStatistics(desc, *statistics);
        if (!row.nulls) row.nulls = effective.null_count;
        if (effective.min) row.min = parquet::FormatStatisticsValue(desc, *effective.min);
        if (effective.max) row.max = parquet::FormatStatisticsValue(desc, *effective.max);
      }
      if (index_agrees) {
        const IndexedPage page =
            IndexedPageAt(desc, *index, row_group_rows, static_cast<size_t>(stored.data_page_ordinal));
        row.first_row = page.location->first_row_index;
        row.rows = page.end_row - page.location->first_row_index;
        if (!row.nulls) row.nulls = page.nulls;
        if (page.min) row.min = page.min;
        if (page.max) row.max = page.max;
        row.note = page.note;
      } else {
        row.first_row = next_row;
      }
      next_row = next_row && row.rows ? std::optional<int64_t>(*next_row + *row.rows) : std::nullopt;
    }
    FLOE_RETURN_IF_ERROR(table.Append(row));
  }
  if (index && !index_agrees) index_note = "its page index does not locate these pages; not used";
  if (index_note) FLOE_RETURN_IF_ERROR(table.Append(ChunkNote(g, desc.dotted_path(), *index_note)));
  return Status::OK();
}

// One row per page of each column chunk: from the page headers, or with
// --index from the page index alone (data pages only, no page read).
Status Pages(CommandContext& ctx, const PagesArgs& args) {
  FLOE_ASSIGN_OR_RETURN(auto reader, OpenParquet(ctx, args.path, args.keys));
  std::vector<int> columns;
  if (args.columns.empty()) {
    for (int c = 0; c < reader->schema().num_columns(); ++c) columns.push_back(c);
  } else {
    for (const std::string_view name : Split(args.columns, ',')) {
      const std::string path(Trim(name));
      int found = -1;
      for (int c = 0; c < reader->schema().num_columns(); ++c) {
        if (reader->schema().column(c).dotted_path() == path) found = c;
      }
      if (found < 0) return Status::InvalidArgument(StrCat("--columns: no leaf column ", Quote(path)));
      columns.push_back(found);
    }
  }
  PagesTable table;
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    for (const int c : columns) {
      FLOE_RETURN_IF_ERROR(args.index_only ? ListChunkFromIndex(*reader, g, c, table)
                                           : ListChunkFromHeaders(*reader, g, c, table));
    }
  }
  return table.Print(ctx);
}

struct CatArgs {
  std::string path;
  std::string columns;  // comma-separated top-level names; empty: all
  int64_t limit = -1;   // rows; -1: all
  std::string variant = "json";
  KeyArgs keys;
};

// The indexes, in the reader's output `schema`, of the top-level columns that
// hold a VARIANT, at the top or nested at any depth.
std::vector<int> ColumnsHoldingVariants(const floe::Schema& schema) {
  std::vector<int> out;
  for (int c = 0; c < schema.num_fields(); ++c) {
    if (parquet::HoldsVariant(schema.field(c))) out.push_back(c);
  }
  return out;
}

// Prints the rows batch by batch as they are read, so csv, json and jsonl
// hold one batch at a time however large the file (table a group of rows,
// batch_printer.h). Variant columns print as JSON text (variant_json.h)
// unless --variant binary keeps their stored struct.
Status Cat(CommandContext& ctx, const CatArgs& args) {
  FLOE_ASSIGN_OR_RETURN(OutputFormat format, ParseOutputFormat(ctx.options().format));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetFileReader> file, OpenParquet(ctx, args.path, args.keys));
  parquet::ScanOptions options;
  if (!args.columns.empty()) {
    options.columns.emplace();
    for (const std::string_view name : Split(args.columns, ',')) options.columns->emplace_back(Trim(name));
  }
  if (args.limit >= 0) options.batch_size = std::clamp<int64_t>(args.limit, 1, options.batch_size);
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetRecordBatchReader::Make(file, options));
  const std::shared_ptr<const floe::Schema>& stored = reader->schema();
  const std::vector<int> variants = args.variant == "json" ? ColumnsHoldingVariants(*stored) : std::vector<int>{};
  std::shared_ptr<const floe::Schema> schema = stored;
  if (!variants.empty()) {
    auto printed = std::make_shared<floe::Schema>(*schema);
    for (const int c : variants) {
      printed->fields[static_cast<size_t>(c)] = parquet::VariantsAsJsonField(stored->field(c));
    }
    schema = std::move(printed);
  }
  BatchPrinter printer(ctx.out(), schema, PrintOptions{.format = format});
  int64_t rows = 0;
  while (args.limit < 0 || rows < args.limit) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
    if (!batch) break;
    if (args.limit >= 0 && rows + batch->num_rows() > args.limit) *batch = batch->Slice(0, args.limit - rows);
    if (!variants.empty()) {
      std::vector<Array> columns = batch->columns();
      for (const int c : variants) {
        Result<Array> json = parquet::VariantsAsJson(stored->field(c), columns[static_cast<size_t>(c)], rows);
        if (!json.ok()) {
          // The stored form still prints, whatever floe cannot rebuild.
          const Status& s = json.status();
          return Status(s.code(), StrCat(args.path, ": column ", Quote(schema->field(c).name), ": ", s.message(),
                                         " (--variant binary prints it as stored)"));
        }
        columns[static_cast<size_t>(c)] = std::move(*json);
      }
      FLOE_ASSIGN_OR_RETURN(*batch, RecordBatch::Make(schema, std::move(columns)));
    }
    rows += batch->num_rows();
    FLOE_RETURN_IF_ERROR(printer.Write(*batch));
  }
  return printer.Finish();
}

struct RewriteArgs {
  std::string in;
  std::string out;
  std::string codec = "zstd";
  std::optional<int> level;
  int page_version = 1;
  std::string dictionary = "on";
  std::optional<int64_t> row_group_rows;
  std::optional<int64_t> row_group_bytes;
  std::optional<int64_t> page_bytes;
  std::optional<int64_t> page_rows;
  bool page_index = true;
  std::string bloom;  // comma-separated leaf column paths
  std::string boolean_encoding = "plain";
  std::vector<std::string> encodings;  // PATH=ENCODING
  KeyArgs keys;                        // of the input
  // Encrypting the output.
  std::string encrypt_footer_key;                // hex
  std::vector<std::string> encrypt_column_keys;  // PATH=HEX
  std::string plaintext_columns;                 // comma-separated leaf column paths
  bool plaintext_footer = false;
  std::string encryption_algorithm = "AES_GCM_V1";
  std::optional<std::string> encrypt_aad_prefix;
  bool store_aad_prefix = true;
  // Encrypting the output with keys wrapped by KMS master keys (key tools).
  std::string encrypt_footer_master_key;   // master key id
  std::string encrypt_column_master_keys;  // ID:a,b;ID2:c
  bool single_wrapping = false;
  bool external_key_material = false;
  int data_key_bits = 128;
};

// --encoding PATH=ENCODING: the leaf column's pages in that encoding, with no
// dictionary (a dictionary would win until it fell back). Which encodings a
// column's type takes is the writer's check.
Status AddColumnEncoding(std::string_view arg, parquet::WriterOptions* options) {
  static constexpr parquet::Encoding kEncodings[] = {parquet::Encoding::PLAIN,
                                                     parquet::Encoding::DELTA_BINARY_PACKED,
                                                     parquet::Encoding::DELTA_LENGTH_BYTE_ARRAY,
                                                     parquet::Encoding::DELTA_BYTE_ARRAY,
                                                     parquet::Encoding::BYTE_STREAM_SPLIT,
                                                     parquet::Encoding::RLE};
  const size_t eq = arg.rfind('=');
  const std::string path(Trim(arg.substr(0, eq == std::string_view::npos ? 0 : eq)));
  if (eq == std::string_view::npos || path.empty()) {
    return Status::InvalidArgument(StrCat("--encoding takes PATH=ENCODING, not ", Quote(arg)));
  }
  const std::string_view name = Trim(arg.substr(eq + 1));
  for (const parquet::Encoding encoding : kEncodings) {
    if (!EqualsIgnoreCase(parquet::EncodingName(encoding), name)) continue;
    parquet::ColumnWriterOptions& column = options->columns[path];
    column.encoding = encoding;
    column.dictionary = false;
    return Status::OK();
  }
  return Status::InvalidArgument(StrCat("--encoding ", Quote(arg), ": ", Quote(name),
                                        " is not PLAIN, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, "
                                        "DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT or RLE"));
}

// parquet.encryption.column.keys's syntax: "ID:a,b;ID2:c" -> a:ID, b:ID, c:ID2.
Result<std::map<std::string, std::string>> ColumnMasterKeysFromArg(std::string_view arg) {
  std::map<std::string, std::string> out;
  for (const std::string_view entry : Split(arg, ';')) {
    if (Trim(entry).empty()) continue;
    const size_t colon = entry.find(':');
    const std::string_view id = Trim(entry.substr(0, colon == std::string_view::npos ? 0 : colon));
    if (colon == std::string_view::npos || id.empty()) {
      return Status::InvalidArgument(
          StrCat("--encrypt-column-master-keys takes ID:COLUMN,COLUMN;ID:COLUMN,..., not ", Quote(entry)));
    }
    for (const std::string_view column : Split(entry.substr(colon + 1), ',')) {
      const std::string path(Trim(column));
      if (path.empty()) continue;
      if (!out.emplace(path, std::string(id)).second) {
        return Status::InvalidArgument(
            StrCat("--encrypt-column-master-keys names column ", Quote(path), " more than once"));
      }
    }
  }
  return out;
}

// The output's encryption from the --encrypt* options; nullopt without
// --encrypt-footer-key (InvalidArgument when other encryption options are
// given then).
Result<std::optional<parquet::KeyToolsFileKeys>> EncryptionFromArgs(const RewriteArgs& args) {
  const bool key_tools = !args.encrypt_footer_master_key.empty();
  const bool key_tools_options = !args.encrypt_column_master_keys.empty() || args.single_wrapping ||
                                 args.external_key_material || args.data_key_bits != 128;
  if (key_tools && (!args.encrypt_footer_key.empty() || !args.encrypt_column_keys.empty())) {
    return Status::InvalidArgument(
        "--encrypt-footer-master-key makes the output's keys; --encrypt-footer-key and --encrypt-column-key "
        "cannot be given with it");
  }
  if (!key_tools && key_tools_options) {
    return Status::InvalidArgument(
        "--encrypt-column-master-keys, --single-wrapping, --external-key-material and --data-key-bits need "
        "--encrypt-footer-master-key");
  }
  if (args.encrypt_footer_key.empty() && !key_tools) {
    if (!args.encrypt_column_keys.empty() || !args.plaintext_columns.empty() || args.plaintext_footer ||
        args.encrypt_aad_prefix || !args.store_aad_prefix || args.encryption_algorithm != "AES_GCM_V1") {
      return Status::InvalidArgument("encryption options need --encrypt-footer-key or --encrypt-footer-master-key");
    }
    return std::optional<parquet::KeyToolsFileKeys>();
  }
  parquet::EncryptionProperties e;
  if (!key_tools) {
    FLOE_ASSIGN_OR_RETURN(e.footer_key, KeyFromHex(args.encrypt_footer_key, "--encrypt-footer-key"));
  }
  for (const std::string& arg : args.encrypt_column_keys) {
    FLOE_ASSIGN_OR_RETURN(auto column_key, NamedKeyFromArg(arg, "--encrypt-column-key", "PATH"));
    e.column_keys[column_key.first].key = std::move(column_key.second);
  }
  if (!args.plaintext_columns.empty()) {
    for (const std::string_view column : Split(args.plaintext_columns, ',')) {
      e.plaintext_columns.insert(std::string(Trim(column)));
    }
  }
  e.plaintext_footer = args.plaintext_footer;
  if (args.encryption_algorithm != "AES_GCM_V1" && args.encryption_algorithm != "AES_GCM_CTR_V1") {
    return Status::InvalidArgument(
        StrCat("--encryption-algorithm takes AES_GCM_V1 or AES_GCM_CTR_V1, not ", Quote(args.encryption_algorithm)));
  }
  e.ctr_pages = args.encryption_algorithm == "AES_GCM_CTR_V1";
  e.aad_prefix = args.encrypt_aad_prefix;
  e.store_aad_prefix = args.store_aad_prefix;
  if (key_tools) {
    parquet::KeyToolsOptions options;
    options.footer_master_key_id = args.encrypt_footer_master_key;
    FLOE_ASSIGN_OR_RETURN(options.column_master_key_ids, ColumnMasterKeysFromArg(args.encrypt_column_master_keys));
    options.double_wrapping = !args.single_wrapping;
    options.internal_key_material = !args.external_key_material;
    if (args.data_key_bits != 128 && args.data_key_bits != 192 && args.data_key_bits != 256) {
      return Status::InvalidArgument(StrCat("--data-key-bits takes 128, 192 or 256, not ", args.data_key_bits));
    }
    options.data_key_bytes = args.data_key_bits / 8;
    FLOE_ASSIGN_OR_RETURN(std::shared_ptr<parquet::LocalKms> kms, LocalKmsFromArgs(args.keys));
    if (!kms) {
      return Status::InvalidArgument("--encrypt-footer-master-key needs the master keys, as --master-key ID=HEX");
    }
    FLOE_ASSIGN_OR_RETURN(parquet::KeyToolsFileKeys keys, parquet::MakeKeyToolsFileKeys(*kms, options, std::move(e)));
    return std::optional<parquet::KeyToolsFileKeys>(std::move(keys));
  }
  return std::optional<parquet::KeyToolsFileKeys>(parquet::KeyToolsFileKeys{std::move(e), ""});
}

Status Rewrite(CommandContext& ctx, const RewriteArgs& args) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<const ParquetFileReader> file, OpenParquet(ctx, args.in, args.keys));
  parquet::WriterOptions options;
  FLOE_ASSIGN_OR_RETURN(options.codec, compression::CodecFromName(args.codec));
  options.compression_level = args.level;
  options.data_page_version = args.page_version;
  if (args.dictionary != "on" && args.dictionary != "off") {
    return Status::InvalidArgument(StrCat("--dictionary takes on or off, not ", Quote(args.dictionary)));
  }
  options.dictionary = args.dictionary == "on";
  if (args.row_group_rows) options.row_group_rows = *args.row_group_rows;
  if (args.row_group_bytes) options.row_group_bytes = *args.row_group_bytes;
  if (args.page_bytes) options.page_bytes = *args.page_bytes;
  if (args.page_rows) options.page_rows = *args.page_rows;
  options.page_index = args.page_index;
  if (args.boolean_encoding != "plain" && args.boolean_encoding != "rle") {
    return Status::InvalidArgument(StrCat("--boolean-encoding takes plain or rle, not ", Quote(args.boolean_encoding)));
  }
  options.boolean_encoding = args.boolean_encoding == "rle" ? parquet::Encoding::RLE : parquet::Encoding::PLAIN;
  if (!args.bloom.empty()) {
    for (const std::string_view column : Split(args.bloom, ',')) {
      options.columns[std::string(Trim(column))].bloom_filter = true;
    }
  }
  for (const std::string& arg : args.encodings) FLOE_RETURN_IF_ERROR(AddColumnEncoding(arg, &options));
  FLOE_ASSIGN_OR_RETURN(const std::optional<parquet::KeyToolsFileKeys> encryption, EncryptionFromArgs(args));
  if (encryption) options.encryption = encryption->properties;
  // The input's key-value metadata travels, except an Arrow schema, which
  // would describe the input's Arrow types rather than floe's output.
  if (file->metadata().key_value_metadata) {
    for (const parquet::KeyValue& kv : *file->metadata().key_value_metadata) {
      if (kv.key != "ARROW:schema") options.key_value_metadata.push_back(kv);
    }
  }
  // The reader's schema carries what floe's types do not (INT96, FLOAT16,
  // ENUM, JSON, millisecond units, ...) as field metadata the writer applies
  // (formats/parquet/field_annotation.h), so the schema stays the same.
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetRecordBatchReader::Make(file));
  FLOE_ASSIGN_OR_RETURN(auto out_io, ctx.FileIOFor(args.out));
  FLOE_ASSIGN_OR_RETURN(auto writer, parquet::ParquetFileWriter::Open(out_io, args.out, reader->schema(), options));
  // Key material kept beside the output is written before the output is
  // closed, for the output cannot be read without it. If the output fails,
  // the side file is put back as it was, since the writer leaves a file
  // already at the output path untouched, and that file needs its own key
  // material.
  const bool side_file = encryption && !encryption->external_key_material.empty();
  const std::string side_file_path = parquet::ExternalKeyMaterialPath(args.out);
  std::optional<Buffer> previous_side_file;
  if (side_file) {
    Result<Buffer> previous = out_io->ReadAll(side_file_path);
    if (previous.ok()) {
      previous_side_file = std::move(*previous);
    } else if (previous.status().code() != StatusCode::kNotFound) {
      return previous.status();
    }
    FLOE_RETURN_IF_ERROR(parquet::WriteExternalKeyMaterial(*out_io, args.out, *encryption));
  }
  const auto copy_rows = [&]() -> Result<parquet::WrittenFile> {
    while (true) {
      FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
      if (!batch) break;
      FLOE_RETURN_IF_ERROR(writer->Write(*batch));
    }
    return writer->Close();
  };
  Result<parquet::WrittenFile> copied = copy_rows();
  if (!copied.ok()) {
    if (side_file) {
      // Best effort: the copy's error is the one to report.
      (void)(previous_side_file ? out_io->WriteAll(side_file_path, previous_side_file->span())
                                : out_io->Delete(side_file_path));
    }
    return copied.status();
  }
  const parquet::WrittenFile& written = *copied;
  const int64_t rows = reader->rows_read();
  const size_t row_groups = written.metadata.row_groups.size();
  ctx.out() << "wrote " << args.out << ": " << rows << (rows == 1 ? " row, " : " rows, ") << row_groups
            << (row_groups == 1 ? " row group, " : " row groups, ") << FormatBytes(written.file_size) << " (from "
            << FormatBytes(file->file_size()) << ")\n";
  return Status::OK();
}

}  // namespace

void AddParquetCommands(CLI::App& app, CommandSet& commands) {
  CLI::App* parquet = commands.AddGroup(app, "parquet", "Parquet files: schema, meta, pages, cat, rewrite");

  auto* schema_args = &commands.Keep<FileArgs>();
  CLI::App* schema = commands.Add(*parquet, "schema", "The schema tree with logical types and field ids",
                                  [schema_args](CommandContext& ctx) { return Schema(ctx, *schema_args); });
  schema->add_option("file", schema_args->path, "Parquet file location")->required();
  AddKeyOptions(schema, &schema_args->keys);

  auto* meta_args = &commands.Keep<FileArgs>();
  CLI::App* meta = commands.Add(*parquet, "meta", "Row groups and column chunks: encodings, codec, sizes, statistics",
                                [meta_args](CommandContext& ctx) { return Meta(ctx, *meta_args); });
  meta->add_option("file", meta_args->path, "Parquet file location")->required();
  AddKeyOptions(meta, &meta_args->keys);

  auto* pages_args = &commands.Keep<PagesArgs>();
  CLI::App* pages = commands.Add(
      *parquet, "pages", "Each page from its header: type, offset, bytes, values, encoding, rows, nulls, min, max, CRC",
      [pages_args](CommandContext& ctx) { return Pages(ctx, *pages_args); });
  pages->add_option("file", pages_args->path, "Parquet file location")->required();
  pages->add_option("--columns", pages_args->columns, "Leaf columns to list, comma-separated dotted paths");
  pages->add_flag("--index", pages_args->index_only,
                  "List the data pages from the page index alone, reading no page (files written with one)");
  AddKeyOptions(pages, &pages_args->keys);

  auto* cat_args = &commands.Keep<CatArgs>();
  CLI::App* cat = commands.Add(*parquet, "cat", "The rows (--format table|csv|json|jsonl)",
                               [cat_args](CommandContext& ctx) { return Cat(ctx, *cat_args); });
  cat->add_option("file", cat_args->path, "Parquet file location")->required();
  cat->add_option("--columns", cat_args->columns, "Top-level columns to print, comma-separated (default: all)");
  cat->add_option("--limit", cat_args->limit, "Print at most this many rows")
      ->check(IntegerAtLeast(0, "a number of rows"));
  cat->add_option("--variant", cat_args->variant,
                  "VARIANT columns as their JSON text (json) or as stored: metadata, value, typed_value (binary)")
      ->check(CLI::IsMember({"json", "binary"}))
      ->capture_default_str();
  AddKeyOptions(cat, &cat_args->keys);

  auto* rw = &commands.Keep<RewriteArgs>();
  CLI::App* rewrite = commands.Add(*parquet, "rewrite", "Read any Parquet file and write it again with floe's writer",
                                   [rw](CommandContext& ctx) { return Rewrite(ctx, *rw); });
  rewrite->add_option("in", rw->in, "Parquet file to read")->required();
  rewrite->add_option("out", rw->out, "Parquet file to write")->required();
  rewrite->add_option("--codec", rw->codec, "none, snappy, zstd, gzip, lz4_raw or brotli")->capture_default_str();
  rewrite->add_option("--level", rw->level, "Compression level, in the codec's own scale");
  rewrite->add_option("--page-version", rw->page_version, "Data page version")->check(CLI::IsMember({1, 2}))
      ->capture_default_str();
  rewrite->add_option("--dictionary", rw->dictionary, "Dictionary encoding: on or off")->capture_default_str();
  rewrite->add_option("--row-group-rows", rw->row_group_rows, "Rows per row group at most")
      ->check(IntegerAtLeast(1, "a number of rows"));
  rewrite->add_option("--row-group-bytes", rw->row_group_bytes, "Bytes per row group at most")
      ->check(IntegerAtLeast(1, "a number of bytes"));
  rewrite->add_option("--page-bytes", rw->page_bytes, "Target bytes per data page")
      ->check(IntegerAtLeast(1, "a number of bytes"));
  rewrite->add_option("--page-rows", rw->page_rows, "Rows per data page at most (default 20000)")
      ->check(IntegerAtLeast(1, "a number of rows"));
  rewrite->add_flag("--page-index,!--no-page-index", rw->page_index, "Write the column and offset indexes (default on)");
  rewrite->add_option("--boolean-encoding", rw->boolean_encoding, "BOOLEAN columns: plain or rle")
      ->capture_default_str();
  rewrite->add_option("--bloom", rw->bloom, "Leaf columns that get bloom filters, comma-separated dotted paths");
  rewrite->add_option("--encoding", rw->encodings,
                      "A leaf column's pages in PLAIN, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, "
                      "DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT or RLE, without a dictionary, as PATH=ENCODING "
                      "(repeatable)");
  AddKeyOptions(rewrite, &rw->keys);
  rewrite->add_option("--encrypt-footer-key", rw->encrypt_footer_key,
                      "Encrypt the output: its footer key, in hex; every column not named otherwise takes it");
  rewrite->add_option("--encrypt-column-key", rw->encrypt_column_keys,
                      "Encrypt a column of the output with its own key, as PATH=HEX (repeatable)");
  rewrite->add_option("--plaintext-columns", rw->plaintext_columns,
                      "Leave these leaf columns of an encrypted output unencrypted, comma-separated dotted paths");
  rewrite->add_flag("--plaintext-footer", rw->plaintext_footer,
                    "Sign the encrypted output's footer instead of encrypting it (readers without keys see the "
                    "plaintext columns)");
  rewrite->add_option("--encryption-algorithm", rw->encryption_algorithm, "AES_GCM_V1 or AES_GCM_CTR_V1")
      ->capture_default_str();
  rewrite->add_option("--encrypt-aad-prefix", rw->encrypt_aad_prefix,
                      "Bind the encrypted output to this AAD prefix (a file or table name)");
  rewrite->add_flag("!--no-store-aad-prefix", rw->store_aad_prefix,
                    "Leave the AAD prefix out of the file: readers must supply it");
  rewrite->add_option("--encrypt-footer-master-key", rw->encrypt_footer_master_key,
                      "Encrypt the output with fresh keys that parquet's key tools wrap (as Spark reads them): the "
                      "id of the master key (--master-key) that wraps the footer key");
  rewrite->add_option("--encrypt-column-master-keys", rw->encrypt_column_master_keys,
                      "Key tools: columns with keys of their own and their master keys, as ID:COLUMN,COLUMN;ID:COLUMN");
  rewrite->add_flag("--single-wrapping", rw->single_wrapping,
                    "Key tools: wrap each data key with its master key, without key-encryption keys");
  rewrite->add_flag("--external-key-material", rw->external_key_material,
                    "Key tools: keep the key material in _KEY_MATERIAL_FOR_<file>.json beside the output");
  rewrite->add_option("--data-key-bits", rw->data_key_bits, "Key tools: the length of the data keys: 128, 192 or 256")
      ->capture_default_str();
}

}  // namespace floe::cli
