#include "floe/formats/avro/container_writer.h"

#include "floe/base/bytes.h"
#include "floe/base/strings.h"
#include "floe/base/uuid.h"
#include "floe/formats/avro/binary.h"

namespace floe::avro {

namespace {
constexpr char kMagic[4] = {'O', 'b', 'j', 1};
}  // namespace

Result<std::unique_ptr<ContainerWriter>> ContainerWriter::Open(std::unique_ptr<OutputStream> out,
                                                               std::shared_ptr<const Schema> schema,
                                                               const ContainerWriterOptions& options) {
  if (out == nullptr || schema == nullptr) return Status::InvalidArgument("Avro writer needs a stream and a schema");
  if (options.block_size_bytes <= 0) {
    return Status::InvalidArgument(StrCat("Avro block size ", options.block_size_bytes, " must be positive"));
  }
  for (const auto& [key, value] : options.metadata) {
    if (StartsWith(key, "avro.")) return Status::InvalidArgument(StrCat("Avro metadata key ", Quote(key), " is reserved"));
  }
  std::unique_ptr<ContainerWriter> w(new ContainerWriter());
  w->out_ = std::move(out);
  w->schema_ = std::move(schema);
  w->options_ = options;
  // Checks the level once, before anything is written (without compressing
  // a probe block: a deflate stream's setup costs more than a manifest's
  // whole encoding).
  FLOE_RETURN_IF_ERROR(CheckBlockCodecLevel(options.codec, options.level));
  if (options.sync_marker) {
    w->sync_ = *options.sync_marker;
  } else {
    // The per-thread generator of base/uuid.h: a std::random_device opened
    // per file showed in commit profiles.
    for (size_t i = 0; i < w->sync_.size(); i += 8) {
      const uint64_t r = RandomBits64();
      for (size_t j = 0; j < 8 && i + j < w->sync_.size(); ++j) w->sync_[i + j] = static_cast<uint8_t>(r >> (8 * j));
    }
  }
  std::string header(kMagic, 4);
  Encoder e(&header);
  e.WriteLong(static_cast<int64_t>(2 + options.metadata.size()));
  e.WriteBytes("avro.schema");
  e.WriteBytes(w->schema_->ToJson());
  e.WriteBytes("avro.codec");
  e.WriteBytes(BlockCodecName(options.codec));
  for (const auto& [key, value] : options.metadata) {
    e.WriteBytes(key);
    e.WriteBytes(value);
  }
  e.WriteLong(0);
  header.append(reinterpret_cast<const char*>(w->sync_.data()), w->sync_.size());
  FLOE_RETURN_IF_ERROR(w->out_->Append(header));
  return w;
}

ContainerWriter::~ContainerWriter() {
  if (!closed_ && out_) out_->Abort();
}

Status ContainerWriter::Append(const Datum& row) {
  if (closed_) return Status::InvalidArgument("Avro writer is closed");
  const size_t before = block_.size();
  Encoder e(&block_);
  Status s = EncodeDatum(schema_->root(), row, &e);
  if (!s.ok()) {
    block_.resize(before);
    return s.WithContext(StrCat("Avro file ", Quote(out_->path()), ": row ", rows_written_));
  }
  ++block_rows_;
  ++rows_written_;
  if (static_cast<int64_t>(block_.size()) >= options_.block_size_bytes) return Flush();
  return Status::OK();
}

Status ContainerWriter::AppendEncoded(std::string_view row) {
  if (closed_) return Status::InvalidArgument("Avro writer is closed");
  block_.append(row);
  ++block_rows_;
  ++rows_written_;
  if (static_cast<int64_t>(block_.size()) >= options_.block_size_bytes) return Flush();
  return Status::OK();
}

Status ContainerWriter::Flush() {
  if (block_rows_ == 0) return Status::OK();
  scratch_.clear();
  FLOE_RETURN_IF_ERROR(CompressBlock(options_.codec, AsBytes(block_), options_.level, &scratch_));
  std::string head;
  Encoder e(&head);
  e.WriteLong(block_rows_);
  e.WriteLong(static_cast<int64_t>(scratch_.size()));
  FLOE_RETURN_IF_ERROR(out_->Append(head));
  FLOE_RETURN_IF_ERROR(out_->Append(scratch_));
  FLOE_RETURN_IF_ERROR(out_->Append(std::span<const uint8_t>(sync_.data(), sync_.size())));
  block_.clear();
  block_rows_ = 0;
  return Status::OK();
}

Status ContainerWriter::Close() {
  if (closed_) return Status::InvalidArgument("Avro writer is already closed");
  FLOE_RETURN_IF_ERROR(Flush());
  closed_ = true;
  return out_->Close();
}

}  // namespace floe::avro
