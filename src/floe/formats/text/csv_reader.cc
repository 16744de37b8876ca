#include "floe/formats/text/csv_reader.h"

#include <simdjson.h>

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "floe/base/json_parse.h"
#include "floe/base/strings.h"
#include "floe/columnar/builder_binary.h"

namespace floe::text {
namespace {

// Rows of text fields already split into columns; the batches are built
// from it `batch_rows` at a time.
class TextBatchReader final : public RecordBatchReader {
 public:
  using Row = std::vector<std::optional<std::string>>;

  TextBatchReader(std::vector<std::string> names, int64_t batch_rows) : batch_rows_(batch_rows) {
    std::vector<Field> fields;
    for (auto& name : names) fields.emplace_back(std::move(name), DataType::Utf8());
    schema_ = std::make_shared<const Schema>(std::move(fields));
  }

  const std::shared_ptr<const Schema>& schema() const override { return schema_; }

  // The parser behind the reader: fills `rows` with the next rows; false at the end.
  std::function<Result<bool>(std::vector<Row>* rows, int64_t max_rows)> produce;

  Result<std::optional<RecordBatch>> Next() override {
    std::vector<Row> rows;
    FLOE_ASSIGN_OR_RETURN(bool more, produce(&rows, batch_rows_));
    if (!more && rows.empty()) return std::optional<RecordBatch>();
    std::vector<Array> columns;
    for (int c = 0; c < schema_->num_fields(); ++c) {
      StringBuilder builder;
      FLOE_RETURN_IF_ERROR(builder.Reserve(static_cast<int64_t>(rows.size())));
      for (const Row& row : rows) {
        const size_t i = static_cast<size_t>(c);
        if (i < row.size() && row[i].has_value()) {
          FLOE_RETURN_IF_ERROR(builder.Append(*row[i]));
        } else {
          FLOE_RETURN_IF_ERROR(builder.AppendNull());
        }
      }
      FLOE_ASSIGN_OR_RETURN(auto column, builder.Finish());
      columns.push_back(std::move(column));
    }
    FLOE_ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema_, std::move(columns), static_cast<int64_t>(rows.size())));
    return std::optional<RecordBatch>(std::move(batch));
  }

 private:
  std::shared_ptr<const Schema> schema_;
  int64_t batch_rows_;
};

// RFC 4180 fields of one record starting at *pos; advances past its line end.
struct CsvCursor {
  std::string_view data;
  size_t pos = 0;
  int64_t line = 1;
  char delimiter = ',';
  std::string path;

  bool AtEnd() const { return pos >= data.size(); }

  Result<TextBatchReader::Row> NextRecord() {
    TextBatchReader::Row fields;
    const int64_t start_line = line;
    while (true) {
      std::optional<std::string> field;
      if (pos < data.size() && data[pos] == '"') {
        std::string value;
        ++pos;
        while (true) {
          if (pos >= data.size()) {
            return Status::Corrupt(StrCat("csv ", Quote(path), ": unterminated quoted field starting on line ",
                                          start_line));
          }
          const char c = data[pos++];
          if (c == '"') {
            if (pos < data.size() && data[pos] == '"') {
              value.push_back('"');
              ++pos;
              continue;
            }
            break;
          }
          if (c == '\n') ++line;
          value.push_back(c);
        }
        field = std::move(value);
        if (pos < data.size() && data[pos] != delimiter && data[pos] != '\n' && data[pos] != '\r') {
          return Status::Corrupt(StrCat("csv ", Quote(path), " line ", line, ": text after a closing quote"));
        }
      } else {
        const size_t begin = pos;
        while (pos < data.size() && data[pos] != delimiter && data[pos] != '\n' && data[pos] != '\r') ++pos;
        if (pos > begin) field = std::string(data.substr(begin, pos - begin));
      }
      fields.push_back(std::move(field));
      if (pos < data.size() && data[pos] == delimiter) {
        ++pos;
        continue;
      }
      if (pos < data.size() && data[pos] == '\r') ++pos;
      if (pos < data.size() && data[pos] == '\n') {
        ++pos;
        ++line;
      }
      return fields;
    }
  }
};

std::string_view SkipByteOrderMark(std::string_view data) {
  if (data.starts_with("\xEF\xBB\xBF")) data.remove_prefix(3);
  return data;
}

Result<std::string> ReadText(FileIO& io, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(Buffer buffer, io.ReadAll(path));
  return std::string(reinterpret_cast<const char*>(buffer.data()), buffer.size());
}

}  // namespace

