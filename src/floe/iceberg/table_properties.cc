#include "floe/iceberg/table_properties.h"

#include <charconv>

#include "floe/base/strings.h"

namespace floe::iceberg {

namespace {

template <typename Int>
Result<Int> IntegerProperty(const std::map<std::string, std::string>& properties, std::string_view key,
                            Int fallback) {
  auto it = properties.find(std::string(key));
  if (it == properties.end()) return fallback;
  std::string_view text = Trim(it->second);
  Int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return Status::InvalidArgument(
        StrCat("table property ", Quote(key), " is ", Quote(it->second), ", not an integer"));
  }
  return value;
}

}  // namespace

Result<int32_t> IntProperty(const std::map<std::string, std::string>& properties, std::string_view key,
                            int32_t fallback) {
  return IntegerProperty<int32_t>(properties, key, fallback);
}

Result<int64_t> LongProperty(const std::map<std::string, std::string>& properties, std::string_view key,
                             int64_t fallback) {
  return IntegerProperty<int64_t>(properties, key, fallback);
}

bool BoolProperty(const std::map<std::string, std::string>& properties, std::string_view key, bool fallback) {
  auto it = properties.find(std::string(key));
  if (it == properties.end()) return fallback;
  return EqualsIgnoreCase(it->second, "true");
}

}  // namespace floe::iceberg
