#include "floe/io/s3_client.h"

#include <openssl/evp.h>

#include <charconv>
#include <chrono>
#include <cstring>
#include <thread>

#include "floe/base/bytes.h"
#include "floe/base/logging.h"
#include "floe/base/strings.h"

namespace floe {

struct S3Client::Call {
  std::string method;
  std::string bucket;
  std::string key;
  QueryParams query{};
  HeaderList headers{};
  std::span<const uint8_t> body{};
  uint8_t* body_out = nullptr;
  int64_t body_out_capacity = 0;
  bool idempotent = true;
  int attempts = 0;                                     // made so far
  TransportFailure failure = TransportFailure::kNone;  // of the last attempt
};

namespace {

using Clock = std::chrono::steady_clock;

std::string ObjectName(const std::string& bucket, const std::string& key) {
  return Quote(StrCat("s3://", bucket, "/", key));
}

std::string Target(const std::string& bucket, const std::string& key) {
  return key.empty() ? StrCat("bucket ", Quote(bucket)) : StrCat("object ", ObjectName(bucket, key));
}

int64_t ParseHttpDate(std::string_view text) {
  // RFC 7231 IMF-fixdate: "Wed, 02 Dec 2026 19:02:02 GMT"
  std::tm tm{};
  const std::string s(text);
  if (strptime(s.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm) == nullptr) return 0;
  return static_cast<int64_t>(timegm(&tm)) * 1000;
}

bool Is2xx(long status) { return status >= 200 && status < 300; }

}  // namespace

Result<std::shared_ptr<S3Client>> S3Client::Make(S3Config config) {
  const bool explicit_style = config.path_style.value_or(false);
  FLOE_ASSIGN_OR_RETURN(S3Endpoint endpoint,
                        S3Endpoint::Make(config.endpoint, config.region,
                                         config.path_style.has_value() ? &explicit_style : nullptr));
  return std::shared_ptr<S3Client>(new S3Client(std::move(config), std::move(endpoint)));
}

S3Client::S3Client(S3Config config, S3Endpoint endpoint)
    : config_(std::move(config)),
      endpoint_(std::move(endpoint)),
      signer_(config_.credentials, config_.region, "s3"),
      retry_{config_.max_attempts, config_.retry_base_delay_ms, config_.retry_max_delay_ms},
      http_(HttpClientOptions{.connect_timeout_ms = config_.connect_timeout_ms,
                              .request_timeout_ms = config_.request_timeout_ms,
                              .stall_timeout_ms = config_.stall_timeout_ms}) {}

S3ClientStats S3Client::stats() const {
  std::lock_guard lock(stats_mutex_);
  return stats_;
}

Result<HttpResponse> S3Client::SendOnce(Call& call, TransportFailure* failure) {
  HttpRequest req;
  req.method = call.method;
  req.url = endpoint_.Url(call.bucket, call.key, call.query);
  req.body = call.body;
  req.body_out = call.body_out;
  req.body_out_capacity = call.body_out_capacity;
  const std::string amz_date = AmzDateNow();
  const std::string payload_hash = call.body.empty() ? std::string(kEmptyPayloadSha256) : Sha256Hex(call.body);
  SigV4Input sig;
  sig.method = call.method;
  sig.canonical_uri = endpoint_.PathFor(call.bucket, call.key);
  sig.query = call.query;
  sig.headers = {{"host", endpoint_.HostFor(call.bucket)},
                 {"x-amz-date", amz_date},
                 {"x-amz-content-sha256", payload_hash}};
  if (!config_.credentials.session_token.empty()) {
    sig.headers.emplace_back("x-amz-security-token", config_.credentials.session_token);
  }
  for (const auto& h : call.headers) sig.headers.push_back(h);
  sig.payload_sha256 = payload_hash;
  for (const auto& h : sig.headers) {
    if (h.first != "host") req.headers.push_back(h);  // curl sends Host from the URL
  }
  if (!config_.credentials.access_key_id.empty()) {
    req.headers.emplace_back("Authorization", signer_.Sign(sig, amz_date).authorization);
  }
  {
    std::lock_guard lock(stats_mutex_);
    ++stats_.requests;
    if (call.attempts > 0) ++stats_.retries;
  }
  ++call.attempts;
  const auto start = Clock::now();
  auto r = http_.Send(req, failure);
  FLOE_LOG(kDebug) << "s3: " << req.method << " " << req.url << " -> "
                   << (r.ok() ? StrCat(r->status) : r.status().ToString()) << " attempt " << call.attempts << " "
                   << std::chrono::duration<double, std::milli>(Clock::now() - start).count() << " ms";
  return r;
}

Result<HttpResponse> S3Client::Execute(Call& call) {
  while (true) {
    TransportFailure failure = TransportFailure::kNone;
    auto r = SendOnce(call, &failure);
    call.failure = failure;
    const bool may_retry = call.attempts < retry_.max_attempts;
    if (!r.ok()) {
      if (may_retry && (call.idempotent || failure == TransportFailure::kNotSent)) {
        std::this_thread::sleep_for(retry_.Delay(call.attempts));
        continue;
      }
      return Status::IOError(StrCat(call.method, " ", Target(call.bucket, call.key), " failed after ", call.attempts,
                                    call.attempts == 1 ? " attempt: " : " attempts: ", r.status().message()));
    }
    if (!Is2xx(r->status)) {
      const S3ErrorBody err = ParseS3Error(r->body);
      if (call.idempotent && may_retry && RetryPolicy::IsRetryableAnswer(r->status, err.code)) {
        std::this_thread::sleep_for(retry_.Delay(call.attempts));
        continue;
      }
    }
    if (Is2xx(r->status) && !call.bucket.empty()) {
      std::lock_guard lock(stats_mutex_);
      known_buckets_.insert(call.bucket);
    }
    return r;
  }
}

bool S3Client::BucketKnown(const std::string& bucket) const {
  std::lock_guard lock(stats_mutex_);
  return known_buckets_.count(bucket) > 0;
}

Status S3Client::ErrorFor(const Call& call, const HttpResponse& response) const {
  const S3ErrorBody err = ParseS3Error(response.body);
  const std::string target = Target(call.bucket, call.key);
  const std::string detail = err.code.empty() ? StrCat("HTTP ", response.status)
                                              : StrCat(err.code, err.message.empty() ? "" : ": ", err.message);
  const std::string tries = call.attempts > 1 ? StrCat(" after ", call.attempts, " attempts") : "";
  if (err.code == "NoSuchBucket") {
    return Status::NotFound(StrCat("bucket ", Quote(call.bucket), " does not exist (", call.method, " ", target, ")"));
  }
  if (err.code == "NoSuchUpload") {
    return Status::NotFound(StrCat("multipart upload of ", target, " does not exist (NoSuchUpload)"));
  }
  if (response.status == 404) return Status::NotFound(StrCat(target, " does not exist"));
  if (err.code == "InvalidAccessKeyId") {
    return Status::PermissionDenied(StrCat("the S3 endpoint does not know access key id ",
                                           Quote(config_.credentials.access_key_id), " (", call.method, " ", target,
                                           "): check AWS_ACCESS_KEY_ID / s3.access-key-id"));
  }
  if (err.code == "SignatureDoesNotMatch") {
    return Status::PermissionDenied(StrCat("the S3 endpoint rejected the signature of ", call.method, " ", target,
                                           " for access key id ", Quote(config_.credentials.access_key_id),
                                           ": wrong secret access key (AWS_SECRET_ACCESS_KEY / s3.secret-access-key)?"));
  }
  if (response.status == 403) {
    const char* hint = config_.credentials.access_key_id.empty() ? " (no credentials are configured)" : "";
    return Status::PermissionDenied(StrCat("access denied: ", call.method, " ", target, " (", detail, ")", hint));
  }
  if (response.status == 412) return Status::AlreadyExists(StrCat(target, " already exists"));
  if (response.status == 416) {
    return Status::InvalidArgument(StrCat(call.method, " ", target, ": range not satisfiable (", detail, ")"));
  }
  return Status::IOError(StrCat(call.method, " ", target, " failed", tries, ": ", detail));
}

Result<S3ObjectInfo> S3Client::HeadObject(const std::string& bucket, const std::string& key) {
  Call call{.method = "HEAD", .bucket = bucket, .key = key};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (!Is2xx(r.status)) {
    if ((r.status == 404 && !BucketKnown(bucket)) || r.status == 403 || r.status == 400) {
      // HEAD answers carry no body; a one-byte GET says which error it was
      // (no such bucket vs key, which credential is wrong). A 404 in a bucket
      // that has answered before is a missing key: no second request.
      Call probe{.method = "GET", .bucket = bucket, .key = key, .headers = {{"range", "bytes=0-0"}}};
      uint8_t byte;
      probe.body_out = &byte;
      probe.body_out_capacity = 1;
      auto pr = Execute(probe);
      if (pr.ok() && !Is2xx(pr->status) && !pr->body.empty()) return ErrorFor(probe, *pr);
    }
    return ErrorFor(call, r);
  }
  S3ObjectInfo info;
  const std::string_view len = r.Header("content-length");
  auto [p, ec] = std::from_chars(len.data(), len.data() + len.size(), info.size);
  if (ec != std::errc() || p != len.data() + len.size() || info.size < 0) {
    return Status::IOError(StrCat("HEAD ", Target(bucket, key), ": bad Content-Length ", Quote(len)));
  }
  info.mtime_ms = ParseHttpDate(r.Header("last-modified"));
  info.etag = std::string(r.Header("etag"));
  return info;
}

Status S3Client::GetObjectRange(const std::string& bucket, const std::string& key, int64_t offset, int64_t length,
                                uint8_t* out) {
  Call call{.method = "GET",
            .bucket = bucket,
            .key = key,
            .headers = {{"range", StrCat("bytes=", offset, "-", offset + length - 1)}}};
  call.body_out = out;
  call.body_out_capacity = length;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
    if (!Is2xx(r.status)) return ErrorFor(call, r);
    if (r.status == 200 && length != r.body_out_bytes) {
      return Status::IOError(StrCat("GET ", Target(bucket, key), " bytes=", offset, "-", offset + length - 1,
                                    ": the server ignored the range"));
    }
    if (r.body_out_bytes == length) return Status::OK();
    // A connection cut mid-body can end a 206 early: the request is idempotent.
    if (call.attempts >= retry_.max_attempts) {
      return Status::IOError(StrCat("GET ", Target(bucket, key), " bytes=", offset, "-", offset + length - 1,
                                    ": got ", r.body_out_bytes, " of ", length, " bytes"));
    }
    std::this_thread::sleep_for(retry_.Delay(call.attempts));
  }
}

