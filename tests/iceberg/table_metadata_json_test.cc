#include "floe/iceberg/table_metadata_json.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "floe/base/strings.h"
#include "floe/formats/compression/codec.h"
#include "floe/iceberg/json_reader.h"
#include "floe/iceberg/metadata_io.h"

namespace floe::iceberg {
namespace {

const std::string kGolden = std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/java-golden/";

std::string ReadFixture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TableMetadata ParseGolden(const std::string& name) {
  auto m = TableMetadataFromJson(ReadFixture(kGolden + name), name);
  EXPECT_TRUE(m.ok()) << name << ": " << m.status().ToString();
  return m.ok() ? *m : TableMetadata{};
}

std::set<std::string> TopLevelKeys(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::object root;
  EXPECT_EQ(parser.parse(json).get(root), simdjson::SUCCESS);
  std::set<std::string> keys;
  for (auto [k, v] : root) keys.emplace(k);
  return keys;
}

std::string WithoutSpaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ') out.push_back(c);
  }
  return out;
}

// The first value of `in` that `out` does not hold at the same path
// (objects: every key of `in`, recursively; arrays: the same items; numbers
// by value), or "" when `out` holds all of `in`. Keys in `skip` are not
// compared at the top level.
std::string FirstLoss(simdjson::dom::element in, simdjson::dom::element out, const std::string& path,
                      const std::set<std::string>& skip = {}) {
  using simdjson::dom::element_type;
  const auto where = [&]() { return path.empty() ? std::string("the root") : "'" + path + "'"; };
  if (in.type() == element_type::OBJECT) {
    if (out.type() != element_type::OBJECT) return where() + " is no longer an object";
    const simdjson::dom::object in_object = in.get_object().value_unsafe();
    const simdjson::dom::object out_object = out.get_object().value_unsafe();
    // A key given twice counts once, with its first value (as simdjson's lookup reads it).
    std::map<std::string, simdjson::dom::element> members;
    for (auto [key, value] : in_object) members.emplace(std::string(key), value);
    for (const auto& [key, value] : members) {
      if (path.empty() && skip.count(key)) continue;
      simdjson::dom::element written;
      const std::string child = path.empty() ? key : path + "." + key;
      if (out_object[key].get(written) != simdjson::SUCCESS) {
        // null, [] and {} read as absent.
        if (value.is_null() || (value.type() == element_type::ARRAY && value.get_array().value_unsafe().size() == 0) ||
            (value.type() == element_type::OBJECT && value.get_object().value_unsafe().size() == 0)) {
          continue;
        }
        return "'" + child + "' was not written back";
      }
      if (std::string loss = FirstLoss(value, written, child); !loss.empty()) return loss;
    }
    return "";
  }
  if (in.type() == element_type::ARRAY) {
    if (out.type() != element_type::ARRAY) return where() + " is no longer an array";
    const simdjson::dom::array a = in.get_array().value_unsafe();
    const simdjson::dom::array b = out.get_array().value_unsafe();
    if (a.size() != b.size()) return where() + " has " + std::to_string(b.size()) + " items, not " + std::to_string(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      if (std::string loss = FirstLoss(a.at(i).value_unsafe(), b.at(i).value_unsafe(), path + "[" + std::to_string(i) + "]");
          !loss.empty()) {
        return loss;
      }
    }
    return "";
  }
  const std::string changed =
      where() + " changed from " + internal::MinifiedJson(in) + " to " + internal::MinifiedJson(out);
  if (in.is_number() && out.is_number()) {
    // Integers compare by their 64 bits (unsigned snapshot ids are written
    // signed); other numbers by value.
    auto bits = [](simdjson::dom::element e, int64_t* v) {
      uint64_t u = 0;
      if (e.get_int64().get(*v) == simdjson::SUCCESS) return true;
      if (e.get_uint64().get(u) != simdjson::SUCCESS) return false;
      *v = static_cast<int64_t>(u);
      return true;
    };
    int64_t i = 0, j = 0;
    if (bits(in, &i) && bits(out, &j)) return i == j ? "" : changed;
    return in.get_double().value_unsafe() == out.get_double().value_unsafe() ? "" : changed;
  }
  // "decimal(15, 2)" (as Java writes it) and "decimal(15,2)" name one type.
  std::string_view a, b;
  if (in.get_string().get(a) == simdjson::SUCCESS && out.get_string().get(b) == simdjson::SUCCESS &&
      floe::StartsWith(a, "decimal(") && WithoutSpaces(a) == WithoutSpaces(b)) {
    return "";
  }
  return internal::MinifiedJson(in) == internal::MinifiedJson(out) ? "" : changed;
}

