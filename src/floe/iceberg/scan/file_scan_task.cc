#include "floe/iceberg/scan/file_scan_task.h"

#include <algorithm>
#include <limits>

#include "floe/base/strings.h"

namespace floe::iceberg {

PlannedFileBlock::PlannedFileBlock(size_t expected_files, bool keep_data_files)
    : expected_files_(expected_files), keep_data_files_(keep_data_files) {}

Status PlannedDataFile::Append(const std::shared_ptr<PlannedFileBlock>& block, const DataFile& file,
                               PlannedDataFile* out) {
  PlannedFileBlock& b = *block;
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  if (file.file_path.size() > kMax || file.split_offsets.size() > kMax || b.partitions_.size() >= kMax ||
      b.data_files_.size() >= static_cast<size_t>(std::numeric_limits<int32_t>::max())) [[unlikely]] {
    return Status::Corrupt(StrCat("data file ", Quote(file.file_path.substr(0, 100)),
                                  ": path, split offsets or file count beyond 2^32"));
  }
  if (b.files_ == 0 && b.expected_files_ > 0) {
    // The first path sizes the arena: a manifest's paths are mostly alike.
    // (Capped: the count is the manifest list's, untrusted.)
    b.paths_.reserve(std::min<size_t>(b.expected_files_ * (file.file_path.size() + 8), size_t{1} << 26));
  }
  out->block_ = block;
  out->path_begin_ = b.paths_.size();
  out->path_size_ = static_cast<uint32_t>(file.file_path.size());
  b.paths_.append(file.file_path);

  // Usually one format for all: look from the last one used.
  size_t format = b.formats_.size();
  for (size_t i = b.formats_.size(); i-- > 0;) {
    if (b.formats_[i] == file.file_format) {
      format = i;
      break;
    }
  }
  if (format == b.formats_.size()) {
    if (format > std::numeric_limits<uint16_t>::max()) [[unlikely]] {
      return Status::Corrupt(StrCat("data file ", Quote(file.file_path), ": more than 65536 file formats"));
    }
    b.formats_.push_back(file.file_format);
  }
  out->format_ = static_cast<uint16_t>(format);

  // Files of one partition are usually written, and listed, together.
  if (b.partitions_.empty() || b.partitions_.back() != file.partition) b.partitions_.push_back(file.partition);
  out->partition_ = static_cast<uint32_t>(b.partitions_.size() - 1);

  out->offsets_begin_ = b.split_offsets_.size();
  out->offsets_size_ = static_cast<uint32_t>(file.split_offsets.size());
  b.split_offsets_.insert(b.split_offsets_.end(), file.split_offsets.begin(), file.split_offsets.end());

  out->spec_id_ = file.spec_id;
  out->record_count_ = file.record_count;
  out->file_size_in_bytes_ = file.file_size_in_bytes;
  out->has_first_row_id_ = file.first_row_id.has_value();
  out->first_row_id_ = file.first_row_id.value_or(0);
  out->data_file_ = -1;
  if (b.keep_data_files_) {
    out->data_file_ = static_cast<int32_t>(b.data_files_.size());
    b.data_files_.push_back(file);
  }
  ++b.files_;
  return Status::OK();
}

PlannedDataFile PlannedDataFile::Of(DataFile file) {
  auto block = std::make_shared<PlannedFileBlock>(1, true);
  PlannedDataFile view;
  const Status s = Append(block, file, &view);
  if (!s.ok()) return PlannedDataFile();
  return view;
}

DataFile PlannedDataFile::ToDataFile() const {
  if (const DataFile* whole = data_file()) return *whole;
  DataFile f;
  f.content = DataFileContent::kData;
  f.file_path = std::string(file_path());
  f.file_format = std::string(file_format());
  f.spec_id = spec_id_;
  f.partition = partition();
  f.record_count = record_count_;
  f.file_size_in_bytes = file_size_in_bytes_;
  const std::span<const int64_t> offsets = split_offsets();
  f.split_offsets.assign(offsets.begin(), offsets.end());
  f.first_row_id = first_row_id();
  return f;
}

}  // namespace floe::iceberg
