// The Variant binary decoder (variant_decoder.h) on parquet-testing's
// variant/ pairs — each decoded and compared with data_dictionary.json, the
// JSON Spark (and Iceberg's test code) printed for it — and on hand-made
// malformed bytes, which must give a clear error.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "floe/base/base64.h"
#include "floe/columnar/civil_time.h"
#include "floe/formats/parquet/variant/variant_decoder.h"
#include "parquet_fixtures.h"

namespace floe::parquet {
namespace {

using testing::ParquetTestingDir;
using testing::ReadFileBytes;

std::string VariantDir() { return ParquetTestingDir() + "/variant"; }

// ---- the fixture's JSON conventions -----------------------------------------

// "YYYY-MM-DD[( |T)HH:MM:SS[.fraction][(+|-)HH:MM]]" as nanoseconds since the
// epoch, the zone offset applied; nullopt when it is not one.
std::optional<__int128> ParseInstantNanos(std::string_view s) {
  int year, month, day, hour = 0, minute = 0, second = 0, consumed = 0;
  const std::string text(s);
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &year, &month, &day, &consumed) != 3) return std::nullopt;
  size_t at = static_cast<size_t>(consumed);
  __int128 nanos = 0;
  if (at < text.size()) {
    if (text[at] != ' ' && text[at] != 'T') return std::nullopt;
    if (std::sscanf(text.c_str() + at + 1, "%2d:%2d:%2d%n", &hour, &minute, &second, &consumed) != 3) return std::nullopt;
    at += 1 + static_cast<size_t>(consumed);
    if (at < text.size() && text[at] == '.') {
      int64_t scale = 100000000;
      for (++at; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at, scale /= 10) {
        nanos += (text[at] - '0') * scale;
      }
    }
    if (at < text.size()) {
      int zone_hours, zone_minutes;
      if (std::sscanf(text.c_str() + at + 1, "%2d:%2d", &zone_hours, &zone_minutes) != 2) return std::nullopt;
      const int sign = text[at] == '-' ? -1 : 1;
      nanos -= static_cast<__int128>(sign) * (zone_hours * 3600 + zone_minutes * 60) * 1000000000;
    }
  }
  const int64_t days = civil::DaysFromCivil(year, month, day);
  return nanos + (static_cast<__int128>(days) * 86400 + hour * 3600 + minute * 60 + second) * 1000000000;
}

// data_dictionary.json's "12:33:54:123456" (hours, minutes, seconds, micros).
std::optional<int64_t> ParseTimeMicros(std::string_view s) {
  int h, m, sec;
  long micros;
  if (std::sscanf(std::string(s).c_str(), "%d:%d:%d:%ld", &h, &m, &sec, &micros) != 4) return std::nullopt;
  return ((h * 60 + m) * 60 + sec) * int64_t{1000000} + micros;
}

double DecimalAsDouble(const VariantValue& v) {
  return static_cast<double>(v.integer) / std::pow(10.0, v.scale);
}

