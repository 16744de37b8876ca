// The XML documents of the S3 REST API that floe reads and writes.
//
// S3 answers in a small, regular XML dialect: no attributes that matter, no
// CDATA, no namespace prefixes, entities only for the five predefined
// characters and numeric references. This reader handles exactly that, and
// treats anything else in a body as Corrupt naming the document: a server's
// bytes are untrusted input.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "floe/base/result.h"

namespace floe {

// The decoded text of every <tag>...</tag> directly or indirectly inside
// `xml`, in document order. Corrupt when an element is not closed or an
// entity is malformed.
Result<std::vector<std::string>> XmlElements(std::string_view xml, std::string_view tag);
// The raw (undecoded) inner XML of each <tag>...</tag>, for nested records.
Result<std::vector<std::string_view>> XmlBlocks(std::string_view xml, std::string_view tag);
// The first element's decoded text, or "" when absent.
Result<std::string> XmlFirst(std::string_view xml, std::string_view tag);

// Escapes &, <, >, " and ' for element text.
std::string XmlEscape(std::string_view text);
// Decodes &amp; &lt; &gt; &quot; &apos; and &#N; / &#xN; (to UTF-8).
Result<std::string> XmlUnescape(std::string_view text);

// <Error><Code>NoSuchKey</Code><Message>...</Message></Error>
struct S3ErrorBody {
  std::string code{};
  std::string message{};
};
// Best effort: an unparsable or empty body gives empty fields.
S3ErrorBody ParseS3Error(std::string_view xml);

struct S3ListedObject {
  std::string key{};
  int64_t size = 0;
  int64_t mtime_ms = 0;  // from LastModified; 0 when absent or unparsable
  std::string etag{};
};

struct S3ListResult {
  std::vector<S3ListedObject> objects{};
  bool is_truncated = false;
  std::string next_continuation_token{};
};
// A ListObjectsV2 response (ListBucketResult). Corrupt on a malformed size.
Result<S3ListResult> ParseListObjectsV2(std::string_view xml);

// DeleteObjects response: the keys that failed, with their error.
struct S3DeleteFailure {
  std::string key{};
  std::string code{};
  std::string message{};
};
Result<std::vector<S3DeleteFailure>> ParseDeleteResult(std::string_view xml);

// The DeleteObjects request body (quiet mode: only failures are reported).
std::string DeleteObjectsBody(const std::vector<std::string>& keys);

struct S3CompletedPart {
  int part_number = 0;
  std::string etag{};  // as the server returned it, quotes included
};
std::string CompleteMultipartUploadBody(const std::vector<S3CompletedPart>& parts);

// ISO 8601 "2026-12-02T19:02:02.000Z" to ms since the epoch; -1 if unparsable.
int64_t ParseIso8601Millis(std::string_view text);

}  // namespace floe
