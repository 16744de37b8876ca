// MakeWriterSchema: every floe type becomes the spec's Parquet layout, and
// the reader's mapping (ParquetSchema::Make) turns it back into the same
// floe schema.

#include "floe/formats/parquet/schema_writer.h"

#include <gtest/gtest.h>

#include "floe/formats/parquet/schema.h"

namespace floe::parquet {
namespace {

Schema EveryType() {
  auto point = DataType::Struct({Field("x", DataType::Float64(), false, {}, 21), Field("y", DataType::Float64())});
  return Schema({
      Field("b", DataType::Bool(), false, {}, 1),
      Field("i8", DataType::Int8(), true, {}, 2),
      Field("i16", DataType::Int16()),
      Field("i32", DataType::Int32()),
      Field("i64", DataType::Int64(), false),
      Field("u8", DataType::UInt8()),
      Field("u16", DataType::UInt16()),
      Field("u32", DataType::UInt32()),
      Field("u64", DataType::UInt64()),
      Field("f32", DataType::Float32()),
      Field("f64", DataType::Float64()),
      Field("d4", *DataType::Decimal128(4, 2)),
      Field("d9", *DataType::Decimal128(9, 0)),
      Field("d10", *DataType::Decimal128(10, 3)),
      Field("d18", *DataType::Decimal128(18, 18)),
      Field("d19", *DataType::Decimal128(19, 1)),
      Field("d38", *DataType::Decimal128(38, 9)),
      Field("date", DataType::Date32()),
      Field("t_us", DataType::Time64(floe::TimeUnit::kMicro)),
      Field("t_ns", DataType::Time64(floe::TimeUnit::kNano)),
      Field("ts_us", DataType::Timestamp(floe::TimeUnit::kMicro)),
      Field("ts_ns", DataType::Timestamp(floe::TimeUnit::kNano)),
      Field("tstz_us", DataType::Timestamp(floe::TimeUnit::kMicro, "UTC")),
      Field("tstz_ns", DataType::Timestamp(floe::TimeUnit::kNano, "UTC")),
      Field("s", DataType::Utf8()),
      Field("bin", DataType::Binary()),
      Field("fixed", *DataType::FixedSizeBinary(7)),
      Field("uuid", DataType::Uuid(), true, {}, 3),
      Field("nothing", DataType::Null()),
      Field("list", DataType::List(Field("element", DataType::Int32(), false, {}, 5)), true, {}, 4),
      Field("lists", DataType::List(Field("element", DataType::List(Field("element", DataType::Utf8()))))),
      Field("map", *DataType::Map(Field("key", DataType::Utf8(), false, {}, 7), Field("value", DataType::Int64(), true, {}, 8)),
            false, {}, 6),
      Field("map_of_lists", DataType::Map(DataType::Int32(), DataType::List(Field("element", DataType::Bool())))),
      Field("point", point, true, {}, 20),
      Field("points", DataType::List(Field("element", point, false))),
  });
}

TEST(ParquetSchemaWriterTest, EveryTypeRoundTripsThroughTheReadersMapping) {
  const Schema schema = EveryType();
  auto written = MakeWriterSchema(schema);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto read = ParquetSchema::Make(written->elements);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->schema().num_fields(), schema.num_fields());
  for (int i = 0; i < schema.num_fields(); ++i) {
    EXPECT_EQ(read->schema().field(i), schema.field(i))
        << "wrote " << schema.field(i).ToString() << ", read " << read->schema().field(i).ToString();
  }
  // The writer's leaves are the reader's columns, with the same levels.
  ASSERT_EQ(static_cast<int>(written->columns.size()), read->num_columns());
  for (int c = 0; c < read->num_columns(); ++c) {
    const WriterColumn& w = written->columns[static_cast<size_t>(c)];
    const ColumnDescriptor& r = read->column(c);
    EXPECT_EQ(w.path, r.path);
    EXPECT_EQ(w.physical_type, r.physical_type) << r.dotted_path();
    EXPECT_EQ(w.type_length, r.type_length) << r.dotted_path();
    EXPECT_EQ(w.max_definition_level, r.max_definition_level) << r.dotted_path();
    EXPECT_EQ(w.max_repetition_level, r.max_repetition_level) << r.dotted_path();
    EXPECT_TRUE(TypeEquals(w.type, r.type)) << r.dotted_path();
    EXPECT_EQ(r.conversion == ValueConversion::kNone || r.conversion == ValueConversion::kNarrowInt32 ||
                  r.conversion == ValueConversion::kDecimalFromInt32 ||
                  r.conversion == ValueConversion::kDecimalFromInt64 ||
                  r.conversion == ValueConversion::kDecimalFromBytes,
              true)
        << r.dotted_path();
  }
}

const SchemaElement& Element(const WriterSchema& s, const std::string& name) {
  for (const auto& e : s.elements) {
    if (e.name == name) return e;
  }
  ADD_FAILURE() << "no element " << name;
  return s.elements[0];
}

TEST(ParquetSchemaWriterTest, AnnotatesLeavesWithLogicalAndLegacyTypes) {
  auto s = MakeWriterSchema(EveryType());
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->elements[0].name, "schema");
  EXPECT_EQ(s->elements[0].num_children, EveryType().num_fields());