// Whether `v` is the value `json` shows, in the fixture's conventions;
// `why` says where they differ.
bool Matches(simdjson::dom::element json, const VariantValue& v, const std::string& where, std::string* why) {
  auto differ = [&](std::string_view what) {
    *why = where + ": " + std::string(what) + ", decoded " + v.ToString();
    return false;
  };
  using simdjson::dom::element_type;
  switch (json.type()) {
    case element_type::NULL_VALUE: return v.kind == VariantKind::kNull || differ("expected null");
    case element_type::BOOL:
      return (v.kind == VariantKind::kBoolean && v.boolean == json.get_bool().value_unsafe()) || differ("expected a boolean");
    case element_type::INT64:
    case element_type::UINT64: {
      const bool integer = v.kind == VariantKind::kInt8 || v.kind == VariantKind::kInt16 ||
                           v.kind == VariantKind::kInt32 || v.kind == VariantKind::kInt64;
      const __int128 want = json.type() == element_type::INT64 ? __int128{json.get_int64().value_unsafe()}
                                                                 : __int128{json.get_uint64().value_unsafe()};
      if (integer) return v.integer == want || differ("another integer");
      if (v.kind >= VariantKind::kDecimal4 && v.kind <= VariantKind::kDecimal16) {
        return DecimalAsDouble(v) == static_cast<double>(want) || differ("another number");
      }
      return differ("expected an integer");
    }
    case element_type::DOUBLE: {
      const double want = json.get_double().value_unsafe();
      if (v.kind == VariantKind::kDouble) return v.number == want || differ("another double");
      // Spark prints a float at float precision ("1234567940.0").
      if (v.kind == VariantKind::kFloat) return static_cast<float>(v.number) == static_cast<float>(want) || differ("another float");
      if (v.kind >= VariantKind::kDecimal4 && v.kind <= VariantKind::kDecimal16) {
        return std::fabs(DecimalAsDouble(v) - want) <= 1e-15 * std::fabs(want) || differ("another decimal");
      }
      return differ("expected a number");
    }
    case element_type::STRING: {
      const std::string_view s = json.get_string().value_unsafe();
      switch (v.kind) {
        case VariantKind::kString: return v.bytes == s || differ("another string");
        case VariantKind::kBinary: {
          // Standard base64; the server's decoder takes it as well as base64url.
          auto decoded = Base64Decode(s);
          return (decoded.ok() && v.bytes == *decoded) || differ("other bytes (base64)");
        }
        case VariantKind::kUuid: {
          std::string hex;
          for (char c : s) {
            if (c != '-') hex.push_back(c);
          }
          std::string want;
          for (size_t i = 0; i + 1 < hex.size(); i += 2) want.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
          return v.bytes == want || differ("another uuid");
        }
        case VariantKind::kTimeNtz: return ParseTimeMicros(s) == v.integer || differ("another time");
        case VariantKind::kDate: {
          const auto nanos = ParseInstantNanos(s);
          return (nanos && *nanos == v.integer * 86400 * 1000000000) || differ("another date");
        }
        case VariantKind::kTimestamp:
        case VariantKind::kTimestampNtz: {
          const auto nanos = ParseInstantNanos(s);
          return (nanos && *nanos == v.integer * 1000) || differ("another instant");
        }
        case VariantKind::kTimestampNanos:
        case VariantKind::kTimestampNtzNanos: {
          const auto nanos = ParseInstantNanos(s);
          return (nanos && *nanos == v.integer) || differ("another instant");
        }
        default: return differ("expected a string form");
      }
    }
    case element_type::ARRAY: {
      const simdjson::dom::array items = json.get_array().value_unsafe();
      if (v.kind != VariantKind::kArray || v.elements.size() != items.size()) return differ("expected an array");
      size_t i = 0;
      for (simdjson::dom::element item : items) {
        if (!Matches(item, v.elements[i], where + "[" + std::to_string(i) + "]", why)) return false;
        ++i;
      }
      return true;
    }
    case element_type::OBJECT: {
      const simdjson::dom::object fields = json.get_object().value_unsafe();
      if (v.kind != VariantKind::kObject || v.fields.size() != fields.size()) return differ("expected an object");
      for (const auto& [name, value] : v.fields) {
        simdjson::dom::element field;
        if (fields[name].get(field) != simdjson::SUCCESS) return differ("unexpected field " + name);
        if (!Matches(field, value, where + "." + name, why)) return false;
      }
      return true;
    }
    default: return differ("unexpected JSON");
  }
}

