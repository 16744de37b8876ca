// PuffinReader: the footer and blobs of one Puffin file, through a
// RandomAccessFile (spec: apache/iceberg format/puffin-spec.md).
//
// Open() reads the tail of the file once (`footer_read_bytes`, which holds
// the whole footer of any file with a few hundred blobs) and a second time
// only for a footer larger than that. It checks both footer magics, the
// payload size, the flags, the JSON, and that every blob lies between the
// leading magic and the footer; the leading magic is checked when the tail
// read covers it (files up to `footer_read_bytes`), since a request for four
// bytes would cost more than the check is worth on object storage.
//
// Every error names the file: "Puffin file 'x.puffin': bad magic at the
// end". Corrupt for any inconsistency (bad magic, sizes beyond the file,
// blobs overlapping the footer, unknown flags, malformed JSON, a compressed
// payload that does not decode); Unsupported for a blob codec other than
// lz4/zstd and for sizes above the memory budgets in PuffinReaderOptions;
// IOError from storage.
//
// Thread safety: after Open(), every method may be called from several
// threads at once (RandomAccessFile reads are thread-safe).

#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/base/buffer.h"
#include "floe/base/result.h"
#include "floe/formats/puffin/puffin_metadata.h"
#include "floe/io/file_io.h"

namespace floe::puffin {

struct PuffinReaderOptions {
  // The file's size when the caller knows it (an Iceberg manifest records
  // it); saves a request on object storage. -1 = ask the storage.
  int64_t file_size = -1;
  // How much of the file's end the first read fetches.
  int64_t footer_read_bytes = 64 * 1024;
  // The largest footer payload accepted, stored and decompressed.
  int64_t max_footer_bytes = int64_t{16} << 20;
  // The largest blob ReadBlob decompresses.
  int64_t max_blob_bytes = int64_t{256} << 20;
};

class PuffinReader {
 public:
  // Opens `path` through `io` and reads its footer. Errors as above;
  // NotFound when there is no such object.
  static Result<std::unique_ptr<PuffinReader>> Open(FileIO& io, const std::string& path,
                                                    const PuffinReaderOptions& options = {});
  // As above, over an open file (options.file_size is ignored: the file
  // knows its size).
  static Result<std::unique_ptr<PuffinReader>> Open(std::shared_ptr<RandomAccessFile> file,
                                                    const PuffinReaderOptions& options = {});

  const FileMetadata& metadata() const { return metadata_; }
  const std::vector<BlobMetadata>& blobs() const { return metadata_.blobs; }
  const std::string& path() const { return file_->path(); }
  int64_t file_size() const { return file_size_; }
  // Where the footer starts (its first magic); blobs end at or before it.
  int64_t footer_offset() const { return footer_offset_; }
  bool footer_compressed() const { return footer_compressed_; }

  // The bytes of `blob`, decompressed. `blob` is usually one of blobs(),
  // but any metadata (say, an Iceberg statistics file entry) is checked the
  // same way: Corrupt when its range is outside [4, footer_offset()) or the
  // stored bytes do not decode; Unsupported for an unknown codec or a blob
  // above max_blob_bytes.
  Result<Buffer> ReadBlob(const BlobMetadata& blob) const;
  // Several blobs with as few requests as FileIO's range coalescing allows;
  // one Buffer per blob, in input order. Errors as ReadBlob, for the first
  // failing blob.
  Result<std::vector<Buffer>> ReadBlobs(std::span<const BlobMetadata> blobs) const;

 private:
  PuffinReader(std::shared_ptr<RandomAccessFile> file, PuffinReaderOptions options)
      : file_(std::move(file)), options_(options) {}
  Status ReadFooter();
  Status CheckRange(const BlobMetadata& blob, size_t index) const;
  Result<Buffer> Decode(const BlobMetadata& blob, Buffer stored) const;
  Status Error(Status status) const;

  std::shared_ptr<RandomAccessFile> file_;
  PuffinReaderOptions options_;
  int64_t file_size_ = 0;
  int64_t footer_offset_ = 0;
  bool footer_compressed_ = false;
  FileMetadata metadata_;
};

}  // namespace floe::puffin