Result<std::string> S3Client::GetObject(const std::string& bucket, const std::string& key, int64_t max_size) {
  std::string data(static_cast<size_t>(max_size), '\0');
  Call call{.method = "GET", .bucket = bucket, .key = key};
  call.body_out = reinterpret_cast<uint8_t*>(data.data());
  call.body_out_capacity = max_size;
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (!Is2xx(r.status)) return ErrorFor(call, r);
  data.resize(static_cast<size_t>(r.body_out_bytes));
  return data;
}

Result<std::string> S3Client::PutObject(const std::string& bucket, const std::string& key,
                                        std::span<const uint8_t> body) {
  Call call{.method = "PUT", .bucket = bucket, .key = key, .body = body};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (!Is2xx(r.status)) return ErrorFor(call, r);
  return std::string(r.Header("etag"));
}

Result<bool> S3Client::WeWroteIt(const std::string& bucket, const std::string& key, std::span<const uint8_t> body) {
  auto info = HeadObject(bucket, key);
  if (!info.ok()) return info.status();
  if (info->size != static_cast<int64_t>(body.size())) return false;
  FLOE_ASSIGN_OR_RETURN(std::string data, GetObject(bucket, key, static_cast<int64_t>(body.size())));
  return data.size() == body.size() && std::memcmp(data.data(), body.data(), body.size()) == 0;
}

