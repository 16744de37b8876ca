#include "floe/base/uuid.h"

#include <random>

namespace floe {
namespace {

std::mt19937_64& Generator() {
  thread_local std::mt19937_64 generator([] {
    std::random_device device;
    return (static_cast<uint64_t>(device()) << 32) ^ device();
  }());
  return generator;
}

}  // namespace

std::string RandomUuid() {
  uint64_t high = Generator()();
  uint64_t low = Generator()();
  high = (high & ~uint64_t{0xf000}) | 0x4000;                // version 4
  low = (low & ~(uint64_t{0xc} << 60)) | (uint64_t{0x8} << 60);  // variant 10
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 15; i >= 0; --i) {
    out.push_back(kDigits[(high >> (i * 4)) & 0xf]);
    if (i == 8 || i == 4) out.push_back('-');
  }
  out.push_back('-');
  for (int i = 15; i >= 0; --i) {
    out.push_back(kDigits[(low >> (i * 4)) & 0xf]);
    if (i == 12) out.push_back('-');
  }
  return out;
}

int64_t RandomPositiveId() {
  for (;;) {
    const auto id = static_cast<int64_t>(Generator()() >> 1);
    if (id != 0) return id;
  }
}

}  // namespace floe
