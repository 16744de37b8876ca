#!/usr/bin/env python3
"""Reads a SQL catalog database the way PyIceberg's SqlCatalog does.

The statements are the ones SQLAlchemy issues for pyiceberg/catalog/sql.py
(namespace_exists, list_namespaces, list_tables, load_table), run with the
standard library's sqlite3, so no PyIceberg install is needed. Each table's
metadata file is then read with json, as FromInputFile does.

usage: pyiceberg_sql_read.py <catalog.db> <catalog name> [<root for relative locations>]
prints one line per namespace and table:
  namespace <name> exists=<bool> props=<k=v,...>
  table <ns>.<name> location=<...> previous=<...> format=<n> uuid=<...> log=<n> props=<k=v,...>
"""
import gzip
import json
import os
import sqlite3
import sys


def namespace_exists(db, catalog, namespace):
    starts_with = namespace.replace("!", "!!").replace("_", "!_").replace("%", "!%") + ".%"
    for table, column in (("iceberg_tables", "table_namespace"), ("iceberg_namespace_properties", "namespace")):
        row = db.execute(
            f"SELECT {table}.catalog_name FROM {table} WHERE {table}.catalog_name = ? AND "
            f"({table}.{column} = ? OR {table}.{column} LIKE ? ESCAPE '!') LIMIT ? OFFSET ?",
            (catalog, namespace, starts_with, 1, 0)).fetchone()
        if row:
            return True
    return False


def read_metadata(location, root):
    path = location if os.path.isabs(location) or not root else os.path.join(root, location)
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


def main():
    db = sqlite3.connect(sys.argv[1])
    catalog = sys.argv[2]
    root = sys.argv[3] if len(sys.argv) > 3 else ""
    namespaces = sorted(r[0] for r in db.execute(
        "SELECT iceberg_tables.table_namespace FROM iceberg_tables WHERE iceberg_tables.catalog_name = ? UNION "
        "SELECT iceberg_namespace_properties.namespace FROM iceberg_namespace_properties "
        "WHERE iceberg_namespace_properties.catalog_name = ?", (catalog, catalog)))
    for ns in namespaces:
        props = dict(db.execute(
            "SELECT iceberg_namespace_properties.property_key, iceberg_namespace_properties.property_value "
            "FROM iceberg_namespace_properties WHERE iceberg_namespace_properties.catalog_name = ? AND "
            "iceberg_namespace_properties.namespace = ?", (catalog, ns)).fetchall())
        print(f"namespace {ns} exists={namespace_exists(db, catalog, ns)} "
              f"props={','.join(f'{k}={v}' for k, v in sorted(props.items()))}")
        for (name,) in db.execute(
                "SELECT iceberg_tables.table_name FROM iceberg_tables WHERE iceberg_tables.catalog_name = ? AND "
                "iceberg_tables.table_namespace = ? ORDER BY iceberg_tables.table_name", (catalog, ns)):
            row = db.execute(
                "SELECT iceberg_tables.catalog_name, iceberg_tables.table_namespace, iceberg_tables.table_name, "
                "iceberg_tables.metadata_location, iceberg_tables.previous_metadata_location FROM iceberg_tables "
                "WHERE iceberg_tables.catalog_name = ? AND iceberg_tables.table_namespace = ? AND "
                "iceberg_tables.table_name = ?", (catalog, ns, name)).fetchone()
            metadata = read_metadata(row[3], root)
            props = metadata.get("properties", {})
            print(f"table {ns}.{name} location={row[3]} previous={row[4]} format={metadata['format-version']} "
                  f"uuid={metadata.get('table-uuid')} log={len(metadata.get('metadata-log', []))} "
                  f"props={','.join(f'{k}={v}' for k, v in sorted(props.items()))}")


if __name__ == "__main__":
    main()
