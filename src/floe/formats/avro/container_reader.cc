#include "floe/formats/avro/container_reader.h"

#include <algorithm>
#include <cstring>

#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/formats/avro/datum_internal.h"

namespace floe::avro {

namespace {
constexpr uint8_t kMagic[4] = {'O', 'b', 'j', 1};
constexpr int64_t kSyncSize = 16;
constexpr int64_t kMaxBlockHeader = 20;  // two varints
}  // namespace

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(std::unique_ptr<RandomAccessFile> file,
                                                               const ContainerReaderOptions& options) {
  std::unique_ptr<ContainerReader> r(new ContainerReader());
  r->file_ = std::move(file);
  r->options_ = options;
  Status s = r->ReadHeader();
  if (!s.ok()) return s.WithContext(StrCat("Avro file ", Quote(r->file_->path())));
  return r;
}

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(FileIO& io, const std::string& path,
                                                               const ContainerReaderOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, io.OpenRead(path));
  return Open(std::move(file), options);
}

const std::string* ContainerReader::FindMetadata(std::string_view key) const {
  for (const auto& [k, v] : metadata_) {
    if (k == key) return &v;
  }
  return nullptr;
}

Status ContainerReader::View(int64_t offset, int64_t length, std::span<const uint8_t>* out, std::string_view what) {
  if (offset < 0 || length < 0 || length > file_->size() - offset) {
    return Status::Corrupt(StrCat(what, " at offset ", offset, " needs ", length, " bytes but the file ends at ",
                                  file_->size(), " (truncated)"));
  }
  if (offset < window_offset_ || offset + length > window_offset_ + window_.size()) {
    const int64_t want = std::min(std::max(length, options_.read_ahead_bytes), file_->size() - offset);
    FLOE_ASSIGN_OR_RETURN(window_, file_->Read(offset, want));
    window_offset_ = offset;
  }
  *out = window_.span().subspan(static_cast<size_t>(offset - window_offset_), static_cast<size_t>(length));
  return Status::OK();
}

Status ContainerReader::ReadHeader() {
  const int64_t size = file_->size();
  if (size < 4) return Status::Corrupt(StrCat("file of ", size, " bytes is too short for the magic"));
  // The header's length is known only once it is decoded: try with a window
  // and grow it while the decoder runs past its end.
  int64_t window = std::min(size, std::max<int64_t>(options_.read_ahead_bytes, 4096));
  while (true) {
    std::span<const uint8_t> bytes;
    FLOE_RETURN_IF_ERROR(View(0, window, &bytes, "header"));
    if (std::memcmp(bytes.data(), kMagic, 4) != 0) return Status::Corrupt("bad magic: not an Avro object container file");
    Decoder d(bytes.subspan(4));
    metadata_.clear();
    Status s = [&]() -> Status {
      while (true) {
        int64_t count, byte_size;
        FLOE_RETURN_IF_ERROR(d.ReadBlockCount(&count, &byte_size, 2));
        if (count == 0) break;
        for (int64_t i = 0; i < count; ++i) {
          std::string_view key, value;
          FLOE_RETURN_IF_ERROR(d.ReadBytes(&key));
          FLOE_RETURN_IF_ERROR(d.ReadBytes(&value));
          metadata_.emplace_back(std::string(key), std::string(value));
        }
      }
      std::string_view sync;
      FLOE_RETURN_IF_ERROR(d.ReadFixed(kSyncSize, &sync));
      std::memcpy(sync_.data(), sync.data(), kSyncSize);
      return Status::OK();
    }();
    if (s.ok()) {
      next_block_offset_ = 4 + static_cast<int64_t>(d.position());
      break;
    }
    if (window >= size || window >= options_.max_header_bytes) {
      if (window >= options_.max_header_bytes && window < size) {
        return Status::Unsupported(StrCat("header is larger than ", options_.max_header_bytes, " bytes"));
      }
      return s.WithContext("header");
    }
    window = std::min({size, window * 4, options_.max_header_bytes});
  }
  const std::string* schema_json = FindMetadata("avro.schema");
  if (schema_json == nullptr) return Status::Corrupt("header has no avro.schema");
  Result<std::shared_ptr<const Schema>> schema = Schema::Parse(*schema_json);
  if (!schema.ok()) return schema.status().WithContext("avro.schema");
  writer_schema_ = std::move(schema).value();
  const std::string* codec = FindMetadata("avro.codec");
  FLOE_ASSIGN_OR_RETURN(codec_, BlockCodecFromName(codec ? std::string_view(*codec) : "null"));
  return Status::OK();
}

Status ContainerReader::SetReaderSchema(std::shared_ptr<const Schema> reader) {
  Result<std::unique_ptr<ResolvedReader>> r = ResolvedReader::Make(writer_schema_->root(), reader->root());
  if (!r.ok()) return r.status().WithContext(StrCat("Avro file ", Quote(path())));
  resolved_ = std::move(r).value();
  reader_schema_ = std::move(reader);
  return Status::OK();
}

