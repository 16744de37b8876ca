// The value decoders against pages other engines wrote: parquet-testing
// files from parquet-mr, Arrow and Impala, read in place. A minimal flat
// column reader here walks each chunk's pages (footer and page headers come
// from metadata_codec.h, decompression from compression/codec.h) and renders
// values as text, which is compared with the fixture's *_expect.csv or with
// values DuckDB 1.5.6 reads from the same file.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "floe/formats/compression/codec.h"
#include "floe/formats/parquet/encoding/byte_stream_split.h"
#include "floe/formats/parquet/encoding/delta_binary_packed.h"
#include "floe/formats/parquet/encoding/delta_byte_array.h"
#include "floe/formats/parquet/encoding/delta_length_byte_array.h"
#include "floe/formats/parquet/encoding/dictionary.h"
#include "floe/formats/parquet/encoding/plain.h"
#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/metadata_enums.h"
#include "formats/encoding_test_util.h"
#include "formats/parquet_fixtures.h"

namespace floe::parquet::encoding {
namespace {

using Cells = std::vector<std::optional<std::string>>;

std::string Render(bool v) { return v ? "true" : "false"; }
std::string Render(int32_t v) { return std::to_string(v); }
std::string Render(int64_t v) { return std::to_string(v); }
std::string Render(float v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(v));
  return text;
}
std::string Render(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
}
// Julian day and nanoseconds of the day.
std::string Render(const Int96& v) {
  const uint64_t nanos = v.value[0] | static_cast<uint64_t>(v.value[1]) << 32;
  return std::to_string(v.value[2]) + "+" + std::to_string(nanos);
}

template <typename T>
void AppendRendered(const std::vector<T>& values, std::vector<std::string>* out) {
  for (const T& v : values) out->push_back(Render(v));
}
void AppendRendered(const std::unique_ptr<bool[]>& values, int64_t n, std::vector<std::string>* out) {
  for (int64_t i = 0; i < n; ++i) out->push_back(Render(values[static_cast<size_t>(i)]));
}
void AppendRendered(const ByteArrayBatch& batch, std::vector<std::string>* out) {
  for (const std::string& s : testing::ToStrings(batch)) out->push_back(s);
}
void AppendFixed(const std::vector<uint8_t>& bytes, int32_t width, std::vector<std::string>* out) {
  for (size_t i = 0; i < bytes.size(); i += static_cast<size_t>(width)) {
    out->emplace_back(reinterpret_cast<const char*>(bytes.data()) + i, static_cast<size_t>(width));
  }
}

// Reads one flat column chunk (no repetition; max definition level 0 or 1).
class FlatColumnReader {
 public:
  FlatColumnReader(std::span<const uint8_t> file, const ColumnMetaData& meta, const SchemaElement& schema)
      : file_(file),
        meta_(meta),
        type_(*schema.type),
        width_(schema.type_length.value_or(0)),
        optional_(schema.repetition_type == FieldRepetitionType::OPTIONAL) {}

