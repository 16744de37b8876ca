// The table routes: list, create (and stage-create), load / HEAD (snapshots,
// ETag), commit, drop (purgeRequested), rename, register.

#include <cctype>
#include <set>

#include "floe/base/strings.h"
#include "floe/catalog/rest/rest_messages.h"
#include "floe/iceberg/metadata_io.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/io/file_io.h"
#include "floe/server/handlers.h"

namespace floe::server {

namespace rest = catalog::rest;
using Access = Principal::Access;

namespace {

catalog::TableIdentifier IdentOf(const RestRequest& request) { return {request.ns, request.table}; }

// A strong ETag for one metadata file served in one form: the same location
// means the same metadata (files are immutable).
std::string ETagFor(const std::string& metadata_location, std::string_view form) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a 64
  for (char c : StrCat(metadata_location, "|", form)) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string tag = "\"";
  for (int shift = 60; shift >= 0; shift -= 4) tag += kHex[(h >> shift) & 0xF];
  return tag + "\"";
}

RestResponse TableResult(const ServerState& server, const iceberg::TableState& state, int status = 200) {
  rest::LoadTableResult result{state.metadata_location, *state.metadata, server.options.table_config};
  auto json = rest::ToJson(result);
  if (!json.ok()) return ErrorResponse(json.status());
  RestResponse response = JsonResponse(status, std::move(*json));
  response.etag = ETagFor(state.metadata_location, "all");
  return response;
}

// spec (snapshots=refs): "load all snapshots referenced by branches or tags".
iceberg::TableMetadata OnlyReferencedSnapshots(const iceberg::TableMetadata& metadata) {
  std::set<int64_t> referenced;
  for (const auto& [name, ref] : metadata.refs) referenced.insert(ref.snapshot_id);
  iceberg::TableMetadata out = metadata;
  out.snapshots.clear();
  for (const auto& s : metadata.snapshots) {
    if (referenced.count(s.snapshot_id)) out.snapshots.push_back(s);
  }
  return out;
}

Status CheckUpdateLocations(const ServerState& state, const std::vector<iceberg::TableUpdate>& updates) {
  for (const auto& u : updates) {
    if (const auto* loc = std::get_if<iceberg::SetLocation>(&u)) {
      FLOE_RETURN_IF_ERROR(state.locations.Check(loc->location, "table location"));
    }
  }
  return Status::OK();
}

// Where the catalog puts a table that names no location: the namespace's
// "location" property, else <warehouse>/<levels>/<table> (as SqlCatalog).
Result<std::string> DefaultLocation(ServerState& state, const catalog::TableIdentifier& ident) {
  FLOE_ASSIGN_OR_RETURN(catalog::Properties properties, state.catalog->LoadNamespaceMetadata(ident.ns));
  if (auto it = properties.find("location"); it != properties.end() && !it->second.empty()) {
    return JoinLocation(it->second, ident.name);
  }
  std::string location = state.options.warehouse;
  for (const std::string& level : ident.ns.levels) location = JoinLocation(location, level);
  return JoinLocation(location, ident.name);
}

RestResponse StageCreate(ServerState& state, const catalog::TableIdentifier& ident,
                         const rest::CreateTableRequest& request) {
  auto exists = state.catalog->TableExists(ident);
  if (!exists.ok()) return ErrorResponse(exists.status());
  if (*exists) return ErrorResponse(Status::AlreadyExists(StrCat("table ", ident.ToString(), " already exists")));
  std::string location;
  if (request.table.location && !request.table.location->empty()) {
    location = *request.table.location;
  } else {
    auto fallback = DefaultLocation(state, ident);  // NotFound for a missing namespace
    if (!fallback.ok()) return ErrorResponse(fallback.status());
    location = std::move(*fallback);
  }
  auto metadata = iceberg::NewTableMetadata(request.table.Definition(std::move(location)));
  if (!metadata.ok()) return ErrorResponse(metadata.status());
  // spec: a staged table has no metadata location until its create
  // transaction commits (with assert-create).
  auto json = rest::ToJson(rest::LoadTableResult{std::nullopt, std::move(*metadata), state.options.table_config});
  if (!json.ok()) return ErrorResponse(json.status());
  return JsonResponse(200, std::move(*json));
}

}  // namespace

