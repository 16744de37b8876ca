"""Writes an Avro container file with Python's avro for
avro_python_test.cc: avro_python_write.py FILE CODEC ROWS."""
import json
import sys

import avro.datafile
import avro.io
import avro.schema

SCHEMA = {
    "type": "record", "name": "manifest_entry", "namespace": "py.test",
    "fields": [
        {"name": "status", "type": "int", "field-id": 0},
        {"name": "snapshot_id", "type": ["null", "long"], "default": None, "field-id": 1},
        {"name": "data_file", "field-id": 2, "type": {
            "type": "record", "name": "r2", "fields": [
                {"name": "file_path", "type": "string", "field-id": 100},
                {"name": "record_count", "type": "long", "field-id": 103},
                {"name": "score", "type": "double", "field-id": 104},
                {"name": "ratio", "type": "float", "field-id": 105},
                {"name": "ok", "type": "boolean", "field-id": 106},
                {"name": "kind", "type": {"type": "enum", "name": "kind", "symbols": ["DATA", "DELETES"]}, "field-id": 107},
                {"name": "md5", "type": {"type": "fixed", "name": "md5", "size": 4}, "field-id": 108},
                {"name": "column_sizes", "field-id": 109, "type": ["null", {
                    "type": "array", "logicalType": "map", "items": {
                        "type": "record", "name": "k117_v118", "fields": [
                            {"name": "key", "type": "int", "field-id": 117},
                            {"name": "value", "type": "long", "field-id": 118}]}}], "default": None},
                {"name": "props", "type": {"type": "map", "values": "bytes", "key-id": 120, "value-id": 121}, "field-id": 119},
            ]}},
    ]}

path, codec, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
schema = avro.schema.parse(json.dumps(SCHEMA))
with open(path, "wb") as fh:
    w = avro.datafile.DataFileWriter(fh, avro.io.DatumWriter(), schema, codec=codec)
    w.set_meta("format-version", b"2")
    w.set_meta("content", b"data")
    for i in range(n):
        w.append({
            "status": i % 3,
            "snapshot_id": None if i % 5 == 0 else 1000000000000 + i,
            "data_file": {
                "file_path": "s3://b/t/data/%05d.parquet" % i,
                "record_count": i * 1000,
                "score": i / 8.0,
                "ratio": 0.5,
                "ok": i % 2 == 0,
                "kind": "DELETES" if i % 7 == 0 else "DATA",
                "md5": bytes([i % 256, 1, 2, 3]),
                "column_sizes": None if i % 4 == 0 else [{"key": k, "value": k * i} for k in range(1, 4)],
                "props": {"k%d" % i: b"\x00\xff"},
            }})
    w.close()
