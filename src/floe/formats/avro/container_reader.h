// Reading Avro object container files (spec: "Object Container Files"):
// the magic "Obj\x01", the file metadata (avro.schema, avro.codec and any
// user keys, such as Iceberg's "schema", "partition-spec", "format-version"
// and "content"), the sync marker, then blocks of rows, each followed by the
// sync marker.
//
// All bytes come through a RandomAccessFile, read ahead in windows of
// `read_ahead_bytes` (a small manifest takes one request). Every error is
// prefixed with the file: "Avro file 'm0.avro': block 3 at offset 4711:
// sync marker mismatch". Corrupt for bytes that break the format (bad magic,
// truncated header or block, sync mismatch, bad varint, string past its
// block, unknown union branch, block with trailing bytes); Unsupported for a
// codec floe lacks (bzip2, xz) and for a block that decompresses past
// `max_block_bytes`.
//
// Thread safety: a ContainerReader belongs to one thread.

#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/block_codec.h"
#include "floe/formats/avro/datum.h"
#include "floe/formats/avro/resolved_reader.h"
#include "floe/formats/avro/schema.h"
#include "floe/io/file_io.h"

namespace floe::avro {

struct ContainerReaderOptions {
  // The most memory one decompressed block may take.
  int64_t max_block_bytes = int64_t{256} << 20;
  // The most bytes the header (metadata with the schema) may take.
  int64_t max_header_bytes = int64_t{64} << 20;
  // How much to read per storage request.
  int64_t read_ahead_bytes = int64_t{1} << 20;
};

class ContainerReader {
 public:
  // Opens a file and reads its header. Errors: those of the file's reads
  // (IOError), Corrupt for a bad header or schema, Unsupported for the codec.
  static Result<std::unique_ptr<ContainerReader>> Open(std::unique_ptr<RandomAccessFile> file,
                                                       const ContainerReaderOptions& options = {});
  static Result<std::unique_ptr<ContainerReader>> Open(FileIO& io, const std::string& path,
                                                       const ContainerReaderOptions& options = {});

  const std::string& path() const { return file_->path(); }
  // The schema the file was written with.
  const std::shared_ptr<const Schema>& writer_schema() const { return writer_schema_; }
  BlockCodec codec() const { return codec_; }
  const std::array<uint8_t, 16>& sync_marker() const { return sync_; }
  // Every metadata entry, in file order (values are bytes; Avro's and
  // Iceberg's are UTF-8 text).
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }
  // The value of one metadata key, or nullptr.
  const std::string* FindMetadata(std::string_view key) const;

  // Reads the following rows shaped as `reader` (see ResolvedReader: fields by
  // field-id, then name). Corrupt when the file cannot be read as `reader`.
  // Without a reader schema, rows have the writer's shape.
  Status SetReaderSchema(std::shared_ptr<const Schema> reader);

  // Decodes the next row into `out` (reusing its storage). Returns false at
  // the end of the file. After an error every later call returns it again.
  Result<bool> Next(Datum* out);
  // Every remaining row.
  Result<std::vector<Datum>> ReadAll();

  // For typed readers that decode rows themselves (Iceberg's manifest
  // reader): the decoder positioned at the next row of the writer's schema,
  // or nullptr at the end of the file. The caller decodes exactly one row
  // from it before the next call; a block with bytes left after its last row
  // is Corrupt on that call. On a decoding error the caller stops using the
  // reader. Errors otherwise as Next(); the reader schema is not applied.
  Result<Decoder*> NextRow();

  // Rows returned so far, and blocks read so far.
  int64_t rows_read() const { return rows_read_; }
  int64_t blocks_read() const { return blocks_read_; }

 private:
  ContainerReader() = default;
  Status ReadHeader();
  Status ReadBlock();
  // Moves to a block with rows left; `*end` at the end of the file.
  Status NextBlockWithRows(bool* end);
  // Bytes [offset, offset + length) of the file; Corrupt if they run past its end.
  Status View(int64_t offset, int64_t length, std::span<const uint8_t>* out, std::string_view what);
  Status Fail(Status s);

  std::unique_ptr<RandomAccessFile> file_;
  ContainerReaderOptions options_;
  std::shared_ptr<const Schema> writer_schema_;
  std::shared_ptr<const Schema> reader_schema_;
  std::unique_ptr<ResolvedReader> resolved_;
  BlockCodec codec_ = BlockCodec::kNull;
  std::array<uint8_t, 16> sync_{};
  std::vector<std::pair<std::string, std::string>> metadata_;

  Buffer window_;
  int64_t window_offset_ = 0;

  int64_t next_block_offset_ = 0;  // where the next block starts
  int64_t block_offset_ = 0;       // where the current block started
  int64_t block_rows_left_ = 0;
  std::string block_bytes_;  // decompressed block (unused for the null codec)
  Buffer block_buffer_;      // keeps the null codec's view alive
  Decoder block_;
  int64_t rows_read_ = 0;
  int64_t blocks_read_ = 0;
  Status error_;
};

}  // namespace floe::avro
