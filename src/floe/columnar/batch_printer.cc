#include "floe/columnar/batch_printer.h"

#include <algorithm>
#include <sstream>

#include "floe/base/strings.h"
#include "floe/columnar/layout.h"
#include "floe/columnar/value_format.h"

namespace floe {
namespace {

constexpr std::string_view kEllipsis = "\xe2\x80\xa6";  // U+2026, one character wide

bool IsNumeric(TypeId id) {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kDecimal128:
      return true;
    default:
      return false;
  }
}

// `raw` made safe for a terminal table cell: invalid UTF-8 becomes U+FFFD and
// C0, DEL and C1 control characters are escaped.
std::string DisplayText(std::string_view raw) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(raw.size());
  size_t i = 0;
  while (i < raw.size()) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c < 0x20 || c == 0x7f) {
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
      ++i;
      continue;
    }
    const int length = value_format::Utf8SequenceLength(raw.substr(i));
    if (length == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
    } else if (length == 2 && c == 0xc2 && static_cast<unsigned char>(raw[i + 1]) < 0xa0) {
      const auto code = static_cast<unsigned char>(raw[i + 1]);  // U+0080..U+009F
      out += "\\u00";
      out += kHex[code >> 4];
      out += kHex[code & 15];
      i += 2;
    } else {
      out.append(raw.substr(i, static_cast<size_t>(length)));
      i += static_cast<size_t>(length);
    }
  }
  return out;
}

// Characters (code points) of valid UTF-8 text.
int64_t DisplayWidth(std::string_view text) {
  int64_t width = 0;
  for (char c : text) width += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return width;
}

// `text` cut to `max_width` characters, the last being "…".
std::string Truncate(std::string text, int max_width) {
  if (max_width <= 0 || DisplayWidth(text) <= max_width) return text;
  int64_t kept = 0;
  size_t cut = 0;
  for (; cut < text.size(); ++cut) {
    if ((static_cast<unsigned char>(text[cut]) & 0xc0) != 0x80 && kept++ == max_width - 1) break;
  }
  text.resize(cut);
  text += kEllipsis;
  return text;
}

void AppendCsvField(std::string_view field, std::string* out) {
  if (!field.empty() && field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out->append(field);
    return;
  }
  // Quoted: an empty string too, so that it differs from a null.
  out->push_back('"');
  for (char c : field) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

void AppendCsvHeader(const Schema& schema, std::string* out) {
  for (size_t c = 0; c < schema.fields.size(); ++c) {
    if (c > 0) out->push_back(',');
    AppendCsvField(schema.fields[c].name, out);
  }
  out->push_back('\n');
}

void AppendPadded(std::string_view text, int64_t width, bool right, std::string* out) {
  const std::string padding(static_cast<size_t>(width - DisplayWidth(text)), ' ');
  if (right) *out += padding;
  out->append(text);
  if (!right) *out += padding;
}

Status StreamStatus(const std::ostream& out) {
  return out.good() ? Status::OK() : Status::IOError("batch printer: writing to the output stream failed");
}

}  // namespace

Result<OutputFormat> ParseOutputFormat(std::string_view name) {
  if (name == "table") return OutputFormat::kTable;
  if (name == "csv") return OutputFormat::kCsv;
  if (name == "json") return OutputFormat::kJson;
  if (name == "jsonl") return OutputFormat::kJsonl;
  return Status::InvalidArgument(StrCat("output format ", Quote(name), " is not one of table, csv, json, jsonl"));
}

std::string_view OutputFormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kTable:
      return "table";
    case OutputFormat::kCsv:
      return "csv";
    case OutputFormat::kJson:
      return "json";
    case OutputFormat::kJsonl:
      return "jsonl";
  }
  return "table";
}

BatchPrinter::BatchPrinter(std::ostream& out, std::shared_ptr<const Schema> schema, PrintOptions options)
    : out_(out), schema_(std::move(schema)), options_(std::move(options)) {
  is_json_text_.reserve(static_cast<size_t>(schema_->num_fields()));
  for (const Field& field : schema_->fields) is_json_text_.push_back(IsJsonTextField(field));
}

