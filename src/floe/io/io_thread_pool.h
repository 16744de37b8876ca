// The process-wide pool for blocking storage requests.
//
// Requests to an object store spend their time waiting on the network, so
// they get their own threads rather than the compute pool (one thread per
// core): ReadRanges() on a 2-core machine can still have 8 GETs in flight,
// and a multipart upload's parts do not stall query execution.
// FLOE_IO_THREADS overrides the size (default 16).
//
// Thread safety: as ThreadPool.

#pragma once

#include "floe/base/thread_pool.h"

namespace floe {

ThreadPool& IoThreadPool();

}  // namespace floe
