// CommitTableTransactions: several tables' transactions
// (iceberg/transaction.h) published together through one
// Catalog::CommitTransaction — the REST catalog's POST
// /v1/{prefix}/transactions/commit, one SQL transaction on a SQL catalog —
// so every table moves or none does.
//
// Each table's part is its transaction's PendingChanges(): the updates from
// the state it started at, with the requirements its operations assumed
// (assert-table-uuid, assert-ref-snapshot-id on each ref it moves, schema
// and spec assertions for metadata changes), which the catalog checks
// against each table's current metadata. When any table moved meanwhile
// (CommitConflict: nothing changed), every transaction reloads its table
// and re-applies its operations, each re-validating what it assumed, and
// the whole commit is retried with backoff (`commit.retry.*` of the first
// table). Before each attempt every transaction makes its new files
// durable (Transaction::MakeStagedDurable). Errors:
//   CommitConflict — retries exhausted, or an operation's validation failed
//     on a fresh table; every transaction is aborted (its files deleted).
//   CommitStateUnknown — from the catalog; every transaction keeps its files.
//   InvalidArgument — no transactions, a table twice, a transaction that is
//     already committed or aborted; others of the catalog, of making files
//     durable and of re-applying (every transaction is aborted then).
// Returns the tables' new states, in the order given.
//
// Thread safety: the transactions must not be used by other threads
// meanwhile; the catalog is used as its own contract allows.

#pragma once

#include <vector>

#include "floe/base/result.h"
#include "floe/catalog/catalog.h"
#include "floe/iceberg/transaction.h"

namespace floe::catalog {

struct TableTransaction {
  TableIdentifier ident;
  iceberg::Transaction* transaction = nullptr;  // not owned; on a table of the catalog
};

Result<std::vector<iceberg::TableState>> CommitTableTransactions(Catalog& catalog,
                                                                 const std::vector<TableTransaction>& transactions);

}  // namespace floe::catalog
