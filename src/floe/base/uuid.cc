#include "floe/base/uuid.h"

#include <unistd.h>

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

}  // namespace

std::string RandomUuid() {
  uint64_t high = Generator()();
  uint64_t low = Generator()();
  high = (high & ~uint64_t{0xf000}) | 0x4000;                    // version 4
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
