#include "floe/base/check.h"

#include <cstdio>
#include <cstdlib>

namespace floe::internal {

void CheckFailed(const char* file, int line, const std::string& message) {
  std::fprintf(stderr, "floe: %s (%s:%d)\n", message.c_str(), file, line);
  std::abort();
}

}  // namespace floe::internal
