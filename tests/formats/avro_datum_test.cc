// Avro binary encoding, generic datums and schema resolution by field id.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/datum.h"
#include "floe/formats/avro/resolved_reader.h"
#include "floe/formats/avro/schema.h"
#include "avro_test_util.h"

namespace floe::avro {
namespace {

std::span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

using testing::MustParse;

TEST(AvroBinaryTest, ZigZagVarintsMatchTheSpecExamples) {
  // spec: "Binary Encoding", the table of int and long values.
  const std::pair<int64_t, std::string> cases[] = {
      {0, std::string(1, '\0')}, {-1, "\x01"}, {1, "\x02"}, {-2, "\x03"}, {2, "\x04"}, {-64, "\x7f"}, {64, "\x80\x01"}};
  for (const auto& [v, bytes] : cases) {
    std::string out;
    Encoder(&out).WriteLong(v);
    EXPECT_EQ(out, bytes) << v;
  }
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, std::numeric_limits<int64_t>::max(),
                    std::numeric_limits<int64_t>::min(), int64_t{1} << 40, -(int64_t{1} << 40)}) {
    std::string out;
    Encoder(&out).WriteLong(v);
    EXPECT_LE(out.size(), 10u);
    Decoder d(Bytes(out));
    int64_t back;
    ASSERT_TRUE(d.ReadLong(&back).ok());
    EXPECT_EQ(back, v);
    EXPECT_TRUE(d.at_end());
  }
}

TEST(AvroBinaryTest, RejectsOverlongAndTruncatedVarints) {
  int64_t v;
  const std::string eleven(11, '\x80');
  Status s = Decoder(Bytes(eleven)).ReadLong(&v);
  EXPECT_TRUE(s.IsCorrupt()) << s.ToString();
  const std::string overflow = std::string(9, '\xff') + "\x02";
  EXPECT_TRUE(Decoder(Bytes(overflow)).ReadLong(&v).IsCorrupt());
  const std::string truncated = "\x80\x80";
  s = Decoder(Bytes(truncated)).ReadLong(&v);
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("runs past the end"), std::string::npos);
  std::string big;
  Encoder(&big).WriteLong(int64_t{1} << 33);
  int32_t i;
  EXPECT_TRUE(Decoder(Bytes(big)).ReadInt(&i).IsCorrupt());
}

TEST(AvroBinaryTest, RejectsLengthsPastTheEnd) {
  std::string buf;
  Encoder e(&buf);
  e.WriteLong(1000);
  buf += "short";
  std::string_view out;
  Status s = Decoder(Bytes(buf)).ReadBytes(&out);
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("length 1000"), std::string::npos) << s.ToString();
  std::string neg;
  Encoder(&neg).WriteLong(-5);
  EXPECT_TRUE(Decoder(Bytes(neg)).ReadBytes(&out).IsCorrupt());
  const std::string two = "\x02";
  bool b;
  EXPECT_TRUE(Decoder(Bytes(two)).ReadBoolean(&b).IsCorrupt());
}

constexpr std::string_view kAllTypes = R"({"type":"record","name":"row","namespace":"floe.test","fields":[
  {"name":"n","type":"null"},
  {"name":"b","type":"boolean"},
  {"name":"i","type":"int"},
  {"name":"l","type":"long"},
  {"name":"f","type":"float"},
  {"name":"d","type":"double"},
  {"name":"by","type":"bytes"},
  {"name":"s","type":"string"},
  {"name":"opt","type":["null","long","string"]},
  {"name":"e","type":{"type":"enum","name":"color","symbols":["RED","GREEN","BLUE"]}},
  {"name":"fx","type":{"type":"fixed","name":"f4","size":4}},
  {"name":"arr","type":{"type":"array","items":"int"}},
  {"name":"m","type":{"type":"map","values":"string"}},
  {"name":"rec","type":{"type":"record","name":"inner","fields":[{"name":"x","type":"int"},{"name":"y","type":["null","inner"]}]}}]})";

