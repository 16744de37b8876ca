"""Reads an Avro container file with Python's avro and prints what it saw
as one JSON object: codec, user metadata, every field-id / element-id /
key-id / value-id of the parsed schema, and the rows (bytes as hex, logical
values as str). Used by avro_python_test.cc: avro_python_read.py FILE."""
import json
import sys

import avro.datafile
import avro.io
import avro.schema


def ids(schema, path, out):
    if isinstance(schema, avro.schema.RecordSchema):
        for f in schema.fields:
            p = path + "." + f.name if path else f.name
            if "field-id" in f.other_props:
                out.append([p, "field-id", f.other_props["field-id"]])
            ids(f.type, p, out)
    elif isinstance(schema, avro.schema.UnionSchema):
        for b in schema.schemas:
            ids(b, path, out)
    elif isinstance(schema, avro.schema.ArraySchema):
        for k in ("element-id", "logicalType"):
            if k in schema.other_props:
                out.append([path, k, schema.other_props[k]])
        ids(schema.items, path + "[]", out)
    elif isinstance(schema, avro.schema.MapSchema):
        for k in ("key-id", "value-id"):
            if k in schema.other_props:
                out.append([path, k, schema.other_props[k]])
        ids(schema.values, path + "{}", out)


def plain(v):
    if isinstance(v, bytes):
        return "hex:" + v.hex()
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


with open(sys.argv[1], "rb") as fh:
    reader = avro.datafile.DataFileReader(fh, avro.io.DatumReader())
    meta = {k: v.decode() for k, v in reader.meta.items() if not k.startswith("avro.")}
    codec = reader.meta.get("avro.codec", b"null").decode()
    found = []
    ids(reader.datum_reader.writers_schema, "", found)
    rows = [plain(r) for r in reader]
print(json.dumps({"codec": codec, "meta": meta, "ids": found, "rows": rows}, sort_keys=True))
