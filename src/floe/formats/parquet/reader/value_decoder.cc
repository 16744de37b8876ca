#include "floe/formats/parquet/reader/value_decoder.h"

#include "floe/base/strings.h"
#include "floe/formats/parquet/metadata_enums.h"

namespace floe::parquet {

std::unique_ptr<ValueDecoder> MakeValueDecoder(const ColumnDescriptor& column) {
  switch (column.physical_type) {
    case Type::BOOLEAN: return MakeBooleanValueDecoder(column);
    case Type::BYTE_ARRAY:
      if (column.type->id() == TypeId::kDictionary) return MakeByteArrayDictionaryDecoder(column);
      return MakeByteArrayValueDecoder(column);
    case Type::FIXED_LEN_BYTE_ARRAY: return MakeFixedLenByteArrayValueDecoder(column);
    default: return MakeFixedValueDecoder(column);
  }
}

Status UnsupportedEncoding(const ColumnDescriptor& column, Encoding encoding) {
  return Status::Unsupported(
      StrCat("encoding ", EncodingName(encoding), " for a ", TypeName(column.physical_type), " column"));
}

Status MissingDictionary() {
  return Status::Corrupt("dictionary-encoded data page without a dictionary page");
}

bool IsDictionaryEncoding(Encoding encoding) {
  return encoding == Encoding::RLE_DICTIONARY || encoding == Encoding::PLAIN_DICTIONARY;
}

}  // namespace floe::parquet
