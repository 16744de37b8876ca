// Fuzzes the key tools' reading of key material (formats/parquet/
// key_tools.h), which comes from a file's key_metadata and from the
// external key material file beside it: the input is used as a key_metadata
// and as that external file, which fixed key_metadata then reference.
// parquet-testing's master keys are in the KMS, so mutants of its key
// material seed reach the unwrapping. Every result must be a key or one of
// the errors the header names.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "floe/formats/parquet/key_tools.h"
#include "floe/io/file_io.h"

namespace {

bool Acceptable(const floe::Status& s) {
  return s.ok() || s.IsInvalidArgument() || s.IsUnsupported() || s.IsCorrupt() || s.IsNotFound() ||
         s.IsPermissionDenied();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  auto io = floe::NewMemoryFileIO();
  const std::string file = "mem://fuzz/f.parquet";
  if (!io->WriteAll(floe::parquet::ExternalKeyMaterialPath(file), input).ok()) std::abort();
  auto kms = std::make_shared<floe::parquet::LocalKms>(std::map<std::string, std::string, std::less<>>{
      {"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}});
  auto retrieve = floe::parquet::MakeKeyToolsRetriever(kms, io, file);
  for (const std::string& key_metadata :
       {input, std::string(R"({"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"footerKey"})"),
        std::string(R"({"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"columnKey0"})")}) {
    auto key = retrieve(key_metadata);
    if (!Acceptable(key.status())) std::abort();
  }
  return 0;
}