Status S3Client::PutObjectIfAbsent(const std::string& bucket, const std::string& key, std::span<const uint8_t> body) {
  bool outcome_unknown = false;  // an earlier attempt may have written the object
  Status last;
  for (int attempt = 1; attempt <= retry_.max_attempts; ++attempt) {
    if (attempt > 1) std::this_thread::sleep_for(retry_.Delay(attempt - 1));
    Call call{.method = "PUT",
              .bucket = bucket,
              .key = key,
              .headers = {{"if-none-match", "*"}},
              .body = body,
              .idempotent = false};
    auto r = Execute(call);
    if (r.ok() && Is2xx(r->status)) return Status::OK();
    if (r.ok()) {
      const S3ErrorBody err = ParseS3Error(r->body);
      // 409 ConditionalRequestConflict: another conditional write was in
      // flight; AWS documents it as retryable. 412: the key is taken — by us,
      // if an earlier attempt of ours landed.
      const bool transient = RetryPolicy::IsRetryableAnswer(r->status, err.code) || r->status == 409;
      if (r->status == 412 && !outcome_unknown) return ErrorFor(call, *r);
      if (!transient && r->status != 412) return ErrorFor(call, *r);
      last = ErrorFor(call, *r);
      // A 5xx may have been sent after the write took effect.
      if (r->status == 409 && !outcome_unknown) continue;
    } else {
      last = r.status();
      if (call.failure == TransportFailure::kNotSent && !outcome_unknown) continue;
    }
    outcome_unknown = true;
    auto ours = WeWroteIt(bucket, key, body);
    if (ours.ok()) {
      if (*ours) return Status::OK();
      return Status::AlreadyExists(StrCat(Target(bucket, key), " already exists"));
    }
    if (!ours.status().IsNotFound()) {
      return Status::CommitStateUnknown(StrCat("put-if-absent of ", Target(bucket, key), " may or may not have ",
                                               "happened: ", last.message(), "; reading it back failed too: ",
                                               ours.status().message()));
    }
    // Not there: the attempt did not take effect (yet); try again.
  }
  if (outcome_unknown) {
    return Status::CommitStateUnknown(
        StrCat("put-if-absent of ", Target(bucket, key), " did not complete: ", last.message()));
  }
  return last;
}

