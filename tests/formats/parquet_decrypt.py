#!/usr/bin/python3
"""An independent reader of encrypted Parquet files, written from the spec.

parquet-format's Encryption.md and parquet.thrift, nothing of floe's: the
Thrift compact protocol, the file layouts of both footer modes, every
module's AAD, AES-GCM and AES-CTR through Python's cryptography package
(Debian's python3-cryptography), and parquet-mr's key tools material
(PKMT1) unwrapped with master keys. It decrypts and checks every module of
the file (footer or footer signature, column metadata, page headers, pages,
dictionary pages, column and offset indexes, bloom filter headers and
bitsets) of every column, and decodes the values of top-level columns of
INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY that are not repeated, PLAIN or
dictionary encoded, in data pages v1 and v2, uncompressed, snappy, gzip or
zstd.

Usage: parquet_decrypt.py FILE [--footer-key HEX] [--column-key PATH=HEX]...
           [--master-key ID=HEX]... [--aad-prefix TEXT]
Prints one JSON object: {"rows": N, "columns": {name: [values]},
"modules": {module type name: count}, "plaintext_footer": bool}. Any failure
(a tag that does not match, a missing key) exits 1 with one line on stderr.
"""

import argparse
import base64
import json
import struct
import sys

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

MODULE_TYPES = ["footer", "column_metadata", "data_page", "dictionary_page", "data_page_header",
                "dictionary_page_header", "column_index", "offset_index", "bloom_filter_header",
                "bloom_filter_bitset"]


class Failure(Exception):
    pass


# --- Thrift compact protocol: structs as {field id: value} ---------------

class CompactReader:
    def __init__(self, data, pos=0):
        self.data = data
        self.pos = pos

    def byte(self):
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self):
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    def zigzag(self):
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, kind):
        if kind in (1, 2):  # booleans as list elements: one byte
            return self.byte() == 1
        if kind == 3:
            return struct.unpack("b", bytes([self.byte()]))[0]
        if kind in (4, 5, 6):
            return self.zigzag()
        if kind == 7:
            v = struct.unpack_from("<d", self.data, self.pos)[0]
            self.pos += 8
            return v
        if kind == 8:
            n = self.varint()
            v = bytes(self.data[self.pos:self.pos + n])
            self.pos += n
            return v
        if kind in (9, 10):
            header = self.byte()
            size = header >> 4
            if size == 15:
                size = self.varint()
            return [self.value(header & 0x0F) for _ in range(size)]
        if kind == 11:
            size = self.varint()
            if size == 0:
                return {}
            kinds = self.byte()
            return {self.value(kinds >> 4): self.value(kinds & 0x0F) for _ in range(size)}
        if kind == 12:
            return self.struct()
        raise Failure(f"thrift: unknown type {kind}")

    def struct(self):
        fields = {}
        last = 0
        while True:
            header = self.byte()
            if header == 0:
                return fields
            kind = header & 0x0F
            delta = header >> 4
            field = last + delta if delta else self.zigzag()
            if kind == 1:
                fields[field] = True
            elif kind == 2:
                fields[field] = False
            else:
                fields[field] = self.value(kind)
            last = field


# --- AES and the spec's AADs ---------------------------------------------

def module_aad(file_aad, module_type, row_group=0, column=0, page=None):
    aad = file_aad + bytes([module_type])
    if module_type == 0:
        return aad
    aad += struct.pack("<hh", row_group, column)
    if page is not None:
        aad += struct.pack("<h", page)
    return aad


class Decryptor:
    def __init__(self, file_aad, ctr_pages, counts):
        self.file_aad = file_aad
        self.ctr_pages = ctr_pages
        self.counts = counts

    def module(self, data, pos, key, module_type, row_group=0, column=0, page=None):
        """The plaintext of the module at data[pos:] and the position after it."""
        length = struct.unpack_from("<I", data, pos)[0]
        body = bytes(data[pos + 4:pos + 4 + length])
        if len(body) != length:
            raise Failure(f"{MODULE_TYPES[module_type]} module runs past the file")
        nonce, text = body[:12], body[12:]
        if self.ctr_pages and module_type in (2, 3):
            decryptor = Cipher(algorithms.AES(key), modes.CTR(nonce + b"\x00\x00\x00\x01")).decryptor()
            plain = decryptor.update(text) + decryptor.finalize()
        else:
            aad = module_aad(self.file_aad, module_type, row_group, column, page)
            try:
                plain = AESGCM(key).decrypt(nonce, text, aad)
            except InvalidTag:
                raise Failure(f"{MODULE_TYPES[module_type]} module (row group {row_group}, column {column}, "
                              f"page {page}): the GCM tag does not match") from None
        name = MODULE_TYPES[module_type]
        self.counts[name] = self.counts.get(name, 0) + 1
        return plain, pos + 4 + length


