// Reading the dictionary pages of column chunks without the rest of their
// pages, for pruning row groups by dictionary (dictionary_filter.h).
//
// A chunk's dictionary page comes first. Where the footer gives its offset
// (dictionary_page_offset, before the first data page) its bytes are known
// exactly. Older writers (parquet-mr 1.10, Impala) leave that field out and
// put the dictionary page at data_page_offset; there the reader fetches the
// chunk's first 64 KiB, reads the page header, and fetches the rest of the
// page only when it is longer. Encrypted chunks are read only by the exact
// offset: an encrypted header cannot be decoded from a guessed length.
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
// `row_group`, nullopt for a chunk where none is found: no dictionary page
// leads it, or an encrypted chunk does not give its offset. Every page in
// one ReadRanges() call (with `coalesce`), plus one more for those whose
// header said they run past the first 64 KiB; none for bytes the footer read
// already holds. Errors as PageReader::Next() reports them for the page
// (Corrupt, naming file, column, row group and offset; Unsupported past the
// page budget); PermissionDenied for an encrypted chunk without its key;
// storage errors as FileIO returns them.
Result<std::vector<std::optional<Page>>> ReadDictionaryPages(const ParquetFileReader& file, int row_group,
                                                             const std::vector<int>& columns,
                                                             const CoalesceOptions& coalesce = {});

}  // namespace floe::parquet