// Parses, writes, parses again: the models must be equal, and every value of
// the input, at any depth, must be written back (legacy v1 keys in a v2+
// file excepted: the spec keeps them for v1 readers only).
void ExpectLosslessRoundTrip(const std::string& json, const std::string& name) {
  auto first = TableMetadataFromJson(json, name);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  for (bool pretty : {false, true}) {
    auto written = TableMetadataToJson(*first, {.pretty = pretty});
    ASSERT_TRUE(written.ok()) << name << ": " << written.status().ToString();
    auto second = TableMetadataFromJson(*written, name + " (rewritten)");
    ASSERT_TRUE(second.ok()) << second.status().ToString() << "\n" << *written;
    EXPECT_TRUE(*second == *first) << name << " changed in a round trip:\n" << *written;
    simdjson::dom::parser in_parser, out_parser;
    simdjson::dom::element in, out;
    ASSERT_EQ(in_parser.parse(json).get(in), simdjson::SUCCESS);
    ASSERT_EQ(out_parser.parse(*written).get(out), simdjson::SUCCESS);
    std::set<std::string> legacy;
    if (first->format_version >= 2) legacy = {"schema", "partition-spec"};
    EXPECT_EQ(FirstLoss(in, out, "", legacy), "") << name << " lost a value in a round trip:\n" << *written;
  }
}

TEST(TableMetadataJsonTest, TheLossCheckFindsWhatAWriterDropsOrChanges) {
  auto loss = [](std::string_view in, std::string_view out) {
    simdjson::dom::parser pa, pb;
    simdjson::dom::element a, b;
    EXPECT_EQ(pa.parse(in).get(a), simdjson::SUCCESS);
    EXPECT_EQ(pb.parse(out).get(b), simdjson::SUCCESS);
    return FirstLoss(a, b, "");
  };
  EXPECT_EQ(loss(R"({"a":{"b":[1,{"c":"x"}]}})", R"({"a":{"b":[1,{}]}})"), "'a.b[1].c' was not written back");
  EXPECT_EQ(loss(R"({"a":[1,2]})", R"({"a":[1]})"), "'a' has 1 items, not 2");
  EXPECT_EQ(loss(R"({"a":"x y"})", R"({"a":"xy"})"), "'a' changed from \"x y\" to \"xy\"");
  EXPECT_EQ(loss(R"({"a":1.5})", R"({"a":1.25})"), "'a' changed from 1.5 to 1.25");
  // Equal meaning: more keys written, empty or null values left out, an
  // unsigned id written signed, Java's "decimal(9, 2)" spelling.
  EXPECT_EQ(loss(R"({"a":1,"e":[],"n":null,"o":{}})", R"({"a":1.0,"extra":2})"), "");
  EXPECT_EQ(loss(R"({"id":9876543210123456789})", R"({"id":-8570200863586094827})"), "");
  EXPECT_EQ(loss(R"j({"type":"decimal(9, 2)"})j", R"j({"type":"decimal(9,2)"})j"), "");
}

TEST(TableMetadataJsonTest, EveryValidJavaGoldenFileRoundTripsWithoutLoss) {
  int valid = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kGolden)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json") continue;
    if (name.find("Missing") != std::string::npos || name.find("Unsupported") != std::string::npos ||
        name.find("NotFound") != std::string::npos) {
      continue;
    }
    SCOPED_TRACE(name);
    ExpectLosslessRoundTrip(ReadFixture(entry.path().string()), name);
    ++valid;
  }
  EXPECT_EQ(valid, 6);
}

struct Invalid {
  std::string file;
  StatusCode code;
  std::string message;
};