# --- Keys, raw or from key tools material --------------------------------

class Keys:
    def __init__(self, args):
        self.path = args.file
        self.footer = bytes.fromhex(args.footer_key) if args.footer_key else None
        self.columns = {}
        for arg in args.column_key:
            path, _, key = arg.rpartition("=")
            self.columns[path] = bytes.fromhex(key)
        self.supplied_aad_prefix = args.aad_prefix.encode() if args.aad_prefix is not None else None
        self.masters = {}
        for arg in args.master_key:
            key_id, _, key = arg.rpartition("=")
            self.masters[key_id] = bytes.fromhex(key)

    def unwrap_material(self, key_metadata):
        """parquet-mr's key tools: the data key of PKMT1 material, held in
        key_metadata or, by reference, in the side file beside the file."""
        material = json.loads(key_metadata)
        if material.get("keyMaterialType") != "PKMT1" or not isinstance(material.get("internalStorage"), bool):
            raise Failure("key metadata is not PKMT1 key material")
        if not material["internalStorage"]:
            directory, _, name = self.path.rpartition("/")
            side_file = f"{directory}/_KEY_MATERIAL_FOR_{name}.json" if directory else f"_KEY_MATERIAL_FOR_{name}.json"
            with open(side_file, encoding="utf-8") as f:
                material = json.loads(json.load(f)[material["keyReference"]])
        if not isinstance(material["doubleWrapping"], bool) or not isinstance(material["isFooterKey"], bool):
            raise Failure("key material whose doubleWrapping or isFooterKey is not a JSON boolean")
        if material["isFooterKey"] and not ("kmsInstanceID" in material and "kmsInstanceURL" in material):
            raise Failure("footer key material without kmsInstanceID and kmsInstanceURL")
        master_id = material["masterKeyID"]
        if master_id not in self.masters:
            raise Failure(f"no master key {master_id!r}")

        def open_blob(key, blob_base64, aad):
            blob = base64.b64decode(blob_base64, validate=True)
            try:
                return AESGCM(key).decrypt(blob[:12], blob[12:], aad)
            except InvalidTag:
                raise Failure(f"a wrapped key does not open under {aad!r}") from None

        if not material["doubleWrapping"]:
            return open_blob(self.masters[master_id], material["wrappedDEK"], master_id.encode())
        kek_id = base64.b64decode(material["keyEncryptionKeyID"], validate=True)
        kek = open_blob(self.masters[master_id], material["wrappedKEK"], master_id.encode())
        return open_blob(kek, material["wrappedDEK"], kek_id)

    def aad_prefix(self, algorithm):
        """The AAD prefix: stored (field 1), or supplied when the file says so (field 3)."""
        if 1 in algorithm:
            if self.supplied_aad_prefix is not None and self.supplied_aad_prefix != algorithm[1]:
                raise Failure("the supplied AAD prefix differs from the one the file stores")
            return algorithm[1]
        if algorithm.get(3):
            if self.supplied_aad_prefix is None:
                raise Failure("the file's AAD prefix is to be supplied (--aad-prefix)")
            return self.supplied_aad_prefix
        return b""

    def footer_key(self, key_metadata):
        if self.footer is not None:
            return self.footer
        if key_metadata is not None and self.masters:
            return self.unwrap_material(key_metadata)
        raise Failure("no footer key")

    def column_key(self, path, key_metadata):
        if path in self.columns:
            return self.columns[path]
        if key_metadata is not None and self.masters:
            return self.unwrap_material(key_metadata)
        raise Failure(f"no key for column {path!r}")


# --- Values ---------------------------------------------------------------

def rle_hybrid(data, pos, end, bit_width, count):
    """count values of the RLE / bit-packed hybrid in data[pos:end]."""
    out = []
    byte_width = (bit_width + 7) // 8
    reader = CompactReader(data, pos)
    while len(out) < count and reader.pos < end:
        header = reader.varint()
        if header & 1:
            groups = header >> 1
            n_bytes = groups * bit_width
            bits = int.from_bytes(data[reader.pos:reader.pos + n_bytes], "little")
            reader.pos += n_bytes
            mask = (1 << bit_width) - 1
            out.extend((bits >> (i * bit_width)) & mask for i in range(groups * 8))
        else:
            value = int.from_bytes(data[reader.pos:reader.pos + byte_width], "little")
            reader.pos += byte_width
            out.extend([value] * (header >> 1))
    if len(out) < count:
        raise Failure("RLE levels or indices cut short")
    return out[:count]


DECODED_TYPES = (1, 2, 4, 5, 6)  # INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY


