// Writing JSON text by hand for Avro schemas and metadata: string escaping
// per RFC 8259. Internal to formats/avro.

#pragma once

#include <string>
#include <string_view>

namespace floe::avro::internal {

// Appends `s` as a quoted JSON string (control characters, quote and
// backslash escaped; other bytes copied, so UTF-8 stays UTF-8).
void AppendJsonString(std::string* out, std::string_view s);

}  // namespace floe::avro::internal
