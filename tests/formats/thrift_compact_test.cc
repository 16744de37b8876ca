#include "floe/formats/parquet/thrift_compact.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace floe::parquet {
namespace {

std::span<const uint8_t> Bytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

std::string Hex(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

std::string EncodeI64(int64_t v) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.WriteI64(v);
  return out;
}

// Skips one whole struct from the start of `bytes`.
Status SkipStruct(std::span<const uint8_t> bytes, size_t* consumed = nullptr) {
  ThriftCompactReader r(bytes);
  if (!r.SkipField({CompactType::kStruct, 1})) return r.status();
  if (consumed != nullptr) *consumed = r.position();
  return Status::OK();
}

TEST(ThriftCompactTest, VarintMatchesSpecExample) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.WriteVarint64(50399);
  EXPECT_EQ(out, Hex({0xdf, 0x89, 0x03}));  // spec: 50399 = 0xDF 0x89 0x03
  ThriftCompactReader r(Bytes(out));
  uint64_t v = 0;
  ASSERT_TRUE(r.ReadVarint64(&v));
  EXPECT_EQ(v, 50399u);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftCompactTest, ZigzagMapsSmallSignedValuesToSmallUnsigned) {
  // spec: "0, 1, 2, 3, 4 ... translated to 0, -1, 1, -2, 2".
  EXPECT_EQ(EncodeI64(0), Hex({0x00}));
  EXPECT_EQ(EncodeI64(-1), Hex({0x01}));
  EXPECT_EQ(EncodeI64(1), Hex({0x02}));
  EXPECT_EQ(EncodeI64(-2), Hex({0x03}));
  EXPECT_EQ(EncodeI64(2), Hex({0x04}));
  EXPECT_EQ(EncodeI64(-64), Hex({0x7f}));
  EXPECT_EQ(EncodeI64(64), Hex({0x80, 0x01}));
}