TEST(TableMetadataJsonTest, EveryInvalidJavaGoldenFileIsRejectedNamingTheField) {
  const std::vector<Invalid> cases = {
      {"TableMetadataUnsupportedVersion.json", StatusCode::kUnsupported,
       "table metadata 'TableMetadataUnsupportedVersion.json': field 'format-version' is 42, floe reads versions 1 "
       "to 3"},
      // The v1 schema object lacks "type": "struct".
      {"TableMetadataV1MissingSchemaType.json", StatusCode::kCorrupt,
       "table metadata 'TableMetadataV1MissingSchemaType.json': field 'schema.type' is missing"},
      {"TableMetadataV2CurrentSchemaNotFound.json", StatusCode::kCorrupt,
       "table metadata 'TableMetadataV2CurrentSchemaNotFound.json': field 'current-schema-id' is 2, which is not a "
       "schema id"},
      {"TableMetadataV2MissingLastPartitionId.json", StatusCode::kCorrupt,
       "table metadata 'TableMetadataV2MissingLastPartitionId.json': field 'last-partition-id' is missing"},
      // Only the v1 "partition-spec" is present.
      {"TableMetadataV2MissingPartitionSpecs.json", StatusCode::kCorrupt,
       "table metadata 'TableMetadataV2MissingPartitionSpecs.json': field 'partition-specs' is missing"},
      // Only the v1 "schema" is present.
      {"TableMetadataV2MissingSchemas.json", StatusCode::kCorrupt,
       "table metadata 'TableMetadataV2MissingSchemas.json': field 'schemas' is missing"},
      {"TableMetadataV2MissingSortOrder.json", StatusCode::kCorrupt,
       "table metadata 'TableMetadataV2MissingSortOrder.json': field 'sort-orders' is missing"},
  };
  size_t invalid_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kGolden)) {
    const std::string name = entry.path().filename().string();
    if (name.find("Missing") != std::string::npos || name.find("Unsupported") != std::string::npos ||
        name.find("NotFound") != std::string::npos) {
      ++invalid_files;
    }
  }
  EXPECT_EQ(invalid_files, cases.size()) << "a new invalid fixture needs its expected error here";
  for (const Invalid& c : cases) {
    auto m = TableMetadataFromJson(ReadFixture(kGolden + c.file), c.file);
    ASSERT_FALSE(m.ok()) << c.file;
    EXPECT_EQ(m.status().code(), c.code) << c.file << ": " << m.status().ToString();
    EXPECT_EQ(m.status().message(), c.message);
  }
}