Status ContainerReader::Fail(Status s) {
  error_ = s.WithContext(StrCat("Avro file ", Quote(path())));
  return error_;
}

Status ContainerReader::ReadBlock() {
  block_offset_ = next_block_offset_;
  const std::string where = StrCat("block ", blocks_read_, " at offset ", block_offset_);
  std::span<const uint8_t> header;
  FLOE_RETURN_IF_ERROR(
      View(block_offset_, std::min(kMaxBlockHeader, file_->size() - block_offset_), &header, where + ": header"));
  Decoder hd(header);
  int64_t count, size;
  Status s = hd.ReadLong(&count);
  if (s.ok()) s = hd.ReadLong(&size);
  if (!s.ok()) return s.WithContext(where);
  if (count < 0 || size < 0) return Status::Corrupt(StrCat(where, ": row count ", count, ", byte size ", size));
  const int64_t data_offset = block_offset_ + static_cast<int64_t>(hd.position());
  if (size > file_->size() - data_offset || file_->size() - data_offset - size < kSyncSize) {
    return Status::Corrupt(StrCat(where, ": block of ", size, " bytes runs past the end of the file (", file_->size(),
                                  " bytes): truncated"));
  }
  std::span<const uint8_t> data;
  FLOE_RETURN_IF_ERROR(View(data_offset, size + kSyncSize, &data, where));
  if (std::memcmp(data.data() + size, sync_.data(), kSyncSize) != 0) {
    return Status::Corrupt(StrCat(where, ": sync marker mismatch after the block"));
  }
  data = data.first(static_cast<size_t>(size));
  if (codec_ == BlockCodec::kNull) {
    if (size > options_.max_block_bytes) {
      return Status::Unsupported(StrCat(where, ": block of ", size, " bytes is larger than the budget of ",
                                        options_.max_block_bytes, " bytes"));
    }
    block_buffer_ = window_;  // the view points into it
    block_ = Decoder(data);
  } else {
    Status ds = DecompressBlock(codec_, data, options_.max_block_bytes, &block_bytes_);
    if (!ds.ok()) return ds.WithContext(where);
    block_ = Decoder(AsBytes(block_bytes_));
  }
  // Rows of a schema that encodes in no bytes cannot be bounded by the
  // block's size; others take at least one byte each.
  const size_t min_row = internal::MinEncodedBytes(writer_schema_->root(), 0);
  const int64_t max_rows = min_row == 0 ? internal::kMaxZeroSizeItems
                                        : static_cast<int64_t>(block_.remaining() / min_row);
  if (count > max_rows) {
    return Status::Corrupt(StrCat(where, ": ", count, " rows cannot fit in ", block_.remaining(), " bytes"));
  }
  block_rows_left_ = count;
  next_block_offset_ = data_offset + size + kSyncSize;
  ++blocks_read_;
  return Status::OK();
}

Status ContainerReader::NextBlockWithRows(bool* end) {
  *end = false;
  while (block_rows_left_ == 0) {
    if (blocks_read_ > 0 && !block_.at_end()) {
      return Fail(Status::Corrupt(StrCat("block ", blocks_read_ - 1, " at offset ", block_offset_, " has ",
                                         block_.remaining(), " bytes after its last row")));
    }
    if (next_block_offset_ >= file_->size()) {
      block_ = Decoder();
      *end = true;
      return Status::OK();
    }
    Status s = ReadBlock();
    if (!s.ok()) return Fail(std::move(s));
  }
  return Status::OK();
}

Result<Decoder*> ContainerReader::NextRow() {
  if (!error_.ok()) return error_;
  bool end;
  FLOE_RETURN_IF_ERROR(NextBlockWithRows(&end));
  if (end) return static_cast<Decoder*>(nullptr);
  --block_rows_left_;
  ++rows_read_;
  return &block_;
}

Result<bool> ContainerReader::Next(Datum* out) {
  if (!error_.ok()) return error_;
  bool end;
  FLOE_RETURN_IF_ERROR(NextBlockWithRows(&end));
  if (end) return false;
  const size_t at = block_.position();
  Status s = resolved_ ? resolved_->Read(&block_, out) : DecodeDatum(writer_schema_->root(), &block_, out);
  if (!s.ok()) {
    return Fail(s.WithContext(StrCat("block ", blocks_read_ - 1, " at offset ", block_offset_, ", row at block byte ", at)));
  }
  --block_rows_left_;
  ++rows_read_;
  return true;
}

Result<std::vector<Datum>> ContainerReader::ReadAll() {
  std::vector<Datum> rows;
  while (true) {
    Datum d;
    FLOE_ASSIGN_OR_RETURN(bool more, Next(&d));
    if (!more) return rows;
    rows.push_back(std::move(d));
  }
}

}  // namespace floe::avro
