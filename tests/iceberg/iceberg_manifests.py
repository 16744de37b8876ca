#!/usr/bin/python3
"""Dumps the manifests of every snapshot of an Iceberg table, for the
cross-engine conformance check (iceberg_conformance.mjs). Reads with Debian's
python3-avro, an Avro implementation independent of floe's.

Usage: /usr/bin/python3 iceberg_manifests.py METADATA_JSON...
Paths inside the metadata resolve against the current directory. Prints one
JSON object: {"<metadata file>": {"<snapshot id>": {"manifests": [...]} |
{"error": "..."}}}.
Each manifest: path, content (0 data, 1 deletes), spec_id, and its entries
with the spec's inheritance applied (snapshot id; data sequence number for
added entries and for every entry of a v1 manifest).
"""
import datetime
import decimal
import gzip
import json
import sys
import warnings

import avro.datafile
import avro.io

warnings.simplefilter('ignore')  # python3-avro warns about Iceberg's map-as-array logical type

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def plain(value):
    """Partition values as JSON: dates as days, timestamps as microseconds,
    decimals as text, bytes as hex."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        delta = value - EPOCH
        return (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds
    if isinstance(value, datetime.date):
        return (value - datetime.date(1970, 1, 1)).days
    if isinstance(value, datetime.time):
        return ((value.hour * 60 + value.minute) * 60 + value.second) * 1000000 + value.microsecond
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    return value


def read_avro(path):
    # file:///abs is /abs; PyIceberg reads file://x/y (a relative warehouse) as x/y.
    local = path[len('file://'):] if path.startswith('file://') else path
    with open(local, 'rb') as f:
        reader = avro.datafile.DataFileReader(f, avro.io.DatumReader())
        meta = {k: v.decode('utf-8', 'replace') for k, v in reader.meta.items() if not k.startswith('avro.')}
        return meta, list(reader)


def read_manifest(m, snapshot_id):
    meta, rows = read_avro(m['path'])
    content = m.get('content')
    if content is None:
        content = 1 if meta.get('content') == 'deletes' else 0
    spec_id = m.get('spec_id')
    if spec_id is None:
        spec_id = int(meta.get('partition-spec-id', '0'))
    manifest_seq = m.get('sequence_number') or 0
    entries = []
    for row in rows:
        data_file = row['data_file']
        status = row['status']
        seq = row.get('sequence_number')
        if seq is None and (status == 1 or manifest_seq == 0):
            seq = manifest_seq
        entries.append({
            'status': status,
            'snapshot_id': row.get('snapshot_id') if row.get('snapshot_id') is not None else m.get('added_snapshot_id', snapshot_id),
            'sequence_number': seq,
            'content': data_file.get('content', 0),
            'file_path': data_file['file_path'],
            'file_format': data_file.get('file_format'),
            'record_count': data_file['record_count'],
            'partition': {k: plain(v) for k, v in (data_file.get('partition') or {}).items()},
            'equality_ids': data_file.get('equality_ids'),
            'referenced_data_file': data_file.get('referenced_data_file'),
        })
    return {'path': m['path'], 'content': content, 'spec_id': spec_id, 'entries': entries}


def snapshot_manifests(snapshot):
    if snapshot.get('manifest-list'):
        _, rows = read_avro(snapshot['manifest-list'])
        listed = [{'path': r['manifest_path'], 'content': r.get('content', 0), 'spec_id': r['partition_spec_id'],
                   'sequence_number': r.get('sequence_number', 0), 'added_snapshot_id': r.get('added_snapshot_id')}
                  for r in rows]
    else:
        # v1: the manifests listed inline.
        listed = [{'path': p, 'content': None, 'spec_id': None, 'sequence_number': 0,
                   'added_snapshot_id': snapshot['snapshot-id']} for p in snapshot.get('manifests', [])]
    return [read_manifest(m, snapshot['snapshot-id']) for m in listed]


def dump(path):
    with open(path, 'rb') as f:
        raw = f.read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    metadata = json.loads(raw)
    out = {}
    for snapshot in metadata.get('snapshots') or []:
        key = str(snapshot['snapshot-id'])
        try:
            out[key] = {'manifests': snapshot_manifests(snapshot)}
        except OSError as e:
            out[key] = {'error': f'{type(e).__name__}: {e.filename}'}
    return out


def main():
    json.dump({path: dump(path) for path in sys.argv[1:]}, sys.stdout)


if __name__ == '__main__':
    main()
