#include "floe/io/io_thread_pool.h"

#include <cstdlib>
#include <string>

namespace floe {

ThreadPool& IoThreadPool() {
  static ThreadPool* pool = [] {
    int n = 16;
    if (const char* env = std::getenv("FLOE_IO_THREADS")) {
      const int v = std::atoi(env);
      if (v >= 1 && v <= 1024) n = v;
    }
    return new ThreadPool(n);  // never destroyed: tasks may run during exit
  }();
  return *pool;
}

}  // namespace floe