RestResponse ListTables(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kRead, request.ns); !s.ok()) return ErrorResponse(s);
  auto page = PageOf(state, request);
  if (!page.ok()) return ErrorResponse(page.status());
  auto tables = state.catalog->ListTables(request.ns);
  if (!tables.ok()) return ErrorResponse(tables.status());
  return JsonResponse(200, rest::ToJson(IdentifierPage(*page, std::move(*tables))));
}

RestResponse CreateTable(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kWrite, request.ns); !s.ok()) return ErrorResponse(s);
  auto parsed = rest::ParseCreateTableRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  const catalog::TableIdentifier ident{request.ns, parsed->name};
  if (parsed->table.location) {
    if (Status s = state.locations.Check(*parsed->table.location, "table location"); !s.ok()) return ErrorResponse(s);
  }
  if (parsed->stage_create) return StageCreate(state, ident, *parsed);
  auto created = state.catalog->CreateTable(ident, parsed->table);
  if (!created.ok()) return ErrorResponse(created.status());
  return TableResult(state, *created);
}

RestResponse LoadTable(ServerState& state, const RestRequest& request) {
  const catalog::TableIdentifier ident = IdentOf(request);
  if (Status s = Authorize(request, Access::kRead, ident.ns); !s.ok()) return ErrorResponse(s);
  if (request.method == "HEAD") {
    auto exists = state.catalog->TableExists(ident);
    if (!exists.ok()) return ErrorResponse(exists.status());
    if (!*exists) return ErrorResponse(Status::NotFound(catalog::TableNotFoundMessage(ident)));
    return NoContent();
  }
  std::string mode = "all";
  if (auto it = request.query.find("snapshots"); it != request.query.end() && !it->second.empty()) mode = it->second;
  if (mode != "all" && mode != "refs") {
    return ErrorResponse(Status::InvalidArgument(StrCat("snapshots ", Quote(mode), ": expected all or refs")));
  }
  auto loaded = state.catalog->LoadTable(ident);
  if (!loaded.ok()) return ErrorResponse(loaded.status());
  const std::string etag = ETagFor(loaded->metadata_location, mode);
  const std::string if_none_match = request.Header("if-none-match");
  if (!if_none_match.empty() && (if_none_match == etag || if_none_match == "*")) {
    RestResponse not_modified;
    not_modified.status = 304;
    not_modified.content_type.clear();
    not_modified.etag = etag;
    return not_modified;
  }
  iceberg::TableMetadata metadata = mode == "refs" ? OnlyReferencedSnapshots(*loaded->metadata) : *loaded->metadata;
  auto json = rest::ToJson(rest::LoadTableResult{loaded->metadata_location, std::move(metadata), state.options.table_config});
  if (!json.ok() && mode == "refs") {
    // A snapshot log naming dropped snapshots may not validate: serve all.
    json = rest::ToJson(rest::LoadTableResult{loaded->metadata_location, *loaded->metadata, state.options.table_config});
  }
  if (!json.ok()) return ErrorResponse(json.status());
  RestResponse response = JsonResponse(200, std::move(*json));
  response.etag = etag;
  return response;
}

