#include "floe/formats/avro/block_codec.h"

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <memory>

#include "floe/base/strings.h"

namespace floe::avro {

std::string_view BlockCodecName(BlockCodec codec) {
  switch (codec) {
    case BlockCodec::kNull: return "null";
    case BlockCodec::kDeflate: return "deflate";
    case BlockCodec::kSnappy: return "snappy";
    case BlockCodec::kZstandard: return "zstandard";
  }
  return "?";
}

Result<BlockCodec> BlockCodecFromName(std::string_view name) {
  if (name == "null") return BlockCodec::kNull;
  if (name == "deflate") return BlockCodec::kDeflate;
  if (name == "snappy") return BlockCodec::kSnappy;
  if (name == "zstandard") return BlockCodec::kZstandard;
  if (name == "bzip2" || name == "xz") return Status::Unsupported(StrCat("Avro codec ", Quote(name), " is not supported"));
  return Status::Corrupt(StrCat("unknown Avro codec ", Quote(name)));
}

namespace {

constexpr size_t kStep = 64 * 1024;

Status OverBudget(BlockCodec codec, int64_t max_bytes) {
  return Status::Unsupported(
      StrCat("Avro ", BlockCodecName(codec), " block decompresses to more than the budget of ", max_bytes, " bytes"));
}

Status Inflate(std::span<const uint8_t> in, int64_t max_bytes, std::string* out) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) return Status::Internal("deflate: inflateInit2 failed");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, inflateEnd);
  if (in.size() > UINT32_MAX) return Status::Unsupported("deflate block over 4 GiB");
  zs.next_in = const_cast<Bytef*>(in.data());
  zs.avail_in = static_cast<uInt>(in.size());
  size_t produced = 0;
  while (true) {
    if (out->size() - produced < kStep / 2) {
      const size_t grow = std::max(kStep, out->size());
      if (static_cast<int64_t>(out->size()) >= max_bytes) return OverBudget(BlockCodec::kDeflate, max_bytes);
      out->resize(static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(out->size() + grow), max_bytes)));
    }
    zs.next_out = reinterpret_cast<Bytef*>(out->data() + produced);
    zs.avail_out = static_cast<uInt>(out->size() - produced);
    const uInt before = zs.avail_out;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    produced += before - zs.avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && zs.avail_out != 0) return Status::Corrupt("deflate block is truncated");
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      return Status::Corrupt(StrCat("deflate block is malformed: ", zs.msg ? zs.msg : "error"));
    }
    if (zs.avail_out == 0 && static_cast<int64_t>(produced) >= max_bytes) {
      return OverBudget(BlockCodec::kDeflate, max_bytes);
    }
  }
  out->resize(produced);
  return Status::OK();
}

Status ZstdDecompress(std::span<const uint8_t> in, int64_t max_bytes, std::string* out) {
  std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> ds(ZSTD_createDStream(), ZSTD_freeDStream);
  if (!ds) return Status::Internal("zstandard: out of memory");
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t produced = 0;
  size_t last = 1;
  while (input.pos < input.size || last != 0) {
    if (out->size() - produced < kStep / 2) {
      if (static_cast<int64_t>(out->size()) >= max_bytes) return OverBudget(BlockCodec::kZstandard, max_bytes);
      const size_t grow = std::max(kStep, out->size());
      out->resize(static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(out->size() + grow), max_bytes)));
    }
    ZSTD_outBuffer output{out->data() + produced, out->size() - produced, 0};
    const size_t in_before = input.pos;
    last = ZSTD_decompressStream(ds.get(), &output, &input);
    if (ZSTD_isError(last)) return Status::Corrupt(StrCat("zstandard block is malformed: ", ZSTD_getErrorName(last)));
    produced += output.pos;
    if (output.pos == 0 && input.pos == in_before && output.size > 0) {
      if (input.pos == input.size) return Status::Corrupt("zstandard block is truncated");
    }
    if (input.pos == input.size && last != 0 && output.pos < output.size) {
      return Status::Corrupt("zstandard block is truncated");
    }
  }
  out->resize(produced);
  return Status::OK();
}

uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