  Status ReadAll(Cells* cells) {
    FLOE_ASSIGN_OR_RETURN(const compression::Codec codec, ToCodec(meta_.codec));
    int64_t offset = meta_.data_page_offset;
    if (meta_.dictionary_page_offset && *meta_.dictionary_page_offset > 0) {
      offset = std::min(offset, *meta_.dictionary_page_offset);
    }
    int64_t values_read = 0;
    while (values_read < meta_.num_values) {
      size_t consumed = 0;
      FLOE_ASSIGN_OR_RETURN(const PageHeader header,
                            DecodePageHeader(file_.subspan(static_cast<size_t>(offset)), &consumed));
      const auto body =
          file_.subspan(static_cast<size_t>(offset) + consumed, static_cast<size_t>(header.compressed_page_size));
      offset += static_cast<int64_t>(consumed) + header.compressed_page_size;
      if (header.type == PageType::DICTIONARY_PAGE) {
        FLOE_ASSIGN_OR_RETURN(dictionary_, Decompress(codec, body, header.uncompressed_page_size));
        dictionary_size_ = header.dictionary_page_header->num_values;
      } else if (header.type == PageType::DATA_PAGE) {
        const DataPageHeader& data = *header.data_page_header;
        FLOE_ASSIGN_OR_RETURN(const Buffer page, Decompress(codec, body, header.uncompressed_page_size));
        std::span<const uint8_t> rest = page.span();
        std::vector<uint8_t> defined(static_cast<size_t>(data.num_values), 1);
        if (optional_) {
          // Data page v1: definition levels carry the 4-byte length.
          RleBitPackedHybridDecoder levels;
          FLOE_ASSIGN_OR_RETURN(const int64_t levels_size, levels.InitWithLengthPrefix(rest, 1));
          FLOE_RETURN_IF_ERROR(levels.Decode(data.num_values, defined.data()));
          rest = rest.subspan(static_cast<size_t>(levels_size));
        }
        FLOE_RETURN_IF_ERROR(DecodePage(data.encoding, rest, defined, cells));
        values_read += data.num_values;
      } else if (header.type == PageType::DATA_PAGE_V2) {
        const DataPageHeaderV2& data = *header.data_page_header_v2;
        // Repetition then definition levels, never compressed and without the
        // length prefix in v2.
        const auto levels_size =
            static_cast<size_t>(data.definition_levels_byte_length + data.repetition_levels_byte_length);
        std::vector<uint8_t> defined(static_cast<size_t>(data.num_values), 1);
        if (optional_) {
          RleBitPackedHybridDecoder levels;
          FLOE_RETURN_IF_ERROR(levels.Init(body.subspan(static_cast<size_t>(data.repetition_levels_byte_length),
                                                        static_cast<size_t>(data.definition_levels_byte_length)),
                                           1));
          FLOE_RETURN_IF_ERROR(levels.Decode(data.num_values, defined.data()));
        }
        const compression::Codec values_codec =
            data.is_compressed.value_or(true) ? codec : compression::Codec::kUncompressed;
        FLOE_ASSIGN_OR_RETURN(const Buffer values,
                              Decompress(values_codec, body.subspan(levels_size),
                                         header.uncompressed_page_size - static_cast<int32_t>(levels_size)));
        FLOE_RETURN_IF_ERROR(DecodePage(data.encoding, values.span(), defined, cells));
        values_read += data.num_values;
      }
    }
    return Status::OK();
  }

 private:
  static Result<Buffer> Decompress(compression::Codec codec, std::span<const uint8_t> in, int32_t size) {
    if (codec == compression::Codec::kUncompressed) return Buffer::CopyOf(in);
    return compression::DecompressToBuffer(codec, in, size, int64_t{1} << 30);
  }

  // Decodes the page's non-null values and spreads them over `defined`.
  Status DecodePage(Encoding encoding, std::span<const uint8_t> data, const std::vector<uint8_t>& defined,
                    Cells* cells) {
    int64_t n = 0;
    for (uint8_t d : defined) n += d;
    std::vector<std::string> values;
    FLOE_RETURN_IF_ERROR(DecodeValues(encoding, data, n, &values));
    if (static_cast<int64_t>(values.size()) != n) return Status::Internal("value count mismatch");
    size_t next = 0;
    for (uint8_t d : defined) {
      cells->push_back(d ? std::optional<std::string>(values[next++]) : std::nullopt);
    }
    return Status::OK();
  }