Datum AllTypesRow(int k) {
  return Datum::Record({
      Datum::Null(),
      Datum::Boolean(k % 2 == 0),
      Datum::Int(-k * 1000),
      Datum::Long(int64_t{k} << 40),
      Datum::Float(1.5f * static_cast<float>(k)),
      Datum::Double(-2.25 * k),
      Datum::Bytes(std::string("\x00\xff\x01", 3)),
      Datum::String("row " + std::to_string(k)),
      k % 3 == 0 ? Datum::Null() : (k % 3 == 1 ? Datum::Long(k) : Datum::String("s")),
      Datum::Enum(k % 3),
      Datum::Fixed("abcd"),
      Datum::Array({Datum::Int(1), Datum::Int(k)}),
      Datum::Map({"a", "b"}, {Datum::String("x"), Datum::String(std::to_string(k))}),
      Datum::Record({Datum::Int(k), Datum::Record({Datum::Int(k + 1), Datum::Null()})}),
  });
}

TEST(AvroDatumTest, EveryTypeRoundTrips) {
  auto schema = MustParse(kAllTypes);
  std::string buf;
  Encoder e(&buf);
  for (int k = 0; k < 10; ++k) ASSERT_TRUE(EncodeDatum(schema->root(), AllTypesRow(k), &e).ok());
  Decoder d(Bytes(buf));
  Datum row;  // reused across rows
  for (int k = 0; k < 10; ++k) {
    ASSERT_TRUE(DecodeDatum(schema->root(), &d, &row).ok());
    EXPECT_EQ(row, AllTypesRow(k)) << row.ToString();
    EXPECT_EQ(row.field(2).int_value(), -k * 1000);
    EXPECT_EQ(row.field(7).string_value(), "row " + std::to_string(k));
    EXPECT_EQ(row.field(8).branch(), k % 3);
    EXPECT_EQ(row.field(12).MapValue("b")->string_value(), std::to_string(k));
  }
  EXPECT_TRUE(d.at_end());
  // Skipping consumes exactly one value.
  Decoder skip(Bytes(buf));
  for (int k = 0; k < 10; ++k) ASSERT_TRUE(SkipDatum(schema->root(), &skip).ok());
  EXPECT_TRUE(skip.at_end());
}

TEST(AvroDatumTest, EncodingRejectsValuesThatDoNotFit) {
  auto schema = MustParse(R"({"type":"record","name":"r","fields":[{"name":"i","type":"int"},{"name":"f","type":{"type":"fixed","name":"f2","size":2}}]})");
  std::string buf;
  Encoder e(&buf);
  Status s = EncodeDatum(schema->root(), Datum::Record({Datum::Long(int64_t{1} << 40), Datum::Fixed("ab")}), &e);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("value.i"), std::string::npos) << s.ToString();
  EXPECT_TRUE(EncodeDatum(schema->root(), Datum::Record({Datum::Int(1), Datum::Fixed("abc")}), &e).IsInvalidArgument());
  EXPECT_TRUE(EncodeDatum(schema->root(), Datum::Record({Datum::Int(1)}), &e).IsInvalidArgument());
  auto u = MustParse(R"(["null","string"])");
  EXPECT_TRUE(EncodeDatum(u->root(), Datum::Long(3), &e).IsInvalidArgument());
}

TEST(AvroDatumTest, DecodesBlocksWithByteSizesAndSkipsThem) {
  // An array of two ints written as one block with a negative count and a size.
  auto schema = MustParse(R"({"type":"array","items":"int"})");
  std::string buf;
  Encoder e(&buf);
  e.WriteLong(-2);
  e.WriteLong(2);
  e.WriteInt(7);
  e.WriteInt(-8);
  e.WriteLong(0);
  Decoder d(Bytes(buf));
  Datum out;
  ASSERT_TRUE(DecodeDatum(schema->root(), &d, &out).ok());
  EXPECT_EQ(out, Datum::Array({Datum::Int(7), Datum::Int(-8)}));
  Decoder s(Bytes(buf));
  ASSERT_TRUE(SkipDatum(schema->root(), &s).ok());
  EXPECT_TRUE(s.at_end());
}