TEST(TableMetadataJsonTest, V2ValidReadsEveryValue) {
  TableMetadata m = ParseGolden("TableMetadataV2Valid.json");
  EXPECT_EQ(m.format_version, 2);
  EXPECT_EQ(m.table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
  EXPECT_EQ(m.location, "s3://bucket/test/location");
  EXPECT_EQ(m.last_sequence_number, 34);
  EXPECT_EQ(m.last_updated_ms, 1602638573590);
  EXPECT_EQ(m.last_column_id, 3);
  ASSERT_EQ(m.schemas.size(), 2u);
  EXPECT_EQ(m.current_schema()->schema_id(), 1);
  EXPECT_EQ(m.current_schema()->identifier_field_ids(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(m.current_schema()->FindFieldById(2)->doc, "comment");
  ASSERT_EQ(m.default_spec()->fields.size(), 1u);
  const PartitionField& pf = m.default_spec()->fields[0];
  EXPECT_EQ(pf.name, "x");
  EXPECT_EQ(pf.transform, Transform::Identity());
  EXPECT_EQ(pf.source_id(), 1);
  EXPECT_EQ(pf.field_id, 1000);
  EXPECT_EQ(m.last_partition_id, 1000);
  const SortOrder* order = m.default_sort_order();
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->order_id, 3);
  ASSERT_EQ(order->fields.size(), 2u);
  EXPECT_EQ(order->fields[1].transform, Transform::Bucket(4).value());
  EXPECT_EQ(order->fields[1].source_id(), 3);
  EXPECT_EQ(order->fields[1].direction, SortDirection::kDesc);
  EXPECT_EQ(order->fields[1].null_order, NullOrder::kNullsLast);
  EXPECT_EQ(m.current_snapshot_id, 3055729675574597004);
  ASSERT_EQ(m.snapshots.size(), 2u);
  const Snapshot* current = m.current_snapshot();
  ASSERT_NE(current, nullptr);
  EXPECT_EQ(current->parent_snapshot_id, 3051729675574597004);
  EXPECT_EQ(current->sequence_number, 1);
  EXPECT_EQ(current->timestamp_ms, 1555100955770);
  EXPECT_EQ(current->operation, "append");
  EXPECT_EQ(current->manifest_list, "s3://a/b/2.avro");
  EXPECT_EQ(current->schema_id, 1);
  EXPECT_EQ(m.snapshots[0].schema_id, std::nullopt);
  // No "refs" in the file: main is the current snapshot.
  ASSERT_EQ(m.refs.size(), 1u);
  EXPECT_EQ(m.refs.at("main").snapshot_id, 3055729675574597004);
  EXPECT_TRUE(m.refs.at("main").is_branch());
  ASSERT_EQ(m.snapshot_log.size(), 2u);
  EXPECT_EQ(m.snapshot_log[0].snapshot_id, 3051729675574597004);
  EXPECT_EQ(m.snapshot_log[1].timestamp_ms, 1555100955770);
}

TEST(TableMetadataJsonTest, V1FillsTheV2FieldsFromLegacyOnes) {
  TableMetadata m = ParseGolden("TableMetadataV1Valid.json");
  EXPECT_EQ(m.format_version, 1);
  EXPECT_EQ(m.last_sequence_number, 0);
  ASSERT_EQ(m.schemas.size(), 1u);
  EXPECT_EQ(m.current_schema_id, 0);
  EXPECT_EQ(m.schemas[0].fields().size(), 3u);
  ASSERT_EQ(m.partition_specs.size(), 1u);
  EXPECT_EQ(m.default_spec_id, 0);
  EXPECT_EQ(m.partition_specs[0].fields[0].field_id, 1000);
  // last-partition-id is absent: derived from the spec.
  EXPECT_EQ(m.last_partition_id, 1000);
  ASSERT_EQ(m.sort_orders.size(), 1u);
  EXPECT_TRUE(m.default_sort_order()->is_unsorted());
  EXPECT_EQ(m.current_snapshot_id, std::nullopt);
  EXPECT_TRUE(m.refs.empty());
  // Written back as v1 with both the legacy and the new fields.
  const std::string json = TableMetadataToJson(m).value();
  const auto keys = TopLevelKeys(json);
  for (const char* key : {"schema", "schemas", "partition-spec", "partition-specs", "last-partition-id"}) {
    EXPECT_TRUE(keys.count(key)) << key;
  }
  EXPECT_FALSE(keys.count("last-sequence-number"));
}

TEST(TableMetadataJsonTest, V1PartitionFieldIdsAreAssignedFrom1000) {
  const std::string json = R"({"format-version":1,"location":"l","last-updated-ms":1,"last-column-id":2,
    "schema":{"type":"struct","fields":[{"id":1,"name":"a","required":false,"type":"int"},
                                        {"id":2,"name":"b","required":false,"type":"string"}]},
    "partition-spec":[{"name":"a_b","transform":"bucket[8]","source-id":1},
                      {"name":"b_t","transform":"truncate[3]","source-id":2}]})";
  auto m = TableMetadataFromJson(json);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_TRUE(m->table_uuid.empty());
  EXPECT_EQ(m->partition_specs[0].fields[0].field_id, 1000);
  EXPECT_EQ(m->partition_specs[0].fields[1].field_id, 1001);
  EXPECT_EQ(m->last_partition_id, 1001);
  EXPECT_TRUE(m->properties.empty());
  ExpectLosslessRoundTrip(json, "v1 without field ids");
}

TEST(TableMetadataJsonTest, CurrentSnapshotIdMinusOneMeansNone) {
  TableMetadata m = ParseGolden("TableMetadataV2ValidMinimal.json");
  EXPECT_EQ(m.current_snapshot_id, std::nullopt);
  EXPECT_EQ(m.current_snapshot(), nullptr);
  EXPECT_TRUE(m.snapshots.empty());
  const std::string json = TableMetadataToJson(m).value();
  EXPECT_NE(json.find(R"("current-snapshot-id":-1)"), std::string::npos) << json;
  auto again = TableMetadataFromJson(json).value();
  EXPECT_EQ(again.current_snapshot_id, std::nullopt);
}

TEST(TableMetadataJsonTest, V3ReadsRowLineageAndDefaults) {
  TableMetadata m = ParseGolden("TableMetadataV3ValidMinimal.json");
  EXPECT_EQ(m.format_version, 3);
  EXPECT_EQ(m.next_row_id, 0);
  const NestedField* x = m.current_schema()->FindFieldById(1);
  EXPECT_EQ(x->initial_default, "1");
  EXPECT_EQ(x->write_default, "1");
}