RestResponse CommitTable(ServerState& state, const RestRequest& request) {
  const catalog::TableIdentifier ident = IdentOf(request);
  if (Status s = Authorize(request, Access::kWrite, ident.ns); !s.ok()) return ErrorResponse(s);
  auto parsed = rest::ParseCommitTableRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  if (parsed->identifier && *parsed->identifier != ident) {
    return ErrorResponse(Status::InvalidArgument(StrCat("CommitTableRequest: identifier ",
                                                        parsed->identifier->ToString(), " does not match the path's ",
                                                        ident.ToString())));
  }
  if (Status s = CheckUpdateLocations(state, parsed->updates); !s.ok()) return ErrorResponse(s);
  Result<iceberg::TableState> committed =
      RerunLostSwaps([&] { return state.catalog->CommitTable(ident, parsed->requirements, parsed->updates); });
  if (!committed.ok()) return CommitErrorResponse(committed.status());
  auto json = rest::ToJson(rest::CommitTableResponse{committed->metadata_location, *committed->metadata});
  if (!json.ok()) return ErrorResponse(json.status());
  RestResponse response = JsonResponse(200, std::move(*json));
  response.etag = ETagFor(committed->metadata_location, "all");
  return response;
}

RestResponse DropTable(ServerState& state, const RestRequest& request) {
  const catalog::TableIdentifier ident = IdentOf(request);
  if (Status s = Authorize(request, Access::kWrite, ident.ns); !s.ok()) return ErrorResponse(s);
  bool purge = false;
  if (auto it = request.query.find("purgeRequested"); it != request.query.end()) {
    // Case-insensitive: PyIceberg sends Python's "True" / "False".
    std::string value = it->second;
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (value != "true" && value != "false") {
      return ErrorResponse(
          Status::InvalidArgument(StrCat("purgeRequested ", Quote(it->second), ": expected true or false")));
    }
    purge = value == "true";
  }
  Status dropped = state.catalog->DropTable(ident, purge);
  // A purge that failed part-way still dropped the table: the error is about
  // files left behind, which the answer reports as a server failure.
  if (!dropped.ok()) return ErrorResponse(dropped);
  return NoContent();
}

RestResponse RenameTable(ServerState& state, const RestRequest& request) {
  auto parsed = rest::ParseRenameTableRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  if (Status s = Authorize(request, Access::kWrite, parsed->source.ns); !s.ok()) return ErrorResponse(s);
  if (Status s = Authorize(request, Access::kWrite, parsed->destination.ns); !s.ok()) return ErrorResponse(s);
  Status renamed = state.catalog->RenameTable(parsed->source, parsed->destination);
  if (!renamed.ok()) return ErrorResponse(renamed);
  return NoContent();
}

RestResponse RegisterTable(ServerState& state, const RestRequest& request) {
  if (Status s = Authorize(request, Access::kWrite, request.ns); !s.ok()) return ErrorResponse(s);
  auto parsed = rest::ParseRegisterTableRequest(request.body);
  if (!parsed.ok()) return ErrorResponse(parsed.status());
  const catalog::TableIdentifier ident{request.ns, parsed->name};
  if (Status s = ident.Validate(); !s.ok()) return ErrorResponse(s);
  if (Status s = state.locations.Check(parsed->metadata_location, "metadata location"); !s.ok()) {
    return ErrorResponse(s);
  }
  // The file is read before the catalog changes, so a table the file puts
  // outside the warehouse is refused without a registration to undo (with
  // overwrite, an undo could not restore the pointer safely).
  auto metadata = iceberg::ReadTableMetadata(state.catalog->NewTableOps(ident)->io(), parsed->metadata_location);
  if (!metadata.ok()) {
    // A metadata file that cannot be read is the request's fault.
    if (metadata.status().IsCorrupt()) return ErrorResponse(Status::InvalidArgument(metadata.status().message()));
    return ErrorResponse(metadata.status());
  }
  if (Status s = state.locations.Check(metadata->location, "table location"); !s.ok()) return ErrorResponse(s);
  auto registered = state.catalog->RegisterTable(ident, parsed->metadata_location, parsed->overwrite);
  if (!registered.ok()) {
    if (registered.status().IsCorrupt()) return ErrorResponse(Status::InvalidArgument(registered.status().message()));
    return ErrorResponse(registered.status());
  }
  return TableResult(state, *registered);
}

}  // namespace floe::server
