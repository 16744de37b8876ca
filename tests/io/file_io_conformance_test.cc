// Behaviour every FileIO must share, run on each implementation and on the
// wrappers around them, so the wrappers are proven transparent.

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <set>
#include <string>

#include "floe/io/fault_injecting_file_io.h"
#include "floe/io/file_io.h"
#include "floe/io/tracing_file_io.h"
#include "testing/temp_dir.h"

namespace floe {
namespace {

struct ConformanceBackend {
  std::string name;
  std::function<std::shared_ptr<FileIO>()> make;
  bool local;
};

class FileIOConformanceTest : public ::testing::TestWithParam<ConformanceBackend> {
 protected:
  void SetUp() override {
    io_ = GetParam().make();
    root_ = GetParam().local ? dir_.path() + "/" : "mem://bucket/";
  }
  std::string At(const std::string& key) const { return root_ + key; }
  std::string ReadString(const std::string& path) {
    auto buf = io_->ReadAll(path);
    EXPECT_TRUE(buf.ok()) << buf.status().ToString();
    return buf.ok() ? std::string(buf->view()) : "";
  }

  testing::TempDir dir_;
  std::shared_ptr<FileIO> io_;
  std::string root_;
};

TEST_P(FileIOConformanceTest, WrittenObjectReadsBackWithSize) {
  ASSERT_TRUE(io_->WriteAll(At("a/b.txt"), std::string_view("hello world")).ok());
  auto info = io_->Stat(At("a/b.txt"));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->size, 11);
  EXPECT_EQ(info->path, At("a/b.txt"));
  EXPECT_GT(info->mtime_ms, 0);
  EXPECT_EQ(ReadString(At("a/b.txt")), "hello world");
  auto file = io_->OpenRead(At("a/b.txt"));
  ASSERT_TRUE(file.ok());
  auto part = (*file)->Read(6, 5);
  ASSERT_TRUE(part.ok());
  EXPECT_EQ(part->view(), "world");
}

TEST_P(FileIOConformanceTest, MissingObjectIsNotFoundNamingThePath) {
  auto info = io_->Stat(At("nope"));
  EXPECT_TRUE(info.status().IsNotFound());
  EXPECT_NE(info.status().message().find("nope"), std::string::npos) << info.status().message();
  EXPECT_TRUE(io_->OpenRead(At("nope")).status().IsNotFound());
  auto exists = io_->Exists(At("nope"));
  ASSERT_TRUE(exists.ok());
  EXPECT_FALSE(*exists);
}

TEST_P(FileIOConformanceTest, ReadsAtObjectEdgesAndRejectsRangesPastTheEnd) {
  ASSERT_TRUE(io_->WriteAll(At("edge"), std::string_view("0123456789")).ok());
  auto file = io_->OpenRead(At("edge"));
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->Read(0, 1)->view(), "0");
  EXPECT_EQ((*file)->Read(9, 1)->view(), "9");
  EXPECT_EQ((*file)->Read(10, 0)->size(), 0);
  EXPECT_EQ((*file)->Read(0, 10)->view(), "0123456789");
  auto past = (*file)->Read(5, 6);
  EXPECT_TRUE(past.status().IsInvalidArgument()) << past.status().ToString();
  EXPECT_NE(past.status().message().find("bytes=5-10"), std::string::npos) << past.status().message();
  EXPECT_TRUE((*file)->Read(-1, 2).status().IsInvalidArgument());
}

TEST_P(FileIOConformanceTest, ReadRangesReturnsEachRangeInInputOrder) {
  std::string data;
  for (int i = 0; i < 100000; ++i) data += static_cast<char>('a' + i % 26);
  ASSERT_TRUE(io_->WriteAll(At("big"), std::string_view(data)).ok());
  auto file = io_->OpenRead(At("big"));
  ASSERT_TRUE(file.ok());
  const std::vector<ReadRange> ranges = {{90000, 100}, {0, 10}, {5, 10}, {50000, 0}, {99990, 10}, {100, 40000}};
  auto parts = (*file)->ReadRanges(ranges, {.hole_size_limit = 1024, .range_size_limit = 30000});
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_EQ(parts->size(), ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i) {
    EXPECT_EQ((*parts)[i].view(), std::string_view(data).substr(ranges[i].offset, ranges[i].length)) << i;
  }
  EXPECT_TRUE((*file)->ReadRanges(std::vector<ReadRange>{{99999, 2}}).status().IsInvalidArgument());
}

