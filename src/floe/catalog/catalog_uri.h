// Opening a catalog from its URI, as the CLI's --catalog and FLOE_CATALOG
// give it:
//   sqlite:<path>          the SQL catalog in a SQLite file (created with its
//                          folder when missing); also jdbc:sqlite:<path>, and
//                          SQLAlchemy's sqlite:///<relative> and
//                          sqlite:////<absolute> as PyIceberg users write them
//   postgresql://[user[:password]@]host[:port]/db[?libpq parameters]
//                          the SQL catalog in a PostgreSQL database (also
//                          postgres:// and jdbc:postgresql://; postgres.h)
//   http(s)://host:port[/path][?warehouse=W&prefix=P&scope=S&oauth2-server-uri=U]
//                          an Iceberg REST catalog (rest_catalog.h): <path>
//                          is the service root before /v1; the query's
//                          warehouse goes to GET /v1/config, other keys are
//                          client properties. Credentials come from the
//                          environment only: FLOE_REST_CREDENTIAL
//                          (client_id:secret, OAuth2 client credentials) or
//                          FLOE_REST_TOKEN (a bearer token); a URI carrying
//                          credential= or token= is InvalidArgument.
// Messages never show a password (RedactCatalogUri).
//
// Thread safety: OpenCatalog may be called from any thread; the catalog it
// returns is thread-safe.

#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/catalog_table_operations.h"
#include "floe/io/file_io.h"

namespace floe::catalog {

// The scheme word of a catalog URI: "sqlite", "postgresql", "http", ... ("" when none).
std::string CatalogUriScheme(std::string_view uri);

// `uri` without a password in its user info or its `password=` parameter,
// for messages and `floe config` (other URIs come back unchanged).
std::string RedactCatalogUri(std::string_view uri);

// Opens the catalog `uri` names, with table locations under `warehouse` (a
// relative local path is made absolute, so metadata never holds relative
// locations) and files read and written through `io` (and, for tables
// whose properties configure storage, the FileIO `table_io` resolves).
// `client_properties` are the client's catalog properties (`--catalog-
// property`): a REST catalog places them between the server's defaults and
// overrides, so the storage settings the server sends are weighed against
// them (RestCatalog::StoragePropertiesFor); SQL catalogs take theirs from
// `table_io`.
//   InvalidArgument for an unknown scheme or an empty path or warehouse;
//   the catalog's own errors (SqlCatalog::Open).
Result<std::shared_ptr<Catalog>> OpenCatalog(std::string_view uri, std::string_view warehouse,
                                             std::shared_ptr<FileIO> io, std::string catalog_name = "floe",
                                             TableFileIOResolver table_io = nullptr,
                                             const Properties& client_properties = {});

}  // namespace floe::catalog