Result<std::string> S3Client::CreateMultipartUpload(const std::string& bucket, const std::string& key) {
  // Creating an upload twice leaves an orphan upload, which Abort-on-failure
  // and lifecycle rules clean; it is safe to retry.
  Call call{.method = "POST", .bucket = bucket, .key = key, .query = {{"uploads", ""}}};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (!Is2xx(r.status)) return ErrorFor(call, r);
  FLOE_ASSIGN_OR_RETURN(std::string id, XmlFirst(r.body, "UploadId"));
  if (id.empty()) return Status::IOError(StrCat("CreateMultipartUpload of ", Target(bucket, key), " returned no UploadId"));
  return id;
}

Result<std::string> S3Client::UploadPart(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id, int part_number,
                                         std::span<const uint8_t> body) {
  Call call{.method = "PUT",
            .bucket = bucket,
            .key = key,
            .query = {{"partNumber", StrCat(part_number)}, {"uploadId", upload_id}},
            .body = body};
  auto sent = Execute(call);
  if (!sent.ok()) return sent.status().WithContext(StrCat("part ", part_number));
  const HttpResponse& r = *sent;
  if (!Is2xx(r.status)) return ErrorFor(call, r).WithContext(StrCat("part ", part_number));
  std::string etag(r.Header("etag"));
  if (etag.empty()) return Status::IOError(StrCat("UploadPart ", part_number, " of ", Target(bucket, key), " returned no ETag"));
  return etag;
}

Status S3Client::CompleteMultipartUpload(const std::string& bucket, const std::string& key,
                                         const std::string& upload_id, const std::vector<S3CompletedPart>& parts,
                                         int64_t total_size, bool if_absent) {
  const std::string body = CompleteMultipartUploadBody(parts);
  Call call{.method = "POST", .bucket = bucket, .key = key, .query = {{"uploadId", upload_id}}, .body = AsBytes(body)};
  if (if_absent) call.headers.emplace_back("if-none-match", "*");
  for (int round = 0; round < retry_.max_attempts; ++round) {
    FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
    // S3 may answer 200 and report the failure in the body.
    if (Is2xx(r.status) && r.body.find("<Error>") == std::string::npos) return Status::OK();
    const S3ErrorBody err = ParseS3Error(r.body);
    if (Is2xx(r.status) && RetryPolicy::IsRetryableAnswer(500, err.code) && call.attempts < retry_.max_attempts) {
      continue;
    }
    if (err.code == "NoSuchUpload" && call.attempts > 1) {
      // An earlier attempt completed the upload and the answer was lost.
      auto info = HeadObject(bucket, key);
      if (info.ok() && info->size == total_size) return Status::OK();
    }
    if (Is2xx(r.status)) {
      return Status::IOError(StrCat("CompleteMultipartUpload of ", Target(bucket, key), " failed: ", err.code, ": ",
                                    err.message));
    }
    return ErrorFor(call, r);
  }
  return Status::IOError(StrCat("CompleteMultipartUpload of ", Target(bucket, key), " kept failing"));
}