TEST_P(FileIOConformanceTest, OverwriteReplacesWholeObject) {
  ASSERT_TRUE(io_->WriteAll(At("k"), std::string_view("first version")).ok());
  ASSERT_TRUE(io_->WriteAll(At("k"), std::string_view("v2")).ok());
  EXPECT_EQ(ReadString(At("k")), "v2");
}

TEST_P(FileIOConformanceTest, PutIfAbsentCreatesOnceThenAlreadyExists) {
  ASSERT_TRUE(io_->PutIfAbsent(At("meta/v1.json"), "one").ok());
  Status second = io_->PutIfAbsent(At("meta/v1.json"), "two");
  EXPECT_TRUE(second.IsAlreadyExists()) << second.ToString();
  EXPECT_NE(second.message().find("v1.json"), std::string::npos);
  EXPECT_EQ(ReadString(At("meta/v1.json")), "one");
}

TEST_P(FileIOConformanceTest, NothingIsVisibleBeforeCloseOrAfterAbort) {
  auto out = io_->OpenWrite(At("pending"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Append(std::string_view("partial")).ok());
  EXPECT_EQ((*out)->bytes_written(), 7);
  EXPECT_FALSE(*io_->Exists(At("pending")));
  EXPECT_TRUE(io_->ListAll(root_)->empty());
  (*out)->Abort();
  EXPECT_FALSE(*io_->Exists(At("pending")));
  EXPECT_TRUE((*out)->Append(std::string_view("x")).IsInvalidArgument());

  {
    auto dropped = io_->OpenWrite(At("dropped"));
    ASSERT_TRUE(dropped.ok());
    ASSERT_TRUE((*dropped)->Append(std::string_view("bytes")).ok());
  }  // destroyed without Close
  EXPECT_FALSE(*io_->Exists(At("dropped")));
  EXPECT_TRUE(io_->ListAll(root_)->empty());
}

TEST_P(FileIOConformanceTest, CloseTwiceIsInvalidArgument) {
  auto out = io_->OpenWrite(At("twice"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_TRUE((*out)->Close().IsInvalidArgument());
  EXPECT_EQ(ReadString(At("twice")), "");
}

TEST_P(FileIOConformanceTest, LargeStreamedWriteIsByteExact) {
  auto out = io_->OpenWrite(At("stream"));
  ASSERT_TRUE(out.ok());
  std::string expect;
  for (int chunk = 0; chunk < 50; ++chunk) {
    std::string piece(static_cast<size_t>(1 + chunk * 7919 % 300000), static_cast<char>('A' + chunk % 26));
    expect += piece;
    ASSERT_TRUE((*out)->Append(std::string_view(piece)).ok());
  }
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_EQ(io_->Stat(At("stream"))->size, static_cast<int64_t>(expect.size()));
  EXPECT_EQ(ReadString(At("stream")), expect);
}

TEST_P(FileIOConformanceTest, DeleteIsIdempotent) {
  ASSERT_TRUE(io_->WriteAll(At("d"), std::string_view("x")).ok());
  EXPECT_TRUE(io_->Delete(At("d")).ok());
  EXPECT_FALSE(*io_->Exists(At("d")));
  EXPECT_TRUE(io_->Delete(At("d")).ok());
}

TEST_P(FileIOConformanceTest, DeleteManyRemovesEveryPath) {
  std::vector<std::string> paths;
  for (int i = 0; i < 5; ++i) {
    paths.push_back(At("batch/" + std::to_string(i)));
    ASSERT_TRUE(io_->WriteAll(paths.back(), std::string_view("x")).ok());
  }
  paths.push_back(At("batch/never-existed"));
  EXPECT_TRUE(io_->DeleteMany(paths).ok());
  EXPECT_TRUE(io_->ListAll(At("batch/"))->empty());
}

TEST_P(FileIOConformanceTest, ListIsLexicographicByFullKeyAndPrefixIsAString) {
  // "a-b" sorts before "a/x" ('-' < '/'), and "a0" after: the object-store order.
  for (const char* key : {"t/a/x", "t/a-b", "t/a0", "t/a/y/z", "t/b", "u/other"}) {
    ASSERT_TRUE(io_->WriteAll(At(key), std::string_view(key)).ok());
  }
  auto all = io_->ListAll(At("t/"));
  ASSERT_TRUE(all.ok());
  std::vector<std::string> keys;
  for (const auto& f : *all) keys.push_back(f.path.substr(root_.size()));
  EXPECT_EQ(keys, (std::vector<std::string>{"t/a-b", "t/a/x", "t/a/y/z", "t/a0", "t/b"}));
  auto partial = io_->ListAll(At("t/a"));
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->size(), 4u);  // a-b, a/x, a/y/z, a0
  EXPECT_EQ((*all)[0].size, 5);
  EXPECT_TRUE(io_->ListAll(At("none/"))->empty());
}

TEST_P(FileIOConformanceTest, ListPagesReturnEveryKeyExactlyOnce) {
  std::set<std::string> written;
  for (int i = 0; i < 57; ++i) {
    const std::string key = At("p/" + std::to_string(i % 7) + "/f" + std::to_string(i));
    written.insert(key);
    ASSERT_TRUE(io_->WriteAll(key, std::string_view("x")).ok());
  }
  std::vector<std::string> seen;
  ListOptions options{.start_after = "", .max_keys = 10};
  int pages = 0;
  while (true) {
    auto page = io_->List(At("p/"), options);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    ++pages;
    EXPECT_LE(page->objects.size(), 10u);
    for (const auto& f : page->objects) seen.push_back(f.path);
    if (page->next_start_after.empty()) break;
    options.start_after = page->next_start_after;
  }
  EXPECT_EQ(pages, 6);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), written);
  EXPECT_EQ(seen.size(), written.size());
  EXPECT_TRUE(io_->List(At("p/"), ListOptions{.start_after = "", .max_keys = 0}).status().IsInvalidArgument());
}

