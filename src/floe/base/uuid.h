// Random identifiers: RFC 4122 version-4 UUIDs for table uuids and file
// names, and positive 63-bit ids for snapshots (as Java derives them).
//
// Thread safety: safe from any thread (a per-thread generator seeded from
// std::random_device, and reseeded in a child after fork()).

#pragma once

#include <cstdint>
#include <string>

namespace floe {

// "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", lowercase hex.
std::string RandomUuid();

// A random id in [1, 2^63 - 1].
int64_t RandomPositiveId();

}  // namespace floe
