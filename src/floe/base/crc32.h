// CRC-32 as zlib and the Parquet spec compute it (ISO-HDLC: polynomial
// 0x04C11DB7 reflected, initial and final XOR 0xFFFFFFFF).
//
// libdeflate's implementation: it folds with carry-less multiplication
// (PCLMULQDQ / VPCLMULQDQ) where the CPU has it, several times faster than
// zlib's crc32 on page-sized buffers (docs/decisions/0046).
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <span>

namespace floe {

// Continues the CRC `crc` (0 to start) over `data` and returns it:
// Crc32(Crc32(0, a), b) == Crc32(0, a followed by b).
uint32_t Crc32(uint32_t crc, std::span<const uint8_t> data);

}  // namespace floe
