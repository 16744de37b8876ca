// Reading a Puffin footer from the file's tail, and blobs by their metadata.

#include "floe/formats/puffin/puffin_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "floe/base/hex.h"
#include "floe/base/strings.h"
#include "floe/formats/compression/codec.h"

namespace floe::puffin {
namespace {

uint32_t LoadLittleEndian32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

bool IsMagic(const uint8_t* p) { return std::memcmp(p, kMagic.data(), kMagicBytes) == 0; }

// Four bytes as hex, for a bad-magic message.
std::string Hex4(const uint8_t* p) { return "0x" + Hex(std::string_view(reinterpret_cast<const char*>(p), 4)); }

std::string BlobName(const BlobMetadata& blob, size_t index) {
  if (index == SIZE_MAX) return StrCat("blob ", Quote(blob.type), " at offset ", blob.offset);
  return StrCat("blob ", index, " (", Quote(blob.type), ")");
}

}  // namespace

Result<std::unique_ptr<PuffinReader>> PuffinReader::Open(FileIO& io, const std::string& path,
                                                         const PuffinReaderOptions& options) {
  OpenReadOptions open;
  open.size = options.file_size;
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, io.OpenRead(path, open));
  return Open(std::shared_ptr<RandomAccessFile>(std::move(file)), options);
}

Result<std::unique_ptr<PuffinReader>> PuffinReader::Open(std::shared_ptr<RandomAccessFile> file,
                                                         const PuffinReaderOptions& options) {
  if (file == nullptr) return Status::InvalidArgument("PuffinReader::Open: no file");
  std::unique_ptr<PuffinReader> reader(new PuffinReader(std::move(file), options));
  FLOE_RETURN_IF_ERROR(reader->ReadFooter());
  return reader;
}

Status PuffinReader::Error(Status status) const {
  return status.WithContext(StrCat("Puffin file ", Quote(file_->path())));
}

Status PuffinReader::ReadFooter() {
  file_size_ = file_->size();
  if (file_size_ < kMinFileBytes) {
    return Error(Status::Corrupt(
        StrCat("the file is ", file_size_, " bytes, shorter than the smallest Puffin file (", kMinFileBytes, ")")));
  }
  const int64_t tail_size = std::min(file_size_, std::max(options_.footer_read_bytes, kFooterFixedBytes));
  const int64_t tail_offset = file_size_ - tail_size;
  FLOE_ASSIGN_OR_RETURN(Buffer tail, file_->Read(tail_offset, tail_size));
  const uint8_t* end = tail.data() + tail.size();

  // spec: Footer = Magic FooterPayload FooterPayloadSize Flags Magic; "a 4
  // byte integer is always signed, in a two's complement representation,
  // stored little-endian".
  if (!IsMagic(end - kMagicBytes)) {
    return Error(Status::Corrupt(StrCat("bad magic at the end: ", Hex4(end - kMagicBytes), " (expected 'PFA1')")));
  }
  const uint32_t flags = LoadLittleEndian32(end - 8);
  const auto payload_size = static_cast<int32_t>(LoadLittleEndian32(end - 12));
  if (payload_size < 0) return Error(Status::Corrupt(StrCat("footer payload size is ", payload_size)));
  if (payload_size > file_size_ - kMinFileBytes) {
    return Error(Status::Corrupt(
        StrCat("footer payload size ", payload_size, " does not fit in the ", file_size_, "-byte file")));
  }
  // spec: "all other bits are reserved for future use"; a reader that does
  // not know a flag cannot know what it changes, so it refuses the file.
  if ((flags & ~kFlagFooterCompressed) != 0) {
    return Error(Status::Corrupt(StrCat("unknown footer flags ", Hex4(end - 8), " (only bit 0 is defined)")));
  }
  footer_compressed_ = (flags & kFlagFooterCompressed) != 0;
  if (payload_size > options_.max_footer_bytes) {
    return Error(Status::Unsupported(StrCat("footer payload of ", FormatBytes(payload_size), " is above the limit of ",
                                            FormatBytes(options_.max_footer_bytes))));
  }
  footer_offset_ = file_size_ - kFooterFixedBytes - payload_size;
  // The footer (from its first magic) usually lies inside the tail read;
  // otherwise it takes one more request.
  Buffer footer;
  if (footer_offset_ >= tail_offset) {
    footer = tail.Slice(footer_offset_ - tail_offset, file_size_ - footer_offset_);
  } else {
    FLOE_ASSIGN_OR_RETURN(footer, file_->Read(footer_offset_, file_size_ - footer_offset_));
  }
  if (!IsMagic(footer.data())) {
    return Error(Status::Corrupt(StrCat("bad magic at the footer's start (offset ", footer_offset_,
                                        "): ", Hex4(footer.data()), " (expected 'PFA1')")));
  }
  if (tail_offset == 0 && !IsMagic(tail.data())) {
    return Error(Status::Corrupt(StrCat("bad magic at the start: ", Hex4(tail.data()), " (expected 'PFA1')")));
  }

  Buffer payload = footer.Slice(kMagicBytes, payload_size);
  if (footer_compressed_) {
    // spec: "LZ4-compressed (as a single LZ4 compression frame with content
    // size present)".
    constexpr compression::Codec kCodec = compression::Codec::kLz4Frame;
    Result<int64_t> size = compression::FrameContentSize(kCodec, payload.span());
    if (!size.ok()) return Error(size.status().WithContext("compressed footer payload"));
    Result<Buffer> plain = compression::DecompressToBuffer(kCodec, payload.span(), *size, options_.max_footer_bytes);
    if (!plain.ok()) return Error(plain.status().WithContext("compressed footer payload"));
    payload = std::move(*plain);
  }
  Result<FileMetadata> metadata = ParseFileMetadata(payload.view());
  if (!metadata.ok()) return Error(metadata.status().WithContext("footer"));
  metadata_ = std::move(*metadata);
  for (size_t i = 0; i < metadata_.blobs.size(); ++i) FLOE_RETURN_IF_ERROR(CheckRange(metadata_.blobs[i], i));
  return Status::OK();
}

