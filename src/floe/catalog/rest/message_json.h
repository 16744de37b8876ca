// The pieces every REST message reader and writer shares (internal to
// catalog/rest/): parsing a body into one InvalidArgument line per error,
// and the JSON forms of namespaces and identifiers. rest_messages.cc and
// view_messages.cc are built on them, so a table and a view message read a
// name alike.
//
// Thread safety: free functions; the element readers use a document owned
// by the caller's simdjson parser, on the caller's thread.

#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "floe/base/json_parse.h"
#include "floe/base/json_writer.h"
#include "floe/base/result.h"
#include "floe/base/strings.h"
#include "floe/catalog/catalog.h"

namespace floe::catalog::rest::internal {

// Parses `json` and reads it with `read(root)`; every error becomes one
// InvalidArgument line "<what>: <why>" (Corrupt from the iceberg readers is
// the request's fault here); other kinds keep theirs, with `what` as context.
template <typename T, typename ReadFn>
Result<T> ParseMessage(std::string_view json, std::string_view what, ReadFn read) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = ParseJson(parser, json).get(root); error != simdjson::SUCCESS) {
    return Status::InvalidArgument(StrCat(what, ": not valid JSON (", simdjson::error_message(error), ")"));
  }
  Result<T> r = read(root);
  if (r.ok()) return r;
  const Status& s = r.status();
  if (s.IsCorrupt() || s.IsInvalidArgument()) return Status::InvalidArgument(StrCat(what, ": ", s.message()));
  return s.WithContext(what);
}

// A JSON array of levels; InvalidArgument naming `path` for another value or
// an invalid level.
Result<Namespace> ReadNamespace(simdjson::dom::element e, const std::string& path);
// {"namespace": [...], "name": "..."}; InvalidArgument for an invalid name.
Result<TableIdentifier> ReadIdentifier(simdjson::dom::element e, const std::string& path);

void WriteNamespace(JsonWriter& w, const Namespace& ns);
void WriteIdentifier(JsonWriter& w, const TableIdentifier& ident);

}  // namespace floe::catalog::rest::internal
