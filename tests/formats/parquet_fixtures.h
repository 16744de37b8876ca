// Test helpers over the parquet-testing fixtures, read in place from
// FLOE_SHARED_DIR (never copied into the repository).

#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "floe/base/bytes.h"

namespace floe::parquet::testing {

inline std::string ParquetTestingDir() { return std::string(FLOE_SHARED_DIR) + "/fixtures/parquet-testing"; }

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Files under `dir` (recursively) whose name ends with `suffix`, sorted.
inline std::vector<std::string> FilesEndingWith(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (entry.is_regular_file() && path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(path);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

using ::floe::AsBytes;  // floe/base/bytes.h, for the tests that say testing::AsBytes

// The footer of a whole Parquet file: the bytes before the trailing 4-byte
// little-endian length and 4-byte magic ("PAR1", or "PARE" for an encrypted
// footer). `ok` is false when the tail does not describe a footer that fits.
struct Footer {
  bool ok = false;
  std::string magic;
  std::span<const uint8_t> bytes;
};

inline Footer FindFooter(const std::string& file) {
  Footer footer;
  if (file.size() < 12) return footer;
  footer.magic = file.substr(file.size() - 4);
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);
  if (length > file.size() - 12) return footer;
  footer.bytes = AsBytes(file).subspan(file.size() - 8 - length, length);
  footer.ok = footer.magic == "PAR1" || footer.magic == "PARE";
  return footer;
}

// A file path relative to the parquet-testing folder, for test messages.
inline std::string ShortName(const std::string& path) {
  const std::string root = ParquetTestingDir() + "/";
  return path.rfind(root, 0) == 0 ? path.substr(root.size()) : path;
}

}  // namespace floe::parquet::testing