def plain_values(physical_type, data, pos, count):
    formats = {1: "<i", 2: "<q", 4: "<f", 5: "<d"}
    if physical_type in formats:
        fmt = formats[physical_type]
        size = struct.calcsize(fmt)
        return [struct.unpack_from(fmt, data, pos + i * size)[0] for i in range(count)]
    if physical_type == 6:
        out = []
        for _ in range(count):
            n = struct.unpack_from("<I", data, pos)[0]
            out.append(bytes(data[pos + 4:pos + 4 + n]).decode("utf-8"))
            pos += 4 + n
        return out
    raise Failure(f"physical type {physical_type} is not decoded here")


def decompress(codec, data, size):
    if codec == 0:
        return data
    if codec == 2:
        import zlib
        return zlib.decompress(data, 16 + zlib.MAX_WBITS)
    if codec == 1:
        import snappy
        return snappy.uncompress(data)
    if codec == 6:
        import zstandard
        return zstandard.ZstdDecompressor().decompress(data, max_output_size=size)
    raise Failure(f"codec {codec} is not decoded here")


# --- The file -------------------------------------------------------------

def read_file(path, keys):
    with open(path, "rb") as f:
        data = f.read()
    footer_length = struct.unpack_from("<I", data, len(data) - 8)[0]
    magic = data[-4:]
    if data[:4] != magic:
        raise Failure(f"the file starts with {data[:4]!r} and ends with {magic!r}")  # spec 5.1, 5.4
    footer_start = len(data) - 8 - footer_length
    counts = {}
    if magic == b"PARE":
        crypto_reader = CompactReader(data, footer_start)
        crypto = crypto_reader.struct()
        algorithm_field, algorithm = next(iter(crypto[1].items()))
        file_aad = keys.aad_prefix(algorithm) + algorithm.get(2, b"")
        decryptor = Decryptor(file_aad, algorithm_field == 2, counts)
        footer_key = keys.footer_key(crypto.get(2))
        plain, end = decryptor.module(data, crypto_reader.pos, footer_key, 0)
        if end != len(data) - 8:
            raise Failure(f"the footer module ends at {end}, not at the footer length ({len(data) - 8})")
        metadata = CompactReader(plain).struct()
        plaintext_footer = False
    elif magic == b"PAR1":
        reader = CompactReader(data, footer_start)
        metadata = reader.struct()
        if 8 not in metadata:
            raise Failure("a plaintext footer without encryption_algorithm: not an encrypted file")
        algorithm_field, algorithm = next(iter(metadata[8].items()))
        file_aad = keys.aad_prefix(algorithm) + algorithm.get(2, b"")
        decryptor = Decryptor(file_aad, algorithm_field == 2, counts)
        footer_key = keys.footer_key(metadata.get(9))
        # spec 5.5: the signature is the nonce and the GCM tag of the footer.
        if reader.pos + 28 != len(data) - 8:
            raise Failure("the plaintext footer is not followed by exactly its 28-byte signature")
        signed = bytes(data[footer_start:reader.pos])
        signature = bytes(data[reader.pos:reader.pos + 28])
        nonce, tag = signature[:12], signature[12:]
        computed = AESGCM(footer_key).encrypt(nonce, signed, module_aad(file_aad, 0))[-16:]
        if computed != tag:
            raise Failure("the plaintext footer's signature does not match")
        counts["footer_signature"] = 1
        plaintext_footer = True
    else:
        raise Failure(f"unknown magic {magic!r}")

    schema = metadata[2]
    leaves = [element for element in schema[1:] if 5 not in element]
    names = [element[4].decode() for element in leaves]
    optional = [element.get(3) == 1 for element in leaves]
    # Values are decoded for top-level, non-repeated columns of the types
    # plain_values knows; the modules of every column are checked.
    flat = len(leaves) == len(schema) - 1
    decoded_columns = [flat and element.get(3) != 2 and element.get(1) in DECODED_TYPES for element in leaves]
    columns = {name: [] for name, decoded in zip(names, decoded_columns) if decoded}

    for row_group_ordinal, row_group in enumerate(metadata[4]):
        for column_ordinal, chunk in enumerate(row_group[1]):
            name = names[column_ordinal]
            key = None
            own_key = False
            if 8 in chunk:  # crypto_metadata
                kind, detail = next(iter(chunk[8].items()))
                own_key = kind == 2
                if kind == 1:
                    key = footer_key
                else:
                    key = keys.column_key(".".join(p.decode() for p in detail[1]), detail.get(2))
            meta = chunk.get(3)
            # spec 5.3 and 5.5: with an encrypted footer, a column with a key
            # of its own has its metadata only encrypted; with a plaintext
            # footer, every encrypted column has it encrypted, and what
            # stays in plaintext carries no statistics.
            if key is not None and (plaintext_footer or own_key):
                if 9 not in chunk:
                    raise Failure(f"encrypted column {name!r} has no encrypted_column_metadata")
                if not plaintext_footer and meta is not None:
                    raise Failure(f"column {name!r} has its metadata in the footer as well as encrypted")
                if plaintext_footer and meta is not None and (12 in meta or 16 in meta):
                    raise Failure(f"the plaintext footer shows statistics of encrypted column {name!r}")
            if 9 in chunk:  # encrypted_column_metadata
                plain, _ = decryptor.module(chunk[9], 0, key, 1, row_group_ordinal, column_ordinal)
                meta = CompactReader(plain).struct()
            if meta is None:
                raise Failure(f"column {name!r} of row group {row_group_ordinal} has no metadata")

            def module(pos, module_type, page=None):
                if key is None:
                    raise Failure("module() on a plaintext column")
                return decryptor.module(data, pos, key, module_type, row_group_ordinal, column_ordinal, page)

            if key is not None:
                for offset_field, index_type in ((6, 6), (4, 7)):
                    if offset_field in chunk:
                        module(chunk[offset_field], index_type)
                if 14 in meta:
                    _, after = module(meta[14], 8)
                    module(after, 9)

            physical_type = meta[1]
            codec = meta[4]
            remaining = meta[5]
            pos = meta[11] if meta.get(11) else meta[9]
            dictionary = None
            page_ordinal = 0
            while remaining > 0:
                if key is None:
                    reader = CompactReader(data, pos)
                    header = reader.struct()
                    body = bytes(data[reader.pos:reader.pos + header[3]])
                    pos = reader.pos + header[3]
                else:
                    is_dictionary = dictionary is None and 11 in meta and meta[11] == pos
                    header_plain, pos = module(pos, 5 if is_dictionary else 4,
                                               None if is_dictionary else page_ordinal)
                    header = CompactReader(header_plain).struct()
                    body, pos = module(pos, 3 if is_dictionary else 2, None if is_dictionary else page_ordinal)
                page_type = header[1]
                if not decoded_columns[column_ordinal]:
                    if page_type == 2:
                        dictionary = []
                    else:
                        remaining -= header[5][1] if page_type == 0 else header[8][1]
                        page_ordinal += 1
                    continue
                if page_type == 2:
                    values = decompress(codec, body, header[2])
                    dictionary = plain_values(physical_type, values, 0, header[7][1])
                    continue
                if page_type == 0:
                    page = decompress(codec, body, header[2])
                    count = header[5][1]
                    encoding = header[5][2]
                    at = 0
                    definitions = [1] * count
                    if optional[column_ordinal]:
                        length = struct.unpack_from("<I", page, 0)[0]
                        definitions = rle_hybrid(page, 4, 4 + length, 1, count)
                        at = 4 + length
                    values_bytes = page
                elif page_type == 3:
                    v2 = header[8]
                    count = v2[1]
                    encoding = v2[4]
                    def_length, rep_length = v2[5], v2[6]
                    levels_end = def_length + rep_length
                    definitions = [1] * count
                    if optional[column_ordinal]:
                        definitions = rle_hybrid(body, rep_length, levels_end, 1, count)
                    compressed = v2.get(7, True)
                    values_bytes = decompress(codec, body[levels_end:], header[2] - levels_end) if compressed \
                        else body[levels_end:]
                    at = 0
                else:
                    raise Failure(f"page type {page_type}")
                present = sum(definitions)
                if encoding == 0:
                    decoded = plain_values(physical_type, values_bytes, at, present)
                elif encoding in (2, 8):
                    bit_width = values_bytes[at]
                    indices = rle_hybrid(values_bytes, at + 1, len(values_bytes), bit_width, present)
                    decoded = [dictionary[i] for i in indices]
                else:  # DELTA_*, BYTE_STREAM_SPLIT: the modules are checked, the values not decoded
                    decoded_columns[column_ordinal] = False
                    columns.pop(name, None)
                    remaining -= count
                    page_ordinal += 1
                    continue
                it = iter(decoded)
                columns[name].extend(next(it) if d else None for d in definitions)
                remaining -= count
                page_ordinal += 1

    return {"rows": metadata[3], "columns": columns, "modules": counts, "plaintext_footer": plaintext_footer}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--footer-key")
    parser.add_argument("--column-key", action="append", default=[])
    parser.add_argument("--master-key", action="append", default=[])
    parser.add_argument("--aad-prefix")
    args = parser.parse_args()
    try:
        result = read_file(args.file, Keys(args))
    except (Failure, KeyError, ValueError, struct.error, IndexError) as e:
        print(f"parquet_decrypt: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