// The kind each fixture's name announces.
VariantKind KindOf(const std::string& name) {
  static const std::map<std::string, VariantKind> kPrimitives = {
      {"null", VariantKind::kNull},          {"boolean_true", VariantKind::kBoolean},
      {"boolean_false", VariantKind::kBoolean}, {"int8", VariantKind::kInt8},
      {"int16", VariantKind::kInt16},        {"int32", VariantKind::kInt32},
      {"int64", VariantKind::kInt64},        {"double", VariantKind::kDouble},
      {"float", VariantKind::kFloat},        {"decimal4", VariantKind::kDecimal4},
      {"decimal8", VariantKind::kDecimal8},  {"decimal16", VariantKind::kDecimal16},
      {"date", VariantKind::kDate},          {"timestamp", VariantKind::kTimestamp},
      {"timestampntz", VariantKind::kTimestampNtz}, {"timestamp_nanos", VariantKind::kTimestampNanos},
      {"timestampntz_nanos", VariantKind::kTimestampNtzNanos}, {"time", VariantKind::kTimeNtz},
      {"uuid", VariantKind::kUuid},          {"binary", VariantKind::kBinary},
      {"string", VariantKind::kString},
  };
  if (name.rfind("primitive_", 0) == 0) return kPrimitives.at(name.substr(10));
  if (name.rfind("object_", 0) == 0) return VariantKind::kObject;
  if (name.rfind("array_", 0) == 0) return VariantKind::kArray;
  if (name.find("string") != std::string::npos) return VariantKind::kString;
  ADD_FAILURE() << "no kind known for " << name;
  return VariantKind::kNull;
}

TEST(ParquetVariantTest, EveryFixturePairDecodesToItsDocumentedValue) {
  // The file ends its last member with a comma, which JSON does not allow.
  std::string text = ReadFileBytes(VariantDir() + "/data_dictionary.json");
  const size_t close = text.rfind('}');
  const size_t last = text.find_last_not_of(" \n\r\t", close - 1);
  if (last != std::string::npos && text[last] == ',') text.erase(last, 1);
  simdjson::dom::parser parser;
  simdjson::dom::object expected;
  ASSERT_EQ(parser.parse(text).get(expected), simdjson::SUCCESS);

  int pairs = 0;
  std::set<std::string> undocumented;
  for (const auto& path : testing::FilesEndingWith(VariantDir(), ".metadata")) {
    const std::string name = std::filesystem::path(path).stem().string();
    SCOPED_TRACE(name);
    const std::string metadata_bytes = ReadFileBytes(path);
    const std::string value_bytes = ReadFileBytes(VariantDir() + "/" + name + ".value");
    auto metadata = VariantMetadata::Parse(metadata_bytes);
    ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
    auto value = DecodeVariant(*metadata, value_bytes);
    ASSERT_TRUE(value.ok()) << value.status().ToString();
    EXPECT_EQ(value->kind, KindOf(name)) << value->ToString();
    simdjson::dom::element json;
    if (expected[name].get(json) == simdjson::SUCCESS) {
      std::string why;
      EXPECT_TRUE(Matches(json, *value, name, &why)) << why;
    } else {
      undocumented.insert(name);
    }
    // A serialized variant is the two concatenated.
    auto serialized = DecodeSerializedVariant(metadata_bytes + value_bytes);
    ASSERT_TRUE(serialized.ok()) << serialized.status().ToString();
    EXPECT_EQ(serialized->ToString(), value->ToString());
    ++pairs;
  }
  EXPECT_EQ(pairs, 29);
  // long_string (a string value of 152 bytes) came after the dictionary.
  EXPECT_EQ(undocumented, std::set<std::string>{"long_string"});
  EXPECT_EQ(static_cast<size_t>(pairs) - undocumented.size(), expected.size()) << "every documented value has its pair";
  EXPECT_EQ(testing::FilesEndingWith(VariantDir(), ".value").size(), static_cast<size_t>(pairs));
}

