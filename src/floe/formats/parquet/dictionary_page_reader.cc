#include "floe/formats/parquet/dictionary_page_reader.h"

#include <algorithm>
#include <cstring>

#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/metadata_enums.h"

namespace floe::parquet {
namespace {

// How much of a chunk to fetch where its dictionary page's length is not
// known: parquet-mr's and Impala's dictionaries of small columns fit, and a
// page header always does.
constexpr int64_t kProbeBytes = 64 * 1024;

// One chunk's dictionary page, while it is being fetched.
struct Pending {
  size_t column_index = 0;  // into ReadDictionaryPages' `columns`
  const ColumnMetaData* meta = nullptr;
  std::optional<ModuleDecryptor> decryptor;  // an encrypted chunk's
  ReadRange range;          // the bytes fetched (the page, or the probe)
  bool exact = false;       // whether `range` is the page, by dictionary_page_offset
  int64_t chunk_length = 0;
  Buffer bytes;
  bool found = true;  // false once the bytes show no dictionary page
};

// Narrows a probe to the dictionary page its header describes. Leaves
// `pending.found` false where the chunk does not start with one that fits
// it; reading the chunk reports any damage. True when the page runs past
// the probe and must be fetched whole.
bool LocateProbedPage(Pending& pending) {
  size_t header_size = 0;
  const Result<PageHeader> header = DecodePageHeader(pending.bytes.span(), &header_size);
  if (!header.ok() || header->type != PageType::DICTIONARY_PAGE || header->compressed_page_size < 0) {
    pending.found = false;
    return false;
  }
  const int64_t extent = static_cast<int64_t>(header_size) + header->compressed_page_size;
  if (extent > pending.chunk_length) {
    pending.found = false;
    return false;
  }
  pending.range.length = extent;
  if (extent <= pending.bytes.size()) {
    pending.bytes = pending.bytes.Slice(0, extent);
    return false;
  }
  return true;
}

// The page whose first bytes `pending` holds, `extent` bytes in all, from
// those and the rest fetched as `rest`.
Result<Buffer> Join(const Pending& pending, const Buffer& rest) {
  FLOE_ASSIGN_OR_RETURN(Buffer page, Buffer::Allocate(pending.bytes.size() + rest.size()));
  std::memcpy(page.mutable_data(), pending.bytes.data(), static_cast<size_t>(pending.bytes.size()));
  std::memcpy(page.mutable_data() + pending.bytes.size(), rest.data(), static_cast<size_t>(rest.size()));
  return page;
}

}  // namespace

Result<std::vector<std::optional<Page>>> ReadDictionaryPages(const ParquetFileReader& file, int row_group,
                                                             const std::vector<int>& columns,
                                                             const CoalesceOptions& coalesce) {
  std::vector<std::optional<Page>> pages(columns.size());
  std::vector<Pending> pending;
  for (size_t i = 0; i < columns.size(); ++i) {
    Pending p;
    p.column_index = i;
    Result<std::optional<ModuleDecryptor>> decryptor = file.ColumnDecryptor(row_group, columns[i]);
    if (!decryptor.ok() && decryptor.status().code() == StatusCode::kPermissionDenied) continue;  // no key
    FLOE_RETURN_IF_ERROR(decryptor.status());
    p.decryptor = std::move(decryptor).value();
    FLOE_ASSIGN_OR_RETURN(p.meta, file.ColumnChunkMeta(row_group, columns[i]));
    const ColumnMetaData* meta = p.meta;
    // Starts at dictionary_page_offset when that lies before the first data page.
    FLOE_ASSIGN_OR_RETURN(const ColumnChunkRange chunk, file.ColumnChunkBytes(row_group, columns[i]));
    p.chunk_length = chunk.length;
    if (chunk.offset < meta->data_page_offset) {
      if (meta->data_page_offset - chunk.offset > chunk.length) continue;  // reading the chunk reports it
      p.range = ReadRange{chunk.offset, meta->data_page_offset - chunk.offset};
      p.exact = true;
    } else if (meta->dictionary_page_offset && *meta->dictionary_page_offset > meta->data_page_offset) {
      continue;  // a dictionary after the data pages: reading the chunk reports it
    } else {
      if (p.decryptor) continue;
      p.range = ReadRange{chunk.offset, std::min(chunk.length, kProbeBytes)};
    }
    pending.push_back(std::move(p));
  }
  if (pending.empty()) return pages;

  std::vector<ReadRange> ranges;
  for (const Pending& p : pending) ranges.push_back(p.range);
  FLOE_ASSIGN_OR_RETURN(std::vector<Buffer> fetched, file.ReadRanges(ranges, coalesce));
  // Probed pages longer than the probe: the rest of each.
  std::vector<Pending*> longer;
  ranges.clear();
  for (size_t k = 0; k < pending.size(); ++k) {
    Pending& p = pending[k];
    p.bytes = std::move(fetched[k]);
    const int64_t probed = p.bytes.size();
    if (!p.exact && LocateProbedPage(p)) {
      longer.push_back(&p);
      ranges.push_back(ReadRange{p.range.offset + probed, p.range.length - probed});
    }
  }
  if (!longer.empty()) {
    FLOE_ASSIGN_OR_RETURN(fetched, file.ReadRanges(ranges, coalesce));
    for (size_t k = 0; k < longer.size(); ++k) {
      FLOE_ASSIGN_OR_RETURN(longer[k]->bytes, Join(*longer[k], fetched[k]));
    }
  }

  for (Pending& p : pending) {
    if (!p.found) continue;
    const std::string context = file.ColumnChunkContext(row_group, columns[p.column_index]);
    const Result<compression::Codec> codec = ToCodec(p.meta->codec);
    if (!codec.ok()) continue;  // a codec floe lacks: the chunk's reader says so, if it is read
    PageReaderOptions options;
    options.max_page_size = file.options().max_page_size;
    options.verify_checksums = file.options().verify_page_checksums;
    options.first_page_is_dictionary = true;
    options.decryptor = std::move(p.decryptor);
    PageReader reader(std::move(p.bytes), p.range.offset, *codec, std::move(options), context);
    Result<std::optional<Page>> page = reader.Next();
    if (!page.ok() && page.status().code() == StatusCode::kUnsupported) continue;  // past the page budget
    FLOE_RETURN_IF_ERROR(page.status());
    if (*page && (*page)->type == PageType::DICTIONARY_PAGE) pages[p.column_index] = std::move(*page);
  }
  return pages;
}

}  // namespace floe::parquet
