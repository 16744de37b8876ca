// Helpers for the Parquet writer tests: arrays from literals, random arrays,
// and the DuckDB cross-check (DuckDB reads floe's file; the expected values
// go to DuckDB as JSON lines, so DuckDB itself compares the two in its own
// value domain and no test formats values the way DuckDB prints them).

#pragma once

#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "floe/base/strings.h"
#include "floe/columnar/builder.h"
#include "floe/columnar/record_batch.h"
#include "floe/columnar/value_format.h"
#include "floe/io/file_io.h"
#include "floe/formats/parquet/file_writer.h"
#include "testing/required_tools.h"
#include "testing/run_process.h"

namespace floe::parquet::testing {

inline std::shared_ptr<const Schema> MakeSchema(std::vector<Field> fields) {
  return std::make_shared<const Schema>(std::move(fields));
}

// A batch of `columns`; a test failure (and an empty batch) when they do not fit `schema`.
inline RecordBatch Batch(const std::shared_ptr<const Schema>& schema, std::vector<Array> columns) {
  auto batch = RecordBatch::Make(schema, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return std::move(batch).value();
}

// Writes `batches` to a local file with floe's writer.
inline Result<WrittenFile> WriteFile(const std::string& path, const std::shared_ptr<const Schema>& schema,
                              const std::vector<RecordBatch>& batches, WriterOptions options = {}) {
  FLOE_ASSIGN_OR_RETURN(auto writer, ParquetFileWriter::Open(NewLocalFileIO(), path, schema, std::move(options)));
  for (const auto& b : batches) FLOE_RETURN_IF_ERROR(writer->Write(b));
  return writer->Close();
}

// ---- DuckDB ---------------------------------------------------------------

inline std::string FindOnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  for (std::string_view dir : Split(path ? path : "/usr/bin:/bin", ':')) {
    const std::string candidate = std::string(dir) + "/" + program;
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

inline std::string DuckDbScript() { return std::string(FLOE_SOURCE_DIR) + "/dev/duckdb-query.mjs"; }

// Whether node and the DuckDB package (dev/install-test-tools) are present.
inline bool DuckDbAvailable() {
  return !FindOnPath("node").empty() &&
         std::filesystem::exists(std::string(FLOE_SOURCE_DIR) + "/dev/tools/node_modules/@duckdb/node-api");
}

// Fails the test without them, or skips it under FLOE_ALLOW_MISSING_TOOLS=1.
#define FLOE_REQUIRE_DUCKDB() \
  FLOE_REQUIRE_TOOL(::floe::parquet::testing::DuckDbAvailable(), "node or DuckDB (dev/tools/node_modules) is missing")

struct DuckDbResult {
  int exit_code = -1;
  std::vector<std::string> rows;  // one JSON object per row
  std::string err;
};

// Runs the statements in one DuckDB process; rows of every statement, in order.
inline DuckDbResult RunDuckDb(const std::vector<std::string>& statements) {
  std::vector<std::string> argv = {FindOnPath("node"), DuckDbScript()};
  argv.insert(argv.end(), statements.begin(), statements.end());
  floe::testing::ProcessResult r = floe::testing::RunProcess(argv);
  DuckDbResult out;
  out.exit_code = r.exit_code;
  out.err = r.err;
  for (std::string_view line : Split(r.out, '\n')) {
    if (!line.empty()) out.rows.emplace_back(line);
  }
  return out;
}

inline std::string SqlString(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

inline std::string SqlIdent(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// ---- arrays from literals ----------------------------------------------------

inline Buffer Bitmap(const std::vector<uint8_t>& valid) {
  std::vector<uint8_t> bits((valid.size() + 7) / 8, 0);
  for (size_t i = 0; i < valid.size(); ++i) {
    if (valid[i]) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return Buffer::CopyOf(std::span<const uint8_t>(bits));
}

template <typename T>
Buffer Values(const std::vector<T>& v) {
  return Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)));
}

template <typename T>
Array Primitive(TypePtr type, const std::vector<std::optional<T>>& values) {
  std::vector<T> v;
  std::vector<uint8_t> valid;
  for (const auto& x : values) {
    v.push_back(x.value_or(T{}));
    valid.push_back(x.has_value());
  }
  return Array(std::make_shared<ArrayData>(std::move(type), static_cast<int64_t>(values.size()),
                                           std::vector<Buffer>{Bitmap(valid), Values(v)}));
}

inline Array Int64s(const std::vector<std::optional<int64_t>>& v) { return Primitive<int64_t>(DataType::Int64(), v); }
inline Array Int32s(const std::vector<std::optional<int32_t>>& v) { return Primitive<int32_t>(DataType::Int32(), v); }

inline Array Binaries(TypePtr type, const std::vector<std::optional<std::string>>& values) {
  std::vector<int32_t> offsets{0};
  std::string data;
  std::vector<uint8_t> valid;
  for (const auto& x : values) {
    if (x) data += *x;
    offsets.push_back(static_cast<int32_t>(data.size()));
    valid.push_back(x.has_value());
  }
  return Array(std::make_shared<ArrayData>(std::move(type), static_cast<int64_t>(values.size()),
                                           std::vector<Buffer>{Bitmap(valid), Values(offsets), Buffer::CopyOf(data)}));
}
inline Array Strings(const std::vector<std::optional<std::string>>& v) { return Binaries(DataType::Utf8(), v); }

// A list (or, with a map type, a map) over `child`; `valid` empty: all valid.
inline Array ListOf(TypePtr type, const std::vector<int32_t>& offsets, const std::vector<uint8_t>& valid, Array child) {
  const auto length = static_cast<int64_t>(offsets.size()) - 1;
  return Array(std::make_shared<ArrayData>(std::move(type), length,
                                           std::vector<Buffer>{valid.empty() ? Buffer() : Bitmap(valid), Values(offsets)},
                                           std::vector<std::shared_ptr<const ArrayData>>{child.data()}));
}

inline Array StructOf(TypePtr type, int64_t length, const std::vector<uint8_t>& valid, const std::vector<Array>& children) {
  std::vector<std::shared_ptr<const ArrayData>> kids;
  for (const auto& c : children) kids.push_back(c.data());
  return Array(std::make_shared<ArrayData>(std::move(type), length,
                                           std::vector<Buffer>{valid.empty() ? Buffer() : Bitmap(valid)}, kids));
}

// ---- JSON in the comparison domain (see DuckColumnFor) -----------------------

inline void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      *out += buf;
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

inline std::string Hex(std::string_view bytes, bool upper) {
  static const char* kUpper = "0123456789ABCDEF";
  static const char* kLower = "0123456789abcdef";
  const char* digits = upper ? kUpper : kLower;
  std::string out;
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    out += digits[u >> 4];
    out += digits[u & 15];
  }
  return out;
}

inline std::string DecimalText(__int128 v, int scale) {
  const bool negative = v < 0;
  unsigned __int128 m = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  while (static_cast<int>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
  if (scale > 0) digits.insert(digits.end() - scale, '.');
  return (negative ? "-" : "") + digits;
}

template <typename F>
std::string FloatText(F v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, sizeof(F) == 4 ? "%.9g" : "%.17g", static_cast<double>(v));
  return buf;
}

// Element i of `a` (a logical index of this possibly sliced array) as JSON.
inline void AppendJson(const Array& a, int64_t i, bool nested, std::string* out) {
  if (a.IsNull(i)) {
    *out += "null";
    return;
  }
  const DataType& t = *a.type();
  switch (t.id()) {
    case TypeId::kNull: *out += "null"; return;
    case TypeId::kBool: *out += a.GetBool(i) ? "true" : "false"; return;
    case TypeId::kInt8: *out += std::to_string(a.Values<int8_t>()[i]); return;
    case TypeId::kInt16: *out += std::to_string(a.Values<int16_t>()[i]); return;
    case TypeId::kInt32: *out += std::to_string(a.Values<int32_t>()[i]); return;
    case TypeId::kInt64: *out += std::to_string(a.Values<int64_t>()[i]); return;
    case TypeId::kUInt8: *out += std::to_string(a.Values<uint8_t>()[i]); return;
    case TypeId::kUInt16: *out += std::to_string(a.Values<uint16_t>()[i]); return;
    case TypeId::kUInt32: *out += std::to_string(a.Values<uint32_t>()[i]); return;
    case TypeId::kUInt64: *out += std::to_string(a.Values<uint64_t>()[i]); return;
    case TypeId::kFloat32: AppendJsonString(FloatText(a.Values<float>()[i]), out); return;
    case TypeId::kFloat64:
      if (nested) {
        *out += FloatText(a.Values<double>()[i]);  // finite only inside nested values
      } else {
        AppendJsonString(FloatText(a.Values<double>()[i]), out);
      }
      return;
    case TypeId::kDecimal128: AppendJsonString(DecimalText(a.GetDecimal128(i), t.scale()), out); return;
    case TypeId::kDate32: *out += std::to_string(a.Values<int32_t>()[i]); return;
    case TypeId::kTime64:
    case TypeId::kTimestamp: *out += std::to_string(a.Values<int64_t>()[i]); return;
    case TypeId::kString: AppendJsonString(a.GetString(i), out); return;
    case TypeId::kBinary: AppendJsonString(Hex(a.GetString(i), true), out); return;
    case TypeId::kFixedSizeBinary: AppendJsonString(Hex(a.GetFixedSizeBinary(i), true), out); return;
    case TypeId::kUuid: AppendJsonString(Hex(a.GetFixedSizeBinary(i), false), out); return;
    case TypeId::kInterval: {
      // The text DuckDB casts to INTERVAL ("1 year 2 months 3 days 04:05:06.789").
      std::string text;
      value_format::AppendInterval(a.Values<MonthDayNano>()[i], &text);
      AppendJsonString(text, out);
      return;
    }
    case TypeId::kList: {
      const Array values = a.list_values();
      const int32_t* o = a.ValueOffsets();
      *out += '[';
      for (int32_t k = o[i]; k < o[i + 1]; ++k) {
        if (k > o[i]) *out += ',';
        AppendJson(values, k, true, out);
      }
      *out += ']';
      return;
    }
    case TypeId::kMap: {
      const Array entries = a.list_values();
      const Array keys = entries.field(0);
      const Array items = entries.field(1);
      const int32_t* o = a.ValueOffsets();
      *out += '{';
      for (int32_t k = o[i]; k < o[i + 1]; ++k) {
        if (k > o[i]) *out += ',';
        AppendJsonString(keys.GetString(k), out);  // tests use string keys
        *out += ':';
        AppendJson(items, k, true, out);
      }
      *out += '}';
      return;
    }
    case TypeId::kDictionary: AppendJson(a.dictionary(), a.DictionaryIndices()[i], nested, out); return;
    case TypeId::kStruct: {
      *out += '{';
      for (int f = 0; f < t.num_fields(); ++f) {
        if (f > 0) *out += ',';
        AppendJsonString(t.field(f).name, out);
        *out += ':';
        AppendJson(a.field(f), i, true, out);
      }
      *out += '}';
      return;
    }
  }
}

// The DuckDB type of a nested value's JSON (leaves: bool, ints, finite
// double, string, and structs, lists and string-keyed maps of them).
inline std::string DuckNestedType(const DataType& t) {
  switch (t.id()) {
    case TypeId::kBool: return "BOOLEAN";
    case TypeId::kInt8: return "TINYINT";
    case TypeId::kInt16: return "SMALLINT";
    case TypeId::kInt32: return "INTEGER";
    case TypeId::kInt64: return "BIGINT";
    case TypeId::kUInt8: return "UTINYINT";
    case TypeId::kUInt16: return "USMALLINT";
    case TypeId::kUInt32: return "UINTEGER";
    case TypeId::kUInt64: return "UBIGINT";
    case TypeId::kFloat64: return "DOUBLE";
    case TypeId::kString: return "VARCHAR";
    case TypeId::kNull: return "INTEGER";
    case TypeId::kList: return DuckNestedType(*t.item_field().type) + "[]";
    case TypeId::kMap:
      return "MAP(" + DuckNestedType(*t.key_field().type) + ", " + DuckNestedType(*t.value_field().type) + ")";
    case TypeId::kStruct: {
      std::string s = "STRUCT(";
      for (int f = 0; f < t.num_fields(); ++f) {
        s += (f ? ", " : "") + SqlIdent(t.field(f).name) + " " + DuckNestedType(*t.field(f).type);
      }
      return s + ")";
    }
    default: ADD_FAILURE() << "no DuckDB JSON type for nested " << t.ToString(); return "VARCHAR";
  }
}

// How one column is compared: the JSON column's DuckDB type, and the
// expressions that bring the Parquet column (p) and the JSON column (e) to
// one domain.
struct DuckColumn {
  std::string json_type;
  std::string parquet_expr;
  std::string json_expr;
};

inline DuckColumn DuckColumnFor(const Field& f) {
  const std::string p = "p." + SqlIdent(f.name);
  const std::string e = "e." + SqlIdent(f.name);
  const DataType& t = *f.type;
  switch (t.id()) {
    case TypeId::kFloat32: return {"VARCHAR", p, "CAST(" + e + " AS FLOAT)"};
    case TypeId::kFloat64: return {"VARCHAR", p, "CAST(" + e + " AS DOUBLE)"};
    case TypeId::kDecimal128:
      return {"VARCHAR", p, StrCat("CAST(", e, " AS DECIMAL(", t.precision(), ",", t.scale(), "))")};
    case TypeId::kDate32: return {"BIGINT", "(" + p + " - DATE '1970-01-01')", e};
    case TypeId::kTime64:
      return {"BIGINT", (t.unit() == floe::TimeUnit::kNano ? "epoch_ns(" : "epoch_us(") + p + ")", e};
    case TypeId::kTimestamp:
      return {"BIGINT", (t.unit() == floe::TimeUnit::kNano ? "epoch_ns(" : "epoch_us(") + p + ")", e};
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary: return {"VARCHAR", "hex(" + p + ")", e};
    case TypeId::kUuid: return {"VARCHAR", "replace(CAST(" + p + " AS VARCHAR), '-', '')", e};
    case TypeId::kInterval: return {"VARCHAR", p, "CAST(" + e + " AS INTERVAL)"};
    default: return {DuckNestedType(t), p, e};
  }
}

// JSON lines for `batches` (one object per row).
inline std::string JsonLines(const std::vector<RecordBatch>& batches) {
  std::string out;
  for (const auto& b : batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      out += '{';
      for (int c = 0; c < b.num_columns(); ++c) {
        if (c > 0) out += ',';
        AppendJsonString(b.schema().field(c).name, &out);
        out += ':';
        AppendJson(b.column(c), r, false, &out);
      }
      out += "}\n";
    }
  }
  return out;
}

// A query returning {"bad": n}: the rows on which the Parquet file and the
// JSON lines disagree, matched by the int64 column `rid` (the schema's first).
inline std::string CompareSql(const Schema& schema, const std::string& parquet, const std::string& json) {
  std::string columns;
  std::string equal;
  for (const auto& f : schema.fields) {
    const DuckColumn d = DuckColumnFor(f);
    columns += (columns.empty() ? "" : ", ") + SqlString(f.name) + ": " + SqlString(d.json_type);
    equal += (equal.empty() ? "" : " AND ") + ("(" + d.parquet_expr + ") IS NOT DISTINCT FROM (" + d.json_expr + ")");
  }
  return "SELECT count(*) AS bad FROM read_parquet(" + SqlString(parquet) + ") p FULL OUTER JOIN read_json(" +
         SqlString(json) + ", format='newline_delimited', columns={" + columns +
         "}) e ON p.rid = e.rid WHERE p.rid IS NULL OR e.rid IS NULL OR NOT (" + equal + ")";
}

// ---- random arrays -----------------------------------------------------------

inline std::string RandomString(std::mt19937_64& rng) {
  static const char* kPieces[] = {"a", "b", "z", "Lisbon", "é", "日本", "\x7f", " ", "0", "~"};
  std::string s;
  const int len = static_cast<int>(rng() % 8 == 0 ? 70 + rng() % 40 : rng() % 6);
  for (int i = 0; i < len; ++i) s += kPieces[rng() % 10];
  return s;
}

inline Status AppendRandom(ArrayBuilder* b, const Field& field, std::mt19937_64& rng, double null_rate);

template <typename T>
T RandomInt(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return std::numeric_limits<T>::min();
    case 1: return std::numeric_limits<T>::max();
    case 2: return T{0};
    default: return static_cast<T>(rng());
  }
}