Status SnappyDecompress(std::span<const uint8_t> in, int64_t max_bytes, std::string* out) {
  if (in.size() < 4) return Status::Corrupt("snappy block is shorter than its 4-byte CRC");
  const char* data = reinterpret_cast<const char*>(in.data());
  const size_t n = in.size() - 4;
  size_t len = 0;
  if (!snappy::GetUncompressedLength(data, n, &len)) return Status::Corrupt("snappy block has a malformed header");
  if (static_cast<uint64_t>(len) > static_cast<uint64_t>(max_bytes)) return OverBudget(BlockCodec::kSnappy, max_bytes);
  out->resize(len);
  if (!snappy::RawUncompress(data, n, out->data())) return Status::Corrupt("snappy block is malformed");
  const uint32_t want = LoadBigEndian32(in.data() + n);
  const uint32_t got = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(out->data()), static_cast<uInt>(len)));
  if (want != got) return Status::Corrupt(StrCat("snappy block CRC mismatch: stored ", want, ", computed ", got));
  return Status::OK();
}

}  // namespace

Status DecompressBlock(BlockCodec codec, std::span<const uint8_t> in, int64_t max_bytes, std::string* out) {
  out->clear();
  switch (codec) {
    case BlockCodec::kNull:
      if (static_cast<int64_t>(in.size()) > max_bytes) return OverBudget(codec, max_bytes);
      out->assign(reinterpret_cast<const char*>(in.data()), in.size());
      return Status::OK();
    case BlockCodec::kDeflate: return Inflate(in, max_bytes, out);
    case BlockCodec::kSnappy: return SnappyDecompress(in, max_bytes, out);
    case BlockCodec::kZstandard: return ZstdDecompress(in, max_bytes, out);
  }
  return Status::Internal("unknown Avro codec");
}

Status CheckBlockCodecLevel(BlockCodec codec, std::optional<int> level) {
  switch (codec) {
    case BlockCodec::kNull:
    case BlockCodec::kSnappy:
      if (level) return Status::InvalidArgument(StrCat("Avro codec ", BlockCodecName(codec), " takes no level"));
      break;
    case BlockCodec::kDeflate:
      if (level && (*level < 0 || *level > 9)) return Status::InvalidArgument(StrCat("deflate level ", *level, " is not in 0..9"));
      break;
    case BlockCodec::kZstandard:
      if (level && (*level < 1 || *level > ZSTD_maxCLevel())) {
        return Status::InvalidArgument(StrCat("zstandard level ", *level, " is not in 1..", ZSTD_maxCLevel()));
      }
      break;
  }
  return Status::OK();
}

Status CompressBlock(BlockCodec codec, std::span<const uint8_t> in, std::optional<int> level, std::string* out) {
  FLOE_RETURN_IF_ERROR(CheckBlockCodecLevel(codec, level));
  const size_t start = out->size();
  switch (codec) {
    case BlockCodec::kNull: out->append(reinterpret_cast<const char*>(in.data()), in.size()); return Status::OK();
    case BlockCodec::kDeflate: {
      if (in.size() > UINT32_MAX / 2) return Status::InvalidArgument("deflate block over 2 GiB");
      z_stream zs{};
      if (deflateInit2(&zs, level.value_or(6), Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return Status::Internal("deflate: deflateInit2 failed");
      }
      std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, deflateEnd);
      const uLong bound = deflateBound(&zs, static_cast<uLong>(in.size()));
      out->resize(start + bound);
      zs.next_in = const_cast<Bytef*>(in.data());
      zs.avail_in = static_cast<uInt>(in.size());
      zs.next_out = reinterpret_cast<Bytef*>(out->data() + start);
      zs.avail_out = static_cast<uInt>(bound);
      if (deflate(&zs, Z_FINISH) != Z_STREAM_END) return Status::Internal("deflate: compression did not finish");
      out->resize(start + zs.total_out);
      return Status::OK();
    }
    case BlockCodec::kSnappy: {
      out->resize(start + snappy::MaxCompressedLength(in.size()) + 4);
      size_t n = 0;
      snappy::RawCompress(reinterpret_cast<const char*>(in.data()), in.size(), out->data() + start, &n);
      const uint32_t crc = static_cast<uint32_t>(crc32(0, in.data(), static_cast<uInt>(in.size())));
      char* p = out->data() + start + n;
      p[0] = static_cast<char>(crc >> 24);
      p[1] = static_cast<char>(crc >> 16);
      p[2] = static_cast<char>(crc >> 8);
      p[3] = static_cast<char>(crc);
      out->resize(start + n + 4);
      return Status::OK();
    }
    case BlockCodec::kZstandard: {
      const size_t bound = ZSTD_compressBound(in.size());
      out->resize(start + bound);
      const size_t n = ZSTD_compress(out->data() + start, bound, in.data(), in.size(), level.value_or(3));
      if (ZSTD_isError(n)) return Status::Internal(StrCat("zstandard: ", ZSTD_getErrorName(n)));
      out->resize(start + n);
      return Status::OK();
    }
  }
  return Status::Internal("unknown Avro codec");
}

}  // namespace floe::avro
