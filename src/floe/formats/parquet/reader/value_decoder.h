// ValueDecoder: the values of one leaf column's pages, decoded by the page's
// encoding and converted to floe's layout, appended to a LeafBatch.
//
// One implementation per physical type family (value_decoder_*.cc); each
// page picks its encoding's decoder from encoding/. The dictionary is
// converted once when its page arrives, so dictionary-encoded pages gather
// finished values. Virtual dispatch happens once per call, never per value.
//
// Errors carry no context; the ColumnReader adds the file, column and page.
//
// Thread safety: one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/reader/leaf_batch.h"
#include "floe/formats/parquet/schema.h"

namespace floe::parquet {

class ValueDecoder {
 public:
  virtual ~ValueDecoder() = default;

  // Takes a dictionary page: `num_values` PLAIN values. Corrupt when the data
  // holds fewer; Unsupported for another encoding.
  virtual Status SetDictionary(Encoding encoding, std::span<const uint8_t> data, int64_t num_values) = 0;

  // Starts the values section of a data page. `data` lies inside `owner`
  // (the page's buffer); both must stay valid until the next StartPage().
  // Corrupt for a dictionary encoding without a dictionary, Unsupported for
  // an encoding the type cannot have.
  virtual Status StartPage(Encoding encoding, std::span<const uint8_t> data, const Buffer& owner) = 0;

  // Appends the page's next n values to `out`. Corrupt when the page holds
  // fewer or they are malformed. PLAIN values already in floe's layout,
  // aligned to their width, may be handed out without a copy: `out` then
  // borrows a slice of `owner` (LeafBatch::borrowed_values), which keeps the
  // page's memory alive after the reader has moved on or been destroyed.
  virtual Status Decode(int64_t n, LeafBatch* out) = 0;

  // Moves past the page's next n values.
  virtual Status Skip(int64_t n) = 0;
};

// The decoder for `column`'s physical type and conversion.
std::unique_ptr<ValueDecoder> MakeValueDecoder(const ColumnDescriptor& column);

// The per-family factories behind MakeValueDecoder.
std::unique_ptr<ValueDecoder> MakeBooleanValueDecoder(const ColumnDescriptor& column);
std::unique_ptr<ValueDecoder> MakeFixedValueDecoder(const ColumnDescriptor& column);
std::unique_ptr<ValueDecoder> MakeByteArrayValueDecoder(const ColumnDescriptor& column);
std::unique_ptr<ValueDecoder> MakeFixedLenByteArrayValueDecoder(const ColumnDescriptor& column);
// BYTE_ARRAY columns whose floe type is a dictionary (value_decoder_dictionary.cc).
std::unique_ptr<ValueDecoder> MakeByteArrayDictionaryDecoder(const ColumnDescriptor& column);

// Shared by the implementations.
Status UnsupportedEncoding(const ColumnDescriptor& column, Encoding encoding);
Status MissingDictionary();
bool IsDictionaryEncoding(Encoding encoding);
// A BYTE_ARRAY dictionary page's `num_values` PLAIN values. Unsupported for
// another encoding; Corrupt when the data holds fewer.
Result<encoding::ByteArrayBatch> DecodeByteArrayDictionaryPage(const ColumnDescriptor& column, Encoding encoding,
                                                               std::span<const uint8_t> data, int64_t num_values);

}  // namespace floe::parquet
