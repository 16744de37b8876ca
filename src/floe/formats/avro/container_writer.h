// Writing Avro object container files: header with the schema JSON (every
// attribute kept, so Iceberg's field ids reach Java, PyIceberg and Python's
// avro), the codec and user metadata; then blocks of about
// `block_size_bytes` encoded rows, each compressed and followed by the sync
// marker.
//
// floe writes its own container files rather than using Avro C, because
// Avro C drops the field-id attributes Iceberg needs when it writes a schema
// (docs/decisions/0016-avro-reading-by-field-id.md).
//
// Thread safety: a ContainerWriter belongs to one thread.

#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/block_codec.h"
#include "floe/formats/avro/datum.h"
#include "floe/formats/avro/schema.h"
#include "floe/io/file_io.h"

namespace floe::avro {

struct ContainerWriterOptions {
  BlockCodec codec = BlockCodec::kDeflate;
  std::optional<int> level;  // see CompressBlock
  // A block is finished once its encoded rows reach this size.
  int64_t block_size_bytes = 64 * 1024;
  // Extra metadata, written after avro.schema and avro.codec, in this order.
  // Keys starting with "avro." are reserved (InvalidArgument).
  std::vector<std::pair<std::string, std::string>> metadata;
  // The sync marker; random when not given (tests fix it to compare bytes).
  std::optional<std::array<uint8_t, 16>> sync_marker;
};

class ContainerWriter {
 public:
  // Writes the header to `out`, which the writer then owns. InvalidArgument
  // for bad options; IOError from the stream.
  static Result<std::unique_ptr<ContainerWriter>> Open(std::unique_ptr<OutputStream> out,
                                                       std::shared_ptr<const Schema> schema,
                                                       const ContainerWriterOptions& options = {});
  // Aborts the stream when Close() was not called: nothing is published.
  ~ContainerWriter();
  ContainerWriter(const ContainerWriter&) = delete;
  ContainerWriter& operator=(const ContainerWriter&) = delete;

  // Appends one row. InvalidArgument (naming the field) when `row` does not
  // fit the schema; nothing of it is written then and the writer stays
  // usable. IOError from the stream.
  Status Append(const Datum& row);
  // Appends one row already in Avro binary encoding for the schema (for
  // typed writers that encode directly). The bytes are not checked.
  Status AppendEncoded(std::string_view row);
  // Ends the current block (a no-op when it is empty).
  Status Flush();
  // Flushes and publishes the file. Calling it twice is InvalidArgument.
  Status Close();

  const Schema& schema() const { return *schema_; }
  int64_t rows_written() const { return rows_written_; }
  // Bytes handed to the stream so far (the file's size after Close()).
  int64_t bytes_written() const { return out_->bytes_written(); }

 private:
  ContainerWriter() = default;
  std::unique_ptr<OutputStream> out_;
  std::shared_ptr<const Schema> schema_;
  ContainerWriterOptions options_;
  std::array<uint8_t, 16> sync_{};
  std::string block_;
  int64_t block_rows_ = 0;
  std::string scratch_;
  int64_t rows_written_ = 0;
  bool closed_ = false;
};

}  // namespace floe::avro