Status PuffinReader::CheckRange(const BlobMetadata& blob, size_t index) const {
  // Blobs live between the leading magic and the footer; written this way,
  // the sum cannot overflow.
  if (blob.offset < kMagicBytes || blob.length < 0 || blob.length > footer_offset_ - blob.offset) {
    return Error(Status::Corrupt(StrCat(BlobName(blob, index), ": offset ", blob.offset, " and length ", blob.length,
                                        " are outside the blob area [", kMagicBytes, ", ", footer_offset_, ")")));
  }
  return Status::OK();
}

Result<Buffer> PuffinReader::Decode(const BlobMetadata& blob, Buffer stored) const {
  Result<PuffinCodec> codec = PuffinCodecFromName(blob.compression_codec);
  if (!codec.ok()) return Error(codec.status().WithContext(BlobName(blob, SIZE_MAX)));
  if (*codec == PuffinCodec::kNone) return stored;
  const compression::Codec block_codec = ToCompressionCodec(*codec);
  Result<int64_t> size = compression::FrameContentSize(block_codec, stored.span());
  if (!size.ok()) return Error(size.status().WithContext(BlobName(blob, SIZE_MAX)));
  Result<Buffer> plain = compression::DecompressToBuffer(block_codec, stored.span(), *size, options_.max_blob_bytes);
  if (!plain.ok()) return Error(plain.status().WithContext(BlobName(blob, SIZE_MAX)));
  return std::move(*plain);
}

Result<Buffer> PuffinReader::ReadBlob(const BlobMetadata& blob) const {
  FLOE_RETURN_IF_ERROR(CheckRange(blob, SIZE_MAX));
  Buffer stored;
  if (blob.length > 0) {
    FLOE_ASSIGN_OR_RETURN(stored, file_->Read(blob.offset, blob.length));
  }
  return Decode(blob, std::move(stored));
}

Result<std::vector<Buffer>> PuffinReader::ReadBlobs(std::span<const BlobMetadata> blobs) const {
  // Empty blobs need no bytes from storage.
  std::vector<ReadRange> ranges;
  ranges.reserve(blobs.size());
  for (const BlobMetadata& blob : blobs) {
    FLOE_RETURN_IF_ERROR(CheckRange(blob, SIZE_MAX));
    if (blob.length > 0) ranges.push_back({blob.offset, blob.length});
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<Buffer> stored, file_->ReadRanges(ranges));
  std::vector<Buffer> out;
  out.reserve(blobs.size());
  size_t next = 0;
  for (const BlobMetadata& blob : blobs) {
    FLOE_ASSIGN_OR_RETURN(Buffer plain, Decode(blob, blob.length > 0 ? std::move(stored[next++]) : Buffer()));
    out.push_back(std::move(plain));
  }
  return out;
}

}  // namespace floe::puffin
