#include "floe/io/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <ctime>

#include "floe/base/bytes.h"
#include "floe/base/hex.h"

namespace floe {
namespace {

std::string ToHex(const uint8_t* data, size_t n) {
  return Hex(std::string_view(reinterpret_cast<const char*>(data), n));
}

std::string HmacSha256(std::string_view key, std::string_view data) {
  uint8_t digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const uint8_t*>(data.data()),
       data.size(), digest, &len);
  return std::string(reinterpret_cast<const char*>(digest), len);
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// spec: "Trim leading and trailing spaces, and convert sequential spaces to a single space."
std::string CanonicalHeaderValue(std::string_view v) {
  v = TrimSpaces(v);
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if ((c == ' ' || c == '\t') && !out.empty() && out.back() == ' ') continue;
    out += c == '\t' ? ' ' : c;
  }
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

std::string UriEncode(std::string_view s, bool encode_slash) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                            c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved || (c == '/' && !encode_slash)) {
      out += c;
    } else {
      out += '%';
      out += "0123456789ABCDEF"[u >> 4];
      out += "0123456789ABCDEF"[u & 15];
    }
  }
  return out;
}

std::string CanonicalQueryString(const QueryParams& params) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(params.size());
  for (const auto& [k, v] : params) encoded.emplace_back(UriEncode(k), UriEncode(v));
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [k, v] : encoded) {
    if (!out.empty()) out += '&';
    out += k;
    out += '=';
    out += v;
  }
  return out;
}

std::string Sha256Hex(std::span<const uint8_t> data) {
  uint8_t digest[SHA256_DIGEST_LENGTH];
  SHA256(data.data(), data.size(), digest);
  return ToHex(digest, sizeof digest);
}

std::string Sha256Hex(std::string_view data) { return Sha256Hex(AsBytes(data)); }

SigV4Signer::SigV4Signer(AwsCredentials credentials, std::string region, std::string service)
    : credentials_(std::move(credentials)), region_(std::move(region)), service_(std::move(service)) {}

SigV4Output SigV4Signer::Sign(const SigV4Input& input, std::string_view amz_date) const {
  // Headers with one name are joined by commas in the order given
  // (spec: get-header-value-order keeps the values' order).
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& [name, value] : input.headers) {
    std::string lname = Lower(TrimSpaces(name));
    std::string cvalue = CanonicalHeaderValue(value);
    auto it = std::find_if(headers.begin(), headers.end(), [&](const auto& h) { return h.first == lname; });
    if (it != headers.end()) {
      it->second += ',';
      it->second += cvalue;
    } else {
      headers.emplace_back(std::move(lname), std::move(cvalue));
    }
  }
  std::stable_sort(headers.begin(), headers.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  SigV4Output out;
  std::string canonical_headers;
  for (const auto& [name, value] : headers) {
    canonical_headers += name + ":" + value + "\n";
    if (!out.signed_headers.empty()) out.signed_headers += ';';
    out.signed_headers += name;
  }
  out.canonical_request = input.method + "\n" + (input.canonical_uri.empty() ? "/" : input.canonical_uri) + "\n" +
                          CanonicalQueryString(input.query) + "\n" + canonical_headers + "\n" +
                          out.signed_headers + "\n" + input.payload_sha256;

  const std::string_view date = amz_date.substr(0, 8);
  const std::string scope = std::string(date) + "/" + region_ + "/" + service_ + "/aws4_request";
  out.string_to_sign =
      "AWS4-HMAC-SHA256\n" + std::string(amz_date) + "\n" + scope + "\n" + Sha256Hex(out.canonical_request);

  std::string key = HmacSha256("AWS4" + credentials_.secret_access_key, date);
  key = HmacSha256(key, region_);
  key = HmacSha256(key, service_);
  key = HmacSha256(key, "aws4_request");
  const std::string mac = HmacSha256(key, out.string_to_sign);
  out.signature = ToHex(reinterpret_cast<const uint8_t*>(mac.data()), mac.size());
  out.authorization = "AWS4-HMAC-SHA256 Credential=" + credentials_.access_key_id + "/" + scope +
                      ", SignedHeaders=" + out.signed_headers + ", Signature=" + out.signature;
  return out;
}

std::string AmzDateNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

}  // namespace floe
