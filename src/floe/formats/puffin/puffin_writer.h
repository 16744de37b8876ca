// PuffinWriter: writes one Puffin file through an OutputStream (spec:
// apache/iceberg format/puffin-spec.md).
//
// Open() writes the leading magic; each AddBlob() compresses and appends one
// blob and records its metadata; Finish() writes the footer (its payload
// optionally LZ4-compressed) and publishes the object. Nothing is visible
// under the path before Finish() succeeds; destroying an unfinished writer
// discards everything.
//
// Errors: InvalidArgument for a blob without a type or a call after
// Finish()/Abort(); IOError from storage; AlreadyExists from Finish() under
// WriteOptions::if_absent. After an error the writer is unusable (Abort()).
//
// Thread safety: a PuffinWriter belongs to one thread.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/puffin/puffin_metadata.h"
#include "floe/io/file_io.h"

namespace floe::puffin {

struct PuffinWriterOptions {
  // FileMetadata properties. "created-by" is set to "floe <version>" unless
  // given here (spec: "Common properties").
  std::map<std::string, std::string> properties;
  // LZ4-compress the footer payload (flag bit 0).
  bool compress_footer = false;
  WriteOptions write;
};

class PuffinWriter {
 public:
  // Starts a new object at `path`. Errors from FileIO::OpenWrite.
  static Result<std::unique_ptr<PuffinWriter>> Open(FileIO& io, const std::string& path,
                                                    PuffinWriterOptions options = {});
  ~PuffinWriter();
  PuffinWriter(const PuffinWriter&) = delete;
  PuffinWriter& operator=(const PuffinWriter&) = delete;

  // Appends `data` compressed with `codec` as one blob. `blob` supplies type,
  // fields, snapshot_id, sequence_number and properties; offset, length and
  // compression_codec are set here. Returns the metadata as it goes into the
  // footer.
  Result<BlobMetadata> AddBlob(BlobMetadata blob, std::span<const uint8_t> data,
                               PuffinCodec codec = PuffinCodec::kNone);
  Result<BlobMetadata> AddBlob(BlobMetadata blob, std::string_view data, PuffinCodec codec = PuffinCodec::kNone) {
    return AddBlob(std::move(blob), std::span(reinterpret_cast<const uint8_t*>(data.data()), data.size()), codec);
  }

  // Writes the footer and publishes the file; returns its size in bytes.
  Result<int64_t> Finish();
  // Discards the file. Idempotent; a no-op after Finish().
  void Abort();

  const std::string& path() const { return out_->path(); }
  const std::vector<BlobMetadata>& blobs() const { return metadata_.blobs; }
  int64_t bytes_written() const { return out_->bytes_written(); }

 private:
  PuffinWriter(std::unique_ptr<OutputStream> out, PuffinWriterOptions options);
  Status Append(std::span<const uint8_t> bytes);
  Status CheckOpen(std::string_view call) const;

  std::unique_ptr<OutputStream> out_;
  PuffinWriterOptions options_;
  FileMetadata metadata_;
  bool done_ = false;    // finished or aborted
  bool failed_ = false;  // a write failed: only Abort() is left
};

}  // namespace floe::puffin
