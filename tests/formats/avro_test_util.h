// Helpers shared by the Avro container tests: files in memory, schemas.

#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "floe/formats/avro/container_reader.h"
#include "floe/formats/avro/container_writer.h"
#include "floe/io/file_io.h"

namespace floe::avro::testing {

inline std::shared_ptr<const Schema> MustParse(std::string_view json) {
  Result<std::shared_ptr<const Schema>> s = Schema::Parse(json);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : nullptr;
}

// Writes `rows` to `path` on `io` and returns the file's bytes.
inline std::string WriteFile(FileIO& io, const std::string& path, std::shared_ptr<const Schema> schema,
                             const std::vector<Datum>& rows, const ContainerWriterOptions& options = {}) {
  auto out = io.OpenWrite(path);
  EXPECT_TRUE(out.ok());
  auto writer = ContainerWriter::Open(std::move(out).value(), std::move(schema), options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return "";
  for (const Datum& row : rows) EXPECT_TRUE((*writer)->Append(row).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  auto bytes = io.ReadAll(path);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? std::string(bytes->view()) : "";
}

// Reads every row of `bytes` (put at `path` on a memory FileIO).
inline Result<std::vector<Datum>> ReadBytes(const std::string& bytes, const ContainerReaderOptions& options = {},
                                            std::shared_ptr<const Schema> reader_schema = nullptr) {
  auto io = NewMemoryFileIO();
  FLOE_RETURN_IF_ERROR(io->WriteAll("mem://t/f.avro", bytes));
  FLOE_ASSIGN_OR_RETURN(auto reader, ContainerReader::Open(*io, "mem://t/f.avro", options));
  if (reader_schema) FLOE_RETURN_IF_ERROR(reader->SetReaderSchema(reader_schema));
  return reader->ReadAll();
}

}  // namespace floe::avro::testing
