#include "floe/formats/parquet/encoding/byte_stream_split.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace floe::parquet::encoding {
namespace {

// Interleaves values [start, start + n) of K streams, each `stride` bytes
// long, into `out`.
template <int K>
void Interleave(const uint8_t* streams, int64_t stride, int64_t start, int64_t n, uint8_t* out) {
  const uint8_t* s = streams + start;
  int64_t i = 0;
#if defined(__SSE2__)
  // Sixteen values per step: byte-wise, then 16-bit, (then 32-bit) unpacks
  // transpose the K x 16 block of stream bytes into 16 whole values.
  if constexpr (K == 4) {
    for (; i + 16 <= n; i += 16) {
      const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + stride + i));
      const __m128i b2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 2 * stride + i));
      const __m128i b3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 3 * stride + i));
      const __m128i b01_lo = _mm_unpacklo_epi8(b0, b1);
      const __m128i b01_hi = _mm_unpackhi_epi8(b0, b1);
      const __m128i b23_lo = _mm_unpacklo_epi8(b2, b3);
      const __m128i b23_hi = _mm_unpackhi_epi8(b2, b3);
      auto* o = reinterpret_cast<__m128i*>(out + 4 * i);
      _mm_storeu_si128(o + 0, _mm_unpacklo_epi16(b01_lo, b23_lo));
      _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(b01_lo, b23_lo));
      _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(b01_hi, b23_hi));
      _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(b01_hi, b23_hi));
    }
  }
  if constexpr (K == 8) {
    for (; i + 16 <= n; i += 16) {
      __m128i b[8];
      for (int k = 0; k < 8; ++k) b[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k * stride + i));
      // Byte pairs (0,1), (2,3), (4,5), (6,7) for values 0..7 (lo) and 8..15 (hi).
      const __m128i p01_lo = _mm_unpacklo_epi8(b[0], b[1]), p01_hi = _mm_unpackhi_epi8(b[0], b[1]);
      const __m128i p23_lo = _mm_unpacklo_epi8(b[2], b[3]), p23_hi = _mm_unpackhi_epi8(b[2], b[3]);
      const __m128i p45_lo = _mm_unpacklo_epi8(b[4], b[5]), p45_hi = _mm_unpackhi_epi8(b[4], b[5]);
      const __m128i p67_lo = _mm_unpacklo_epi8(b[6], b[7]), p67_hi = _mm_unpackhi_epi8(b[6], b[7]);
      // Bytes 0..3 and 4..7 of values 0..3, 4..7, 8..11, 12..15.
      const __m128i q0_v0 = _mm_unpacklo_epi16(p01_lo, p23_lo), q0_v4 = _mm_unpackhi_epi16(p01_lo, p23_lo);
      const __m128i q0_v8 = _mm_unpacklo_epi16(p01_hi, p23_hi), q0_v12 = _mm_unpackhi_epi16(p01_hi, p23_hi);
      const __m128i q4_v0 = _mm_unpacklo_epi16(p45_lo, p67_lo), q4_v4 = _mm_unpackhi_epi16(p45_lo, p67_lo);
      const __m128i q4_v8 = _mm_unpacklo_epi16(p45_hi, p67_hi), q4_v12 = _mm_unpackhi_epi16(p45_hi, p67_hi);
      auto* o = reinterpret_cast<__m128i*>(out + 8 * i);
      _mm_storeu_si128(o + 0, _mm_unpacklo_epi32(q0_v0, q4_v0));
      _mm_storeu_si128(o + 1, _mm_unpackhi_epi32(q0_v0, q4_v0));
      _mm_storeu_si128(o + 2, _mm_unpacklo_epi32(q0_v4, q4_v4));
      _mm_storeu_si128(o + 3, _mm_unpackhi_epi32(q0_v4, q4_v4));
      _mm_storeu_si128(o + 4, _mm_unpacklo_epi32(q0_v8, q4_v8));
      _mm_storeu_si128(o + 5, _mm_unpackhi_epi32(q0_v8, q4_v8));
      _mm_storeu_si128(o + 6, _mm_unpacklo_epi32(q0_v12, q4_v12));
      _mm_storeu_si128(o + 7, _mm_unpackhi_epi32(q0_v12, q4_v12));
    }
  }
#endif
  for (; i < n; ++i) {
    for (int k = 0; k < K; ++k) out[i * K + k] = s[k * stride + i];
  }
}

void InterleaveAnyWidth(const uint8_t* streams, int64_t stride, int64_t start, int64_t n, int32_t width, uint8_t* out) {
  // Stream by stream, so each pass reads one stream sequentially.
  for (int32_t k = 0; k < width; ++k) {
    const uint8_t* s = streams + k * stride + start;
    for (int64_t i = 0; i < n; ++i) out[i * width + k] = s[i];
  }
}

template <int K>
void Split(const uint8_t* values, int64_t n, uint8_t* streams) {
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < K; ++k) streams[k * n + i] = values[i * K + k];
  }
}

}  // namespace

Status ByteStreamSplitDecoder::Init(std::span<const uint8_t> data, int32_t width) {
  if (width <= 0) return Status::InvalidArgument(StrCat("BYTE_STREAM_SPLIT: width ", width, " is not positive"));
  if (data.size() % static_cast<size_t>(width) != 0) {
    return Status::Corrupt(
        StrCat("BYTE_STREAM_SPLIT: ", data.size(), " bytes are not a whole number of ", width, "-byte values"));
  }
  data_ = data.data();
  width_ = width;
  num_values_ = static_cast<int64_t>(data.size()) / width;
  next_ = 0;
  return Status::OK();
}

Status ByteStreamSplitDecoder::CheckCount(int64_t n) const {
  if (n < 0) return Status::InvalidArgument(StrCat("BYTE_STREAM_SPLIT: ", n, " values requested"));
  if (n > values_left()) {
    return Status::Corrupt(
        StrCat("BYTE_STREAM_SPLIT: ", n, " values requested but only ", values_left(), " of ", num_values_, " remain"));
  }
  return Status::OK();
}

Status ByteStreamSplitDecoder::Decode(int64_t n, uint8_t* out) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  switch (width_) {
    case 4: Interleave<4>(data_, num_values_, next_, n, out); break;
    case 8: Interleave<8>(data_, num_values_, next_, n, out); break;
    default: InterleaveAnyWidth(data_, num_values_, next_, n, width_, out); break;
  }
  next_ += n;
  return Status::OK();
}

Status ByteStreamSplitDecoder::Skip(int64_t n) {
  FLOE_RETURN_IF_ERROR(CheckCount(n));
  next_ += n;
  return Status::OK();
}

Status EncodeByteStreamSplit(std::span<const uint8_t> values, int32_t width, std::vector<uint8_t>* out) {
  if (width <= 0 || values.size() % static_cast<size_t>(width) != 0) {
    return Status::InvalidArgument(
        StrCat("BYTE_STREAM_SPLIT: ", values.size(), " bytes are not whole values of width ", width));
  }
  const auto n = static_cast<int64_t>(values.size()) / width;
  const size_t start = out->size();
  out->resize(start + values.size());
  uint8_t* streams = out->data() + start;
  switch (width) {
    case 4: Split<4>(values.data(), n, streams); break;
    case 8: Split<8>(values.data(), n, streams); break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        for (int32_t k = 0; k < width; ++k) streams[k * n + i] = values[static_cast<size_t>(i * width + k)];
      }
      break;
  }
  return Status::OK();
}

}  // namespace floe::parquet::encoding