  Status DecodeValues(Encoding encoding, std::span<const uint8_t> data, int64_t n, std::vector<std::string>* out) {
    switch (encoding) {
      case Encoding::PLAIN: return DecodePlain(data, n, out);
      case Encoding::PLAIN_DICTIONARY:
      case Encoding::RLE_DICTIONARY: return DecodeDictionary(data, n, out);
      case Encoding::RLE: {
        RleBitPackedHybridDecoder decoder;
        FLOE_RETURN_IF_ERROR(decoder.InitWithLengthPrefix(data, 1).status());
        std::unique_ptr<bool[]> values(new bool[static_cast<size_t>(n) + 1]);
        FLOE_RETURN_IF_ERROR(decoder.Decode(n, values.get()));
        AppendRendered(values, n, out);
        return Status::OK();
      }
      case Encoding::DELTA_BINARY_PACKED:
        if (type_ == Type::INT32) return DecodeDeltaBinaryPacked<int32_t>(data, n, out);
        return DecodeDeltaBinaryPacked<int64_t>(data, n, out);
      case Encoding::DELTA_LENGTH_BYTE_ARRAY: {
        DeltaLengthByteArrayDecoder decoder;
        FLOE_RETURN_IF_ERROR(decoder.Init(data));
        FLOE_ASSIGN_OR_RETURN(const ByteArrayBatch batch, decoder.Decode(n));
        AppendRendered(batch, out);
        return Status::OK();
      }
      case Encoding::DELTA_BYTE_ARRAY: {
        DeltaByteArrayDecoder decoder;
        FLOE_RETURN_IF_ERROR(decoder.Init(data));
        FLOE_ASSIGN_OR_RETURN(const ByteArrayBatch batch, decoder.Decode(n));
        AppendRendered(batch, out);
        return Status::OK();
      }
      case Encoding::BYTE_STREAM_SPLIT: {
        if (type_ == Type::FLOAT) return DecodeByteStreamSplit<float>(data, n, out);
        if (type_ == Type::DOUBLE) return DecodeByteStreamSplit<double>(data, n, out);
        if (type_ == Type::INT32) return DecodeByteStreamSplit<int32_t>(data, n, out);
        return DecodeByteStreamSplit<int64_t>(data, n, out);
      }
      default: return Status::Unsupported("encoding not covered by this test");
    }
  }

  template <typename T>
  Status DecodeDeltaBinaryPacked(std::span<const uint8_t> data, int64_t n, std::vector<std::string>* out) {
    DeltaBinaryPackedDecoder<T> decoder;
    FLOE_RETURN_IF_ERROR(decoder.Init(data));
    std::vector<T> values(static_cast<size_t>(n));
    FLOE_RETURN_IF_ERROR(decoder.Decode(n, values.data()));
    AppendRendered(values, out);
    return Status::OK();
  }

  template <typename T>
  Status DecodeByteStreamSplit(std::span<const uint8_t> data, int64_t n, std::vector<std::string>* out) {
    ByteStreamSplitDecoder decoder;
    FLOE_RETURN_IF_ERROR(decoder.Init(data, sizeof(T)));
    std::vector<T> values(static_cast<size_t>(n));
    FLOE_RETURN_IF_ERROR(decoder.Decode(n, values.data()));
    AppendRendered(values, out);
    return Status::OK();
  }

  template <typename T>
  static Status DecodePlainFixed(std::span<const uint8_t> data, int64_t n, std::vector<T>* values) {
    PlainDecoder<T> decoder;
    decoder.Init(data);
    values->resize(static_cast<size_t>(n));
    return decoder.Decode(n, values->data());
  }