Status BatchPrinter::Write(const RecordBatch& batch) {
  if (batch.num_columns() != schema_->num_fields()) {
    return Status::InvalidArgument(StrCat("batch printer: batch has ", batch.num_columns(), " columns, the schema has ",
                                          schema_->num_fields()));
  }
  for (int c = 0; c < batch.num_columns(); ++c) {
    if (!TypeEquals(batch.column(c).type(), schema_->field(c).type)) {
      return Status::InvalidArgument(StrCat("batch printer: column ", c, " (", Quote(schema_->field(c).name),
                                            ") has type ", batch.column(c).type()->ToString(), ", the schema says ",
                                            schema_->field(c).type->ToString()));
    }
  }
  const auto columns = static_cast<size_t>(batch.num_columns());
  std::string text;
  std::string cell;
  if (options_.format == OutputFormat::kCsv && !header_written_) {
    AppendCsvHeader(*schema_, &text);
    header_written_ = true;
  }
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    std::vector<std::string> cells;
    if (options_.format == OutputFormat::kJson) text += rows_ == 0 ? "[\n" : ",\n";
    if (options_.format == OutputFormat::kJson || options_.format == OutputFormat::kJsonl) text += '{';
    for (size_t c = 0; c < columns; ++c) {
      const ArrayData& data = *batch.column(static_cast<int>(c)).data();
      const bool is_null = layout::IsNullAt(data, row);
      switch (options_.format) {
        case OutputFormat::kTable:
          cell.clear();
          if (!is_null) value_format::AppendText(data, row, &cell);
          // Only max_cell_width characters show, each at most 4 bytes of
          // UTF-8: beyond that, the text need not be made displayable (a
          // value of 300 MB took seconds). A sequence cut short there
          // shows past the cut.
          if (options_.max_cell_width > 0) {
            cell.resize(std::min(cell.size(), size_t{4} * (static_cast<size_t>(options_.max_cell_width) + 1)));
          }
          cells.push_back(Truncate(is_null ? "NULL" : DisplayText(cell), options_.max_cell_width));
          break;
        case OutputFormat::kCsv:
          if (c > 0) text += ',';
          if (!is_null) {
            cell.clear();
            value_format::AppendText(data, row, &cell);
            AppendCsvField(cell, &text);
          }
          break;
        case OutputFormat::kJson:
        case OutputFormat::kJsonl:
          if (c > 0) text += ',';
          value_format::AppendJsonString(schema_->fields[c].name, &text);
          text += ':';
          if (is_null) {
            text += "null";
          } else if (is_json_text_[c]) {
            value_format::AppendJsonText(batch.column(static_cast<int>(c)).GetString(row), &text);
          } else {
            value_format::AppendJson(data, row, &text);
          }
          break;
      }
    }
    switch (options_.format) {
      case OutputFormat::kTable:
        table_rows_.push_back(std::move(cells));
        if (options_.table_group_rows > 0 && static_cast<int64_t>(table_rows_.size()) >= options_.table_group_rows) {
          WriteTableRows(/*last=*/false);
          if (!out_.good()) return StreamStatus(out_);
        }
        break;
      case OutputFormat::kCsv:
        text += '\n';
        break;
      case OutputFormat::kJson:
        text += '}';
        break;
      case OutputFormat::kJsonl:
        text += "}\n";
        break;
    }
    ++rows_;
  }
  out_ << text;
  return StreamStatus(out_);
}

void BatchPrinter::WriteTableRows(bool last) {
  const auto columns = static_cast<size_t>(schema_->num_fields());
  std::string text;
  if (columns > 0) {
    const bool first = table_widths_.empty();
    std::vector<std::string> headers;
    std::vector<int64_t> widths = table_widths_;
    std::vector<bool> right;
    for (const Field& field : schema_->fields) {
      headers.push_back(Truncate(DisplayText(field.name), options_.max_cell_width));
      if (first) widths.push_back(DisplayWidth(headers.back()));
      right.push_back(IsNumeric(field.type->id()));
    }
    for (const auto& row : table_rows_) {
      for (size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    }
    std::string border = "+";
    for (int64_t width : widths) border += std::string(static_cast<size_t>(width + 2), '-') + "+";
    border += '\n';
    auto append_line = [&](const std::vector<std::string>& cells, bool is_header) {
      text += '|';
      for (size_t c = 0; c < columns; ++c) {
        text += ' ';
        AppendPadded(cells[c], widths[c], right[c] && !is_header, &text);
        text += " |";
      }
      text += '\n';
    };
    if (first) {
      text += border;
      append_line(headers, true);
      text += border;
    } else if (widths != table_widths_) {
      text += border;  // where the columns widen
    }
    for (const auto& row : table_rows_) append_line(row, false);
    if (last) text += border;
    table_widths_ = std::move(widths);
  }
  table_rows_.clear();
  if (last) text += StrCat(rows_, rows_ == 1 ? " row\n" : " rows\n");
  out_ << text;
}

Status BatchPrinter::Finish() {
  switch (options_.format) {
    case OutputFormat::kTable: WriteTableRows(/*last=*/true); break;
    case OutputFormat::kCsv:
      if (!header_written_) {  // an empty result still has its header line
        std::string header;
        AppendCsvHeader(*schema_, &header);
        out_ << header;
        header_written_ = true;
      }
      break;
    case OutputFormat::kJson:
      out_ << (rows_ == 0 ? "[]\n" : "\n]\n");
      break;
    case OutputFormat::kJsonl:
      break;
  }
  out_.flush();
  return StreamStatus(out_);
}

Status PrintBatches(RecordBatchReader& reader, std::ostream& out, PrintOptions options) {
  BatchPrinter printer(out, reader.schema(), options);
  while (true) {
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader.Next());
    if (!batch) break;
    FLOE_RETURN_IF_ERROR(printer.Write(*batch));
  }
  return printer.Finish();
}

Result<std::string> FormatBatches(std::shared_ptr<const Schema> schema, std::span<const RecordBatch> batches,
                                  PrintOptions options) {
  std::ostringstream out;
  BatchPrinter printer(out, std::move(schema), options);
  for (const RecordBatch& batch : batches) FLOE_RETURN_IF_ERROR(printer.Write(batch));
  FLOE_RETURN_IF_ERROR(printer.Finish());
  return out.str();
}

}  // namespace floe
