#include "floe/formats/parquet/reader/page_reader.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "floe/base/crc32.h"
#include "floe/base/strings.h"
#include "floe/formats/parquet/metadata_codec.h"
#include "floe/formats/parquet/metadata_enums.h"

namespace floe::parquet {
namespace {

constexpr int64_t kValueAlignment = 8;

}  // namespace

PageReader::PageReader(Buffer chunk, int64_t chunk_offset, compression::Codec codec, PageReaderOptions options,
                       std::string context, std::shared_ptr<Buffer> scratch)
    : chunk_(std::move(chunk)),
      chunk_offset_(chunk_offset),
      codec_(codec),
      options_(std::move(options)),
      context_(std::move(context)),
      scratch_(std::move(scratch)) {}

Status PageReader::Error(int64_t page_offset, const std::string& what) const {
  return Status::Corrupt(StrCat(context_, ": page at byte ", page_offset, ": ", what));
}

Status PageReader::SeekTo(int64_t file_offset, int32_t data_page_ordinal) {
  const int64_t pos = file_offset - chunk_offset_;
  if (pos < 0 || pos > chunk_.size()) {
    return Status::InvalidArgument(StrCat(context_, ": page offset ", file_offset, " is outside the column chunk"));
  }
  pos_ = pos;
  data_page_ordinal_ = data_page_ordinal;
  at_first_page_ = false;
  data_values_ = -1;  // the pages skipped are not counted
  return Status::OK();
}

Result<PageHeader> PageReader::DecryptPageHeader(int64_t page_offset, std::span<const uint8_t> rest,
                                                 size_t* stored_size) {
  auto size = EncryptedModuleSize(rest);
  if (!size.ok()) return Error(page_offset, StrCat("encrypted page header: ", size.status().message()));
  const ModuleType type = at_first_page_ && options_.first_page_is_dictionary ? ModuleType::kDictionaryPageHeader
                                                                              : ModuleType::kDataPageHeader;
  auto plain = options_.decryptor->Decrypt(type, rest, data_page_ordinal_);
  if (!plain.ok()) return plain.status().WithContext(StrCat(context_, ": page header at byte ", page_offset));
  auto header = DecodePageHeader(plain->span());
  if (!header.ok()) return Error(page_offset, header.status().message());
  *stored_size = *size;
  return header;
}

Result<Buffer> PageReader::ScratchFor(int64_t size, int64_t lead) {
  const int64_t needed = size + lead;
  if (scratch_ == nullptr || scratch_.use_count() > 1 || scratch_->size() < needed) {
    // Grown to the largest page so far, which max_page_size bounds.
    const int64_t capacity =
        scratch_ != nullptr && scratch_.use_count() == 1 ? std::max(needed, scratch_->size()) : needed;
    FLOE_ASSIGN_OR_RETURN(Buffer fresh, Buffer::Allocate(capacity));
    scratch_ = std::make_shared<Buffer>(std::move(fresh));
  }
  return Buffer::Wrap(scratch_, scratch_->data() + lead, size);
}

Result<Buffer> PageReader::Inflate(int64_t page_offset, std::span<const uint8_t> in, int64_t size, int64_t lead) {
  if (size == 0) return Buffer();
  // A size the input contradicts is refused before the buffer grows for it.
  Status status = compression::CheckStatedSize(codec_, in, size);
  if (status.ok()) {
    FLOE_ASSIGN_OR_RETURN(Buffer out, ScratchFor(size, lead));
    status = compression::Decompress(codec_, in, std::span<uint8_t>(out.mutable_data(), static_cast<size_t>(size)));
    if (status.ok()) return out;
  }
  return status.WithContext(StrCat(context_, ": page at byte ", page_offset));
}

int64_t PageReader::V1Lead(int32_t num_values) const {
  // spec: v1 levels are RLE behind a 4-byte length; all at one value, each
  // kind is one run: a varint header (count << 1), then the value's bytes.
  int64_t header_bytes = 1;
  for (uint64_t run = static_cast<uint64_t>(std::max(num_values, 0)) << 1; run >= 0x80; run >>= 7) ++header_bytes;
  int64_t levels = 0;
  for (const int16_t max_level : {max_repetition_level_, max_definition_level_}) {
    if (max_level > 0) levels += 4 + header_bytes + (std::bit_width(static_cast<uint16_t>(max_level)) + 7) / 8;
  }
  return (kValueAlignment - levels % kValueAlignment) % kValueAlignment;
}

Status PageReader::TakeWholeBody(int64_t page_offset, std::span<const uint8_t> body, const Buffer& owner, Page* page) {
  if (codec_ == compression::Codec::kUncompressed) {
    page->storage = owner;
    page->values = body;
    return Status::OK();
  }
  // v1 data pages: values follow the levels; place the body so they land
  // 8-byte aligned (the widest fixed-width value a page may lend a batch).
  const int64_t lead = page->type == PageType::DATA_PAGE ? V1Lead(page->num_values) : 0;
  FLOE_ASSIGN_OR_RETURN(page->storage, Inflate(page_offset, body, header_.uncompressed_page_size, lead));
  page->values = page->storage.span();
  return Status::OK();
}

Result<bool> PageReader::ReadStored(StoredPage* out) {
  if (pos_ >= chunk_.size()) return false;
  if (options_.end_after_values && data_values_ >= *options_.end_after_values) return false;
  const int64_t page_offset = chunk_offset_ + pos_;
  const std::span<const uint8_t> rest = chunk_.span().subspan(static_cast<size_t>(pos_));
  size_t header_size = 0;
  if (options_.decryptor) {
    FLOE_ASSIGN_OR_RETURN(header_, DecryptPageHeader(page_offset, rest, &header_size));
  } else {
    auto header = DecodePageHeader(rest, &header_size);
    if (!header.ok()) return Error(page_offset, header.status().message());
    header_ = std::move(*header);
  }
  int64_t body_size = header_.compressed_page_size;
  const int64_t body_pos = pos_ + static_cast<int64_t>(header_size);
  if (options_.decryptor && !options_.decryptor->module_aad()) {
    // DuckDB's form: the module's own length prefix gives its size (an
    // empty page too is a module).
    auto extent = EncryptedModuleExtent(rest.subspan(std::min(header_size, rest.size())));
    if (!extent.ok()) return Error(page_offset, StrCat("encrypted page: ", extent.status().message()));
    body_size = *extent;
  }
  if (body_size > chunk_.size() - body_pos) {
    return Error(page_offset, StrCat("compressed_page_size ", body_size, " runs past the column chunk (",
                                     chunk_.size() - body_pos, " bytes left)"));
  }
  pos_ = body_pos + body_size;
  const bool is_data_page = header_.type == PageType::DATA_PAGE || header_.type == PageType::DATA_PAGE_V2;
  out->file_offset = page_offset;
  out->header_size = static_cast<int64_t>(header_size);
  out->body = chunk_.span().subspan(static_cast<size_t>(body_pos), static_cast<size_t>(body_size));
  out->data_page_ordinal = is_data_page ? data_page_ordinal_++ : -1;
  at_first_page_ = false;
  if (data_values_ >= 0 && header_.type == PageType::DATA_PAGE && header_.data_page_header) {
    data_values_ += header_.data_page_header->num_values;
  } else if (data_values_ >= 0 && header_.type == PageType::DATA_PAGE_V2 && header_.data_page_header_v2) {
    data_values_ += header_.data_page_header_v2->num_values;
  }
  return true;
}

Result<std::optional<StoredPage>> PageReader::NextStored() {
  StoredPage page;
  FLOE_ASSIGN_OR_RETURN(const bool found, ReadStored(&page));
  if (!found) return std::optional<StoredPage>();
  page.header = header_;
  return std::optional<StoredPage>(std::move(page));
}

Result<std::optional<Page>> PageReader::Next() {
  StoredPage stored;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(const bool found, ReadStored(&stored));
    if (!found) break;
    const int64_t page_offset = stored.file_offset;
    if (offered_ && offered_->file_offset <= page_offset) {
      std::optional<Page> offered = std::exchange(offered_, std::nullopt);
      if (offered->file_offset == page_offset) return offered;
    }
    if (header_.uncompressed_page_size > options_.max_page_size) {
      return Status::Unsupported(StrCat(context_, ": page at byte ", page_offset, " declares ",
                                        header_.uncompressed_page_size, " uncompressed bytes, above the ",
                                        options_.max_page_size, "-byte page budget"));
    }
    std::span<const uint8_t> body = stored.body;
    const bool is_data_page = stored.data_page_ordinal >= 0;
    // The AAD of a dictionary page has no page ordinal; 0 stands in.
    const int32_t data_page_ordinal = is_data_page ? stored.data_page_ordinal : 0;
    // The CRC covers the page as stored: for an encrypted page, its
    // ciphertext (parquet-mr writes it so; parquet-testing's
    // encrypt_columns_and_footer_bloom_filter).
    if (options_.verify_checksums && header_.crc) {
      const uint32_t actual = Crc32(0, body);
      if (actual != static_cast<uint32_t>(*header_.crc)) {
        return Error(page_offset, StrCat("CRC mismatch (header ", static_cast<uint32_t>(*header_.crc),
                                         ", data ", actual, ")"));
      }
    }

    Buffer decrypted;
    const Buffer* owner = &chunk_;  // what holds `body`
    if (options_.decryptor && (is_data_page || header_.type == PageType::DICTIONARY_PAGE)) {
      auto size = EncryptedModuleSize(body);
      if (!size.ok()) return Error(page_offset, StrCat("encrypted page: ", size.status().message()));
      if (*size != body.size()) {
        return Error(page_offset,
                     StrCat("encrypted page of ", *size, " bytes in a compressed_page_size of ", body.size()));
      }
      auto plain = options_.decryptor->Decrypt(is_data_page ? ModuleType::kDataPage : ModuleType::kDictionaryPage, body,
                                               data_page_ordinal);
      if (!plain.ok()) return plain.status().WithContext(StrCat(context_, ": page at byte ", page_offset));
      decrypted = std::move(plain).value();
      owner = &decrypted;
      body = decrypted.span();
    }
    Page page;
    page.type = header_.type;
    page.file_offset = page_offset;
    const bool compressed = codec_ != compression::Codec::kUncompressed;
    switch (header_.type) {
      case PageType::DICTIONARY_PAGE: {
        if (!header_.dictionary_page_header) return Error(page_offset, "dictionary page without its header");
        const DictionaryPageHeader& dict = *header_.dictionary_page_header;
        page.num_values = dict.num_values;
        page.encoding = dict.encoding;
        FLOE_RETURN_IF_ERROR(TakeWholeBody(page_offset, body, *owner, &page));
        return std::optional<Page>(std::move(page));
      }
      case PageType::DATA_PAGE: {
        if (!header_.data_page_header) return Error(page_offset, "data page without its header");
        const DataPageHeader& data = *header_.data_page_header;
        page.num_values = data.num_values;
        page.encoding = data.encoding;
        page.definition_level_encoding = data.definition_level_encoding;
        page.repetition_level_encoding = data.repetition_level_encoding;
        FLOE_RETURN_IF_ERROR(TakeWholeBody(page_offset, body, *owner, &page));
        return std::optional<Page>(std::move(page));
      }
      case PageType::DATA_PAGE_V2: {
        if (!header_.data_page_header_v2) return Error(page_offset, "data page v2 without its header");
        const DataPageHeaderV2& data = *header_.data_page_header_v2;
        page.num_values = data.num_values;
        page.num_rows = data.num_rows;
        page.num_nulls = data.num_nulls;
        page.encoding = data.encoding;
        const int64_t levels_size =
            int64_t{data.repetition_levels_byte_length} + int64_t{data.definition_levels_byte_length};
        const auto stored_size = static_cast<int64_t>(body.size());
        if (levels_size > stored_size || levels_size > header_.uncompressed_page_size) {
          return Error(page_offset,
                       StrCat("level sections of ", levels_size, " bytes exceed the page (", stored_size, " bytes)"));
        }
        page.repetition_levels = body.subspan(0, static_cast<size_t>(data.repetition_levels_byte_length));
        page.definition_levels = body.subspan(static_cast<size_t>(data.repetition_levels_byte_length),
                                              static_cast<size_t>(data.definition_levels_byte_length));
        const std::span<const uint8_t> stored_values = body.subspan(static_cast<size_t>(levels_size));
        // spec: is_compressed defaults to true; levels are never compressed.
        if (compressed && data.is_compressed.value_or(true)) {
          FLOE_ASSIGN_OR_RETURN(page.storage,
                                Inflate(page_offset, stored_values, header_.uncompressed_page_size - levels_size));
          page.values = page.storage.span();
          page.level_storage = std::move(decrypted);  // the levels point into it (empty for a plaintext page)
        } else {
          if (static_cast<int64_t>(stored_values.size()) != header_.uncompressed_page_size - levels_size) {
            return Error(page_offset, StrCat("uncompressed values hold ", stored_values.size(),
                                             " bytes, the header says ",
                                             header_.uncompressed_page_size - levels_size));
          }
          page.storage = *owner;
          page.values = stored_values;
        }
        return std::optional<Page>(std::move(page));
      }
      default:
        continue;  // index pages and page types from newer writers carry nothing a reader needs
    }
  }
  return std::optional<Page>();
}

}  // namespace floe::parquet
