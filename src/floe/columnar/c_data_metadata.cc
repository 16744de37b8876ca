#include "floe/columnar/c_data_metadata.h"

#include <cstdint>
#include <cstring>

#include "floe/base/strings.h"

namespace floe::c_data {
namespace {

void PutInt32(std::string* out, int32_t v) { out->append(reinterpret_cast<const char*>(&v), sizeof v); }

int32_t GetInt32(const char*& p) {
  int32_t v;
  std::memcpy(&v, p, sizeof v);
  p += sizeof v;
  return v;
}

}  // namespace

std::string EncodeMetadata(const KeyValueMetadata& metadata) {
  if (metadata.empty()) return "";
  std::string out;
  PutInt32(&out, static_cast<int32_t>(metadata.size()));
  for (const auto& [key, value] : metadata) {
    PutInt32(&out, static_cast<int32_t>(key.size()));
    out += key;
    PutInt32(&out, static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

Result<KeyValueMetadata> DecodeMetadata(const char* bytes) {
  KeyValueMetadata metadata;
  if (bytes == nullptr) return metadata;
  constexpr int32_t kMaxPairs = 1 << 24;
  constexpr int32_t kMaxLength = 1 << 30;
  const char* p = bytes;
  const int32_t pairs = GetInt32(p);
  if (pairs < 0 || pairs > kMaxPairs) {
    return Status::InvalidArgument(StrCat("ArrowSchema metadata: pair count ", pairs, " is outside 0..", kMaxPairs));
  }
  metadata.reserve(static_cast<size_t>(pairs));
  for (int32_t i = 0; i < pairs; ++i) {
    std::string parts[2];
    for (std::string& part : parts) {
      const int32_t length = GetInt32(p);
      if (length < 0 || length > kMaxLength) {
        return Status::InvalidArgument(
            StrCat("ArrowSchema metadata: pair ", i, " has a length of ", length, ", outside 0..", kMaxLength));
      }
      part.assign(p, static_cast<size_t>(length));
      p += length;
    }
    metadata.emplace_back(std::move(parts[0]), std::move(parts[1]));
  }
  return metadata;
}

}  // namespace floe::c_data
