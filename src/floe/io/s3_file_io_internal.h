// Internal: an S3 FileIO over a given client, for tests and benchmarks that
// need the client too (bucket creation, multipart listings, request counts).

#pragma once

#include <memory>

#include "floe/io/file_io.h"
#include "floe/io/s3_client.h"

namespace floe {

std::shared_ptr<FileIO> NewS3FileIOWithClient(std::shared_ptr<S3Client> client);

}  // namespace floe
