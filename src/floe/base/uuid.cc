#include "floe/base/uuid.h"

#include <unistd.h>

#include <chrono>
#include <random>

namespace floe {
namespace {

uint64_t FreshSeed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

// A fork() copies the generator's state into the child, and parent and
// child would then mint the same "random" ids (two processes committing to
// one table would race on one metadata file name). A process id that
// changed means a fork happened: reseed.
std::mt19937_64& Generator() {
  struct State {
    std::mt19937_64 generator{FreshSeed()};
    pid_t pid = ::getpid();
  };
  thread_local State state;
  if (const pid_t pid = ::getpid(); pid != state.pid) {
    state.generator.seed(FreshSeed());
    state.pid = pid;
  }
  return state.generator;
}

// The 128 bits as 8-4-4-4-12 lowercase hex.
std::string FormatUuid(uint64_t high, uint64_t low) {
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

constexpr uint64_t kVariantMask = uint64_t{0xc} << 60;
constexpr uint64_t kVariant10 = uint64_t{0x8} << 60;

}  // namespace

uint64_t RandomBits64() { return Generator()(); }

std::string RandomUuid() {
  uint64_t high = Generator()();
  uint64_t low = Generator()();
  high = (high & ~uint64_t{0xf000}) | 0x4000;  // version 4
  low = (low & ~kVariantMask) | kVariant10;
  return FormatUuid(high, low);
}

std::string RandomUuidV7() {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  // unix_ts_ms (48) | ver (4) | rand_a (12); var (2) | rand_b (62).
  const uint64_t high = (static_cast<uint64_t>(ms) << 16) | 0x7000 | (Generator()() & 0x0fff);
  const uint64_t low = (Generator()() & ~kVariantMask) | kVariant10;
  return FormatUuid(high, low);
}

int64_t RandomPositiveId() {
  for (;;) {
    const auto id = static_cast<int64_t>(Generator()() >> 1);
    if (id != 0) return id;
  }
}

}  // namespace floe
