// The pages of a column chunk as its page headers describe them: every page,
// dictionary, data (v1 and v2), index or of a type newer than floe, where it
// lies and what its header says, without decompressing any page. What
// `floe parquet pages` lists, and what the page index (page_index.h) only
// summarizes for data pages of the files that have one.
//
// Thread safety: pure functions over a shared ParquetFileReader.

#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/parquet/file_reader.h"
#include "floe/formats/parquet/metadata.h"

namespace floe::parquet {

struct StoredPageHeader {
  int64_t file_offset = 0;  // where the page header starts
  // The page's bytes in the file, header included: what an OffsetIndex's
  // compressed_page_size says for a data page.
  int64_t stored_size = 0;
  PageHeader header;               // decrypted, for an encrypted chunk
  int32_t data_page_ordinal = -1;  // the chunk's data page number; -1 for other page types
  // Whether the page's bytes match the header's crc; nullopt without one.
  std::optional<bool> crc_matches;
};

// Reads column chunk `column` of `row_group` in one request and walks its
// page headers. InvalidArgument for a bad row group or column;
// PermissionDenied for an encrypted chunk without its key, or a header that
// does not decrypt; Corrupt (naming file, column, row group and the page's
// offset) for a header that does not decode or a page running past the
// chunk. A CRC mismatch is reported in crc_matches, not as an error.
Result<std::vector<StoredPageHeader>> ReadPageHeaders(const ParquetFileReader& file, int row_group, int column);

// Whether `index` lists exactly the data pages among `pages`, in order, at
// their offsets and with their sizes: an offset index that describes them.
bool OffsetIndexLocates(const OffsetIndex& index, const std::vector<StoredPageHeader>& pages);

}  // namespace floe::parquet
