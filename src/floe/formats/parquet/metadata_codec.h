// Decoding and encoding of Parquet metadata structs (Thrift compact protocol).
//
// Decoders read one struct from the front of `bytes`, which they do not own
// or keep; the result owns copies of every string. Bytes after the struct
// are left alone (a plaintext-footer signature follows FileMetaData; the
// encrypted footer follows FileCryptoMetaData; page data follows a
// PageHeader); when `consumed` is not null it receives the struct's size.
//
// Errors are Corrupt with a message that names the path of structs and
// fields down to the problem: `FileMetaData: required field 'num_rows' (3)
// missing`, `PageHeader: field 'compressed_page_size' (3) is -5`,
// `FileMetaData: field 'row_groups' (4): RowGroup: ...: thrift: input ends
// inside a varint at byte 812`. The rules:
//  - unknown field ids (and 32767, reserved for extensions) are skipped;
//  - a required field with the wrong wire type is Corrupt naming both
//    types; an optional one is skipped like an unknown field, as
//    Thrift-generated readers do, because pre-release writers used some ids
//    with other types (parquet-mr 1.12 snapshots wrote ColumnMetaData field
//    15 as a list);
//  - a required field that is missing is Corrupt;
//  - sizes and counts that the reader later allocates or seeks by (page
//    sizes, value and row counts, level lengths, index and bloom filter
//    lengths, num_children) are Corrupt when negative;
//  - enum values are kept as read; the code that must act on an unknown one
//    (an Encoding, a CompressionCodec) returns Unsupported naming it. A
//    negative value is Corrupt: no parquet.thrift enum has one, new values
//    are appended;
//  - a union with more than one member set is Corrupt; an unknown member is
//    kept (metadata.h, UnknownUnionMember).
// Nesting is capped at ThriftCompactReader::kMaxDepth and every list size is
// checked against the bytes left before anything is reserved for it.
//
// A page reader that holds only a read-ahead window of the column chunk
// calls DecodePageHeader on the window and, on Corrupt, calls again with the
// rest of the chunk if the window was shorter: the header may simply have
// been cut by the window.
//
// Encoders append to *out and write fields in id order, optional fields only
// when set. They fail (InvalidArgument) only on values the wire cannot
// carry: strings or lists longer than INT32_MAX, an invalid preserved union
// member. On failure *out holds unspecified extra bytes.
//
// Thread safety: all functions are reentrant.

#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "floe/base/result.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

// The footer: the `footer_length` bytes before the trailing length and "PAR1".
Result<FileMetaData> DecodeFileMetaData(std::span<const uint8_t> bytes, size_t* consumed = nullptr);

// A page header at the start of `bytes`; *consumed is the header's size, the
// page's data begins right after it.
Result<PageHeader> DecodePageHeader(std::span<const uint8_t> bytes, size_t* consumed = nullptr);

// The page index structs at ColumnChunk.column_index_offset / offset_index_offset.
Result<ColumnIndex> DecodeColumnIndex(std::span<const uint8_t> bytes, size_t* consumed = nullptr);
Result<OffsetIndex> DecodeOffsetIndex(std::span<const uint8_t> bytes, size_t* consumed = nullptr);

// The header at ColumnMetaData.bloom_filter_offset; the bitset of numBytes follows.
Result<BloomFilterHeader> DecodeBloomFilterHeader(std::span<const uint8_t> bytes, size_t* consumed = nullptr);

// The start of the footer of an encrypted-footer ("PARE") file; the
// encrypted FileMetaData follows it.
Result<FileCryptoMetaData> DecodeFileCryptoMetaData(std::span<const uint8_t> bytes, size_t* consumed = nullptr);

// ColumnChunk.encrypted_column_metadata, after decryption.
Result<ColumnMetaData> DecodeColumnMetaData(std::span<const uint8_t> bytes, size_t* consumed = nullptr);

Status EncodeFileMetaData(const FileMetaData& value, std::string* out);
Status EncodePageHeader(const PageHeader& value, std::string* out);
Status EncodeColumnIndex(const ColumnIndex& value, std::string* out);
Status EncodeOffsetIndex(const OffsetIndex& value, std::string* out);
Status EncodeBloomFilterHeader(const BloomFilterHeader& value, std::string* out);
Status EncodeFileCryptoMetaData(const FileCryptoMetaData& value, std::string* out);
Status EncodeColumnMetaData(const ColumnMetaData& value, std::string* out);

}  // namespace floe::parquet