TEST(TableMetadataJsonTest, StatisticsFilesKeepEveryField) {
  TableMetadata m = ParseGolden("TableMetadataStatisticsFiles.json");
  ASSERT_EQ(m.statistics.size(), 1u);
  const StatisticsFile& f = m.statistics[0];
  EXPECT_EQ(f.snapshot_id, 3055729675574597004);
  EXPECT_EQ(f.statistics_path, "s3://a/b/stats.puffin");
  EXPECT_EQ(f.file_size_in_bytes, 413);
  EXPECT_EQ(f.file_footer_size_in_bytes, 42);
  ASSERT_EQ(f.blob_metadata.size(), 1u);
  EXPECT_EQ(f.blob_metadata[0].type, "ndv");
  EXPECT_EQ(f.blob_metadata[0].source_snapshot_sequence_number, 1);
  EXPECT_EQ(f.blob_metadata[0].fields, std::vector<int32_t>{1});
  TableMetadata p = ParseGolden("TableMetadataPartitionStatisticsFiles.json");
  ASSERT_EQ(p.partition_statistics.size(), 1u);
  EXPECT_EQ(p.partition_statistics[0].statistics_path, "s3://a/b/partition-stats.parquet");
  EXPECT_EQ(p.partition_statistics[0].file_size_in_bytes, 43);
}

// A minimal valid v2 document with `extra` spliced in as top-level members
// (later members of the same name are not looked at, so `extra` replaces by
// being placed first).
std::string V2With(const std::string& extra) {
  return "{" + extra + R"("format-version":2,"table-uuid":"u","location":"l","last-sequence-number":1,
    "last-updated-ms":1,"last-column-id":1,"current-schema-id":0,
    "schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","required":true,"type":"long"}]}],
    "default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,
    "default-sort-order-id":0,"sort-orders":[{"order-id":0,"fields":[]}],
    "snapshots":[{"snapshot-id":5,"sequence-number":1,"timestamp-ms":2,"summary":{"operation":"append","k":"v"},
                  "manifest-list":"m.avro"}]})";
}

TEST(TableMetadataJsonTest, RejectsBrokenDocumentsNamingTheField) {
  auto expect = [](const std::string& json, std::string_view message) {
    auto m = TableMetadataFromJson(json, "t.json");
    ASSERT_FALSE(m.ok()) << json;
    EXPECT_TRUE(m.status().IsCorrupt()) << m.status().ToString();
    EXPECT_EQ(m.status().message(), StrCat("table metadata 't.json': ", message));
  };
  ASSERT_TRUE(TableMetadataFromJson(V2With("")).ok()) << TableMetadataFromJson(V2With("")).status().ToString();
  expect(V2With(R"("current-snapshot-id":6,)"), "field 'current-snapshot-id' is 6, which is not a snapshot id");
  expect(V2With(R"("last-column-id":0,)"), "field 'last-column-id' is 0 but schema 0 has field id 1");
  expect(V2With(R"("last-sequence-number":0,)"),
         "snapshot 5: field 'sequence-number' is 1, above 'last-sequence-number' 0");
  expect(V2With(R"("refs":{"main":{"snapshot-id":5,"type":"tag"}},"current-snapshot-id":5,)"),
         "ref 'main': main must be a branch");
  expect(V2With(R"("refs":{"t":{"snapshot-id":5,"type":"tag","min-snapshots-to-keep":2}},)"),
         "ref 't': a tag cannot have 'min-snapshots-to-keep' or 'max-snapshot-age-ms'");
  expect(V2With(R"("refs":{"b":{"snapshot-id":7,"type":"branch"}},)"),
         "ref 'b': field 'snapshot-id' is 7, which is not a snapshot id");
  expect(V2With(R"("refs":{"main":{"snapshot-id":5,"type":"branch"}},)"),
         "ref 'main' exists but field 'current-snapshot-id' is -1");
  expect(V2With(R"("properties":{"a":1},)"), "field 'properties.a' is 1, expected a string");
  expect(V2With(R"("last-updated-ms":"soon",)"), "field 'last-updated-ms' is \"soon\", expected an integer");
  expect(V2With(R"("last-column-id":4294967296,)"), "field 'last-column-id' is 4294967296, out of the int32 range");
  expect(
      V2With(
          R"("snapshots":[{"snapshot-id":5,"timestamp-ms":2,"summary":{"operation":"append"},"manifest-list":"m"}],)"),
      "field 'snapshots[0].sequence-number' is missing");
  expect(
      V2With(
          R"("snapshots":[{"snapshot-id":5,"sequence-number":1,"timestamp-ms":2,"summary":{},"manifest-list":"m"}],)"),
      "field 'snapshots[0].summary.operation' is missing");
  expect(
      V2With(
          R"("partition-specs":[{"spec-id":0,"fields":[{"name":"p","transform":"bucket[0]","source-id":1,"field-id":1000}]}],"last-partition-id":1000,)"),
      "field 'partition-specs[0].fields[0].transform': transform 'bucket[0]': N must be an integer > 0");
  expect(
      V2With(
          R"("partition-specs":[{"spec-id":0,"fields":[{"name":"p","transform":"day","source-id":1,"field-id":1000}]}],"last-partition-id":1000,)"),
      "partition spec 0: partition field 'p': transform 'day' cannot be applied to type 'long'");
  expect(V2With(R"("partition-specs":[{"spec-id":0,"fields":[{"name":"p","transform":"identity","source-id":1}]}],)"),
         "field 'partition-specs[0].fields[0].field-id' is missing");
  expect(
      V2With(
          R"("sort-orders":[{"order-id":0,"fields":[{"transform":"identity","source-id":1,"direction":"up","null-order":"nulls-first"}]}],)"),
      "field 'sort-orders[0].fields[0].direction': sort direction 'up' is not 'asc' or 'desc'");
  expect(V2With(R"("default-spec-id":3,)"), "field 'default-spec-id' is 3, which is not a partition spec id");
  expect(V2With(R"("default-sort-order-id":3,)"), "field 'default-sort-order-id' is 3, which is not a sort order id");
  expect(V2With(R"("format-version":0,)"), "field 'format-version' is 0");
  expect("[]", "document is an array, expected an object");
  expect("{\"format-version\":2",
         "not valid JSON (The JSON document has an improper structure: missing or "
         "superfluous commas, braces, missing keys, etc.)");
}

