#include "floe/formats/parquet/metadata_enums.h"

#include "floe/base/strings.h"

namespace floe::parquet {
namespace {

template <typename E>
std::string Unknown(E value) {
  return StrCat("UNKNOWN(", static_cast<int64_t>(value), ")");
}

}  // namespace

std::string TypeName(Type value) {
  switch (value) {
    case Type::BOOLEAN: return "BOOLEAN";
    case Type::INT32: return "INT32";
    case Type::INT64: return "INT64";
    case Type::INT96: return "INT96";
    case Type::FLOAT: return "FLOAT";
    case Type::DOUBLE: return "DOUBLE";
    case Type::BYTE_ARRAY: return "BYTE_ARRAY";
    case Type::FIXED_LEN_BYTE_ARRAY: return "FIXED_LEN_BYTE_ARRAY";
  }
  return Unknown(value);
}

std::string ConvertedTypeName(ConvertedType value) {
  switch (value) {
    case ConvertedType::UTF8: return "UTF8";
    case ConvertedType::MAP: return "MAP";
    case ConvertedType::MAP_KEY_VALUE: return "MAP_KEY_VALUE";
    case ConvertedType::LIST: return "LIST";
    case ConvertedType::ENUM: return "ENUM";
    case ConvertedType::DECIMAL: return "DECIMAL";
    case ConvertedType::DATE: return "DATE";
    case ConvertedType::TIME_MILLIS: return "TIME_MILLIS";
    case ConvertedType::TIME_MICROS: return "TIME_MICROS";
    case ConvertedType::TIMESTAMP_MILLIS: return "TIMESTAMP_MILLIS";
    case ConvertedType::TIMESTAMP_MICROS: return "TIMESTAMP_MICROS";
    case ConvertedType::UINT_8: return "UINT_8";
    case ConvertedType::UINT_16: return "UINT_16";
    case ConvertedType::UINT_32: return "UINT_32";
    case ConvertedType::UINT_64: return "UINT_64";
    case ConvertedType::INT_8: return "INT_8";
    case ConvertedType::INT_16: return "INT_16";
    case ConvertedType::INT_32: return "INT_32";
    case ConvertedType::INT_64: return "INT_64";
    case ConvertedType::JSON: return "JSON";
    case ConvertedType::BSON: return "BSON";
    case ConvertedType::INTERVAL: return "INTERVAL";
  }
  return Unknown(value);
}

std::string FieldRepetitionTypeName(FieldRepetitionType value) {
  switch (value) {
    case FieldRepetitionType::REQUIRED: return "REQUIRED";
    case FieldRepetitionType::OPTIONAL: return "OPTIONAL";
    case FieldRepetitionType::REPEATED: return "REPEATED";
    case FieldRepetitionType::VECTOR: return "VECTOR";
  }
  return Unknown(value);
}

std::string EncodingName(Encoding value) {
  switch (value) {
    case Encoding::PLAIN: return "PLAIN";
    case Encoding::PLAIN_DICTIONARY: return "PLAIN_DICTIONARY";
    case Encoding::RLE: return "RLE";
    case Encoding::BIT_PACKED: return "BIT_PACKED";
    case Encoding::DELTA_BINARY_PACKED: return "DELTA_BINARY_PACKED";
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::DELTA_BYTE_ARRAY: return "DELTA_BYTE_ARRAY";
    case Encoding::RLE_DICTIONARY: return "RLE_DICTIONARY";
    case Encoding::BYTE_STREAM_SPLIT: return "BYTE_STREAM_SPLIT";
  }
  return Unknown(value);
}

std::string CompressionCodecName(CompressionCodec value) {
  switch (value) {
    case CompressionCodec::UNCOMPRESSED: return "UNCOMPRESSED";
    case CompressionCodec::SNAPPY: return "SNAPPY";
    case CompressionCodec::GZIP: return "GZIP";
    case CompressionCodec::LZO: return "LZO";
    case CompressionCodec::BROTLI: return "BROTLI";
    case CompressionCodec::LZ4: return "LZ4";
    case CompressionCodec::ZSTD: return "ZSTD";
    case CompressionCodec::LZ4_RAW: return "LZ4_RAW";
  }
  return Unknown(value);
}

std::string PageTypeName(PageType value) {
  switch (value) {
    case PageType::DATA_PAGE: return "DATA_PAGE";
    case PageType::INDEX_PAGE: return "INDEX_PAGE";
    case PageType::DICTIONARY_PAGE: return "DICTIONARY_PAGE";
    case PageType::DATA_PAGE_V2: return "DATA_PAGE_V2";
  }
  return Unknown(value);
}

std::string BoundaryOrderName(BoundaryOrder value) {
  switch (value) {
    case BoundaryOrder::UNORDERED: return "UNORDERED";
    case BoundaryOrder::ASCENDING: return "ASCENDING";
    case BoundaryOrder::DESCENDING: return "DESCENDING";
  }
  return Unknown(value);
}

std::string EdgeInterpolationAlgorithmName(EdgeInterpolationAlgorithm value) {
  switch (value) {
    case EdgeInterpolationAlgorithm::SPHERICAL: return "SPHERICAL";
    case EdgeInterpolationAlgorithm::VINCENTY: return "VINCENTY";
    case EdgeInterpolationAlgorithm::THOMAS: return "THOMAS";
    case EdgeInterpolationAlgorithm::ANDOYER: return "ANDOYER";
    case EdgeInterpolationAlgorithm::KARNEY: return "KARNEY";
  }
  return Unknown(value);
}

std::string TimeUnitName(TimeUnit value) {
  switch (value) {
    case TimeUnit::MILLIS: return "MILLIS";
    case TimeUnit::MICROS: return "MICROS";
    case TimeUnit::NANOS: return "NANOS";
  }
  return Unknown(value);
}

std::string ColumnOrderName(ColumnOrder value) {
  switch (value) {
    case ColumnOrder::TYPE_ORDER: return "TYPE_ORDER";
    case ColumnOrder::IEEE_754_TOTAL_ORDER: return "IEEE_754_TOTAL_ORDER";
    case ColumnOrder::INT96_TIMESTAMP_ORDER: return "INT96_TIMESTAMP_ORDER";
  }
  return Unknown(value);
}

Result<compression::Codec> ToCodec(CompressionCodec codec) {
  using compression::Codec;
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED: return Codec::kUncompressed;
    case CompressionCodec::SNAPPY: return Codec::kSnappy;
    case CompressionCodec::GZIP: return Codec::kGzip;
    case CompressionCodec::LZO: return Codec::kLzo;
    case CompressionCodec::BROTLI: return Codec::kBrotli;
    case CompressionCodec::LZ4: return Codec::kLz4Legacy;
    case CompressionCodec::ZSTD: return Codec::kZstd;
    case CompressionCodec::LZ4_RAW: return Codec::kLz4Raw;
  }
  return Status::Unsupported(StrCat("compression codec ", static_cast<int32_t>(codec), " is not supported"));
}

CompressionCodec ToCompressionCodec(compression::Codec codec) {
  using compression::Codec;
  switch (codec) {
    case Codec::kUncompressed: return CompressionCodec::UNCOMPRESSED;
    case Codec::kSnappy: return CompressionCodec::SNAPPY;
    case Codec::kGzip: return CompressionCodec::GZIP;
    case Codec::kZstd: return CompressionCodec::ZSTD;
    case Codec::kLz4Raw: return CompressionCodec::LZ4_RAW;
    case Codec::kLz4Hadoop:
    case Codec::kLz4Legacy:
    // Parquet has no frame codec; its deprecated LZ4 is the one whose readers
    // accept frames. floe's Parquet writer never chooses kLz4Frame.
    case Codec::kLz4Frame: return CompressionCodec::LZ4;
    case Codec::kBrotli: return CompressionCodec::BROTLI;
    case Codec::kLzo: return CompressionCodec::LZO;
  }
  return CompressionCodec::UNCOMPRESSED;  // unreachable: the switch names every Codec
}

}  // namespace floe::parquet
