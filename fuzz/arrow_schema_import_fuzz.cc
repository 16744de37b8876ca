// Fuzzes what a foreign producer hands floe through the Arrow C Data
// Interface: format strings, metadata and child trees. The input is read as
// a small tree: per node, one byte of child count (mod 4), one byte of flags,
// a NUL-terminated format string and up to 3 metadata pairs; children follow,
// up to depth 4.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "floe/columnar/arrow_c_data.h"

namespace {

struct Reader {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  uint8_t Byte() { return pos < size ? data[pos++] : 0; }
  std::string CString() {
    std::string s;
    while (pos < size && data[pos] != 0 && s.size() < 64) s += static_cast<char>(data[pos++]);
    if (pos < size) ++pos;
    return s;
  }
  std::string Bytes(size_t n) {
    n = std::min(n, size - pos);
    std::string s(reinterpret_cast<const char*>(data + pos), n);
    pos += n;
    return s;
  }
};

struct NodeStorage {
  std::string format;
  std::string metadata;
  std::vector<ArrowSchema*> children;
};

void ReleaseNode(ArrowSchema* schema) {
  auto* storage = static_cast<NodeStorage*>(schema->private_data);
  for (ArrowSchema* child : storage->children) {
    if (child->release != nullptr) child->release(child);
    delete child;
  }
  delete storage;
  schema->release = nullptr;
}

void BuildNode(Reader& in, int depth, ArrowSchema* out) {
  auto* storage = new NodeStorage;
  const int n_children = depth < 4 ? in.Byte() % 4 : 0;
  const uint8_t flags = in.Byte();
  storage->format = in.CString();
  // Metadata is well-formed in its framing (the C interface gives no length,
  // so a producer's framing must be trusted) but arbitrary in content: field
  // ids that are not numbers, extension names floe does not know, ...
  const int pairs = in.Byte() % 4;
  if (pairs > 0) {
    auto put_int32 = [&](int32_t v) { storage->metadata.append(reinterpret_cast<const char*>(&v), 4); };
    put_int32(pairs);
    for (int i = 0; i < 2 * pairs; ++i) {
      const std::string s = in.Bytes(in.Byte() % 32);
      put_int32(static_cast<int32_t>(s.size()));
      storage->metadata += s;
    }
  }
  for (int i = 0; i < n_children; ++i) {
    auto* child = new ArrowSchema;
    BuildNode(in, depth + 1, child);
    storage->children.push_back(child);
  }
  std::memset(out, 0, sizeof *out);
  out->format = storage->format.c_str();
  out->name = "f";
  out->metadata = storage->metadata.empty() ? nullptr : storage->metadata.data();
  out->flags = flags & 7;
  out->n_children = n_children;
  out->children = storage->children.data();
  out->private_data = storage;
  out->release = ReleaseNode;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)floe::ParseArrowFormat(std::string_view(reinterpret_cast<const char*>(data), size));
  Reader in{data, size};
  ArrowSchema schema;
  BuildNode(in, 0, &schema);
  auto imported = floe::ImportSchema(&schema);  // moves and releases the struct
  if (schema.release != nullptr) schema.release(&schema);
  return 0;
}
