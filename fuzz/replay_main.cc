// The short, bounded form of a fuzz target, for `make test`: a main() that
// feeds LLVMFuzzerTestOneInput every seed file and then deterministic
// mutations of them (bit flips, byte overwrites with edge values, truncations,
// duplicated and deleted ranges) until a time budget runs out. Built with the
// project compiler under ASan/UBSan, so a crash, leak or undefined behaviour
// fails the ctest entry. `make fuzz` still runs the coverage-guided libFuzzer
// build (clang) for longer.
//
//   replay_main SECONDS PATH...   (a PATH is a file or a folder, read recursively)

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

constexpr size_t kMaxSeedBytes = 4 << 20;  // larger seeds are skipped: the budget is short

void CollectSeeds(const std::filesystem::path& path, std::vector<std::string>* seeds) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path, ec)) {
      if (entry.is_regular_file(ec)) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());  // deterministic order across machines
    for (const auto& file : files) CollectSeeds(file, seeds);
    return;
  }
  if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) > kMaxSeedBytes) return;
  std::ifstream in(path, std::ios::binary);
  seeds->emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The input being run, saved by the abort handler so a failure can be
// replayed: `replay_main 0 crash-input`.
const std::string* g_current_input = nullptr;
const char* g_artifact_path = "fuzz-replay-crash-input";

void SaveCurrentInput(int signal_number) {
  if (g_current_input != nullptr) {
    const int fd = ::open(g_artifact_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      (void)!::write(fd, g_current_input->data(), g_current_input->size());
      ::close(fd);
    }
    static const char kNote[] = "fuzz replay: failing input saved to fuzz-replay-crash-input\n";
    (void)!::write(2, kNote, sizeof kNote - 1);
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void Run(const std::string& input) {
  g_current_input = &input;
  // A private copy, so the target cannot read past the input unseen by ASan.
  std::vector<uint8_t> copy(input.begin(), input.end());
  LLVMFuzzerTestOneInput(copy.empty() ? nullptr : copy.data(), copy.size());
  g_current_input = nullptr;
}

std::string Mutate(const std::string& seed, std::mt19937_64& rng) {
  std::string out = seed;
  if (out.empty()) {  // targets without seeds still get random bytes
    out.resize(1 + rng() % 256);
    for (auto& c : out) c = static_cast<char>(rng());
  }
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < edits; ++i) {
    switch (rng() % 6) {
      case 0:  // flip one bit
        if (!out.empty()) out[pick(out.size())] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1: {  // an edge value where sizes and counts live
        static constexpr uint8_t kEdges[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0x40, 0x15};
        if (!out.empty()) out[pick(out.size())] = static_cast<char>(kEdges[rng() % sizeof(kEdges)]);
        break;
      }
      case 2:  // truncate
        out.resize(pick(out.size() + 1));
        break;
      case 3: {  // delete a range
        const size_t at = pick(out.size());
        out.erase(at, pick(out.size() - at + 1) % 64);
        break;
      }
      case 4: {  // duplicate a range
        const size_t at = pick(out.size());
        const size_t len = pick(out.size() - at + 1) % 64;
        out.insert(at, out.substr(at, len));
        break;
      }
      default: {  // four bytes of 0xff: a huge length or count
        if (out.size() >= 4) {
          const size_t at = pick(out.size() - 3);
          for (size_t k = 0; k < 4; ++k) out[at + k] = '\xff';
        }
        break;
      }
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SECONDS PATH...\n", argv[0]);
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  std::signal(SIGABRT, SaveCurrentInput);
  std::vector<std::string> seeds;
  for (int i = 2; i < argc; ++i) CollectSeeds(argv[i], &seeds);
  if (seeds.empty()) seeds.emplace_back();  // still run the empty input

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  size_t runs = 0;
  for (const auto& seed : seeds) {
    Run(seed);
    ++runs;
  }
  std::mt19937_64 rng(0x5eed);
  while (std::chrono::steady_clock::now() < deadline) {
    Run(Mutate(seeds[runs % seeds.size()], rng));
    ++runs;
  }
  std::printf("%zu seeds, %zu runs in %.0f s, no failure\n", seeds.size(), runs, seconds);
  return 0;
}