TEST_P(FileIOConformanceTest, ObjectNameEndingInSlashIsRejected) {
  EXPECT_TRUE(io_->OpenWrite(At("folder/")).status().IsInvalidArgument());
}

std::shared_ptr<FileIO> Traced(std::shared_ptr<FileIO> base) {
  return std::make_shared<TracingFileIO>(std::move(base), std::make_shared<IoTrace>());
}
std::shared_ptr<FileIO> Faulty(std::shared_ptr<FileIO> base) {
  auto io = std::make_shared<FaultInjectingFileIO>(std::move(base), 7);
  // A rule that matches nothing must change nothing.
  io->AddRule(FaultRule{.path_glob = "*never-matches*"});
  return io;
}

INSTANTIATE_TEST_SUITE_P(
    Backends, FileIOConformanceTest,
    ::testing::Values(ConformanceBackend{"Local", [] { return NewLocalFileIO(); }, true},
                      ConformanceBackend{"Memory", [] { return NewMemoryFileIO(); }, false},
                      ConformanceBackend{"TracedLocal", [] { return Traced(NewLocalFileIO()); }, true},
                      ConformanceBackend{"TracedMemory", [] { return Traced(NewMemoryFileIO()); }, false},
                      ConformanceBackend{"FaultyLocal", [] { return Faulty(NewLocalFileIO()); }, true},
                      ConformanceBackend{"FaultyMemory", [] { return Faulty(NewMemoryFileIO()); }, false}),
    [](const ::testing::TestParamInfo<ConformanceBackend>& info) { return info.param.name; });

}  // namespace
}  // namespace floe
