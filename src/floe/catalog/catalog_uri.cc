#include "floe/catalog/catalog_uri.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "floe/base/strings.h"
#include "floe/catalog/postgres.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/catalog/rest_catalog.h"
#include "floe/catalog/sql_catalog.h"

namespace floe::catalog {
namespace {

// The SQLite path of a "sqlite:" URI's remainder.
Result<std::string> SqlitePath(std::string_view uri, std::string_view rest) {
  if (StartsWith(rest, "//")) {
    // SQLAlchemy: sqlite://<host, empty>/<path>; an empty path is memory.
    rest.remove_prefix(2);
    if (rest.empty()) return std::string(":memory:");
    if (rest.front() != '/')
      return Status::InvalidArgument(StrCat("catalog URI ", Quote(uri), ": expected sqlite:///<path>"));
    rest.remove_prefix(1);
  }
  if (rest.empty()) return Status::InvalidArgument(StrCat("catalog URI ", Quote(uri), " names no database file"));
  return std::string(rest);
}

std::string EnvOr(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// http(s)://host:port[/path][?warehouse=..&prefix=..&scope=..&oauth2-server-uri=..]
Result<std::shared_ptr<Catalog>> OpenRestCatalog(std::string_view uri, std::shared_ptr<FileIO> io,
                                                 std::string catalog_name, TableFileIOResolver table_io,
                                                 const Properties& client_properties) {
  RestCatalogOptions options;
  options.name = std::move(catalog_name);
  options.table_io = std::move(table_io);
  options.properties = client_properties;
  const size_t question = uri.find('?');
  options.uri = std::string(uri.substr(0, question));
  if (question != std::string_view::npos) {
    FLOE_ASSIGN_OR_RETURN(auto query, rest::ParseForm(uri.substr(question + 1)));
    for (auto& [key, value] : query) {
      if (key == "warehouse") {
        options.warehouse = value;
      } else if (key == "scope") {
        options.auth.scope = value;
      } else if (key == "oauth2-server-uri") {
        options.oauth2_server_uri = value;
      } else if (key == "credential" || key == "token") {
        // A URI shows in shells' histories, process lists and messages.
        return Status::InvalidArgument(StrCat("catalog URI: '", key,
                                              "' does not belong in the URI; set FLOE_REST_CREDENTIAL "
                                              "(client_id:secret) or FLOE_REST_TOKEN"));
      } else {
        options.properties[key] = value;  // prefix, ... (client properties)
      }
    }
  }
  options.auth.credential = EnvOr("FLOE_REST_CREDENTIAL");
  options.auth.token = EnvOr("FLOE_REST_TOKEN");
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<RestCatalog> catalog, RestCatalog::Open(std::move(options), std::move(io)));
  return std::shared_ptr<Catalog>(std::move(catalog));
}

}  // namespace

std::string CatalogUriScheme(std::string_view uri) {
  if (StartsWith(uri, "jdbc:")) uri.remove_prefix(5);
  const size_t colon = uri.find(':');
  if (colon == std::string_view::npos || colon == 0) return "";
  std::string scheme(uri.substr(0, colon));
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return scheme;
}

static Result<std::string> WarehouseLocation(std::string_view warehouse) {
  if (warehouse.empty()) return Status::InvalidArgument("catalog: the warehouse is empty");
  if (!LocationScheme(warehouse).empty()) return std::string(warehouse);
  return std::filesystem::absolute(std::filesystem::path(warehouse)).lexically_normal().string();
}

static Result<std::shared_ptr<Catalog>> OpenPostgres(std::string_view uri, std::string_view warehouse,
                                              std::shared_ptr<FileIO> io, std::string catalog_name,
                                              TableFileIOResolver table_io) {
  FLOE_ASSIGN_OR_RETURN(PostgresUri parsed, ParsePostgresUri(uri));
  SqlCatalogOptions options;
  options.table_io = std::move(table_io);
  FLOE_ASSIGN_OR_RETURN(options.warehouse, WarehouseLocation(warehouse));
  options.catalog_name = std::move(catalog_name);
  auto backend = std::make_shared<PostgresBackend>(std::move(parsed), options.busy_timeout_ms, options.max_connections);
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<SqlCatalog> catalog,
                        SqlCatalog::Open(std::move(backend), std::move(options), std::move(io)));
  return std::shared_ptr<Catalog>(std::move(catalog));
}

Result<std::shared_ptr<Catalog>> OpenCatalog(std::string_view uri, std::string_view warehouse,
                                             std::shared_ptr<FileIO> io, std::string catalog_name,
                                             TableFileIOResolver table_io, const Properties& client_properties) {
  const std::string scheme = CatalogUriScheme(uri);
  if (scheme == "postgresql" || scheme == "postgres") {
    return OpenPostgres(uri, warehouse, std::move(io), std::move(catalog_name), std::move(table_io));
  }
  if (scheme == "http" || scheme == "https") {
    return OpenRestCatalog(uri, std::move(io), std::move(catalog_name), std::move(table_io), client_properties);
  }
  if (scheme != "sqlite") {
    return Status::InvalidArgument(StrCat("catalog URI ", Quote(RedactCatalogUri(uri)),
                                          ": unknown scheme (expected sqlite:<path>, postgresql://, http(s)://)"));
  }
  std::string_view rest = uri.substr(uri.find(':', StartsWith(uri, "jdbc:") ? 5 : 0) + 1);
  FLOE_ASSIGN_OR_RETURN(std::string path, SqlitePath(uri, rest));
  FLOE_ASSIGN_OR_RETURN(std::string warehouse_location, WarehouseLocation(warehouse));
  const std::string_view path_scheme = LocationScheme(path);
  if (!path_scheme.empty() && path_scheme != "file" && path_scheme != "mem") {
    // The default catalog of an s3:// warehouse lands here.
    return Status::InvalidArgument(StrCat("catalog database ", Quote(path),
                                          " is not on the local disk: SQLite needs a local file; give --catalog "
                                          "sqlite:<local path> (the warehouse may stay on ",
                                          path_scheme, "://)"));
  }
  if (path != ":memory:") {
    // SQLite creates the file but not its folder (the default catalog sits
    // inside a warehouse that may not exist yet).
    std::error_code ec;
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) {
      return Status::IOError(
          StrCat("catalog database ", Quote(path), ": create folder ", Quote(parent.string()), ": ", ec.message()));
    }
  }
  SqlCatalogOptions options;
  options.database_path = std::move(path);
  options.warehouse = std::move(warehouse_location);
  options.catalog_name = std::move(catalog_name);
  options.table_io = std::move(table_io);
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<SqlCatalog> catalog, SqlCatalog::Open(std::move(options), std::move(io)));
  return std::shared_ptr<Catalog>(std::move(catalog));
}

}  // namespace floe::catalog
