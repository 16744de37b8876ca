// URL pieces of the Iceberg REST catalog: percent-encoding (RFC 3986),
// namespaces in paths, and the form bodies of POST /v1/oauth/tokens.
//
// spec (rest-catalog-open-api.yaml, parameter `namespace`): "Multipart
// namespace parts must be separated by the namespace separator ... which
// defaults to the unit separator 0x1F byte (url encoded %1F)". floe always
// advertises and uses 0x1F.
//
// Thread safety: free functions on values.

#pragma once

#include <map>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"

namespace floe::catalog::rest {

inline constexpr char kNamespaceSeparator = '\x1f';

// Percent-encodes every byte except RFC 3986's unreserved ones
// (A-Z a-z 0-9 - . _ ~): "a b/c" → "a%20b%2Fc".
std::string UrlEncode(std::string_view text);

// Decodes %XX escapes; with `plus_as_space` (form bodies, queries) '+' reads
// as a space. InvalidArgument for a truncated or non-hex escape.
Result<std::string> UrlDecode(std::string_view text, bool plus_as_space = false);

// The path segment of a namespace: levels joined by 0x1F, percent-encoded:
// {"a", "b"} → "a%1Fb".
std::string EncodeNamespace(const Namespace& ns);

// The inverse of EncodeNamespace on a still-encoded segment. InvalidArgument
// for a bad escape, an empty segment or a level floe refuses (empty, or with
// a '.').
Result<Namespace> DecodeNamespace(std::string_view encoded);

// A namespace from an already percent-decoded segment ("a\x1Fb"), as
// HTTP servers hand path parameters over. Errors as DecodeNamespace.
Result<Namespace> SplitNamespace(std::string_view decoded);

// application/x-www-form-urlencoded: "a=1&b=x%20y" ↔ {{"a","1"},{"b","x y"}}.
// InvalidArgument for a bad escape or a key given twice.
Result<std::map<std::string, std::string>> ParseForm(std::string_view body);
std::string FormEncode(const std::map<std::string, std::string>& fields);

}  // namespace floe::catalog::rest
