// Reading the dictionary pages of column chunks without the rest of their
// pages, for pruning row groups by dictionary (dictionary_filter.h).
//
// A chunk's dictionary page comes first. Where the footer gives its offset
// (dictionary_page_offset, before the first data page) its bytes are known
// exactly. Older writers (parquet-mr 1.10 and 1.12) leave that field out,
// or set it to 0, and put the dictionary page at data_page_offset; there
// the reader fetches the chunk's first 64 KiB, reads the page header, and
// fetches the rest of the page only when it is longer.
// Encrypted chunks are read only by the exact offset: an encrypted header
// cannot be decoded from a guessed length.
//
// Thread safety: pure functions over a shared ParquetFileReader.

#pragma once

#include <optional>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/reader/page_reader.h"
#include "floe/io/file_io.h"

namespace floe::parquet {

// The decompressed (and decrypted) dictionary page of each of `columns` in
// `row_group`, or nullopt for a chunk where none is to be had: no
// dictionary page leads it, it leads with a header that does not decode
// (probed chunks only), an encrypted chunk does not give its offset or was
// given no key, or the page is one floe cannot read (a codec it lacks,
// larger than the page budget). Those chunks are left to the chunk's
// reader, which reports them if the scan reads them. The pages come in one
// ParquetFileReader::ReadRanges() call (with `coalesce`), plus one for the
// rest of those whose header says they run past the first 64 KiB. Corrupt
// (naming file, column, row group and offset) for a dictionary page that
// is found but does not read: a CRC mismatch, bad compressed data, or a
// damaged header at the exact offset; storage errors as FileIO returns
// them.
Result<std::vector<std::optional<Page>>> ReadDictionaryPages(const ParquetFileReader& file, int row_group,
                                                             const std::vector<int>& columns,
                                                             const CoalesceOptions& coalesce = {});

}  // namespace floe::parquet