TEST(AvroDatumTest, BadBytesAreCorruptNotCrashes) {
  auto schema = MustParse(kAllTypes);
  std::string good;
  Encoder e(&good);
  ASSERT_TRUE(EncodeDatum(schema->root(), AllTypesRow(4), &e).ok());
  // Every truncation is Corrupt.
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const std::string part = good.substr(0, cut);
    Decoder d(Bytes(part));
    Datum out;
    Status s = DecodeDatum(schema->root(), &d, &out);
    EXPECT_TRUE(s.IsCorrupt()) << cut << ": " << s.ToString();
  }
  // A union branch out of range, an enum out of range, a huge array count.
  auto u = MustParse(R"(["null","int"])");
  const std::string branch5 = "\x0a";
  Datum out;
  Decoder d1(Bytes(branch5));
  Status s = DecodeDatum(u->root(), &d1, &out);
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("union branch 5"), std::string::npos);
  auto en = MustParse(R"({"type":"enum","name":"e","symbols":["A"]})");
  const std::string idx3 = "\x06";
  Decoder d2(Bytes(idx3));
  EXPECT_TRUE(DecodeDatum(en->root(), &d2, &out).IsCorrupt());
  auto arr = MustParse(R"({"type":"array","items":"long"})");
  std::string huge;
  Encoder(&huge).WriteLong(int64_t{1} << 50);
  Decoder d3(Bytes(huge));
  EXPECT_TRUE(DecodeDatum(arr->root(), &d3, &out).IsCorrupt());
  auto nulls = MustParse(R"({"type":"array","items":"null"})");
  Decoder d4(Bytes(huge));
  EXPECT_TRUE(DecodeDatum(nulls->root(), &d4, &out).IsCorrupt());
}

TEST(AvroDatumTest, DeepRecursionIsCorrupt) {
  auto schema = MustParse(R"({"type":"record","name":"list","fields":[{"name":"next","type":["null","list"]}]})");
  std::string buf(1000, '\x02');  // branch 1 again and again
  buf.push_back('\x00');
  Decoder d(Bytes(buf));
  Datum out;
  Status s = DecodeDatum(schema->root(), &d, &out);
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("deeper"), std::string::npos);
  Decoder skip(Bytes(buf));
  EXPECT_TRUE(SkipDatum(schema->root(), &skip).IsCorrupt());
}

TEST(AvroDatumTest, DefaultsFromJson) {
  auto schema = MustParse(R"({"type":"record","name":"r","fields":[{"name":"a","type":"int","default":3},{"name":"b","type":"bytes"}]})");
  // "a" is absent from the value, so its field default applies.
  Result<Datum> d = DatumFromJsonDefault(schema->root(), R"({"b":"\u00ff\u0001"})");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(*d, Datum::Record({Datum::Int(3), Datum::Bytes("\xff\x01")}));
  EXPECT_TRUE(DatumFromJsonDefault(schema->root(), R"({"a":1})").status().IsCorrupt());
  Result<Datum> ok = DatumFromJsonDefault(schema->root(), R"({"a":5,"b":"\u00ff\u0001"})");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, Datum::Record({Datum::Int(5), Datum::Bytes("\xff\x01")}));
  auto u = MustParse(R"(["null","long"])");
  Result<Datum> n = DatumFromJsonDefault(u->root(), "null");
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(n->is_null());
  EXPECT_TRUE(DatumFromJsonDefault(u->root(), "5").status().IsCorrupt());
}

// --- Resolution -------------------------------------------------------------

