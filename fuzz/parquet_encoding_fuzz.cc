// libFuzzer target for the Parquet value decoders (formats/parquet/encoding).
//
// Input: byte 0 picks the encoding and physical type, byte 1 a parameter
// (bit width, value width, dictionary size, batch shape); the rest is the
// encoded data. Each decoder then runs over it in batches mixed with skips,
// up to kMaxValues values, so that streams declaring billions of zero-width
// values stay fast. Errors are expected; crashes, sanitizer reports and
// allocations beyond the caps are the bugs this looks for.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "floe/formats/parquet/encoding/byte_stream_split.h"
#include "floe/formats/parquet/encoding/delta_binary_packed.h"
#include "floe/formats/parquet/encoding/delta_byte_array.h"
#include "floe/formats/parquet/encoding/delta_length_byte_array.h"
#include "floe/formats/parquet/encoding/dictionary.h"
#include "floe/formats/parquet/encoding/plain.h"
#include "floe/formats/parquet/encoding/rle_bit_packed_hybrid.h"

namespace floe::parquet::encoding {
namespace {

constexpr int64_t kMaxValues = int64_t{1} << 16;
constexpr int64_t kMaxBatch = 1024;

// Drives `step(n, skip)` over batches whose sizes come from `param`, until a
// step fails, the values run out or kMaxValues are done.
template <typename Step>
void RunBatches(uint8_t param, int64_t values, Step&& step) {
  const int64_t batch = 1 + (param * 37) % kMaxBatch;
  int64_t done = 0;
  for (int i = 0; done < std::min(values, kMaxValues); ++i) {
    const int64_t n = std::min({batch + i % 7, values - done, kMaxValues - done});
    if (!step(n, ((param >> (i % 8)) & 1) != 0).ok()) return;
    done += n;
  }
}

template <typename T>
void FuzzPlain(std::span<const uint8_t> data, uint8_t param) {
  PlainDecoder<T> decoder;
  decoder.Init(data);
  std::vector<T> out(kMaxBatch + 8);
  RunBatches(param, decoder.values_left(),
             [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n, out.data()); });
}

template <typename T>
void FuzzRle(std::span<const uint8_t> data, int bit_width, bool length_prefix, uint8_t param) {
  RleBitPackedHybridDecoder decoder;
  if (length_prefix ? !decoder.InitWithLengthPrefix(data, bit_width).ok() : !decoder.Init(data, bit_width).ok()) return;
  std::vector<T> out(kMaxBatch + 8);
  // The runs carry no count: decode until they end.
  RunBatches(param, kMaxValues,
             [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n, out.data()); });
}

template <typename T>
void FuzzDeltaBinaryPacked(std::span<const uint8_t> data, uint8_t param) {
  DeltaBinaryPackedDecoder<T> decoder;
  if (!decoder.Init(data).ok()) return;
  static_cast<void>(decoder.EncodedSize());
  std::vector<T> out(kMaxBatch + 8);
  RunBatches(param, decoder.num_values(),
             [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n, out.data()); });
}

void FuzzDictionary(std::span<const uint8_t> data, uint8_t param, bool byte_arrays) {
  const int64_t dictionary_size = param;
  DictionaryIndexDecoder decoder;
  if (!decoder.Init(data, dictionary_size).ok()) return;
  if (byte_arrays) {
    // Entry i is i bytes long.
    std::vector<int32_t> offsets(static_cast<size_t>(dictionary_size) + 1, 0);
    for (int64_t i = 0; i < dictionary_size; ++i)
      offsets[static_cast<size_t>(i) + 1] = offsets[static_cast<size_t>(i)] + static_cast<int32_t>(i);
    std::vector<uint8_t> bytes(static_cast<size_t>(offsets.back()) + 1, 0x5a);
    const ByteArrayView dictionary{offsets.data(), bytes.data(), dictionary_size};
    RunBatches(param, kMaxValues, [&](int64_t n, bool skip) {
      return skip ? decoder.Skip(n) : decoder.DecodeByteArrays(n, dictionary).status();
    });
  } else {
    std::vector<int64_t> dictionary(static_cast<size_t>(dictionary_size) + 1, 7);
    std::vector<int64_t> out(kMaxBatch + 8);
    RunBatches(param, kMaxValues, [&](int64_t n, bool skip) {
      return skip ? decoder.Skip(n) : decoder.Decode(n, dictionary.data(), out.data());
    });
  }
}