  Status DecodePlain(std::span<const uint8_t> data, int64_t n, std::vector<std::string>* out) {
    switch (type_) {
      case Type::BOOLEAN: {
        PlainBooleanDecoder decoder;
        decoder.Init(data);
        std::unique_ptr<bool[]> values(new bool[static_cast<size_t>(n) + 1]);
        FLOE_RETURN_IF_ERROR(decoder.Decode(n, values.get()));
        AppendRendered(values, n, out);
        return Status::OK();
      }
      case Type::INT32: return RenderPlain<int32_t>(data, n, out);
      case Type::INT64: return RenderPlain<int64_t>(data, n, out);
      case Type::INT96: return RenderPlain<Int96>(data, n, out);
      case Type::FLOAT: return RenderPlain<float>(data, n, out);
      case Type::DOUBLE: return RenderPlain<double>(data, n, out);
      case Type::BYTE_ARRAY: {
        PlainByteArrayDecoder decoder;
        decoder.Init(data);
        FLOE_ASSIGN_OR_RETURN(const ByteArrayBatch batch, decoder.Decode(n));
        AppendRendered(batch, out);
        return Status::OK();
      }
      case Type::FIXED_LEN_BYTE_ARRAY: {
        PlainFixedLenByteArrayDecoder decoder;
        FLOE_RETURN_IF_ERROR(decoder.Init(data, width_));
        std::vector<uint8_t> bytes(static_cast<size_t>(n * width_));
        FLOE_RETURN_IF_ERROR(decoder.Decode(n, bytes.data()));
        AppendFixed(bytes, width_, out);
        return Status::OK();
      }
    }
    return Status::Unsupported("type");
  }

  template <typename T>
  Status RenderPlain(std::span<const uint8_t> data, int64_t n, std::vector<std::string>* out) {
    std::vector<T> values;
    FLOE_RETURN_IF_ERROR(DecodePlainFixed(data, n, &values));
    AppendRendered(values, out);
    return Status::OK();
  }

  template <typename T>
  Status GatherFixed(DictionaryIndexDecoder& indices, int64_t n, std::vector<std::string>* out) {
    std::vector<T> dictionary;
    FLOE_RETURN_IF_ERROR(DecodePlainFixed(dictionary_.span(), dictionary_size_, &dictionary));
    std::vector<T> values(static_cast<size_t>(n));
    FLOE_RETURN_IF_ERROR(indices.Decode(n, dictionary.data(), values.data()));
    AppendRendered(values, out);
    return Status::OK();
  }

  Status DecodeDictionary(std::span<const uint8_t> data, int64_t n, std::vector<std::string>* out) {
    DictionaryIndexDecoder indices;
    FLOE_RETURN_IF_ERROR(indices.Init(data, dictionary_size_));
    switch (type_) {
      case Type::BOOLEAN: {
        PlainBooleanDecoder plain;
        plain.Init(dictionary_.span());
        std::unique_ptr<bool[]> dictionary(new bool[static_cast<size_t>(dictionary_size_) + 1]);
        FLOE_RETURN_IF_ERROR(plain.Decode(dictionary_size_, dictionary.get()));
        std::unique_ptr<bool[]> values(new bool[static_cast<size_t>(n) + 1]);
        FLOE_RETURN_IF_ERROR(indices.Decode(n, dictionary.get(), values.get()));
        AppendRendered(values, n, out);
        return Status::OK();
      }
      case Type::INT32: return GatherFixed<int32_t>(indices, n, out);
      case Type::INT64: return GatherFixed<int64_t>(indices, n, out);
      case Type::INT96: return GatherFixed<Int96>(indices, n, out);
      case Type::FLOAT: return GatherFixed<float>(indices, n, out);
      case Type::DOUBLE: return GatherFixed<double>(indices, n, out);
      case Type::BYTE_ARRAY: {
        PlainByteArrayDecoder plain;
        plain.Init(dictionary_.span());
        FLOE_ASSIGN_OR_RETURN(const ByteArrayBatch dictionary, plain.Decode(dictionary_size_));
        FLOE_ASSIGN_OR_RETURN(const ByteArrayBatch batch, indices.DecodeByteArrays(n, dictionary.view()));
        AppendRendered(batch, out);
        return Status::OK();
      }
      case Type::FIXED_LEN_BYTE_ARRAY: {
        std::vector<uint8_t> bytes(static_cast<size_t>(n * width_));
        FLOE_RETURN_IF_ERROR(indices.DecodeFixedLenByteArray(n, dictionary_.data(), width_, bytes.data()));
        AppendFixed(bytes, width_, out);
        return Status::OK();
      }
    }
    return Status::Unsupported("type");
  }

