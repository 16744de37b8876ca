// Text seen as bytes, for the byte-span interfaces (FileIO, codecs, hashes,
// ciphers) that strings feed.
//
// Thread safety: pure functions, safe from any thread.

#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace floe {

// The bytes of `text`, valid as long as the storage `text` views.
inline std::span<const uint8_t> AsBytes(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

}  // namespace floe
