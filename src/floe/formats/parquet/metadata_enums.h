// The enums of parquet.thrift, with the spec's own names and values.
//
// spec: apache/parquet-format src/main/thrift/parquet.thrift. Each Thrift enum
// is an i32 on the wire; the decoder keeps the raw value, so a value a newer
// writer added (an Encoding, a CompressionCodec) is held as is and the code
// that must act on it fails with Unsupported, naming the number. Converting an
// int32 to these enums is always defined (their underlying type is fixed).
//
// Unions whose members are all empty structs (TimeUnit, ColumnOrder, the
// bloom filter unions) are held as the member's field id: a value not listed
// is a member this version of floe does not know, and 0 means no member set.
//
// Thread safety: plain values and pure functions.

#pragma once

#include <cstdint>
#include <string>

#include "floe/base/result.h"
#include "floe/formats/compression/codec.h"

namespace floe::parquet {

enum class Type : int32_t {
  BOOLEAN = 0,
  INT32 = 1,
  INT64 = 2,
  INT96 = 3,  // deprecated
  FLOAT = 4,
  DOUBLE = 5,
  BYTE_ARRAY = 6,
  FIXED_LEN_BYTE_ARRAY = 7,
};

// Deprecated by LogicalType, still written for compatibility.
enum class ConvertedType : int32_t {
  UTF8 = 0,
  MAP = 1,
  MAP_KEY_VALUE = 2,
  LIST = 3,
  ENUM = 4,
  DECIMAL = 5,
  DATE = 6,
  TIME_MILLIS = 7,
  TIME_MICROS = 8,
  TIMESTAMP_MILLIS = 9,
  TIMESTAMP_MICROS = 10,
  UINT_8 = 11,
  UINT_16 = 12,
  UINT_32 = 13,
  UINT_64 = 14,
  INT_8 = 15,
  INT_16 = 16,
  INT_32 = 17,
  INT_64 = 18,
  JSON = 19,
  BSON = 20,
  INTERVAL = 21,
};

enum class FieldRepetitionType : int32_t {
  REQUIRED = 0,
  OPTIONAL = 1,
  REPEATED = 2,
  VECTOR = 3,
};

// 1 (GROUP_VAR_INT) was never used and is not listed.
enum class Encoding : int32_t {
  PLAIN = 0,
  PLAIN_DICTIONARY = 2,
  RLE = 3,
  BIT_PACKED = 4,
  DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6,
  DELTA_BYTE_ARRAY = 7,
  RLE_DICTIONARY = 8,
  BYTE_STREAM_SPLIT = 9,
};

enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0,
  SNAPPY = 1,
  GZIP = 2,
  LZO = 3,
  BROTLI = 4,
  LZ4 = 5,  // deprecated: Hadoop-framed, see Compression.md
  ZSTD = 6,
  LZ4_RAW = 7,
};

enum class PageType : int32_t {
  DATA_PAGE = 0,
  INDEX_PAGE = 1,
  DICTIONARY_PAGE = 2,
  DATA_PAGE_V2 = 3,
};

enum class BoundaryOrder : int32_t {
  UNORDERED = 0,
  ASCENDING = 1,
  DESCENDING = 2,
};

enum class EdgeInterpolationAlgorithm : int32_t {
  SPHERICAL = 0,
  VINCENTY = 1,
  THOMAS = 2,
  ANDOYER = 3,
  KARNEY = 4,
};

// union TimeUnit (MilliSeconds / MicroSeconds / NanoSeconds).
enum class TimeUnit : int16_t {
  MILLIS = 1,
  MICROS = 2,
  NANOS = 3,
};

// union ColumnOrder. Per the spec, a reader that does not know the order of a
// column ignores its min/max statistics.
enum class ColumnOrder : int16_t {
  TYPE_ORDER = 1,             // TypeDefinedOrder
  IEEE_754_TOTAL_ORDER = 2,   // IEEE754TotalOrder
  INT96_TIMESTAMP_ORDER = 3,  // Int96TimestampOrder
};

// union BloomFilterAlgorithm / BloomFilterHash / BloomFilterCompression.
enum class BloomFilterAlgorithm : int16_t { BLOCK = 1 };           // SplitBlockAlgorithm
enum class BloomFilterHash : int16_t { XXHASH = 1 };               // XxHash
enum class BloomFilterCompression : int16_t { UNCOMPRESSED = 1 };  // Uncompressed

// The spec's name of a value ("BYTE_ARRAY", "RLE_DICTIONARY", "MICROS"), or
// "UNKNOWN(<n>)" for a value this version of floe does not know.
std::string TypeName(Type value);
std::string ConvertedTypeName(ConvertedType value);
std::string FieldRepetitionTypeName(FieldRepetitionType value);
std::string EncodingName(Encoding value);
std::string CompressionCodecName(CompressionCodec value);
std::string PageTypeName(PageType value);
std::string BoundaryOrderName(BoundaryOrder value);
std::string EdgeInterpolationAlgorithmName(EdgeInterpolationAlgorithm value);
std::string TimeUnitName(TimeUnit value);
std::string ColumnOrderName(ColumnOrder value);

// The codec that decompresses pages written with `codec`. LZ4 maps to
// kLz4Legacy (Hadoop framing with fallbacks). Unsupported for a value this
// version of floe does not know.
Result<compression::Codec> ToCodec(CompressionCodec codec);
// The Parquet codec id a writer stores for `codec` (kLz4Hadoop and
// kLz4Legacy are both LZ4).
CompressionCodec ToCompressionCodec(compression::Codec codec);

}  // namespace floe::parquet