Result<std::unique_ptr<RecordBatchReader>> OpenCsv(FileIO& io, const std::string& path, CsvOptions options) {
  if (options.batch_rows < 1) return Status::InvalidArgument("csv: batch_rows must be at least 1");
  auto text = std::make_shared<std::string>();
  FLOE_ASSIGN_OR_RETURN(*text, ReadText(io, path));
  auto cursor = std::make_shared<CsvCursor>();
  cursor->data = SkipByteOrderMark(*text);
  cursor->delimiter = options.delimiter;
  cursor->path = path;
  if (cursor->AtEnd()) return Status::Corrupt(StrCat("csv ", Quote(path), ": empty file, expected a header row"));
  FLOE_ASSIGN_OR_RETURN(auto header, cursor->NextRecord());
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (auto& name : header) {
    const std::string trimmed(Trim(name.value_or("")));
    if (trimmed.empty()) return Status::Corrupt(StrCat("csv ", Quote(path), ": header has an empty column name"));
    if (!seen.emplace(trimmed, 1).second) {
      return Status::Corrupt(StrCat("csv ", Quote(path), ": header names column ", Quote(trimmed), " twice"));
    }
    names.push_back(trimmed);
  }
  const size_t width = names.size();
  auto reader = std::make_unique<TextBatchReader>(std::move(names), options.batch_rows);
  reader->produce = [text, cursor, width](std::vector<TextBatchReader::Row>* rows, int64_t max_rows) -> Result<bool> {
    while (!cursor->AtEnd() && static_cast<int64_t>(rows->size()) < max_rows) {
      const int64_t line = cursor->line;
      FLOE_ASSIGN_OR_RETURN(auto record, cursor->NextRecord());
      if (record.size() == 1 && !record[0].has_value()) continue;  // blank line
      if (record.size() > width) {
        return Status::Corrupt(StrCat("csv ", Quote(cursor->path), " line ", line, ": ", record.size(),
                                      " fields, the header has ", width));
      }
      rows->push_back(std::move(record));
    }
    return !cursor->AtEnd();
  };
  return std::unique_ptr<RecordBatchReader>(std::move(reader));
}

Result<std::unique_ptr<RecordBatchReader>> OpenJsonLines(FileIO& io, const std::string& path, int64_t batch_rows) {
  if (batch_rows < 1) return Status::InvalidArgument("json lines: batch_rows must be at least 1");
  FLOE_ASSIGN_OR_RETURN(std::string text, ReadText(io, path));
  std::vector<std::string> names;
  std::map<std::string, size_t, std::less<>> index;
  auto rows = std::make_shared<std::vector<TextBatchReader::Row>>();
  simdjson::dom::parser parser;
  std::string_view data = SkipByteOrderMark(text);
  int64_t line_number = 0;
  while (!data.empty()) {
    const size_t end = data.find('\n');
    std::string_view line = data.substr(0, end);
    data = end == std::string_view::npos ? std::string_view() : data.substr(end + 1);
    ++line_number;
    if (Trim(line).empty()) continue;
    simdjson::dom::element element;
    if (ParseJson(parser, line).get(element) != simdjson::SUCCESS || !element.is_object()) {
      return Status::Corrupt(StrCat("json lines ", Quote(path), " line ", line_number, ": not a JSON object"));
    }
    TextBatchReader::Row row(names.size());
    for (auto [key, value] : element.get_object()) {
      auto [it, added] = index.try_emplace(std::string(key), names.size());
      if (added) {
        names.emplace_back(key);
        row.resize(names.size());
      }
      std::optional<std::string>& field = row[it->second];
      switch (value.type()) {
        case simdjson::dom::element_type::NULL_VALUE: break;
        case simdjson::dom::element_type::STRING: field = std::string(value.get_string().value()); break;
        case simdjson::dom::element_type::ARRAY:
        case simdjson::dom::element_type::OBJECT: field = simdjson::minify(value); break;
        default: field = simdjson::minify(value); break;  // numbers, booleans
      }
    }
    rows->push_back(std::move(row));
  }
  auto reader = std::make_unique<TextBatchReader>(std::move(names), batch_rows);
  auto next = std::make_shared<size_t>(0);
  reader->produce = [rows, next](std::vector<TextBatchReader::Row>* out, int64_t max_rows) -> Result<bool> {
    while (*next < rows->size() && static_cast<int64_t>(out->size()) < max_rows) out->push_back(std::move((*rows)[(*next)++]));
    return *next < rows->size();
  };
  return std::unique_ptr<RecordBatchReader>(std::move(reader));
}

}  // namespace floe::text
