// S3FileIO on a real server: the FileIO contract, ranged and vectored reads,
// listing, deletes, and the s3:// / s3a:// scheme registration.

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "floe/io/s3_file_io.h"
#include "floe/io/tracing_file_io.h"
#include "s3_fixture.h"
#include "testing/tcp_proxy.h"

namespace floe::testing {
namespace {

TEST_F(S3Test, WrittenObjectReadsBackWithSizeAndTime) {
  ASSERT_TRUE(io_->WriteAll(At("a/b.txt"), std::string_view("hello world")).ok());
  auto info = io_->Stat(At("a/b.txt"));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->size, 11);
  EXPECT_EQ(info->path, At("a/b.txt"));
  EXPECT_GT(info->mtime_ms, 1700000000000);
  EXPECT_EQ(ReadString(At("a/b.txt")), "hello world");
  ASSERT_TRUE(io_->WriteAll(At("a/b.txt"), std::string_view("v2")).ok());
  EXPECT_EQ(ReadString(At("a/b.txt")), "v2");
  ASSERT_TRUE(io_->WriteAll(At("empty"), std::string_view("")).ok());
  EXPECT_EQ(io_->Stat(At("empty"))->size, 0);
  EXPECT_EQ(ReadString(At("empty")), "");
}

TEST_F(S3Test, KeysWithSpacesPlusAndUnicodeRoundTrip) {
  const std::vector<std::string> keys = {"d/a b+c=d&e.parquet", "d/\xC3\xA9t\xC3\xA9/x%2Fy", "d/~tilde*star"};
  for (const auto& k : keys) ASSERT_TRUE(io_->WriteAll(At(k), std::string_view(k)).ok()) << k;
  for (const auto& k : keys) EXPECT_EQ(ReadString(At(k)), k);
  auto listed = io_->ListAll(At("d/"));
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  std::set<std::string> paths;
  for (const auto& f : *listed) paths.insert(f.path);
  EXPECT_EQ(paths, (std::set<std::string>{At(keys[0]), At(keys[1]), At(keys[2])}));
}

TEST_F(S3Test, RangedReadsReturnExactlyTheRequestedBytesAtObjectEdges) {
  const std::string data = Pattern(1000);
  ASSERT_TRUE(io_->WriteAll(At("edge"), std::string_view(data)).ok());
  auto file = io_->OpenRead(At("edge"));
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->size(), 1000);
  const std::pair<int64_t, int64_t> ranges[] = {{0, 1}, {999, 1}, {0, 1000}, {998, 2}, {1, 998}, {500, 0}, {1000, 0}};
  for (auto [off, len] : ranges) {
    auto part = (*file)->Read(off, len);
    ASSERT_TRUE(part.ok()) << off << "+" << len << ": " << part.status().ToString();
    EXPECT_EQ(part->view(), std::string_view(data).substr(off, len)) << off << "+" << len;
  }
  auto past = (*file)->Read(999, 2);
  EXPECT_TRUE(past.status().IsInvalidArgument()) << past.status().ToString();
  EXPECT_NE(past.status().message().find("bytes=999-1000"), std::string::npos);
  EXPECT_TRUE((*file)->Read(-1, 1).status().IsInvalidArgument());
  // A known size skips the HEAD; reads are still exact.
  const int64_t before = client_->stats().requests;
  auto known = io_->OpenRead(At("edge"), OpenReadOptions{.size = 1000});
  ASSERT_TRUE(known.ok());
  EXPECT_EQ(client_->stats().requests, before);
  EXPECT_EQ((*known)->Read(990, 10)->view(), std::string_view(data).substr(990, 10));
  EXPECT_EQ(client_->stats().requests, before + 1);
}

