// Fuzzes the Avro container reader: the input is a whole file. Every result
// must be OK, Corrupt or Unsupported (the memory budget, bzip2/xz). A file
// that reads must read the same through a resolution plan of its own
// schema, and survive a write with floe's writer and a read back.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "floe/formats/avro/container_reader.h"
#include "floe/formats/avro/container_writer.h"
#include "floe/io/file_io.h"

namespace {

class SpanFile : public floe::RandomAccessFile {
 public:
  SpanFile(const uint8_t* data, size_t size) : data_(data), size_(static_cast<int64_t>(size)) {}
  const std::string& path() const override { return path_; }
  int64_t size() const override { return size_; }
  floe::Status ReadInto(int64_t offset, int64_t length, uint8_t* out) override {
    if (offset < 0 || length < 0 || offset + length > size_) return floe::Status::InvalidArgument("range");
    if (length > 0) std::memcpy(out, data_ + offset, static_cast<size_t>(length));
    return floe::Status::OK();
  }

 private:
  const uint8_t* data_;
  int64_t size_;
  std::string path_ = "fuzz.avro";
};

bool Acceptable(const floe::Status& s) { return s.IsCorrupt() || s.IsUnsupported(); }

// Says which check failed before aborting, so a replayed crash explains itself.
[[noreturn]] void Fail(const char* check, const floe::Status& status = floe::Status::OK()) {
  std::fprintf(stderr, "avro_container_fuzz: %s: %s\n", check, status.ToString().c_str());
  std::abort();
}

floe::Result<std::vector<floe::avro::Datum>> ReadAll(const uint8_t* data, size_t size, bool resolve,
                                                     std::shared_ptr<const floe::avro::Schema>* schema) {
  floe::avro::ContainerReaderOptions options;
  options.max_block_bytes = 4 << 20;
  options.read_ahead_bytes = 4096;
  FLOE_ASSIGN_OR_RETURN(auto reader,
                        floe::avro::ContainerReader::Open(std::make_unique<SpanFile>(data, size), options));
  if (schema) *schema = reader->writer_schema();
  if (resolve) FLOE_RETURN_IF_ERROR(reader->SetReaderSchema(reader->writer_schema()));
  return reader->ReadAll();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::shared_ptr<const floe::avro::Schema> schema;
  auto rows = ReadAll(data, size, false, &schema);
  if (!rows.ok()) {
    if (!Acceptable(rows.status())) Fail("unexpected error kind", rows.status());
    return 0;
  }
  auto resolved = ReadAll(data, size, true, nullptr);
  if (!resolved.ok()) Fail("resolved read failed", resolved.status());
  if (*resolved != *rows) Fail("resolved read differs");

  auto io = floe::NewMemoryFileIO();
  auto out = io->OpenWrite("mem://fuzz/out.avro");
  if (!out.ok()) Fail("open write", out.status());
  floe::avro::ContainerWriterOptions options;
  options.codec = floe::avro::BlockCodec::kSnappy;
  auto writer = floe::avro::ContainerWriter::Open(std::move(out).value(), schema, options);
  if (!writer.ok()) Fail("open writer", writer.status());
  for (const auto& row : *rows) {
    if (auto st = (*writer)->Append(row); !st.ok()) Fail("append", st);
  }
  if (auto st = (*writer)->Close(); !st.ok()) Fail("close", st);
  auto bytes = io->ReadAll("mem://fuzz/out.avro");
  if (!bytes.ok()) Fail("read back", bytes.status());
  auto back = ReadAll(bytes->data(), static_cast<size_t>(bytes->size()), false, nullptr);
  if (!back.ok()) Fail("reread failed", back.status());
  if (*back != *rows) Fail("reread differs");
  return 0;
}