void Fuzz(const uint8_t* bytes, size_t size) {
  if (size < 2) return;
  const uint8_t selector = bytes[0];
  const uint8_t param = bytes[1];
  const std::span<const uint8_t> data(bytes + 2, size - 2);
  switch (selector % 16) {
    case 0: {
      PlainBooleanDecoder decoder;
      decoder.Init(data);
      std::unique_ptr<bool[]> out(new bool[kMaxBatch + 8]);
      RunBatches(param, decoder.values_left(),
                 [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n, out.get()); });
      break;
    }
    case 1: FuzzPlain<int32_t>(data, param); break;
    case 2: FuzzPlain<int64_t>(data, param); break;
    case 3: FuzzPlain<Int96>(data, param); break;
    case 4:
      if (selector & 0x10) {
        FuzzPlain<double>(data, param);
      } else {
        FuzzPlain<float>(data, param);
      }
      break;
    case 5: {
      PlainByteArrayDecoder decoder;
      decoder.Init(data);
      RunBatches(param, kMaxValues,
                 [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n).status(); });
      break;
    }
    case 6: {
      PlainFixedLenByteArrayDecoder decoder;
      const int32_t width = 1 + param % 32;
      if (!decoder.Init(data, width).ok()) break;
      std::vector<uint8_t> out(static_cast<size_t>((kMaxBatch + 8) * width));
      RunBatches(param, decoder.values_left(),
                 [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n, out.data()); });
      break;
    }
    case 7: {
      const int bit_width = param % 33;
      const bool prefix = (selector & 0x10) != 0;
      if (bit_width <= 8 && (selector & 0x20)) {
        FuzzRle<uint8_t>(data, bit_width, prefix, param);
      } else if (bit_width <= 15 && (selector & 0x40)) {
        FuzzRle<int16_t>(data, bit_width, prefix, param);
      } else {
        FuzzRle<uint32_t>(data, bit_width, prefix, param);
      }
      break;
    }
    case 8: FuzzDictionary(data, param, false); break;
    case 9: FuzzDictionary(data, param, true); break;
    case 10: FuzzDeltaBinaryPacked<int32_t>(data, param); break;
    case 11: FuzzDeltaBinaryPacked<int64_t>(data, param); break;
    case 12: {
      DeltaLengthByteArrayDecoder decoder;
      if (!decoder.Init(data).ok()) break;
      RunBatches(param, decoder.num_values(),
                 [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n).status(); });
      break;
    }
    case 13: {
      DeltaByteArrayDecoder decoder;
      if (!decoder.Init(data).ok()) break;
      RunBatches(param, decoder.num_values(),
                 [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n).status(); });
      break;
    }
    case 14: {
      DeltaByteArrayDecoder decoder;
      if (!decoder.Init(data).ok()) break;
      const int32_t width = 1 + param % 16;
      std::vector<uint8_t> out(static_cast<size_t>((kMaxBatch + 8) * width));
      RunBatches(param, decoder.num_values(), [&](int64_t n, bool skip) {
        return skip ? decoder.Skip(n) : decoder.DecodeFixedLenByteArray(n, width, out.data());
      });
      break;
    }
    case 15: {
      ByteStreamSplitDecoder decoder;
      const int32_t width = 1 + param % 16;
      if (!decoder.Init(data, width).ok()) break;
      std::vector<uint8_t> out(static_cast<size_t>((kMaxBatch + 8) * width));
      RunBatches(param, decoder.num_values(),
                 [&](int64_t n, bool skip) { return skip ? decoder.Skip(n) : decoder.Decode(n, out.data()); });
      break;
    }
  }
}

}  // namespace
}  // namespace floe::parquet::encoding

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  floe::parquet::encoding::Fuzz(data, size);
  return 0;
}