template <typename F>
F RandomFloat(std::mt19937_64& rng, bool finite) {
  switch (rng() % (finite ? 6 : 10)) {
    case 0: return F{0};
    case 1: return -F{0};
    case 2: return std::numeric_limits<F>::max();
    case 3: return std::numeric_limits<F>::denorm_min();
    case 6: return std::numeric_limits<F>::quiet_NaN();
    case 7: return std::numeric_limits<F>::infinity();
    case 8: return -std::numeric_limits<F>::infinity();
    default: return static_cast<F>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
  }
}

inline Status AppendRandomValue(ArrayBuilder* b, const DataType& t, std::mt19937_64& rng, double null_rate,
                                bool nested) {
  switch (t.id()) {
    case TypeId::kNull: return b->AppendNull();
    case TypeId::kBool: return b->As<BoolBuilder>()->Append(rng() % 2 == 0);
    case TypeId::kInt8: return b->As<PrimitiveBuilder<int8_t>>()->Append(RandomInt<int8_t>(rng));
    case TypeId::kInt16: return b->As<PrimitiveBuilder<int16_t>>()->Append(RandomInt<int16_t>(rng));
    case TypeId::kInt32: return b->As<PrimitiveBuilder<int32_t>>()->Append(RandomInt<int32_t>(rng));
    case TypeId::kInt64: return b->As<PrimitiveBuilder<int64_t>>()->Append(RandomInt<int64_t>(rng));
    case TypeId::kUInt8: return b->As<PrimitiveBuilder<uint8_t>>()->Append(RandomInt<uint8_t>(rng));
    case TypeId::kUInt16: return b->As<PrimitiveBuilder<uint16_t>>()->Append(RandomInt<uint16_t>(rng));
    case TypeId::kUInt32: return b->As<PrimitiveBuilder<uint32_t>>()->Append(RandomInt<uint32_t>(rng));
    case TypeId::kUInt64: return b->As<PrimitiveBuilder<uint64_t>>()->Append(RandomInt<uint64_t>(rng));
    case TypeId::kFloat32: return b->As<PrimitiveBuilder<float>>()->Append(RandomFloat<float>(rng, false));
    case TypeId::kFloat64: return b->As<PrimitiveBuilder<double>>()->Append(RandomFloat<double>(rng, nested));
    case TypeId::kDecimal128: {
      __int128 limit = 1;
      for (int i = 0; i < t.precision(); ++i) limit *= 10;
      const __int128 wide = (static_cast<__int128>(rng()) << 64) | rng();
      __int128 v = wide % limit;  // |v| < 10^precision
      if (rng() % 8 == 0) v = (rng() % 2 ? 1 : -1) * (limit - 1);
      return b->As<PrimitiveBuilder<Decimal128Value>>()->Append(v);
    }
    case TypeId::kDate32:  // years 0001..9999
      return b->As<PrimitiveBuilder<int32_t>>()->Append(static_cast<int32_t>(-719162 + rng() % 3652059));
    case TypeId::kTime64: {
      const int64_t day = t.unit() == floe::TimeUnit::kNano ? 86400000000000LL : 86400000000LL;
      return b->As<PrimitiveBuilder<int64_t>>()->Append(static_cast<int64_t>(rng() % static_cast<uint64_t>(day)));
    }
    case TypeId::kTimestamp: {
      // Nanos: int64 spans 1677..2262; micros: years 0001..9999.
      if (t.unit() == floe::TimeUnit::kNano) return b->As<PrimitiveBuilder<int64_t>>()->Append(static_cast<int64_t>(rng()));
      constexpr int64_t kYear1 = -62135596800000000LL;
      constexpr uint64_t kSpan = 253402300799999999ULL + 62135596800000000ULL;
      return b->As<PrimitiveBuilder<int64_t>>()->Append(kYear1 + static_cast<int64_t>(rng() % kSpan));
    }
    case TypeId::kString: return b->As<BinaryBuilder>()->Append(RandomString(rng));
    case TypeId::kBinary: {
      std::string s(rng() % 12, '\0');
      for (auto& c : s) c = static_cast<char>(rng() % 4 == 0 ? 0xff : rng());
      return b->As<BinaryBuilder>()->Append(s);
    }
    case TypeId::kInterval:  // what Parquet's INTERVAL holds: non-negative months, days, whole milliseconds
      return b->As<PrimitiveBuilder<MonthDayNano>>()->Append(
          MonthDayNano{static_cast<int32_t>(rng() % 2400), static_cast<int32_t>(rng() % 400),
                       static_cast<int64_t>(rng() % 4'294'967'296ULL) * 1'000'000});
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid: {
      std::string s(static_cast<size_t>(t.byte_width()), '\0');
      for (auto& c : s) c = static_cast<char>(rng());
      return b->As<FixedSizeBinaryBuilder>()->Append(s);
    }
    case TypeId::kList: {
      auto* list = b->As<ListBuilder>();
      FLOE_RETURN_IF_ERROR(list->StartList());
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) FLOE_RETURN_IF_ERROR(AppendRandom(list->value_builder(), t.item_field(), rng, null_rate));
      return Status::OK();
    }
    case TypeId::kMap: {
      auto* map = b->As<MapBuilder>();
      FLOE_RETURN_IF_ERROR(map->StartMap());
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        if (t.key_field().type->id() == TypeId::kInt32) {
          FLOE_RETURN_IF_ERROR(map->key_builder()->As<PrimitiveBuilder<int32_t>>()->Append(i));
        } else {
          FLOE_RETURN_IF_ERROR(map->key_builder()->As<BinaryBuilder>()->Append(StrCat("k", i)));
        }
        FLOE_RETURN_IF_ERROR(AppendRandom(map->item_builder(), t.value_field(), rng, null_rate));
      }
      return Status::OK();
    }
    case TypeId::kDictionary: return Status::Unsupported("random schemas hold no dictionary types");
    case TypeId::kStruct: {
      auto* s = b->As<StructBuilder>();
      FLOE_RETURN_IF_ERROR(s->AppendRow());
      for (int f = 0; f < t.num_fields(); ++f) FLOE_RETURN_IF_ERROR(AppendRandom(s->field_builder(f), t.field(f), rng, null_rate));
      return Status::OK();
    }
  }
  return Status::Internal("unreachable");
}

inline Status AppendRandom(ArrayBuilder* b, const Field& field, std::mt19937_64& rng, double null_rate) {
  if ((field.nullable && std::uniform_real_distribution<double>(0, 1)(rng) < null_rate) ||
      field.type->id() == TypeId::kNull) {
    return b->AppendNull();
  }
  return AppendRandomValue(b, *field.type, rng, null_rate, /*nested=*/true);
}

// `n` random values of a top-level field.
inline Result<Array> RandomColumn(const Field& field, int64_t n, std::mt19937_64& rng, double null_rate) {
  auto builder = MakeBuilder(field.type);
  for (int64_t i = 0; i < n; ++i) {
    if ((field.nullable && std::uniform_real_distribution<double>(0, 1)(rng) < null_rate) ||
        field.type->id() == TypeId::kNull) {
      FLOE_RETURN_IF_ERROR(builder->AppendNull());
    } else {
      FLOE_RETURN_IF_ERROR(AppendRandomValue(builder.get(), *field.type, rng, null_rate, false));
    }
  }
  return builder->Finish();
}

}  // namespace floe::parquet::testing