std::string EncodeRow(const Schema& schema, const Datum& row) {
  std::string buf;
  Encoder e(&buf);
  EXPECT_TRUE(EncodeDatum(schema.root(), row, &e).ok());
  return buf;
}

Result<Datum> ReadAs(const Schema& writer, const Schema& reader, const std::string& bytes) {
  FLOE_ASSIGN_OR_RETURN(auto plan, ResolvedReader::Make(writer.root(), reader.root()));
  Decoder d(Bytes(bytes));
  Datum out;
  FLOE_RETURN_IF_ERROR(plan->Read(&d, &out));
  if (!d.at_end()) return Status::Internal("bytes left");
  return out;
}

TEST(AvroResolutionTest, MatchesFieldsByIdAcrossRenamesAndReorders) {
  // v1 manifest lists call field 504 "added_files_count"; v2 calls it "added_data_files_count".
  auto writer = MustParse(R"({"type":"record","name":"manifest_file","fields":[
    {"name":"manifest_path","type":"string","field-id":500},
    {"name":"added_files_count","type":["null","int"],"field-id":504},
    {"name":"dropped","type":{"type":"array","items":"string"},"field-id":999},
    {"name":"manifest_length","type":"long","field-id":501}]})");
  auto reader = MustParse(R"({"type":"record","name":"manifest_file","fields":[
    {"name":"manifest_length","type":"long","field-id":501},
    {"name":"manifest_path","type":"string","field-id":500},
    {"name":"added_data_files_count","type":["null","long"],"field-id":504},
    {"name":"content","type":"int","default":0,"field-id":517},
    {"name":"key_metadata","type":["null","bytes"],"field-id":519}]})");
  const std::string bytes = EncodeRow(*writer, Datum::Record({Datum::String("m0.avro"), Datum::Int(7),
                                                              Datum::Array({Datum::String("x")}), Datum::Long(6147)}));
  Result<Datum> row = ReadAs(*writer, *reader, bytes);
  ASSERT_TRUE(row.ok()) << row.status().ToString();
  EXPECT_EQ(row->field(0), Datum::Long(6147));
  EXPECT_EQ(row->field(1), Datum::String("m0.avro"));
  EXPECT_EQ(row->field(2), Datum::Long(7));  // int promoted to long
  EXPECT_EQ(row->field(2).branch(), 1);
  EXPECT_EQ(row->field(3), Datum::Int(0));  // default
  EXPECT_TRUE(row->field(4).is_null());     // optional, absent
  EXPECT_EQ(row->field(4).branch(), 0);
}

TEST(AvroResolutionTest, FallsBackToNamesAndPromotes) {
  auto writer = MustParse(R"({"type":"record","name":"a","fields":[{"name":"x","type":"int"},{"name":"f","type":"float"},{"name":"s","type":"string"},
     {"name":"e","type":{"type":"enum","name":"e","symbols":["B","A"]}}]})");
  auto reader = MustParse(R"({"type":"record","name":"b","fields":[{"name":"f","type":"double"},{"name":"x","type":"double"},{"name":"s","type":"bytes"},
     {"name":"e","type":{"type":"enum","name":"e","symbols":["A","B","C"]}}]})");
  const std::string bytes = EncodeRow(*writer, Datum::Record({Datum::Int(-3), Datum::Float(0.5f), Datum::String("hi"), Datum::Enum(0)}));
  Result<Datum> row = ReadAs(*writer, *reader, bytes);
  ASSERT_TRUE(row.ok()) << row.status().ToString();
  EXPECT_EQ(*row, Datum::Record({Datum::Double(0.5), Datum::Double(-3.0), Datum::Bytes("hi"), Datum::Enum(1)}));
}