TEST_F(S3Test, ReadRangesCoalescesNearbyRangesAndReadsInParallel) {
  const std::string data = Pattern(3 << 20, 7);
  ASSERT_TRUE(io_->WriteAll(At("big"), std::string_view(data)).ok());
  auto file = io_->OpenRead(At("big"));
  ASSERT_TRUE(file.ok());
  EXPECT_GT((*file)->max_parallel_reads(), 1);
  // 40 ranges in 4 clusters (gaps of 1 KiB inside a cluster, 500 KiB between).
  std::vector<ReadRange> ranges;
  for (int c = 0; c < 4; ++c) {
    for (int i = 0; i < 10; ++i) ranges.push_back({c * 700000 + i * 5120, 4096});
  }
  ranges.push_back({static_cast<int64_t>(data.size()) - 7, 7});  // the last bytes
  const int64_t before = client_->stats().requests;
  auto parts = (*file)->ReadRanges(ranges);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(client_->stats().requests - before, 5);  // one GET per cluster, one for the tail
  ASSERT_EQ(parts->size(), ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i) {
    EXPECT_EQ((*parts)[i].view(), std::string_view(data).substr(ranges[i].offset, ranges[i].length)) << i;
  }
}

TEST_F(S3Test, ListingAcrossPagesReturnsEveryKeyOnce) {
  std::set<std::string> written;
  for (int i = 0; i < 57; ++i) {
    const std::string key = At("p/" + std::to_string(i % 7) + "/f" + std::to_string(i));
    written.insert(key);
    ASSERT_TRUE(io_->WriteAll(key, std::string_view("x")).ok());
  }
  ASSERT_TRUE(io_->WriteAll(At("p-sibling"), std::string_view("y")).ok());
  ASSERT_TRUE(io_->WriteAll(At("q/outside"), std::string_view("z")).ok());
  std::vector<std::string> seen;
  ListOptions options{.start_after = "", .max_keys = 10};
  int pages = 0;
  while (true) {
    auto page = io_->List(At("p/"), options);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    ++pages;
    EXPECT_LE(page->objects.size(), 10u);
    for (const auto& f : page->objects) {
      seen.push_back(f.path);
      EXPECT_EQ(f.size, 1);
    }
    if (page->next_start_after.empty()) break;
    options.start_after = page->next_start_after;
  }
  EXPECT_EQ(pages, 6);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(seen.size(), written.size());
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), written);
  // The prefix is a string prefix, not a folder.
  EXPECT_EQ(io_->ListAll(At("p"))->size(), 58u);
  EXPECT_TRUE(io_->ListAll(At("none/"))->empty());
  EXPECT_EQ(io_->ListAll(root_)->size(), 59u);
}

