// The conformance suite's REST backends: a real `floe serve` process (the
// floe binary built with the tests) over a SQLite catalog ("rest_sqlite")
// or over the suite's PostgreSQL ("rest_postgresql"), and floe's RestCatalog
// client against it. Each server starts once per test program, on the first
// test that needs it; every test then gets the catalog emptied (rows dropped
// through the backing SQL catalog, the warehouse folder removed), so tests
// see a fresh catalog without a server start each.
//
// The server accepts client-named locations anywhere on the local disk
// (--allowed-location /): tests put tables in their own folders; the
// location policy itself is tested in tests/server/.

#pragma once

#include "catalog/catalog_conformance.h"

namespace floe::catalog::testing {

CatalogFactory* RestSqliteFactory();
CatalogFactory* RestPostgresFactory();
// Stops the servers that were started (SIGTERM, then wait); before the
// PostgreSQL server stops.
void StopRestServers();

}  // namespace floe::catalog::testing