TEST(AvroResolutionTest, RequiredFieldMissingFromFileIsCorrupt) {
  auto writer = MustParse(R"({"type":"record","name":"a","fields":[{"name":"x","type":"int","field-id":1}]})");
  auto reader = MustParse(R"({"type":"record","name":"a","fields":[{"name":"x","type":"int","field-id":1},{"name":"record_count","type":"long","field-id":103}]})");
  Result<std::unique_ptr<ResolvedReader>> plan = ResolvedReader::Make(writer->root(), reader->root());
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(plan.status().IsCorrupt());
  EXPECT_NE(plan.status().message().find("'record_count' (field-id 103)"), std::string::npos) << plan.status().ToString();
  auto incompatible = MustParse(R"({"type":"record","name":"a","fields":[{"name":"x","type":"string","field-id":1}]})");
  EXPECT_TRUE(ResolvedReader::Make(writer->root(), incompatible->root()).status().IsCorrupt());
}

TEST(AvroResolutionTest, NullInAFileFieldTheReaderRequiresIsCorruptWhenRead) {
  auto writer = MustParse(R"({"type":"record","name":"a","fields":[{"name":"x","type":["null","long"],"field-id":1}]})");
  auto reader = MustParse(R"({"type":"record","name":"a","fields":[{"name":"x","type":"long","field-id":1}]})");
  Result<Datum> ok = ReadAs(*writer, *reader, EncodeRow(*writer, Datum::Record({Datum::Long(5)})));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, Datum::Record({Datum::Long(5)}));
  Result<Datum> bad = ReadAs(*writer, *reader, EncodeRow(*writer, Datum::Record({Datum::Null()})));
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsCorrupt()) << bad.status().ToString();
}

TEST(AvroResolutionTest, NestedRecordsMapsAndArraysResolveByIdToo) {
  auto writer = MustParse(R"({"type":"record","name":"e","fields":[{"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
     {"name":"file_path","type":"string","field-id":100},
     {"name":"column_sizes","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"k117_v118","fields":[
        {"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]}}],"field-id":108}]}}]})");
  auto reader = MustParse(R"({"type":"record","name":"manifest_entry","fields":[{"name":"df","field-id":2,"type":{"type":"record","name":"data_file","fields":[
     {"name":"sizes","type":["null",{"type":"array","logicalType":"map","items":{"type":"record","name":"kv","fields":[
        {"name":"v","type":"long","field-id":118},{"name":"k","type":"int","field-id":117}]}}],"field-id":108},
     {"name":"path","type":"string","field-id":100}]}}]})");
  const Datum row = Datum::Record({Datum::Record({Datum::String("a.parquet"),
      Datum::Array({Datum::Record({Datum::Int(1), Datum::Long(36)}), Datum::Record({Datum::Int(2), Datum::Long(40)})})})});
  Result<Datum> out = ReadAs(*writer, *reader, EncodeRow(*writer, row));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const Datum& df = out->field(0);
  EXPECT_EQ(df.field(1), Datum::String("a.parquet"));
  ASSERT_EQ(df.field(0).children().size(), 2u);
  EXPECT_EQ(df.field(0).children()[1], Datum::Record({Datum::Long(40), Datum::Int(2)}));
}

TEST(AvroResolutionTest, UnionBranchesPreferTheSameNamedType) {
  auto writer = MustParse(R"(["null",{"type":"record","name":"b","fields":[{"name":"y","type":"long"}]}])");
  auto reader = MustParse(R"([{"type":"record","name":"a","fields":[{"name":"y","type":"long","default":1}]},
                              {"type":"record","name":"b","fields":[{"name":"y","type":"long"}]},"null"])");
  Datum value = Datum::Record({Datum::Long(9)});
  value.set_branch(1);
  Result<Datum> out = ReadAs(*writer, *reader, EncodeRow(*writer, value));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, Datum::Record({Datum::Long(9)}));
  EXPECT_EQ(out->branch(), 1);
  Result<Datum> null = ReadAs(*writer, *reader, EncodeRow(*writer, Datum::Null()));
  ASSERT_TRUE(null.ok());
  EXPECT_EQ(null->branch(), 2);
}

}  // namespace
}  // namespace floe::avro
