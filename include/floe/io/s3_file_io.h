// FileIO for s3:// and s3a:// locations on any S3-compatible store.
//
// Configuration (endpoint, region, credentials, addressing, timeouts, part
// size) comes from a properties map with the names PyIceberg and Iceberg
// Java use, falling back to the AWS environment variables and ~/.aws
// profiles; see src/floe/io/aws_config.h for the full list and precedence.
// Objects are read with ranged GETs (ReadRanges: coalesced, up to
// s3.max-parallel-reads in flight), written with one PUT up to the part size
// and with a multipart upload beyond it (parts uploaded in parallel, the
// upload aborted on failure), and put-if-absent is `If-None-Match: *`.
// Beyond one part, put-if-absent is a HEAD check and a conditional
// CompleteMultipartUpload: atomic on AWS S3, not on Ceph RGW, which ignores
// the condition on Complete (decision 0013); commit-critical metadata files
// are far below the part size and take the single PUT, atomic everywhere.
//
// Thread safety: as FileIO (every method may be called concurrently).

#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "floe/io/file_io.h"

namespace floe {

// A FileIO for every bucket reachable with this configuration.
// InvalidArgument naming the property when a value is malformed.
Result<std::shared_ptr<FileIO>> NewS3FileIO(const FileIOProperties& properties = {});

// The factory FileIOForLocation() uses for s3:// and s3a://: one FileIO per
// distinct configuration (`properties` over the environment, as
// NewS3FileIO), shared by the process. InvalidArgument for a location that
// is not s3:// or s3a:// and for a malformed property.
Result<std::shared_ptr<FileIO>> S3FileIOForLocation(std::string_view location, const FileIOProperties& properties = {});

}  // namespace floe
