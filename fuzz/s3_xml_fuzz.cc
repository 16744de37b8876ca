// Fuzzes the reading of S3's XML answers (io/s3_xml.h): a server's bodies
// are untrusted bytes. The input is read as each document floe parses (a
// listing, a delete result, an error, a multipart upload id) and its
// elements are pulled out as S3Client does. Properties checked: text that
// XmlEscape wrote unescapes back to itself, and each non-empty block
// XmlBlocks gives lies inside the input. Any error is fine; a crash, UB or
// leak is not.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "floe/io/s3_xml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  (void)floe::ParseListObjectsV2(xml);
  (void)floe::ParseDeleteResult(xml);
  (void)floe::ParseS3Error(xml);
  (void)floe::XmlFirst(xml, "UploadId");
  (void)floe::XmlElements(xml, "Key");
  (void)floe::ParseIso8601Millis(xml);
  if (auto blocks = floe::XmlBlocks(xml, "Contents"); blocks.ok()) {
    for (std::string_view block : *blocks) {
      // A self-closing <Contents/> is an empty view that points nowhere.
      if (!block.empty() && (block.data() < xml.data() || block.data() + block.size() > xml.data() + xml.size())) {
        std::abort();
      }
      (void)floe::XmlElements(block, "Size");
    }
  }
  if (auto text = floe::XmlUnescape(xml); text.ok()) {
    auto again = floe::XmlUnescape(floe::XmlEscape(*text));
    if (!again.ok() || *again != *text) std::abort();
  }
  return 0;
}
