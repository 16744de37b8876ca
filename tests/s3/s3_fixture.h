// A fresh bucket on the test server per test, with a client and an S3
// FileIO on it.

#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/io/file_io.h"
#include "floe/io/s3_client.h"
#include "floe/io/s3_file_io_internal.h"
#include "s3_test_server.h"

namespace floe::testing {

class S3Test : public ::testing::Test {
 protected:
  void SetUp() override {
    auto client = S3Client::Make(S3TestServer::Config());
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = *client;
    bucket_ = S3TestServer::NewBucket(*client_, ::testing::UnitTest::GetInstance()->current_test_info()->name());
    io_ = NewS3FileIOWithClient(client_);
    root_ = "s3://" + bucket_ + "/";
  }

  std::string At(const std::string& key) const { return root_ + key; }

  // A client with a modified configuration (same server).
  template <typename Fn>
  std::shared_ptr<S3Client> ClientWith(Fn&& modify) {
    S3Config config = S3TestServer::Config();
    modify(config);
    auto client = S3Client::Make(config);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? *client : nullptr;
  }

  // Every object whose path starts with `prefix`.
  std::set<std::string> Objects(const std::string& prefix) {
    std::set<std::string> paths;
    auto listed = io_->ListAll(prefix);
    EXPECT_TRUE(listed.ok()) << listed.status().ToString();
    if (listed.ok()) {
      for (const auto& info : *listed) paths.insert(info.path);
    }
    return paths;
  }

  std::string ReadString(const std::string& path) {
    auto buf = io_->ReadAll(path);
    EXPECT_TRUE(buf.ok()) << buf.status().ToString();
    return buf.ok() ? std::string(buf->view()) : "";
  }

  static std::string Pattern(size_t n, uint32_t seed = 1) {
    std::string s(n, '\0');
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; ++i) {
      x = x * 1103515245u + 12345u;
      s[i] = static_cast<char>(x >> 24);
    }
    return s;
  }

  // The rows of a floe command's csv output after its header, sorted.
  static std::string SortedRows(const std::string& out) {
    std::vector<std::string> lines;
    for (auto line : Split(out, '\n')) {
      if (!line.empty()) lines.emplace_back(line);
    }
    if (!lines.empty()) lines.erase(lines.begin());
    std::sort(lines.begin(), lines.end());
    std::string joined;
    for (const auto& l : lines) joined += l + "\n";
    return joined;
  }
  // The .parquet paths among the cells of csv output (`floe table files`).
  static std::set<std::string> ParquetPathsIn(const std::string& csv) {
    std::set<std::string> files;
    for (auto line : Split(csv, '\n')) {
      for (auto cell : Split(line, ',')) {
        if (cell.ends_with(".parquet")) files.emplace(cell);
      }
    }
    return files;
  }

  std::shared_ptr<S3Client> client_;
  std::shared_ptr<FileIO> io_;
  std::string bucket_;
  std::string root_;
};

}  // namespace floe::testing
