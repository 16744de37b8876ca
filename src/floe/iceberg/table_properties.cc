#include "floe/iceberg/table_properties.h"

#include <charconv>

#include "floe/base/strings.h"

namespace floe::iceberg {

Result<int32_t> IntProperty(const std::map<std::string, std::string>& properties, std::string_view key,
                            int32_t fallback) {
  auto it = properties.find(std::string(key));
  if (it == properties.end()) return fallback;
  std::string_view text = Trim(it->second);
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return Status::InvalidArgument(
        StrCat("table property ", Quote(key), " is ", Quote(it->second), ", not an integer"));
  }
  return value;
}

bool BoolProperty(const std::map<std::string, std::string>& properties, std::string_view key, bool fallback) {
  auto it = properties.find(std::string(key));
  if (it == properties.end()) return fallback;
  return EqualsIgnoreCase(it->second, "true");
}

}  // namespace floe::iceberg