TEST(ParquetVariantTest, EveryTruncationOfAFixtureFailsCleanly) {
  for (const auto& path : testing::FilesEndingWith(VariantDir(), ".value")) {
    const std::string name = std::filesystem::path(path).stem().string();
    const std::string metadata_bytes = ReadFileBytes(VariantDir() + "/" + name + ".metadata");
    const std::string value_bytes = ReadFileBytes(path);
    auto metadata = VariantMetadata::Parse(metadata_bytes);
    ASSERT_TRUE(metadata.ok()) << name;
    for (size_t n = 0; n < value_bytes.size(); ++n) {
      auto value = DecodeVariant(*metadata, std::string_view(value_bytes).substr(0, n));
      ASSERT_FALSE(value.ok()) << name << " cut to " << n << " bytes";
      EXPECT_TRUE(value.status().IsCorrupt()) << value.status().ToString();
    }
    for (size_t n = 0; n < metadata_bytes.size(); ++n) {
      EXPECT_FALSE(VariantMetadata::Parse(std::string_view(metadata_bytes).substr(0, n)).ok())
          << name << " metadata cut to " << n << " bytes";
    }
  }
}

// ---- hand-made bytes -------------------------------------------------------------

// Metadata version 1, 1-byte offsets, with `keys` (sorted flag as given).
std::string Metadata(const std::vector<std::string>& keys, bool sorted = true) {
  std::string m;
  m.push_back(static_cast<char>(0x01 | (sorted ? 0x10 : 0)));
  m.push_back(static_cast<char>(keys.size()));
  size_t offset = 0;
  m.push_back(0);
  for (const auto& k : keys) {
    offset += k.size();
    m.push_back(static_cast<char>(offset));
  }
  for (const auto& k : keys) m += k;
  return m;
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

Status DecodeStatus(const std::string& metadata, const std::string& value) {
  auto m = VariantMetadata::Parse(metadata);
  if (!m.ok()) return m.status();
  return DecodeVariant(*m, value).status();
}

std::string Decoded(const std::string& metadata, const std::string& value) {
  auto m = VariantMetadata::Parse(metadata);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (!m.ok()) return "";
  auto v = DecodeVariant(*m, value);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? v->ToString() : "";
}

void ExpectCorrupt(const Status& status, std::string_view words) {
  EXPECT_TRUE(status.IsCorrupt()) << status.ToString();
  EXPECT_NE(status.message().find(words), std::string::npos) << status.ToString();
}

TEST(ParquetVariantTest, DecodesObjectsWithWideIdsAndOffsets) {
  // {"a": int8(1), "b": "x"}: is_large, 2-byte field ids, 3-byte offsets;
  // values stored in reverse order, as the spec allows.
  const std::string object = Bytes({0x02 | ((1 << 4 | 1 << 2 | 2) << 2), 2, 0, 0, 0,  // header, count
                                    0, 0, 1, 0,                                         // ids a, b
                                    2, 0, 0, 0, 0, 0, 4, 0, 0,                          // offsets
                                    0x05, 'x', 0x0c, 1});                               // "x", int8 1
  EXPECT_EQ(Decoded(Metadata({"a", "b"}), object), R"({"a": int8(1), "b": "x"})");
  // Long string, decimal16 at full width, array of two.
  EXPECT_EQ(Decoded(Metadata({}), Bytes({0x40, 3, 0, 0, 0, 'a', 'b', 'c'})), R"("abc")");
  EXPECT_EQ(Decoded(Metadata({}), Bytes({0x03, 2, 0, 1, 2, 0x04, 0x00})), "[true, null]");
  EXPECT_EQ(Decoded(Metadata({}), Bytes({0x20, 2, 0x39, 0x30, 0, 0})), "decimal4(123.45)");
}

TEST(ParquetVariantTest, RefusesMalformedMetadata) {
  EXPECT_TRUE(VariantMetadata::Parse(Bytes({0x02, 0, 0})).status().IsUnsupported());
  ExpectCorrupt(VariantMetadata::Parse("").status(), "empty");
  ExpectCorrupt(VariantMetadata::Parse(Bytes({0x01, 2, 0, 1})).status(), "offsets");
  ExpectCorrupt(VariantMetadata::Parse(Bytes({0x01, 1, 0, 5, 'a'})).status(), "spans bytes");
  ExpectCorrupt(VariantMetadata::Parse(Bytes({0x01, 1, 1, 1, 'a'})).status(), "starts at byte 1");
  ExpectCorrupt(VariantMetadata::Parse(Metadata({"b", "a"})).status(), "sorted_strings");
  EXPECT_TRUE(VariantMetadata::Parse(Metadata({"b", "a"}, false)).ok());
  ExpectCorrupt(VariantMetadata::Parse(Metadata({"\xff"})).status(), "UTF-8");
  ExpectCorrupt(VariantMetadata::Parse(Metadata({"a"}) + "z").status(), "after the dictionary");
}

TEST(ParquetVariantTest, RefusesMalformedValues) {
  const std::string m = Metadata({"a", "b"});
  ExpectCorrupt(DecodeStatus(m, ""), "empty");
  ExpectCorrupt(DecodeStatus(m, Bytes({0x18, 1, 2})), "int64 needs 9 bytes");
  ExpectCorrupt(DecodeStatus(m, Bytes({0x00, 0x00})), "1 bytes after the value");
  ExpectCorrupt(DecodeStatus(m, Bytes({0x09, 'a'}) + "\xfe"), "not UTF-8");
  EXPECT_TRUE(DecodeStatus(m, Bytes({0x54})).IsUnsupported());  // primitive type 21
  // Object: field id 2 of 2 keys; names out of order; a repeated name.
  ExpectCorrupt(DecodeStatus(m, Bytes({0x02, 1, 2, 0, 1, 0x00})), "outside the metadata dictionary");
  ExpectCorrupt(DecodeStatus(m, Bytes({0x02, 2, 1, 0, 0, 1, 2, 0x00, 0x00})), "not sorted and unique");
  ExpectCorrupt(DecodeStatus(m, Bytes({0x02, 2, 0, 0, 0, 1, 2, 0x00, 0x00})), "not sorted and unique");
  ExpectCorrupt(DecodeStatus(m, Bytes({0x02, 1, 0, 0, 9, 0x00})), "fields end at byte 9");
  // Array: an element that does not fill its slot.
  ExpectCorrupt(DecodeStatus(m, Bytes({0x03, 1, 0, 2, 0x00, 0x00})), "slot of 2");
  // decimal4 whose unscaled value has 10 digits; scale above 38.
  ExpectCorrupt(DecodeStatus(m, Bytes({0x20, 0, 0x00, 0xca, 0x9a, 0x3b})), "wider than 9 digits");
  ExpectCorrupt(DecodeStatus(m, Bytes({0x20, 39, 1, 0, 0, 0})), "scale 39");
}

TEST(ParquetVariantTest, RefusesDeepNestingAndSharedBytes) {
  // kMaxVariantDepth + 1 nested one-element arrays around a null.
  std::string nested = Bytes({0x00});
  for (int i = 0; i < kMaxVariantDepth + 1; ++i) {
    // 4-byte offsets keep every level's header the same size.
    const uint32_t n = static_cast<uint32_t>(nested.size());
    nested = Bytes({0x03 | (3 << 2), 1, 0, 0, 0, 0}) +
             Bytes({static_cast<int>(n & 0xff), static_cast<int>((n >> 8) & 0xff), static_cast<int>((n >> 16) & 0xff),
                    static_cast<int>(n >> 24)}) +
             nested;
  }
  ExpectCorrupt(DecodeStatus(Metadata({}), nested), "nesting deeper than 128");
  // Objects whose two fields point at the same bytes, 24 levels deep: 2^24
  // values from 200 bytes unless shared bytes are refused.
  const std::string m = Metadata({"a", "b"});
  std::string shared = Bytes({0x00});
  for (int i = 0; i < 24; ++i) {
    shared = Bytes({0x02, 2, 0, 1, 0, 0, static_cast<int>(shared.size())}) + shared;
    if (shared.size() > 255) break;
  }
  ExpectCorrupt(DecodeStatus(m, shared), "fields share bytes");
}

}  // namespace
}  // namespace floe::parquet
