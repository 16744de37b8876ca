// Random identifiers: RFC 4122 version-4 UUIDs for table uuids and file
// names, RFC 9562 version-7 UUIDs (time-ordered) for Idempotency-Key, and
// positive 63-bit ids for snapshots (as Java derives them).
//
// Thread safety: safe from any thread (a per-thread generator seeded from
// std::random_device, and reseeded in a child after fork()).

#pragma once

#include <cstdint>
#include <string>

namespace floe {

// "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", lowercase hex.
std::string RandomUuid();

// "tttttttt-tttt-7xxx-yxxx-xxxxxxxxxxxx", lowercase hex: the Unix time in
// milliseconds in the first 48 bits, then 74 random bits (RFC 9562, 5.7).
std::string RandomUuidV7();

// A random id in [1, 2^63 - 1].
int64_t RandomPositiveId();

// 64 random bits from the same per-thread generator: cheap (no
// std::random_device per call), for seeds, jitter and sync markers; not for
// secrets.
uint64_t RandomBits64();

}  // namespace floe