Status S3Client::AbortMultipartUpload(const std::string& bucket, const std::string& key,
                                      const std::string& upload_id) {
  Call call{.method = "DELETE", .bucket = bucket, .key = key, .query = {{"uploadId", upload_id}}};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (Is2xx(r.status) || r.status == 404) return Status::OK();
  return ErrorFor(call, r);
}

Result<std::vector<std::string>> S3Client::ListMultipartUploads(const std::string& bucket,
                                                                const std::string& prefix) {
  Call call{.method = "GET", .bucket = bucket, .key = "", .query = {{"uploads", ""}, {"prefix", prefix}}};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (!Is2xx(r.status)) return ErrorFor(call, r);
  return XmlElements(r.body, "UploadId");
}

Status S3Client::DeleteObject(const std::string& bucket, const std::string& key) {
  Call call{.method = "DELETE", .bucket = bucket, .key = key};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (Is2xx(r.status)) return Status::OK();
  Status st = ErrorFor(call, r);
  // Deleting what is not there is success on S3; a missing bucket is not.
  if (r.status == 404 && ParseS3Error(r.body).code != "NoSuchBucket") return Status::OK();
  return st;
}

Result<std::vector<S3DeleteFailure>> S3Client::DeleteObjects(const std::string& bucket,
                                                             const std::vector<std::string>& keys) {
  if (keys.size() > 1000) {
    return Status::InvalidArgument(StrCat("DeleteObjects takes at most 1000 keys, got ", keys.size()));
  }
  const std::string body = DeleteObjectsBody(keys);
  // spec: DeleteObjects requires Content-MD5 (or a checksum header); MD5 is
  // the form every S3-compatible server accepts.
  unsigned char md5[EVP_MAX_MD_SIZE];
  unsigned int md5_len = 0;
  EVP_Digest(body.data(), body.size(), md5, &md5_len, EVP_md5(), nullptr);
  static constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string b64;
  const int n_bytes = static_cast<int>(md5_len);
  for (int i = 0; i < n_bytes; i += 3) {
    const uint32_t n = (static_cast<uint32_t>(md5[i]) << 16) |
                       (i + 1 < n_bytes ? static_cast<uint32_t>(md5[i + 1]) << 8 : 0) |
                       (i + 2 < n_bytes ? static_cast<uint32_t>(md5[i + 2]) : 0);
    b64 += kB64[(n >> 18) & 63];
    b64 += kB64[(n >> 12) & 63];
    b64 += i + 1 < n_bytes ? kB64[(n >> 6) & 63] : '=';
    b64 += i + 2 < n_bytes ? kB64[n & 63] : '=';
  }
  Call call{.method = "POST",
            .bucket = bucket,
            .key = "",
            .query = {{"delete", ""}},
            .headers = {{"content-md5", b64}, {"content-type", "application/xml"}},
            .body = AsBytes(body)};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (!Is2xx(r.status)) return ErrorFor(call, r);
  return ParseDeleteResult(r.body);
}

Result<S3ListResult> S3Client::ListObjectsV2(const std::string& bucket, const std::string& prefix,
                                             const std::string& start_after, int max_keys) {
  Call call{.method = "GET",
            .bucket = bucket,
            .key = "",
            .query = {{"list-type", "2"}, {"max-keys", StrCat(max_keys)}, {"prefix", prefix}}};
  if (!start_after.empty()) call.query.emplace_back("start-after", start_after);
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (!Is2xx(r.status)) return ErrorFor(call, r);
  auto parsed = ParseListObjectsV2(r.body);
  if (!parsed.ok()) return parsed.status().WithContext(StrCat("LIST ", Target(bucket, prefix)));
  return parsed;
}

Status S3Client::CreateBucket(const std::string& bucket) {
  std::string body;
  if (config_.region != "us-east-1") {
    body = StrCat("<CreateBucketConfiguration><LocationConstraint>", XmlEscape(config_.region),
                  "</LocationConstraint></CreateBucketConfiguration>");
  }
  Call call{.method = "PUT", .bucket = bucket, .key = "", .body = AsBytes(body)};
  FLOE_ASSIGN_OR_RETURN(HttpResponse r, Execute(call));
  if (Is2xx(r.status) || ParseS3Error(r.body).code == "BucketAlreadyOwnedByYou") return Status::OK();
  return ErrorFor(call, r);
}

}  // namespace floe
