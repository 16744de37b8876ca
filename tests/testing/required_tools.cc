#include "testing/required_tools.h"

#include <cstdlib>
#include <cstring>

namespace floe::testing {

bool MissingToolsAllowed() {
  const char* allow = std::getenv("FLOE_ALLOW_MISSING_TOOLS");
  return allow != nullptr && std::strcmp(allow, "1") == 0;
}

}  // namespace floe::testing