TEST(ThriftCompactTest, Int64ExtremesTakeTenBytesAndRoundTrip) {
  EXPECT_EQ(EncodeI64(INT64_MAX), Hex({0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  EXPECT_EQ(EncodeI64(INT64_MIN), Hex({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  for (int64_t v : {INT64_MIN, INT64_MIN + 1, int64_t{-1} << 35, int64_t{-1}, int64_t{0}, int64_t{1} << 40,
                    INT64_MAX - 1, INT64_MAX}) {
    const std::string bytes = EncodeI64(v);
    ThriftCompactReader r(Bytes(bytes));
    int64_t got = 0;
    ASSERT_TRUE(r.ReadI64(&got)) << v;
    EXPECT_EQ(got, v);
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(ThriftCompactTest, Int32AndInt16ExtremesRoundTrip) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.WriteI32(INT32_MIN);
  w.WriteI32(INT32_MAX);
  w.WriteI16(INT16_MIN);
  w.WriteI16(INT16_MAX);
  w.WriteI8(INT8_MIN);
  ThriftCompactReader r(Bytes(out));
  int32_t a = 0, b = 0;
  int16_t c = 0, d = 0;
  int8_t e = 0;
  ASSERT_TRUE(r.ReadI32(&a));
  ASSERT_TRUE(r.ReadI32(&b));
  ASSERT_TRUE(r.ReadI16(&c));
  ASSERT_TRUE(r.ReadI16(&d));
  ASSERT_TRUE(r.ReadI8(&e));
  EXPECT_EQ(a, INT32_MIN);
  EXPECT_EQ(b, INT32_MAX);
  EXPECT_EQ(c, INT16_MIN);
  EXPECT_EQ(d, INT16_MAX);
  EXPECT_EQ(e, INT8_MIN);
}

TEST(ThriftCompactTest, RejectsVarintLongerThanTenBytes) {
  const std::string bytes = Hex({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  ThriftCompactReader r(Bytes(bytes));
  uint64_t v;
  EXPECT_FALSE(r.ReadVarint64(&v));
  const Status s = r.status();
  EXPECT_TRUE(s.IsCorrupt()) << s.ToString();
}

TEST(ThriftCompactTest, RejectsTenthVarintByteAboveOne) {
  const std::string bytes = Hex({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
  ThriftCompactReader r(Bytes(bytes));
  uint64_t v;
  EXPECT_FALSE(r.ReadVarint64(&v));
  EXPECT_TRUE(r.status().IsCorrupt());
}

TEST(ThriftCompactTest, RejectsI32WiderThan32Bits) {
  const std::string bytes = EncodeI64(int64_t{1} << 33);
  ThriftCompactReader r(Bytes(bytes));
  int32_t v;
  EXPECT_FALSE(r.ReadI32(&v));
  const Status s = r.status();
  EXPECT_TRUE(s.IsCorrupt()) << s.ToString();
  EXPECT_NE(s.message().find("32 bits"), std::string::npos) << s.message();
}

TEST(ThriftCompactTest, RejectsI16OutOfRange) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.WriteI32(40000);
  ThriftCompactReader r(Bytes(out));
  int16_t v;
  EXPECT_FALSE(r.ReadI16(&v));
  EXPECT_TRUE(r.status().IsCorrupt());
}

TEST(ThriftCompactTest, TruncatedVarintIsCorruptNamingOffset) {
  const std::string bytes = Hex({0x05, 0x80, 0x80});
  ThriftCompactReader r(Bytes(bytes));
  int8_t skip;
  ASSERT_TRUE(r.ReadI8(&skip));
  int64_t v;
  EXPECT_FALSE(r.ReadI64(&v));
  const Status s = r.status();
  ASSERT_TRUE(s.IsCorrupt());
  EXPECT_EQ(s.message(), "thrift: input ends inside a varint at byte 1");
}

TEST(ThriftCompactTest, DoubleIsEightBytesLittleEndian) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.WriteDouble(1.0);
  w.WriteDouble(-0.0);
  w.WriteDouble(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(out.substr(0, 8), Hex({0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  ThriftCompactReader r(Bytes(out));
  double a = 0, b = 0, c = 0;
  ASSERT_TRUE(r.ReadDouble(&a));
  ASSERT_TRUE(r.ReadDouble(&b));
  ASSERT_TRUE(r.ReadDouble(&c));
  EXPECT_EQ(a, 1.0);
  EXPECT_TRUE(std::signbit(b));
  EXPECT_TRUE(std::isnan(c));
  EXPECT_FALSE(r.ReadDouble(&a));
  EXPECT_TRUE(r.status().IsCorrupt());
}

TEST(ThriftCompactTest, BinaryLengthIsCheckedAgainstBytesLeft) {
  std::string ok;
  ThriftCompactWriter w(&ok);
  w.WriteBinary("hello");
  ThriftCompactReader r(Bytes(ok));
  std::string_view v;
  ASSERT_TRUE(r.ReadBinary(&v));
  EXPECT_EQ(v, "hello");

  const std::string lying = Hex({0x06, 'h', 'e', 'l', 'l', 'o'});
  ThriftCompactReader r2(Bytes(lying));
  EXPECT_FALSE(r2.ReadBinary(&v));
  const Status s = r2.status();
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("exceeds the bytes left"), std::string::npos) << s.message();
}

TEST(ThriftCompactTest, RejectsNegativeBinaryLength) {
  const std::string bytes = Hex({0xff, 0xff, 0xff, 0xff, 0x0f});  // 0xffffffff
  ThriftCompactReader r(Bytes(bytes));
  std::string_view v;
  EXPECT_FALSE(r.ReadBinary(&v));
  const Status s = r.status();
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("negative"), std::string::npos) << s.message();
}

TEST(ThriftCompactTest, FieldHeadersUseShortFormForSmallDeltasAndLongFormOtherwise) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI32, 1);  // delta 1
  w.WriteI32(7);
  w.WriteFieldHeader(CompactType::kI32, 16);  // delta 15: still short
  w.WriteI32(8);
  w.WriteFieldHeader(CompactType::kI32, 40);  // delta 24: long form
  w.WriteI32(9);
  w.WriteFieldHeader(CompactType::kI32, 3);  // going down: long form
  w.WriteI32(10);
  w.WriteFieldHeader(CompactType::kI32, -5);  // negative ids are legal Thrift
  w.WriteI32(11);
  w.EndStruct();
  EXPECT_EQ(out, Hex({0x15, 0x0e, 0xf5, 0x10, 0x05, 0x50, 0x12, 0x05, 0x06, 0x14, 0x05, 0x09, 0x16, 0x00}));

  ThriftCompactReader r(Bytes(out));
  ASSERT_TRUE(r.BeginStruct());
  std::vector<std::pair<int16_t, int32_t>> fields;
  ThriftField f;
  while (true) {
    ASSERT_TRUE(r.ReadFieldHeader(&f));
    if (f.type == CompactType::kStop) break;
    ASSERT_EQ(f.type, CompactType::kI32);
    int32_t v;
    ASSERT_TRUE(r.ReadI32(&v));
    fields.emplace_back(f.id, v);
  }
  r.EndStruct();
  const std::vector<std::pair<int16_t, int32_t>> want = {{1, 7}, {16, 8}, {40, 9}, {3, 10}, {-5, 11}};
  EXPECT_EQ(fields, want);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftCompactTest, NestedStructsKeepTheirOwnFieldIdBase) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kStruct, 5);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kI8, 1);  // delta from 0, not from 5
  w.WriteI8(42);
  w.EndStruct();
  w.WriteFieldHeader(CompactType::kI8, 6);  // delta 1 from the outer 5
  w.WriteI8(43);
  w.EndStruct();
  EXPECT_EQ(out, Hex({0x5c, 0x13, 42, 0x00, 0x13, 43, 0x00}));
  // Each struct's fields are read through its own ThriftField, whose id is
  // the base for the next delta (thrift_compact.h).
  ThriftCompactReader r(Bytes(out));
  ThriftField outer;
  ASSERT_TRUE(r.BeginStruct());
  ASSERT_TRUE(r.ReadFieldHeader(&outer));
  EXPECT_EQ(outer.id, 5);
  ASSERT_TRUE(r.BeginStruct());
  ThriftField inner;
  ASSERT_TRUE(r.ReadFieldHeader(&inner));
  EXPECT_EQ(inner.id, 1);
  int8_t v;
  ASSERT_TRUE(r.ReadI8(&v));
  ASSERT_TRUE(r.ReadFieldHeader(&inner));
  EXPECT_EQ(inner.type, CompactType::kStop);
  r.EndStruct();
  ASSERT_TRUE(r.ReadFieldHeader(&outer));
  EXPECT_EQ(outer.id, 6);
}

TEST(ThriftCompactTest, BoolFieldsCarryTheirValueInTheHeader) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteBoolField(2, false);
  w.EndStruct();
  EXPECT_EQ(out, Hex({0x11, 0x12, 0x00}));
  ThriftCompactReader r(Bytes(out));
  ThriftField f;
  ASSERT_TRUE(r.BeginStruct());
  ASSERT_TRUE(r.ReadFieldHeader(&f));
  EXPECT_TRUE(ThriftCompactReader::BoolFieldValue(f));
  ASSERT_TRUE(r.SkipField(f));
  EXPECT_EQ(r.position(), 1u);  // no value bytes
  ASSERT_TRUE(r.ReadFieldHeader(&f));
  EXPECT_FALSE(ThriftCompactReader::BoolFieldValue(f));
}

TEST(ThriftCompactTest, RejectsInvalidFieldTypeIds) {
  for (int type : {14, 15}) {
    const std::string bytes = Hex({0x10 | type, 0x00});
    ThriftCompactReader r(Bytes(bytes));
    ASSERT_TRUE(r.BeginStruct());
    ThriftField f;
    EXPECT_FALSE(r.ReadFieldHeader(&f));
    const Status s = r.status();
    EXPECT_TRUE(s.IsCorrupt()) << type;
    EXPECT_NE(s.message().find("field type id (" + std::to_string(type) + ")"), std::string::npos) << s.message();
  }
}

TEST(ThriftCompactTest, RejectsStopByteWithDelta) {
  const std::string bytes = Hex({0x30});
  ThriftCompactReader r(Bytes(bytes));
  ASSERT_TRUE(r.BeginStruct());
  ThriftField f;
  EXPECT_FALSE(r.ReadFieldHeader(&f));
  EXPECT_TRUE(r.status().IsCorrupt());
}

TEST(ThriftCompactTest, ListHeadersInShortAndLongForm) {
  for (size_t size : {size_t{0}, size_t{1}, size_t{14}, size_t{15}, size_t{300}}) {
    std::string out;
    ThriftCompactWriter w(&out);
    w.WriteListHeader(CompactType::kI32, size);
    for (size_t i = 0; i < size; ++i) w.WriteI32(static_cast<int32_t>(i) - 7);
    EXPECT_EQ(static_cast<uint8_t>(out[0]) >> 4, size < 15 ? size : 15u) << size;
    ThriftCompactReader r(Bytes(out));
    ThriftListHeader h;
    ASSERT_TRUE(r.ReadListHeader(&h)) << size;
    EXPECT_EQ(h.size, size);
    EXPECT_EQ(h.element_type, CompactType::kI32);
    for (size_t i = 0; i < size; ++i) {
      int32_t v;
      ASSERT_TRUE(r.ReadI32(&v));
      EXPECT_EQ(v, static_cast<int32_t>(i) - 7);
    }
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(ThriftCompactTest, BoolListElementsAreBytesAndLegacyTypeOneIsAccepted) {
  for (int type : {1, 2}) {
    const std::string bytes = Hex({0x30 | type, 1, 0, 1});
    ThriftCompactReader r(Bytes(bytes));
    ThriftListHeader h;
    ASSERT_TRUE(r.ReadListHeader(&h));
    EXPECT_EQ(h.element_type, kBoolElementType);
    std::vector<bool> got;
    for (uint32_t i = 0; i < h.size; ++i) {
      bool b;
      ASSERT_TRUE(r.ReadBoolElement(&b));
      got.push_back(b);
    }
    EXPECT_EQ(got, (std::vector<bool>{true, false, true}));
  }
}

TEST(ThriftCompactTest, RejectsListLongerThanTheBytesLeft) {
  const std::string bytes = Hex({0xf5, 0xe8, 0x07, 0x00, 0x00});  // 1000 i32 elements, 2 bytes left
  ThriftCompactReader r(Bytes(bytes));
  ThriftListHeader h;
  EXPECT_FALSE(r.ReadListHeader(&h));
  const Status s = r.status();
  ASSERT_TRUE(s.IsCorrupt());
  EXPECT_EQ(s.message(), "thrift: list of 1000 elements at byte 3 cannot fit in the 2 bytes left");
}

TEST(ThriftCompactTest, RejectsDoubleListThatCannotFit) {
  const std::string bytes = Hex({0x27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});  // 2 doubles need 16 bytes, 10 left
  ThriftCompactReader r(Bytes(bytes));
  ThriftListHeader h;
  EXPECT_FALSE(r.ReadListHeader(&h));
  EXPECT_TRUE(r.status().IsCorrupt());
}

TEST(ThriftCompactTest, RejectsNegativeListSize) {
  const std::string bytes = Hex({0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f});
  ThriftCompactReader r(Bytes(bytes));
  ThriftListHeader h;
  EXPECT_FALSE(r.ReadListHeader(&h));
  const Status s = r.status();
  EXPECT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("negative"), std::string::npos) << s.message();
}

TEST(ThriftCompactTest, RejectsInvalidListElementType) {
  const std::string bytes = Hex({0x1e, 0x00});
  ThriftCompactReader r(Bytes(bytes));
  ThriftListHeader h;
  EXPECT_FALSE(r.ReadListHeader(&h));
  EXPECT_TRUE(r.status().IsCorrupt());
}

TEST(ThriftCompactTest, ElementBudgetCapsContainerElementsPerMessage) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.WriteListHeader(CompactType::kI8, 10);
  for (int i = 0; i < 10; ++i) w.WriteI8(1);
  w.WriteListHeader(CompactType::kI8, 10);
  for (int i = 0; i < 10; ++i) w.WriteI8(1);
  ThriftCompactReader r(Bytes(out), /*max_elements=*/15);
  ASSERT_TRUE(r.SkipElement(CompactType::kList));
  EXPECT_FALSE(r.SkipElement(CompactType::kList));
  const Status s = r.status();
  ASSERT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("element budget"), std::string::npos) << s.message();
}

TEST(ThriftCompactTest, MapsEmptyAndNonEmpty) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.WriteMapHeader(CompactType::kBinary, CompactType::kI64, 0);
  w.WriteMapHeader(CompactType::kBinary, CompactType::kI64, 2);
  w.WriteBinary("a");
  w.WriteI64(-1);
  w.WriteBinary("bc");
  w.WriteI64(INT64_MAX);
  EXPECT_EQ(out.substr(0, 3), Hex({0x00, 0x02, 0x86}));
  ThriftCompactReader r(Bytes(out));
  ThriftMapHeader h;
  ASSERT_TRUE(r.ReadMapHeader(&h));
  EXPECT_EQ(h.size, 0u);
  ASSERT_TRUE(r.ReadMapHeader(&h));
  EXPECT_EQ(h.size, 2u);
  EXPECT_EQ(h.key_type, CompactType::kBinary);
  EXPECT_EQ(h.value_type, CompactType::kI64);
  std::string_view k;
  int64_t v;
  ASSERT_TRUE(r.ReadBinary(&k));
  ASSERT_TRUE(r.ReadI64(&v));
  EXPECT_EQ(k, "a");
  EXPECT_EQ(v, -1);
}

// A struct holding one field of every wire type (nested containers too),
// followed by an i32 field that must still be found after skipping.
std::string StructOfEveryType() {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteBoolField(1, true);
  w.WriteBoolField(2, false);
  w.WriteFieldHeader(CompactType::kI8, 3);
  w.WriteI8(-3);
  w.WriteFieldHeader(CompactType::kI16, 4);
  w.WriteI16(-300);
  w.WriteFieldHeader(CompactType::kI32, 5);
  w.WriteI32(1 << 30);
  w.WriteFieldHeader(CompactType::kI64, 6);
  w.WriteI64(INT64_MIN);
  w.WriteFieldHeader(CompactType::kDouble, 7);
  w.WriteDouble(2.5);
  w.WriteFieldHeader(CompactType::kBinary, 8);
  w.WriteBinary("bytes");
  w.WriteFieldHeader(CompactType::kList, 9);
  w.WriteListHeader(CompactType::kList, 2);  // list<list<bool>>
  w.WriteListHeader(kBoolElementType, 2);
  w.WriteBoolElement(true);
  w.WriteBoolElement(false);
  w.WriteListHeader(kBoolElementType, 0);
  w.WriteFieldHeader(CompactType::kSet, 10);
  w.WriteSetHeader(CompactType::kDouble, 1);
  w.WriteDouble(1.5);
  w.WriteFieldHeader(CompactType::kMap, 11);
  w.WriteMapHeader(CompactType::kI32, CompactType::kStruct, 1);
  w.WriteI32(9);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kMap, 1);
  w.WriteMapHeader(CompactType::kBinary, CompactType::kBinary, 0);
  w.EndStruct();
  w.WriteFieldHeader(CompactType::kStruct, 12);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kUuid, 1);
  w.WriteUuid({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  w.EndStruct();
  w.WriteFieldHeader(CompactType::kUuid, 13);
  w.WriteUuid({});
  w.WriteFieldHeader(CompactType::kI32, 100);
  w.WriteI32(-77);
  w.EndStruct();
  EXPECT_TRUE(w.status().ok());
  return out;
}

TEST(ThriftCompactTest, SkipsFieldsOfEveryTypeAndFindsTheNextField) {
  const std::string bytes = StructOfEveryType();
  ThriftCompactReader r(Bytes(bytes));
  ASSERT_TRUE(r.BeginStruct());
  ThriftField f;
  std::vector<int> types;
  while (true) {
    ASSERT_TRUE(r.ReadFieldHeader(&f));
    if (f.type == CompactType::kStop || f.id == 100) break;
    types.push_back(static_cast<int>(f.type));
    ASSERT_TRUE(r.SkipField(f)) << "field " << f.id;
  }
  EXPECT_EQ(types, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}));
  ASSERT_EQ(f.id, 100);
  int32_t v;
  ASSERT_TRUE(r.ReadI32(&v));
  EXPECT_EQ(v, -77);
  ASSERT_TRUE(r.ReadFieldHeader(&f));
  EXPECT_EQ(f.type, CompactType::kStop);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ThriftCompactTest, EveryTruncationOfAStructIsCorruptNeverACrash) {
  const std::string bytes = StructOfEveryType();
  size_t full = 0;
  ASSERT_TRUE(SkipStruct(Bytes(bytes), &full).ok());
  EXPECT_EQ(full, bytes.size());
  for (size_t n = 0; n < bytes.size(); ++n) {
    const Status s = SkipStruct(Bytes(bytes).first(n));
    EXPECT_TRUE(s.IsCorrupt()) << "prefix of " << n << " bytes: " << s.ToString();
  }
}

TEST(ThriftCompactTest, SkipRejectsStopAndInvalidTypes) {
  const std::string bytes = Hex({0x00});
  ThriftCompactReader r(Bytes(bytes));
  EXPECT_FALSE(r.SkipElement(CompactType::kStop));
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_FALSE(r.SkipElement(static_cast<CompactType>(14)));
  EXPECT_TRUE(r.status().IsCorrupt());
}

std::string NestedStructs(int depth) {
  std::string out;
  for (int i = 0; i < depth - 1; ++i) out.push_back(0x1c);  // field 1, struct
  out.append(static_cast<size_t>(depth), '\0');             // the stops
  return out;
}

TEST(ThriftCompactTest, SkipsNestingUpToTheDepthLimit) {
  const std::string bytes = NestedStructs(ThriftCompactReader::kMaxDepth);
  size_t consumed = 0;
  ASSERT_TRUE(SkipStruct(Bytes(bytes), &consumed).ok());
  EXPECT_EQ(consumed, bytes.size());
}

TEST(ThriftCompactTest, RejectsNestingPastTheDepthLimit) {
  const std::string bytes = NestedStructs(ThriftCompactReader::kMaxDepth + 1);
  const Status s = SkipStruct(Bytes(bytes));
  ASSERT_TRUE(s.IsCorrupt());
  EXPECT_NE(s.message().find("nesting deeper than the limit (64)"), std::string::npos) << s.message();
}

TEST(ThriftCompactTest, RejectsDeeplyNestedListsWithoutRecursingWithoutBound) {
  std::string bytes(100000, static_cast<char>(0x19));  // list of one list of one list ...
  ThriftCompactReader r(Bytes(bytes));
  EXPECT_FALSE(r.SkipElement(CompactType::kList));
  EXPECT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
}

TEST(ThriftCompactTest, RandomBytesNeverCrashTheSkipper) {
  std::mt19937_64 rng(20240601);
  for (int iter = 0; iter < 20000; ++iter) {
    std::string bytes(rng() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    const Status s = SkipStruct(Bytes(bytes));
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorrupt()) << s.ToString();
    }
  }
}

TEST(ThriftCompactTest, WriterRejectsNestingPastTheLimit) {
  std::string out;
  ThriftCompactWriter w(&out);
  for (int i = 0; i <= ThriftCompactReader::kMaxDepth; ++i) w.BeginStruct();
  EXPECT_TRUE(w.status().IsInvalidArgument()) << w.status().ToString();
}

TEST(ThriftCompactTest, WriterRejectsInvalidTypeIds) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginStruct();
  w.WriteFieldHeader(CompactType::kStop, 1);
  EXPECT_TRUE(w.status().IsInvalidArgument());
}

TEST(ThriftCompactTest, NamesWireTypes) {
  EXPECT_EQ(CompactTypeName(CompactType::kI64), "i64");
  EXPECT_EQ(CompactTypeName(CompactType::kStruct), "struct");
  EXPECT_EQ(CompactTypeName(static_cast<CompactType>(15)), "invalid");
}

}  // namespace
}  // namespace floe::parquet
