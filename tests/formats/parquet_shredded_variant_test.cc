// Shredded VARIANT columns (parquet-testing shredded_variant/, written by
// Iceberg's TestVariantReaders): every case of cases.json is read by floe's
// Parquet reader as its binary form, rebuilt with UnshredVariant
// (variant_shredding.h) and compared with the case's expected variant, the
// *.variant.bin file (metadata then value), decoded by variant_decoder.h.
// Where a row stores its variant unshredded, the bytes floe reads must be
// the expected bytes exactly. The cases the folder calls errors must be
// refused when rebuilt, with the error kind their message names.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <set>
#include <string>

#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/variant/variant_decoder.h"
#include "floe/formats/parquet/variant/variant_shredding.h"
#include "floe/io/file_io.h"
#include "parquet_fixtures.h"

namespace floe::parquet {
namespace {

using testing::ParquetTestingDir;
using testing::ReadFileBytes;

std::string CaseDir() { return ParquetTestingDir() + "/shredded_variant"; }

// The `var` column of every row, and the whole file's row count.
struct VariantColumn {
  std::vector<Array> chunks;
  int64_t rows = 0;
};

Result<VariantColumn> ReadVariantColumn(const std::string& file) {
  FLOE_ASSIGN_OR_RETURN(auto reader, ParquetFileReader::Open(NewLocalFileIO(), file));
  FLOE_ASSIGN_OR_RETURN(auto batches, ReadAllBatches(std::shared_ptr<const ParquetFileReader>(std::move(reader))));
  VariantColumn out;
  for (const RecordBatch& batch : batches) {
    FLOE_ASSIGN_OR_RETURN(Array column, batch.column_by_name("var"));
    out.rows += batch.num_rows();
    out.chunks.push_back(std::move(column));
  }
  return out;
}

// Row `row` of the column: its chunk and the index within it.
std::pair<const Array*, int64_t> Locate(const VariantColumn& column, int64_t row) {
  for (const Array& chunk : column.chunks) {
    if (row < chunk.length()) return {&chunk, row};
    row -= chunk.length();
  }
  return {nullptr, 0};
}

// The metadata and value bytes of a row stored unshredded (no typed_value,
// or a null one, beside a non-null value); nullopt otherwise.
std::optional<std::string> UnshreddedBytes(const Array& var, int64_t i) {
  std::optional<Array> metadata, value, typed;
  for (int k = 0; k < var.num_fields(); ++k) {
    const std::string& name = var.type()->field(k).name;
    if (name == "metadata") metadata = var.field(k);
    if (name == "value") value = var.field(k);
    if (name == "typed_value") typed = var.field(k);
  }
  if (var.IsNull(i) || !metadata || !value || value->IsNull(i) || (typed && typed->IsValid(i))) return std::nullopt;
  return std::string(metadata->GetString(i)) + std::string(value->GetString(i));
}

struct ShreddingCase {
  int number = 0;
  std::string parquet_file;
  std::vector<std::optional<std::string>> variant_files;  // per row; nullopt: a null variant
  std::string error_message;
  // The file breaks the spec, and readers "can choose to error, or read the
  // shredded value" (the case's notes).
  bool may_fail = false;
};

std::vector<ShreddingCase> LoadCases(simdjson::dom::parser& parser) {
  simdjson::dom::array list;
  EXPECT_EQ(parser.load(CaseDir() + "/cases.json").get(list), simdjson::SUCCESS);
  std::vector<ShreddingCase> cases;
  for (simdjson::dom::element item : list) {
    ShreddingCase c;
    c.number = static_cast<int>(item["case_number"].get_int64().value_unsafe());
    std::string_view text;
    if (item["parquet_file"].get(text) == simdjson::SUCCESS) c.parquet_file = text;
    if (item["error_message"].get(text) == simdjson::SUCCESS) c.error_message = text;
    if (item["notes"].get(text) == simdjson::SUCCESS) c.may_fail = text.find("not valid") != std::string_view::npos;
    if (item["variant_file"].get(text) == simdjson::SUCCESS) c.variant_files.emplace_back(std::string(text));
    simdjson::dom::array files;
    if (item["variant_files"].get(files) == simdjson::SUCCESS) {
      for (simdjson::dom::element f : files) {
        if (f.is_null()) {
          c.variant_files.emplace_back(std::nullopt);
        } else {
          c.variant_files.emplace_back(std::string(f.get_string().value_unsafe()));
        }
      }
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

TEST(ParquetShreddedVariantTest, EveryCaseRebuildsToItsExpectedVariant) {
  simdjson::dom::parser parser;
  const std::vector<ShreddingCase> cases = LoadCases(parser);
  ASSERT_GE(cases.size(), 138u);
  std::set<std::string> used;  // every file of the folder a case names
  int values = 0, unshredded_rows = 0, null_rows = 0, error_cases = 0, refused_invalid = 0;
  for (const ShreddingCase& c : cases) {
    if (c.parquet_file.empty()) continue;  // a numbered case with no files (case 3)
    SCOPED_TRACE(c.parquet_file);
    used.insert(c.parquet_file);
    auto column = ReadVariantColumn(CaseDir() + "/" + c.parquet_file);
    ASSERT_TRUE(column.ok()) << column.status().ToString();
    if (!c.error_message.empty()) {
      // The file reads as bytes; rebuilding some row must fail, as Unsupported
      // for an unsupported typed_value type and Corrupt for an invalid variant.
      Status first_error;
      for (int64_t row = 0; row < column->rows && first_error.ok(); ++row) {
        auto [chunk, i] = Locate(*column, row);
        first_error = UnshredVariant(*chunk, i).status();
      }
      ASSERT_FALSE(first_error.ok()) << "expected: " << c.error_message;
      const bool unsupported = c.error_message.rfind("Unsupported", 0) == 0;
      EXPECT_EQ(first_error.code(), unsupported ? StatusCode::kUnsupported : StatusCode::kCorrupt)
          << first_error.ToString() << "; expected: " << c.error_message;
      EXPECT_EQ(first_error.message().find('\n'), std::string::npos);
      const std::string_view kInvalid = "Invalid variant, ";
      if (c.error_message.rfind(kInvalid, 0) == 0) {
        EXPECT_NE(first_error.message().find(c.error_message.substr(kInvalid.size())), std::string::npos)
            << first_error.ToString() << "; expected: " << c.error_message;
      }
      ++error_cases;
      continue;
    }
    ASSERT_EQ(column->rows, static_cast<int64_t>(c.variant_files.size()));
    for (int64_t row = 0; row < column->rows; ++row) {
      SCOPED_TRACE("row " + std::to_string(row));
      auto [chunk, i] = Locate(*column, row);
      auto rebuilt = UnshredVariant(*chunk, i);
      const auto& file = c.variant_files[static_cast<size_t>(row)];
      if (file) used.insert(*file);
      if (!rebuilt.ok() && c.may_fail) {
        // floe chooses to refuse these (spec: "engines should fail").
        EXPECT_TRUE(rebuilt.status().IsCorrupt()) << rebuilt.status().ToString();
        ++refused_invalid;
        continue;
      }
      ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().ToString();
      if (!file) {
        EXPECT_FALSE(rebuilt->has_value()) << (*rebuilt)->ToString();
        ++null_rows;
        continue;
      }
      const std::string expected_bytes = ReadFileBytes(CaseDir() + "/" + *file);
      auto expected = DecodeSerializedVariant(expected_bytes);
      ASSERT_TRUE(expected.ok()) << *file << ": " << expected.status().ToString();
      ASSERT_TRUE(rebuilt->has_value()) << "floe reads a null variant";
      EXPECT_EQ((*rebuilt)->ToString(), expected->ToString());
      if (auto bytes = UnshreddedBytes(*chunk, i)) {
        EXPECT_EQ(*bytes, expected_bytes) << "the unshredded bytes differ";
        ++unshredded_rows;
      }
      ++values;
    }
  }
  // Every file of the folder is a case's (or its documentation).
  for (const auto& entry : std::filesystem::directory_iterator(CaseDir())) {
    const std::string name = entry.path().filename().string();
    if (name == "cases.json" || name == "README.md") continue;
    EXPECT_TRUE(used.count(name)) << name << " is in no case of cases.json";
  }
  EXPECT_EQ(error_cases, 6);
  // floe refuses case-043 and case-125, whose fields are both shredded and in
  // value (spec: "engines should fail"), and reads case-084.
  EXPECT_EQ(refused_invalid, 2);
  EXPECT_GE(values, 130);
  EXPECT_GT(unshredded_rows, 0);
  EXPECT_GT(null_rows, 0);
}

}  // namespace
}  // namespace floe::parquet