  std::span<const uint8_t> file_;
  const ColumnMetaData& meta_;
  Type type_;
  int32_t width_;
  bool optional_;
  Buffer dictionary_;
  int32_t dictionary_size_ = 0;
};

// Every column of the first row group of a flat file, by column index.
std::vector<Cells> ReadColumns(const std::string& name) {
  const std::string file = parquet::testing::ReadFileBytes(parquet::testing::ParquetTestingDir() + "/data/" + name);
  const parquet::testing::Footer footer = parquet::testing::FindFooter(file);
  EXPECT_TRUE(footer.ok) << name;
  const Result<FileMetaData> metadata = DecodeFileMetaData(footer.bytes);
  EXPECT_TRUE(metadata.ok()) << metadata.status().ToString();
  if (!metadata.ok()) return {};
  std::vector<Cells> columns;
  const RowGroup& row_group = metadata->row_groups.at(0);
  for (size_t c = 0; c < row_group.columns.size(); ++c) {
    const ColumnMetaData& meta = *row_group.columns[c].meta_data;
    FlatColumnReader reader(parquet::testing::AsBytes(file), meta, metadata->schema.at(c + 1));
    Cells cells;
    const Status status = reader.ReadAll(&cells);
    EXPECT_TRUE(status.ok()) << name << " column " << c << ": " << status.ToString();
    columns.push_back(std::move(cells));
  }
  return columns;
}

// The *_expect.csv of a fixture, by column: quoted or bare values, an empty
// bare field for null.
std::vector<Cells> ReadExpectedCsv(const std::string& name) {
  std::istringstream in(parquet::testing::ReadFileBytes(parquet::testing::ParquetTestingDir() + "/data/" + name));
  std::string line;
  std::getline(in, line);  // header
  std::vector<Cells> columns;
  while (std::getline(in, line)) {
    size_t column = 0;
    size_t pos = 0;
    while (pos <= line.size()) {
      std::optional<std::string> cell;
      if (pos < line.size() && line[pos] == '"') {
        // Quoted: may hold commas ("KOREA, REPUBLIC OF").
        const size_t close = line.find('"', pos + 1);
        cell = line.substr(pos + 1, close - pos - 1);
        pos = close + 1;
      } else {
        const size_t end = std::min(line.find(',', pos), line.size());
        if (end > pos) cell = line.substr(pos, end - pos);
        pos = end;
      }
      if (columns.size() <= column) columns.resize(column + 1);
      columns[column++].push_back(cell);
      ++pos;  // the comma
    }
  }
  return columns;
}

void ExpectMatchesCsv(const std::string& parquet, const std::string& csv) {
  const std::vector<Cells> actual = ReadColumns(parquet);
  const std::vector<Cells> expected = ReadExpectedCsv(csv);
  ASSERT_EQ(actual.size(), expected.size()) << parquet;
  for (size_t c = 0; c < actual.size(); ++c) EXPECT_EQ(actual[c], expected[c]) << parquet << " column " << c;
}

TEST(EncodingFixtureTest, DeltaBinaryPackedFromParquetMrAtEveryBitWidth) {
  // 65 INT64 columns of bit widths 0..64 and one INT32, two blocks each.
  ExpectMatchesCsv("delta_binary_packed.parquet", "delta_binary_packed_expect.csv");
}

TEST(EncodingFixtureTest, DeltaByteArrayFromParquetMrWithNulls) {
  ExpectMatchesCsv("delta_byte_array.parquet", "delta_byte_array_expect.csv");
}

TEST(EncodingFixtureTest, DeltaEncodingsInRequiredAndOptionalColumns) {
  ExpectMatchesCsv("delta_encoding_required_column.parquet", "delta_encoding_required_column_expect.csv");
  ExpectMatchesCsv("delta_encoding_optional_column.parquet", "delta_encoding_optional_column_expect.csv");
}

TEST(EncodingFixtureTest, DeltaLengthByteArrayFromArrow) {
  // DuckDB reads 1000 values "apple_banana_mango" + i * i.
  const std::vector<Cells> columns = ReadColumns("delta_length_byte_array.parquet");
  ASSERT_EQ(columns.size(), 1u);
  ASSERT_EQ(columns[0].size(), 1000u);
  for (int64_t i = 0; i < 1000; ++i)
    EXPECT_EQ(columns[0][static_cast<size_t>(i)], "apple_banana_mango" + std::to_string(i * i));
}

TEST(EncodingFixtureTest, RleEncodedBooleansWithNulls) {
  // As DuckDB reads the file: T true, F false, N null.
  const std::string expected = "TFNTTFFTTTFFTTFNTTFFTTFNTTFFTTTFFFFTTFNTTFFTTTFFNTTFFTTTFTTFNTTFFTTT";
  const std::vector<Cells> columns = ReadColumns("rle_boolean_encoding.parquet");
  ASSERT_EQ(columns.size(), 1u);
  std::string actual;
  for (const auto& cell : columns[0]) actual += !cell ? 'N' : *cell == "true" ? 'T' : 'F';
  EXPECT_EQ(actual, expected);
}

TEST(EncodingFixtureTest, ByteStreamSplitFloatsAndDoubles) {
  const std::vector<Cells> columns = ReadColumns("byte_stream_split.zstd.parquet");
  ASSERT_EQ(columns.size(), 2u);
  ASSERT_EQ(columns[0].size(), 300u);
  ASSERT_EQ(columns[1].size(), 300u);
  // The values DuckDB reads, first two and last.
  EXPECT_EQ(columns[0][0], Render(1.764052391052246f));
  EXPECT_EQ(columns[0][1], Render(0.40015721321105957f));
  EXPECT_EQ(columns[0][299], Render(0.3700558841228485f));
  EXPECT_EQ(columns[1][0], Render(-1.3065268517353166));
  EXPECT_EQ(columns[1][1], Render(1.658130679618188));
  EXPECT_EQ(columns[1][299], Render(-0.17858909208732915));
}

TEST(EncodingFixtureTest, PlainAndPlainDictionaryOfEveryType) {
  // alltypes_plain is PLAIN throughout (INT96 timestamps included);
  // alltypes_dictionary the same data dictionary-encoded, BOOLEAN too.
  const std::vector<Cells> plain = ReadColumns("alltypes_plain.parquet");
  ASSERT_EQ(plain.size(), 11u);
  const Cells ids = {"4", "5", "6", "7", "2", "3", "0", "1"};
  EXPECT_EQ(plain[0], ids);
  EXPECT_EQ(plain[1], (Cells{"true", "false", "true", "false", "true", "false", "true", "false"}));
  EXPECT_EQ(plain[5][1], "10");
  EXPECT_EQ(plain[6][1], Render(1.1f));
  EXPECT_EQ(plain[7][1], Render(10.1));
  EXPECT_EQ(plain[8],
            (Cells{"03/01/09", "03/01/09", "04/01/09", "04/01/09", "02/01/09", "02/01/09", "01/01/09", "01/01/09"}));
  EXPECT_EQ(plain[9][0], "0");
  // 2009-03-01 is Julian day 2454892; the second row is one minute later.
  EXPECT_EQ(plain[10][0], "2454892+0");
  EXPECT_EQ(plain[10][1], "2454892+60000000000");

  const std::vector<Cells> dictionary = ReadColumns("alltypes_dictionary.parquet");
  ASSERT_EQ(dictionary.size(), 11u);
  EXPECT_EQ(dictionary[0], (Cells{"0", "1"}));
  EXPECT_EQ(dictionary[1], (Cells{"true", "false"}));
  EXPECT_EQ(dictionary[5], (Cells{"0", "10"}));
  EXPECT_EQ(dictionary[8], (Cells{"01/01/09", "01/01/09"}));
  EXPECT_EQ(dictionary[10][0], "2454833+0");  // 2009-01-01
}

}  // namespace
}  // namespace floe::parquet::encoding