TEST(TableMetadataJsonTest, V3RequiresNextRowIdAndPairsRowLineageFields) {
  std::string v3 = V2With(R"("format-version":3,)");
  auto missing = TableMetadataFromJson(v3, "t.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "table metadata 't.json': field 'next-row-id' is missing");
  auto ok = TableMetadataFromJson(V2With(R"("format-version":3,"next-row-id":10,)"));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->next_row_id, 10);
  auto lone = TableMetadataFromJson(V2With(
      R"("format-version":3,"next-row-id":10,"snapshots":[{"snapshot-id":5,"sequence-number":1,"timestamp-ms":2,)"
      R"("summary":{"operation":"append"},"manifest-list":"m","first-row-id":0}],)"));
  ASSERT_FALSE(lone.ok());
  EXPECT_EQ(lone.status().message(), "table metadata: field 'snapshots[0].added-rows' is missing");
  const std::string lineage = V2With(
      R"("format-version":3,"next-row-id":10,"snapshots":[{"snapshot-id":5,"sequence-number":1,)"
      R"("timestamp-ms":2,"summary":{"operation":"append"},"manifest-list":"m","first-row-id":4,"added-rows":6,)"
      R"("key-id":"k1"}],"encryption-keys":[{"key-id":"k1","encrypted-key-metadata":"AAE=","encrypted-by-id":"kms"}],)");
  auto m = TableMetadataFromJson(lineage);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->snapshots[0].first_row_id, 4);
  EXPECT_EQ(m->snapshots[0].added_rows, 6);
  EXPECT_EQ(m->snapshots[0].key_id, "k1");
  ASSERT_EQ(m->encryption_keys.size(), 1u);
  EXPECT_EQ(m->encryption_keys[0].encrypted_by_id, "kms");
  ExpectLosslessRoundTrip(lineage, "v3 lineage");
}

TEST(TableMetadataJsonTest, V3TypesAreRejectedInV2Tables) {
  auto m = TableMetadataFromJson(
      V2With(
          R"("schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","required":true,"type":"timestamp_ns"}]}],)"),
      "t.json");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "table metadata 't.json': schema 0 uses a type of format v3 in a v2 table");
}

