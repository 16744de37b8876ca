// Writing a Puffin file: magic, blobs, footer.

#include "floe/formats/puffin/puffin_writer.h"

#include <cstring>
#include <limits>

#include "floe/base/buffer.h"
#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/base/version.h"
#include "floe/formats/compression/codec.h"

namespace floe::puffin {
namespace {

void StoreLittleEndian32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
  p[2] = static_cast<uint8_t>(v >> 16);
  p[3] = static_cast<uint8_t>(v >> 24);
}

}  // namespace

Result<std::unique_ptr<PuffinWriter>> PuffinWriter::Open(FileIO& io, const std::string& path,
                                                         PuffinWriterOptions options) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> out, io.OpenWrite(path, options.write));
  std::unique_ptr<PuffinWriter> writer(new PuffinWriter(std::move(out), std::move(options)));
  FLOE_RETURN_IF_ERROR(writer->Append(AsBytes(kMagic)));
  return writer;
}

PuffinWriter::PuffinWriter(std::unique_ptr<OutputStream> out, PuffinWriterOptions options)
    : out_(std::move(out)), options_(std::move(options)) {
  metadata_.properties = options_.properties;
  metadata_.properties.try_emplace(std::string(kCreatedBy), StrCat("floe ", kVersion));
}

PuffinWriter::~PuffinWriter() { Abort(); }

void PuffinWriter::Abort() {
  if (done_) return;
  done_ = true;
  out_->Abort();
}

Status PuffinWriter::CheckOpen(std::string_view call) const {
  if (done_)
    return Status::InvalidArgument(StrCat("Puffin file ", Quote(path()), ": ", call, " after Finish or Abort"));
  if (failed_) {
    return Status::InvalidArgument(StrCat("Puffin file ", Quote(path()), ": ", call, " after a failed write"));
  }
  return Status::OK();
}

Status PuffinWriter::Append(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return Status::OK();
  Status s = out_->Append(bytes);
  if (!s.ok()) failed_ = true;
  return s;
}

Result<BlobMetadata> PuffinWriter::AddBlob(BlobMetadata blob, std::span<const uint8_t> data, PuffinCodec codec) {
  FLOE_RETURN_IF_ERROR(CheckOpen("AddBlob"));
  if (blob.type.empty()) {
    return Status::InvalidArgument(StrCat("Puffin file ", Quote(path()), ": a blob needs a type"));
  }
  Buffer stored;
  std::span<const uint8_t> bytes = data;
  if (codec != PuffinCodec::kNone) {
    // spec: a single frame "with content size present"; both codecs write it.
    FLOE_ASSIGN_OR_RETURN(stored, compression::Compress(ToCompressionCodec(codec), data));
    bytes = stored.span();
  }
  blob.offset = out_->bytes_written();
  blob.length = static_cast<int64_t>(bytes.size());
  blob.compression_codec = std::string(PuffinCodecName(codec));
  FLOE_RETURN_IF_ERROR(Append(bytes));
  metadata_.blobs.push_back(blob);
  return blob;
}

Result<int64_t> PuffinWriter::Finish() {
  FLOE_RETURN_IF_ERROR(CheckOpen("Finish"));
  const std::string json = FileMetadataToJson(metadata_);
  Buffer compressed;
  std::span<const uint8_t> payload = AsBytes(json);
  uint32_t flags = 0;
  if (options_.compress_footer) {
    FLOE_ASSIGN_OR_RETURN(compressed, compression::Compress(compression::Codec::kLz4Frame, payload));
    payload = compressed.span();
    flags |= kFlagFooterCompressed;
  }
  // spec: FooterPayloadSize is a 4-byte signed integer.
  if (payload.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::InvalidArgument(
        StrCat("Puffin file ", Quote(path()), ": footer payload of ", payload.size(), " bytes does not fit in 2 GiB"));
  }
  uint8_t trailer[12];
  StoreLittleEndian32(trailer, static_cast<uint32_t>(payload.size()));
  StoreLittleEndian32(trailer + 4, flags);
  std::memcpy(trailer + 8, kMagic.data(), kMagicBytes);
  FLOE_RETURN_IF_ERROR(Append(AsBytes(kMagic)));
  FLOE_RETURN_IF_ERROR(Append(payload));
  FLOE_RETURN_IF_ERROR(Append(trailer));
  const int64_t size = out_->bytes_written();
  Status closed = out_->Close();
  done_ = true;
  if (!closed.ok()) return closed;
  return size;
}

}  // namespace floe::puffin