TEST_F(S3Test, NothingIsVisibleBeforeCloseOrAfterAbort) {
  auto out = io_->OpenWrite(At("pending"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Append(std::string_view("partial")).ok());
  EXPECT_EQ((*out)->bytes_written(), 7);
  EXPECT_FALSE(*io_->Exists(At("pending")));
  (*out)->Abort();
  EXPECT_FALSE(*io_->Exists(At("pending")));
  EXPECT_TRUE((*out)->Append(std::string_view("x")).IsInvalidArgument());
  {
    auto dropped = io_->OpenWrite(At("dropped"));
    ASSERT_TRUE(dropped.ok());
    ASSERT_TRUE((*dropped)->Append(std::string_view("bytes")).ok());
  }
  EXPECT_TRUE(io_->ListAll(root_)->empty());
  auto twice = io_->OpenWrite(At("twice"));
  ASSERT_TRUE((*twice)->Close().ok());
  EXPECT_TRUE((*twice)->Close().IsInvalidArgument());
  EXPECT_TRUE(io_->OpenWrite(At("folder/")).status().IsInvalidArgument());
  EXPECT_TRUE(io_->OpenWrite(root_).status().IsInvalidArgument());
}

TEST_F(S3Test, DeleteIsIdempotentAndDeleteManyIsOneBatch) {
  std::vector<std::string> paths;
  for (int i = 0; i < 25; ++i) {
    paths.push_back(At("batch/" + std::to_string(i)));
    ASSERT_TRUE(io_->WriteAll(paths.back(), std::string_view("x")).ok());
  }
  ASSERT_TRUE(io_->WriteAll(At("keep"), std::string_view("k")).ok());
  paths.push_back(At("batch/never-existed"));
  const int64_t before = client_->stats().requests;
  Status st = io_->DeleteMany(paths);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(client_->stats().requests - before, 1);
  EXPECT_TRUE(io_->ListAll(At("batch/"))->empty());
  EXPECT_TRUE(*io_->Exists(At("keep")));
  EXPECT_TRUE(io_->Delete(At("keep")).ok());
  EXPECT_FALSE(*io_->Exists(At("keep")));
  EXPECT_TRUE(io_->Delete(At("keep")).ok());
}

TEST_F(S3Test, TransientServerErrorsAreRetriedWithBackoff) {
  ASSERT_TRUE(io_->WriteAll(At("r"), std::string_view("retried")).ok());
  TcpProxy proxy(S3TestServer::port());
  proxy.Queue(TcpProxy::Mode::kSlowDown, 2);
  auto client = ClientWith([&](S3Config& c) { c.endpoint = "http://127.0.0.1:" + std::to_string(proxy.port()); });
  auto io = NewS3FileIOWithClient(client);
  auto data = io->ReadAll(At("r"));
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  EXPECT_EQ(data->view(), "retried");
  EXPECT_EQ(client->stats().retries, 2);
  // A connection cut as the answer starts: GET is idempotent, so it is resent.
  auto cut = ClientWith([&](S3Config& c) { c.endpoint = "http://127.0.0.1:" + std::to_string(proxy.port()); });
  auto file = NewS3FileIOWithClient(cut)->OpenRead(At("r"), OpenReadOptions{.size = 7});
  ASSERT_TRUE(file.ok());
  proxy.Queue(TcpProxy::Mode::kDropResponse);
  auto part = (*file)->Read(2, 5);
  ASSERT_TRUE(part.ok()) << part.status().ToString();
  EXPECT_EQ(part->view(), "tried");
  EXPECT_EQ(cut->stats().retries, 1);
  // Out of attempts: the error says so, once, naming the object.
  proxy.Queue(TcpProxy::Mode::kSlowDown, 3);
  auto few = ClientWith([&](S3Config& c) {
    c.endpoint = "http://127.0.0.1:" + std::to_string(proxy.port());
    c.max_attempts = 3;
  });
  auto failed = NewS3FileIOWithClient(few)->Stat(At("r"));
  EXPECT_TRUE(failed.status().IsIOError()) << failed.status().ToString();
  EXPECT_NE(failed.status().message().find("after 3 attempts"), std::string::npos) << failed.status().message();
  EXPECT_NE(failed.status().message().find(At("r")), std::string::npos) << failed.status().message();
}

TEST_F(S3Test, SequentialRequestsReuseOneConnection) {
  if (S3TestServer::kind() == "moto") GTEST_SKIP() << "moto answers every request with Connection: close";
  ASSERT_TRUE(io_->WriteAll(At("warm"), std::string_view(Pattern(100000))).ok());
  TcpProxy proxy(S3TestServer::port());
  auto client = ClientWith([&](S3Config& c) { c.endpoint = "http://127.0.0.1:" + std::to_string(proxy.port()); });
  auto io = NewS3FileIOWithClient(client);
  auto file = io->OpenRead(At("warm"));
  ASSERT_TRUE(file.ok());
  for (int i = 0; i < 20; ++i) ASSERT_TRUE((*file)->Read(i * 1000, 1000).ok());
  ASSERT_TRUE(io->WriteAll(At("warm2"), std::string_view("x")).ok());
  ASSERT_TRUE(io->List(At("")).ok());
  EXPECT_EQ(client->stats().requests, 23);
  EXPECT_EQ(proxy.connections(), 1);
}

TEST_F(S3Test, SchemesResolveThroughFileIOForLocationFromTheEnvironment) {
  ASSERT_TRUE(io_->WriteAll(At("env/k"), std::string_view("via env")).ok());
  setenv("AWS_ENDPOINT_URL_S3", S3TestServer::endpoint().c_str(), 1);
  setenv("AWS_ACCESS_KEY_ID", "floe-test", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "floe-test-secret", 1);
  setenv("AWS_REGION", "us-east-1", 1);
  for (const std::string scheme : {"s3", "s3a"}) {
    const std::string path = scheme + "://" + bucket_ + "/env/k";
    auto io = FileIOForLocation(path);
    ASSERT_TRUE(io.ok()) << io.status().ToString();
    EXPECT_EQ((*io)->scheme(), "s3");
    auto data = (*io)->ReadAll(path);
    ASSERT_TRUE(data.ok()) << data.status().ToString();
    EXPECT_EQ(data->view(), "via env");
    auto listed = (*io)->ListAll(scheme + "://" + bucket_ + "/env/");
    ASSERT_TRUE(listed.ok());
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ((*listed)[0].path, path);  // in the scheme it was asked for
  }
  // The properties map, as a catalog passes it.
  auto from_props = NewS3FileIO({{"s3.endpoint", S3TestServer::endpoint()},
                                 {"s3.access-key-id", "floe-test"},
                                 {"s3.secret-access-key", "floe-test-secret"},
                                 {"s3.path-style-access", "true"}});
  ASSERT_TRUE(from_props.ok()) << from_props.status().ToString();
  EXPECT_EQ((*from_props)->ReadAll(At("env/k"))->view(), "via env");
}

TEST_F(S3Test, VirtualHostedAddressingReachesTheSameBucket) {
  // moto's server mode does not route bucket subdomains; RGW does with
  // `rgw dns name = localhost` (s3_test_server.sh).
  if (S3TestServer::kind() != "rgw") GTEST_SKIP() << "needs a server that routes bucket.localhost";
  ASSERT_TRUE(io_->WriteAll(At("vh/path-style"), std::string_view("written path-style")).ok());
  auto client = ClientWith([](S3Config& c) {
    c.endpoint = "http://localhost:" + std::to_string(S3TestServer::port());
    c.path_style = false;
  });
  EXPECT_FALSE(client->endpoint().BucketInPath(bucket_));
  EXPECT_EQ(client->endpoint().HostFor(bucket_), bucket_ + ".localhost:" + std::to_string(S3TestServer::port()));
  auto io = NewS3FileIOWithClient(client);
  auto read = io->ReadAll(At("vh/path-style"));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->view(), "written path-style");
  ASSERT_TRUE(io->WriteAll(At("vh/virtual"), std::string_view("written virtual-hosted")).ok());
  EXPECT_EQ(ReadString(At("vh/virtual")), "written virtual-hosted");
  auto listed = io->ListAll(At("vh/"));
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(listed->size(), 2u);
}

TEST_F(S3Test, TracingShowsEveryRequestWithBytes) {
  auto trace = std::make_shared<IoTrace>();
  TracingFileIO traced(io_, trace);
  ASSERT_TRUE(traced.PutIfAbsent(At("t/v1.json"), "0123456789").ok());
  auto file = traced.OpenRead(At("t/v1.json"));
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Read(2, 5).ok());
  ASSERT_TRUE(traced.List(At("t/")).ok());
  const auto requests = trace->requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].method, "PUT");
  EXPECT_EQ(requests[0].detail, "if-none-match=*");
  EXPECT_EQ(requests[0].bytes, 10);
  EXPECT_EQ(requests[1].method, "HEAD");
  EXPECT_EQ(requests[2].method, "GET");
  EXPECT_EQ(requests[2].offset, 2);
  EXPECT_EQ(requests[2].bytes, 5);
  EXPECT_EQ(requests[3].method, "LIST");
  EXPECT_EQ(requests[3].bytes, 1);
}

}  // namespace
}  // namespace floe::testing