TEST(TableMetadataJsonTest, RefsWithRetentionRoundTrip) {
  const std::string json = V2With(
      R"("current-snapshot-id":5,"refs":{"main":{"snapshot-id":5,"type":"branch","min-snapshots-to-keep":3,)"
      R"("max-snapshot-age-ms":1000,"max-ref-age-ms":2000},"v1":{"snapshot-id":5,"type":"tag","max-ref-age-ms":7}},)");
  auto m = TableMetadataFromJson(json);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->refs.at("main").min_snapshots_to_keep, 3);
  EXPECT_EQ(m->refs.at("main").max_snapshot_age_ms, 1000);
  EXPECT_EQ(m->refs.at("main").max_ref_age_ms, 2000);
  EXPECT_EQ(m->refs.at("v1").type, SnapshotRefType::kTag);
  EXPECT_EQ(m->refs.at("v1").max_ref_age_ms, 7);
  EXPECT_EQ(m->SnapshotByRef("v1")->snapshot_id, 5);
  EXPECT_EQ(m->snapshots[0].summary, (std::map<std::string, std::string>{{"k", "v"}}));
  ExpectLosslessRoundTrip(json, "refs");
}

TEST(TableMetadataJsonTest, WritingInvalidMetadataFails) {
  TableMetadata m = ParseGolden("TableMetadataV2Valid.json");
  m.current_schema_id = 9;
  auto json = TableMetadataToJson(m);
  ASSERT_FALSE(json.ok());
  EXPECT_TRUE(json.status().IsInvalidArgument());
  EXPECT_EQ(json.status().message(), "table metadata: field 'current-schema-id' is 9, which is not a schema id");
}

// Every metadata file of the DuckDB-Iceberg fixture tables (v1, v2, v3,
// gzip-compressed ones too) reads through FileIO and round-trips.
TEST(TableMetadataJsonTest, EveryDuckdbIcebergMetadataFileParses) {
  const std::filesystem::path root = std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/duckdb-iceberg/data/persistent";
  auto io = NewLocalFileIO();
  int files = 0;
  int gzip = 0;
  std::set<int> versions;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || entry.path().parent_path().filename() != "metadata" ||
        path.find(".metadata.json") == std::string::npos) {
      continue;
    }
    SCOPED_TRACE(path);
    auto m = ReadTableMetadata(*io, path);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    versions.insert(m->format_version);
    ++files;
    std::string json = ReadFixture(path);
    if (MetadataCompressionForLocation(path) == MetadataCompression::kGzip) {
      ++gzip;
      // ISIZE, the last four bytes, is the size of the single gzip member.
      const auto* tail = reinterpret_cast<const uint8_t*>(json.data() + json.size() - 4);
      const int64_t size = tail[0] | (tail[1] << 8) | (tail[2] << 16) | (int64_t{tail[3]} << 24);
      auto plain = compression::DecompressToBuffer(
          compression::Codec::kGzip,
          std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(json.data()), json.size()), size, size);
      ASSERT_TRUE(plain.ok()) << plain.status().ToString();
      json.assign(reinterpret_cast<const char*>(plain->data()), static_cast<size_t>(plain->size()));
      EXPECT_TRUE(TableMetadataFromJson(json, path).value() == *m);
    }
    ExpectLosslessRoundTrip(json, path);
  }
  EXPECT_EQ(files, 76);
  EXPECT_EQ(gzip, 4);
  EXPECT_EQ(versions, (std::set<int>{1, 2, 3}));
}

}  // namespace
}  // namespace floe::iceberg

namespace floe::iceberg {
namespace {

const std::string kDuckdb = std::string(FLOE_SHARED_DIR) + "/fixtures/iceberg/duckdb-iceberg/data/persistent/";

TEST(TableMetadataJsonTest, V1SnapshotsMayListManifestsInline) {
  auto io = NewLocalFileIO();
  auto m = ReadTableMetadata(*io, kDuckdb + "iceberg_v1_deprecated/default/legacy_v1/metadata/v2.metadata.json");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format_version, 1);
  const Snapshot* s = m->current_snapshot();
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->manifest_list.empty());
  ASSERT_EQ(s->manifests.size(), 1u);
  EXPECT_EQ(s->manifests[0],
            "data/persistent/iceberg_v1_deprecated/default/legacy_v1/metadata/"
            "d65f86b0-b799-467f-b1f4-9c697e4c4fc7-m0.avro");
  EXPECT_EQ(s->operation, "append");
  EXPECT_EQ(s->summary.at("added-records"), "3");
  EXPECT_EQ(m->current_schema()->FindFieldByName("category")->field_id, 2);
  EXPECT_EQ(m->default_spec()->fields[0].source_id(), 2);
  EXPECT_EQ(m->properties.at("write.parquet.compression-codec"), "zstd");
  ASSERT_EQ(m->metadata_log.size(), 1u);
  EXPECT_EQ(m->metadata_log[0].timestamp_ms, 1786003391399);
}

