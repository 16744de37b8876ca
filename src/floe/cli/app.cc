#include "floe/cli/app.h"

#include <cstdio>

#include "floe/base/version.h"

namespace floe::cli {

int Main(int, char**) {
  std::printf("floe %s\n", kVersion);
  return 0;
}

}  // namespace floe::cli