  const SchemaElement& u8 = Element(*s, "u8");
  EXPECT_EQ(u8.type, Type::INT32);
  EXPECT_EQ(u8.logicalType, LogicalType(IntType{8, false}));
  EXPECT_EQ(u8.converted_type, ConvertedType::UINT_8);
  EXPECT_EQ(Element(*s, "u64").type, Type::INT64);
  EXPECT_EQ(Element(*s, "u64").converted_type, ConvertedType::UINT_64);
  EXPECT_FALSE(Element(*s, "i64").logicalType.has_value());

  EXPECT_EQ(Element(*s, "d9").type, Type::INT32);
  EXPECT_EQ(Element(*s, "d10").type, Type::INT64);
  EXPECT_EQ(Element(*s, "d18").type, Type::INT64);
  const SchemaElement& d38 = Element(*s, "d38");
  EXPECT_EQ(d38.type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(d38.type_length, 16);
  EXPECT_EQ(d38.converted_type, ConvertedType::DECIMAL);
  EXPECT_EQ(d38.precision, 38);
  EXPECT_EQ(d38.scale, 9);
  EXPECT_EQ(d38.logicalType, LogicalType(DecimalType{9, 38}));
  EXPECT_EQ(Element(*s, "d19").type_length, 9);

  EXPECT_EQ(Element(*s, "s").converted_type, ConvertedType::UTF8);
  EXPECT_EQ(Element(*s, "s").logicalType, LogicalType(StringType{}));
  EXPECT_FALSE(Element(*s, "bin").logicalType.has_value());
  EXPECT_EQ(Element(*s, "date").converted_type, ConvertedType::DATE);
  EXPECT_EQ(Element(*s, "uuid").type_length, 16);
  EXPECT_EQ(Element(*s, "uuid").logicalType, LogicalType(UUIDType{}));
  EXPECT_EQ(Element(*s, "uuid").field_id, 3);

  // Timestamps: the legacy TIMESTAMP_MICROS means UTC-adjusted, so local
  // timestamps and nanos carry only the logical type.
  EXPECT_EQ(Element(*s, "tstz_us").logicalType, LogicalType(TimestampType{true, TimeUnit::MICROS}));
  EXPECT_EQ(Element(*s, "tstz_us").converted_type, ConvertedType::TIMESTAMP_MICROS);
  EXPECT_EQ(Element(*s, "ts_us").logicalType, LogicalType(TimestampType{false, TimeUnit::MICROS}));
  EXPECT_FALSE(Element(*s, "ts_us").converted_type.has_value());
  EXPECT_EQ(Element(*s, "tstz_ns").logicalType, LogicalType(TimestampType{true, TimeUnit::NANOS}));
  EXPECT_FALSE(Element(*s, "tstz_ns").converted_type.has_value());
  EXPECT_EQ(Element(*s, "t_ns").logicalType, LogicalType(TimeType{false, TimeUnit::NANOS}));

  const SchemaElement& nothing = Element(*s, "nothing");
  EXPECT_EQ(nothing.repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(nothing.logicalType, LogicalType(NullType{}));

  EXPECT_EQ(Element(*s, "b").repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(Element(*s, "b").field_id, 1);
}

TEST(ParquetSchemaWriterTest, WritesThreeLevelListsAndMapsWithTheSpecsNames) {
  Schema schema({Field("tags", DataType::List(DataType::Utf8()), true, {}, 1),
                 Field("m", DataType::Map(DataType::Utf8(), DataType::Int32()), false, {}, 2)});
  auto s = MakeWriterSchema(schema);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->elements.size(), 8u);
  const auto& e = s->elements;
  EXPECT_EQ(e[1].name, "tags");
  EXPECT_EQ(e[1].repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e[1].converted_type, ConvertedType::LIST);
  EXPECT_EQ(e[1].logicalType, LogicalType(ListType{}));
  EXPECT_EQ(e[1].field_id, 1);
  EXPECT_EQ(e[2].name, "list");
  EXPECT_EQ(e[2].repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_EQ(e[2].num_children, 1);
  EXPECT_EQ(e[3].name, "element");  // the floe item was named "item"
  EXPECT_EQ(e[3].repetition_type, FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(e[4].name, "m");
  EXPECT_EQ(e[4].repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e[4].converted_type, ConvertedType::MAP);
  EXPECT_EQ(e[5].name, "key_value");
  EXPECT_EQ(e[5].repetition_type, FieldRepetitionType::REPEATED);
  EXPECT_EQ(e[5].num_children, 2);
  EXPECT_EQ(e[6].name, "key");
  EXPECT_EQ(e[6].repetition_type, FieldRepetitionType::REQUIRED);
  EXPECT_EQ(e[7].name, "value");
  EXPECT_EQ(e[7].repetition_type, FieldRepetitionType::OPTIONAL);

  ASSERT_EQ(s->columns.size(), 3u);
  EXPECT_EQ(s->columns[0].dotted_path(), "tags.list.element");
  EXPECT_EQ(s->columns[0].max_definition_level, 3);
  EXPECT_EQ(s->columns[0].max_repetition_level, 1);
  EXPECT_EQ(s->columns[1].dotted_path(), "m.key_value.key");
  EXPECT_EQ(s->columns[1].max_definition_level, 1);
  EXPECT_EQ(s->columns[2].max_definition_level, 2);
  EXPECT_EQ(s->columns[2].top_level_field, 1);
}

TEST(ParquetSchemaWriterTest, AnyZoneIsWrittenAsAdjustedToUtc) {
  auto s = MakeWriterSchema(Schema({Field("t", DataType::Timestamp(floe::TimeUnit::kMicro, "Europe/Lisbon"))}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->elements[1].logicalType, LogicalType(TimestampType{true, TimeUnit::MICROS}));
  auto read = ParquetSchema::Make(s->elements);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->schema().field(0).type->timezone(), "UTC");
}

TEST(ParquetSchemaWriterTest, RefusesWhatParquetCannotHold) {
  EXPECT_TRUE(MakeWriterSchema(Schema({Field("s", DataType::Struct({}))})).status().IsUnsupported());
  EXPECT_TRUE(MakeWriterSchema(Schema({Field("f", *DataType::FixedSizeBinary(0))})).status().IsUnsupported());
  EXPECT_TRUE(MakeWriterSchema(Schema({Field("", DataType::Int32())})).status().IsInvalidArgument());
}

TEST(ParquetSchemaWriterTest, DecimalWidthIsTheSmallestThatHoldsThePrecision) {
  EXPECT_EQ(DecimalByteWidth(1), 1);
  EXPECT_EQ(DecimalByteWidth(2), 1);   // 99 < 127
  EXPECT_EQ(DecimalByteWidth(3), 2);   // 999 > 127
  EXPECT_EQ(DecimalByteWidth(9), 4);
  EXPECT_EQ(DecimalByteWidth(10), 5);
  EXPECT_EQ(DecimalByteWidth(18), 8);
  EXPECT_EQ(DecimalByteWidth(19), 9);
  EXPECT_EQ(DecimalByteWidth(38), 16);
}

}  // namespace
}  // namespace floe::parquet