TEST(TableMetadataJsonTest, UnsignedSnapshotIdsKeepTheirBits) {
  auto io = NewLocalFileIO();
  auto m =
      ReadTableMetadata(*io, kDuckdb + "equality_delete_cross_partition/warehouse/ns/t/metadata/vfinal.metadata.json");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const int64_t id = static_cast<int64_t>(uint64_t{9876543210123456789u});
  EXPECT_EQ(m->current_snapshot_id, id);
  ASSERT_NE(m->current_snapshot(), nullptr);
  EXPECT_EQ(m->current_snapshot()->parent_snapshot_id, 4327154639183968397);
  EXPECT_EQ(m->refs.at("main").snapshot_id, id);
  // Written signed, so every Iceberg reader can take it.
  const std::string json = TableMetadataToJson(*m).value();
  EXPECT_NE(json.find(StrCat("\"current-snapshot-id\":", id)), std::string::npos);
}

TEST(TableMetadataJsonTest, DefaultsOfEveryPrimitiveTypeAreKeptVerbatim) {
  auto io = NewLocalFileIO();
  auto m =
      ReadTableMetadata(*io, kDuckdb +
                                 "add_columns_with_defaults_in_struct/default.db/add_columns_with_defaults_in_struct/"
                                 "metadata/00003-21a957f9-c2ee-431a-9d18-bf257b561198.metadata.json");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const Schema* s = m->current_schema();
  auto initial = [&](const char* name) { return s->FindFieldByName(name)->initial_default.value_or("<none>"); };
  EXPECT_EQ(initial("a.col_boolean"), "true");
  EXPECT_EQ(initial("a.col_integer"), "342342");
  EXPECT_EQ(initial("a.col_long"), "-9223372036854775808");
  EXPECT_EQ(initial("a.col_double"), "0.342343242342342");
  EXPECT_EQ(initial("a.col_decimal"), "\"12345.00\"");
  EXPECT_EQ(initial("a.col_timestamptz"), "\"1970-01-01T00:00:00.012345+00:00\"");
  EXPECT_EQ(initial("a.col_fixed"), "\"010203ff03\"");
  EXPECT_EQ(s->FindFieldByName("a.col_decimal")->type->ToString(), "decimal(16,2)");
  EXPECT_EQ(s->FindFieldByName("a.col1")->initial_default, std::nullopt);
}

}  // namespace
}  // namespace floe::iceberg

namespace floe::iceberg {
namespace {

// Damaged documents (bytes replaced, cut short) never crash and are either
// rejected as Corrupt / Unsupported or read into metadata that writes back to
// an equal model: a cheap, deterministic stand-in for the fuzz target.
TEST(TableMetadataJsonTest, MutatedDocumentsAreRejectedOrRoundTrip) {
  const std::string base = ReadFixture(kGolden + "TableMetadataV2Valid.json");
  const std::string_view replacements[] = {"",      "0",    "-1", "\"",     "{",     "}",
                                           "[",     "]",    ",",  "null",   "1e999", "9223372036854775808",
                                           "\"x\"", "true", ":",  "\\u0000"};
  std::mt19937 rng(42);
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string doc = base;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % doc.size();
      const size_t len = rng() % 4;
      doc.replace(at, len, replacements[rng() % std::size(replacements)]);
    }
    if (rng() % 10 == 0) doc.resize(rng() % doc.size());
    auto m = TableMetadataFromJson(doc, "m.json");
    if (!m.ok()) {
      EXPECT_TRUE(m.status().IsCorrupt() || m.status().IsUnsupported()) << m.status().ToString();
      EXPECT_EQ(m.status().message().find('\n'), std::string::npos) << m.status().message();
      continue;
    }
    ++accepted;
    auto written = TableMetadataToJson(*m);
    ASSERT_TRUE(written.ok()) << written.status().ToString() << "\n" << doc;
    auto again = TableMetadataFromJson(*written);
    ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << doc;
    EXPECT_TRUE(*again == *m) << doc;
  }
  EXPECT_GT(accepted, 0);
}

}  // namespace
}  // namespace floe::iceberg
