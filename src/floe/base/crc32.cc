#include "floe/base/crc32.h"

#include <libdeflate.h>

namespace floe {

uint32_t Crc32(uint32_t crc, std::span<const uint8_t> data) {
  // libdeflate reads nothing for len 0 but takes no null pointer promise
  // from us; an empty span may hold one.
  if (data.empty()) return crc;
  return libdeflate_crc32(crc, data.data(), data.size());
}

}  // namespace floe
