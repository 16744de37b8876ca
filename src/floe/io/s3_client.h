// S3Client: the S3 REST operations floe uses, signed, retried and mapped to
// floe's error kinds.
//
// Every call names its object in errors ("object 's3://b/k' does not exist"):
//   NotFound          NoSuchKey, NoSuchBucket (naming the bucket), NoSuchUpload
//   PermissionDenied  AccessDenied; InvalidAccessKeyId and SignatureDoesNotMatch
//                     (saying which credential is wrong)
//   AlreadyExists     412 on a put-if-absent
//   CommitStateUnknown  a put-if-absent whose outcome could not be learned
//   IOError           transport failures and server errors after the last retry
// Idempotent requests (GET, HEAD, unconditional PUT, UploadPart, DELETE,
// LIST, Abort) are retried per RetryPolicy; see PutObjectIfAbsent for the
// conditional one.
//
// Thread safety: every method may be called from many threads at once.

#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "floe/base/result.h"
#include "floe/io/aws_config.h"
#include "floe/io/http_client.h"
#include "floe/io/retry_policy.h"
#include "floe/io/s3_location.h"
#include "floe/io/s3_xml.h"
#include "floe/io/sigv4.h"

namespace floe {

struct S3ObjectInfo {
  int64_t size = 0;
  int64_t mtime_ms = 0;
  std::string etag{};
};

// Counters of what a client sent, for tests and benchmarks.
struct S3ClientStats {
  int64_t requests = 0;  // HTTP exchanges, retries included
  int64_t retries = 0;
};

class S3Client {
 public:
  // InvalidArgument when the endpoint in `config` is malformed.
  static Result<std::shared_ptr<S3Client>> Make(S3Config config);

  const S3Config& config() const { return config_; }
  const S3Endpoint& endpoint() const { return endpoint_; }
  S3ClientStats stats() const;

  Result<S3ObjectInfo> HeadObject(const std::string& bucket, const std::string& key);
  // Reads exactly [offset, offset + length) into `out` (length > 0). IOError
  // when the server sends a different number of bytes.
  Status GetObjectRange(const std::string& bucket, const std::string& key, int64_t offset, int64_t length,
                        uint8_t* out);
  // A whole object of at most `max_size` bytes (larger is IOError).
  Result<std::string> GetObject(const std::string& bucket, const std::string& key, int64_t max_size);

  // Replaces the object. Returns its ETag.
  Result<std::string> PutObject(const std::string& bucket, const std::string& key, std::span<const uint8_t> body);
  // Creates the object only if no object has the key (If-None-Match: *).
  // AlreadyExists on 412. When an attempt's outcome is unknown (timeout,
  // reset, 5xx), the object is read back: our bytes there mean success,
  // other bytes AlreadyExists, no object a fresh attempt; if even that
  // cannot be learned, CommitStateUnknown. Never a blind retry.
  Status PutObjectIfAbsent(const std::string& bucket, const std::string& key, std::span<const uint8_t> body);

  // Multipart upload. Create returns the upload id.
  Result<std::string> CreateMultipartUpload(const std::string& bucket, const std::string& key);
  // Returns the part's ETag. part_number is 1-based.
  Result<std::string> UploadPart(const std::string& bucket, const std::string& key, const std::string& upload_id,
                                 int part_number, std::span<const uint8_t> body);
  // Publishes the parts as one object; with if_absent sends If-None-Match: *
  // (AlreadyExists on 412; servers that ignore it on this request, as Ceph
  // RGW does, make the caller's prior existence check the only guard).
  Status CompleteMultipartUpload(const std::string& bucket, const std::string& key, const std::string& upload_id,
                                 const std::vector<S3CompletedPart>& parts, int64_t total_size, bool if_absent);
  // OK also when the upload is already gone.
  Status AbortMultipartUpload(const std::string& bucket, const std::string& key, const std::string& upload_id);
  // Upload ids in progress for keys starting with `prefix`.
  Result<std::vector<std::string>> ListMultipartUploads(const std::string& bucket, const std::string& prefix);

  // OK when the object does not exist.
  Status DeleteObject(const std::string& bucket, const std::string& key);
  // One DeleteObjects request (at most 1000 keys); returns per-key failures.
  Result<std::vector<S3DeleteFailure>> DeleteObjects(const std::string& bucket, const std::vector<std::string>& keys);

  // One ListObjectsV2 page of keys after `start_after` starting with `prefix`.
  Result<S3ListResult> ListObjectsV2(const std::string& bucket, const std::string& prefix,
                                     const std::string& start_after, int max_keys);

  // Creates a bucket (tests, benchmarks, `floe` setup). OK when this
  // account already owns it.
  Status CreateBucket(const std::string& bucket);

 private:
  struct Call;

  S3Client(S3Config config, S3Endpoint endpoint);
  // Sends `call`, retrying per policy when `call.idempotent`.
  Result<HttpResponse> Execute(Call& call);
  Result<HttpResponse> SendOnce(Call& call, TransportFailure* failure);
  Status ErrorFor(const Call& call, const HttpResponse& response) const;
  // The outcome of a put-if-absent attempt that may have happened: read back.
  Result<bool> WeWroteIt(const std::string& bucket, const std::string& key, std::span<const uint8_t> body);

  S3Config config_;
  S3Endpoint endpoint_;
  SigV4Signer signer_;
  RetryPolicy retry_;
  HttpClient http_;
  // Whether a request to `bucket` has succeeded before (so it exists).
  bool BucketKnown(const std::string& bucket) const;

  mutable std::mutex stats_mutex_;
  S3ClientStats stats_;                  // guarded by stats_mutex_
  std::set<std::string> known_buckets_;  // guarded by stats_mutex_
};

}  // namespace floe
