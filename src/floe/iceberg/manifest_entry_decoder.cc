#include "floe/iceberg/manifest_entry_decoder.h"

#include <limits>
#include <optional>

#include "floe/base/strings.h"
#include "floe/formats/avro/datum.h"

namespace floe::iceberg::internal {
namespace {

using avro::Decoder;

// "field 'data_file.record_count' is -3": messages of the checks below read
// on from the field's name; decoding errors follow a colon.
Status FieldError(const std::string& path, const Status& st) {
  const std::string& m = st.message();
  const bool reads_on = StartsWith(m, "is ") || StartsWith(m, "has ");
  return Status(st.code(), StrCat("field ", Quote(path), reads_on ? " " : ": ", m));
}

// Reads a scalar's union branch; `*is_null` says whether the value is null.
inline Status ReadBranch(const Scalar& s, Decoder* d, bool* is_null) {
  if (s.type == avro::Type::kNull) {
    *is_null = true;
    return Status::OK();
  }
  if (s.null_branch < 0) {
    *is_null = false;
    return Status::OK();
  }
  int64_t b = 0;
  FLOE_RETURN_IF_ERROR(d->ReadLong(&b));
  if (b != 0 && b != 1) return Status::Corrupt(StrCat("union branch ", b, " is out of range"));
  *is_null = b == s.null_branch;
  return Status::OK();
}

// An optional integer (int or long in the file).
inline Status ReadInteger(const Scalar& s, Decoder* d, bool* is_null, int64_t* v) {
  FLOE_RETURN_IF_ERROR(ReadBranch(s, d, is_null));
  if (*is_null) return Status::OK();
  return d->ReadLong(v);
}

inline Status ReadText(const Scalar& s, Decoder* d, bool* is_null, std::string_view* v) {
  FLOE_RETURN_IF_ERROR(ReadBranch(s, d, is_null));
  if (*is_null) return Status::OK();
  return d->ReadBytes(v);
}

inline Status CheckInt32(int64_t v) {
  if (v != static_cast<int32_t>(v)) [[unlikely]] {
    return Status::Corrupt(StrCat("value ", v, " is outside 32 bits"));
  }
  return Status::OK();
}

// Fills a metrics map in one pass over the decoded pairs, reusing its nodes
// while the keys arrive in the order the map holds them: the usual case, as
// every file of a table has metrics for the same columns, written sorted.
// Any other order falls back to inserting; duplicate keys keep the last.
template <typename V>
class MapFiller {
 public:
  explicit MapFiller(std::map<int32_t, V>* m) : m_(m), it_(m->begin()) {}
  V& Slot(int32_t key) {
    if (in_order_) {
      if (it_ != m_->end() && it_->first == key) return (it_++)->second;
      m_->erase(it_, m_->end());
      in_order_ = false;
    }
    return (*m_)[key];
  }
  // Drops the keys of the previous row that this one lacks.
  void Finish() {
    if (in_order_) m_->erase(it_, m_->end());
  }

 private:
  std::map<int32_t, V>* m_;
  typename std::map<int32_t, V>::iterator it_;
  bool in_order_ = true;
};

// One map<int, long> (kBytes false) or map<int, binary> (kBytes true) of
// data_file; `out` null: parsed and dropped.
template <bool kBytes, typename V>
Status DecodeMetricsMap(const Step& s, Decoder* d, std::map<int32_t, V>* out) {
  bool is_null = false;
  FLOE_RETURN_IF_ERROR(ReadBranch(s.scalar, d, &is_null));
  if (is_null) {
    if (out != nullptr) out->clear();
    return Status::OK();
  }
  std::optional<MapFiller<V>> filler;
  if (out != nullptr) filler.emplace(out);
  while (true) {
    int64_t count = 0, byte_size = 0;
    FLOE_RETURN_IF_ERROR(d->ReadBlockCount(&count, &byte_size, 2));
    if (count == 0) break;
    if (out == nullptr && byte_size >= 0) {
      FLOE_RETURN_IF_ERROR(d->Skip(static_cast<size_t>(byte_size)));
      continue;
    }
    for (int64_t i = 0; i < count; ++i) {
      int64_t key = 0;
      bool value_null = false;
      int64_t number = 0;
      std::string_view bytes;
      if (s.key_first) FLOE_RETURN_IF_ERROR(d->ReadLong(&key));
      if constexpr (kBytes) {
        FLOE_RETURN_IF_ERROR(ReadText(s.value, d, &value_null, &bytes));
      } else {
        FLOE_RETURN_IF_ERROR(ReadInteger(s.value, d, &value_null, &number));
      }
      if (!s.key_first) FLOE_RETURN_IF_ERROR(d->ReadLong(&key));
      FLOE_RETURN_IF_ERROR(CheckInt32(key));
      if (!filler || value_null) continue;
      V& slot = filler->Slot(static_cast<int32_t>(key));
      if constexpr (kBytes) {
        slot.assign(bytes);
      } else {
        slot = number;
      }
    }
  }
  if (filler) filler->Finish();
  return Status::OK();
}

}  // namespace

ManifestEntryDecoder::ManifestEntryDecoder() = default;
ManifestEntryDecoder::~ManifestEntryDecoder() = default;

Result<std::unique_ptr<ManifestEntryDecoder>> ManifestEntryDecoder::Make(const avro::Node& writer,
                                                                         TypePtr partition_type, int format_version,
                                                                         bool read_stats) {
  std::unique_ptr<ManifestEntryDecoder> dec(new ManifestEntryDecoder());
  FLOE_ASSIGN_OR_RETURN(dec->plan_, PlanManifestEntry(writer, *partition_type, format_version));
  dec->read_stats_ = read_stats;
  return dec;
}

void ManifestEntryDecoder::ResetAbsent(ManifestEntry* e) const {
  DataFile& f = e->data_file;
  for (Target t : plan_.absent) {
    switch (t) {
      case Target::kSnapshotId: e->snapshot_id.reset(); break;
      case Target::kSequenceNumber: e->sequence_number.reset(); break;
      case Target::kFileSequenceNumber: e->file_sequence_number.reset(); break;
      case Target::kContent: f.content = DataFileContent::kData; break;  // spec: "all v1 files are data files"
      case Target::kColumnSizes: f.column_sizes.clear(); break;
      case Target::kValueCounts: f.value_counts.clear(); break;
      case Target::kNullValueCounts: f.null_value_counts.clear(); break;
      case Target::kNanValueCounts: f.nan_value_counts.clear(); break;
      case Target::kLowerBounds: f.lower_bounds.clear(); break;
      case Target::kUpperBounds: f.upper_bounds.clear(); break;
      case Target::kKeyMetadata: f.key_metadata.reset(); break;
      case Target::kSplitOffsets: f.split_offsets.clear(); break;
      case Target::kEqualityIds: f.equality_ids.clear(); break;
      case Target::kSortOrderId: f.sort_order_id.reset(); break;
      case Target::kFirstRowId: f.first_row_id.reset(); break;
      case Target::kReferencedDataFile: f.referenced_data_file.reset(); break;
      case Target::kContentOffset: f.content_offset.reset(); break;
      case Target::kContentSizeInBytes: f.content_size_in_bytes.reset(); break;
      default: break;  // required fields are always present
    }
  }
  if (!read_stats_) {
    f.column_sizes.clear();
    f.value_counts.clear();
    f.null_value_counts.clear();
    f.nan_value_counts.clear();
    f.lower_bounds.clear();
    f.upper_bounds.clear();
  }
}

Status ManifestEntryDecoder::Decode(Decoder* d, ManifestEntry* e) const {
  FLOE_RETURN_IF_ERROR(DecodeSteps(plan_.entry_steps, d, e));
  ResetAbsent(e);
  return Status::OK();
}

Status ManifestEntryDecoder::DecodeSteps(const std::vector<Step>& steps, Decoder* d, ManifestEntry* e) const {
  for (const Step& s : steps) {
    Status st = DecodeStep(s, d, e);
    if (!st.ok()) [[unlikely]] {
      // Errors inside data_file and partition name their own fields.
      const bool nested = s.target == Target::kDataFile || s.target == Target::kPartition;
      return nested ? st : FieldError(s.path, st);
    }
  }
  return Status::OK();
}

Status ManifestEntryDecoder::DecodeStep(const Step& s, Decoder* d, ManifestEntry* e) const {
  DataFile& f = e->data_file;
  bool is_null = false;
  int64_t v = 0;
  std::string_view text;
  auto required = [&]() { return is_null ? Status::Corrupt("is null but required") : Status::OK(); };
  auto optional_long = [&](std::optional<int64_t>* out) -> Status {
    FLOE_RETURN_IF_ERROR(ReadInteger(s.scalar, d, &is_null, &v));
    if (is_null) {
      out->reset();
    } else {
      *out = v;
    }
    return Status::OK();
  };
  auto optional_text = [&](std::optional<std::string>* out) -> Status {
    FLOE_RETURN_IF_ERROR(ReadText(s.scalar, d, &is_null, &text));
    if (is_null) {
      out->reset();
    } else if (out->has_value()) {
      (*out)->assign(text);
    } else {
      out->emplace(text);
    }
    return Status::OK();
  };
  switch (s.target) {
    case Target::kSkip: return avro::SkipDatum(*s.node, d);
    case Target::kStatus:
      FLOE_RETURN_IF_ERROR(ReadInteger(s.scalar, d, &is_null, &v));
      FLOE_RETURN_IF_ERROR(required());
      if (v < 0 || v > 2) return Status::Corrupt(StrCat("is ", v, ", not 0 (existing), 1 (added) or 2 (deleted)"));
      e->status = static_cast<ManifestEntryStatus>(v);
      return Status::OK();
    case Target::kSnapshotId: return optional_long(&e->snapshot_id);
    case Target::kSequenceNumber: return optional_long(&e->sequence_number);
    case Target::kFileSequenceNumber: return optional_long(&e->file_sequence_number);
    case Target::kDataFile: {
      Status st = ReadBranch(s.scalar, d, &is_null);
      if (st.ok()) st = required();
      if (!st.ok()) return FieldError(s.path, st);
      return DecodeSteps(plan_.data_file_steps, d, e);
    }
    case Target::kContent:
      FLOE_RETURN_IF_ERROR(ReadInteger(s.scalar, d, &is_null, &v));
      FLOE_RETURN_IF_ERROR(required());
      if (v < 0 || v > 2)
        return Status::Corrupt(StrCat("is ", v, ", not 0 (data), 1 (position deletes) or 2 (equality deletes)"));
      f.content = static_cast<DataFileContent>(v);
      return Status::OK();
    case Target::kFilePath:
    case Target::kFileFormat:
      FLOE_RETURN_IF_ERROR(ReadText(s.scalar, d, &is_null, &text));
      FLOE_RETURN_IF_ERROR(required());
      (s.target == Target::kFilePath ? f.file_path : f.file_format).assign(text);
      return Status::OK();
    case Target::kPartition: {
      Status st = ReadBranch(s.scalar, d, &is_null);
      if (st.ok()) st = required();
      if (!st.ok()) return FieldError(s.path, st);
      return DecodePartition(d, &f.partition);
    }
    case Target::kRecordCount:
    case Target::kFileSizeInBytes:
      FLOE_RETURN_IF_ERROR(ReadInteger(s.scalar, d, &is_null, &v));
      FLOE_RETURN_IF_ERROR(required());
      if (v < 0) return Status::Corrupt(StrCat("is ", v));
      (s.target == Target::kRecordCount ? f.record_count : f.file_size_in_bytes) = v;
      return Status::OK();
    case Target::kColumnSizes: return DecodeCountMap(s, d, read_stats_ ? &f.column_sizes : nullptr);
    case Target::kValueCounts: return DecodeCountMap(s, d, read_stats_ ? &f.value_counts : nullptr);
    case Target::kNullValueCounts: return DecodeCountMap(s, d, read_stats_ ? &f.null_value_counts : nullptr);
    case Target::kNanValueCounts: return DecodeCountMap(s, d, read_stats_ ? &f.nan_value_counts : nullptr);
    case Target::kLowerBounds: return DecodeBytesMap(s, d, read_stats_ ? &f.lower_bounds : nullptr);
    case Target::kUpperBounds: return DecodeBytesMap(s, d, read_stats_ ? &f.upper_bounds : nullptr);
    case Target::kKeyMetadata: return optional_text(&f.key_metadata);
    case Target::kReferencedDataFile: return optional_text(&f.referenced_data_file);
    case Target::kSplitOffsets:
    case Target::kEqualityIds: {
      const bool ints = s.target == Target::kEqualityIds;
      FLOE_RETURN_IF_ERROR(ReadBranch(s.scalar, d, &is_null));
      if (ints) {
        f.equality_ids.clear();
      } else {
        f.split_offsets.clear();
      }
      if (is_null) return Status::OK();
      while (true) {
        int64_t count = 0, byte_size = 0;
        FLOE_RETURN_IF_ERROR(d->ReadBlockCount(&count, &byte_size, 1));
        if (count == 0) return Status::OK();
        for (int64_t i = 0; i < count; ++i) {
          bool item_null = false;
          FLOE_RETURN_IF_ERROR(ReadInteger(s.item, d, &item_null, &v));
          if (item_null) return Status::Corrupt("has a null element");
          if (ints) {
            FLOE_RETURN_IF_ERROR(CheckInt32(v));
            f.equality_ids.push_back(static_cast<int32_t>(v));
          } else {
            f.split_offsets.push_back(v);
          }
        }
      }
    }
    case Target::kSortOrderId:
      FLOE_RETURN_IF_ERROR(ReadInteger(s.scalar, d, &is_null, &v));
      if (is_null) {
        f.sort_order_id.reset();
      } else {
        FLOE_RETURN_IF_ERROR(CheckInt32(v));
        f.sort_order_id = static_cast<int32_t>(v);
      }
      return Status::OK();
    case Target::kFirstRowId: return optional_long(&f.first_row_id);
    case Target::kContentOffset: return optional_long(&f.content_offset);
    case Target::kContentSizeInBytes: return optional_long(&f.content_size_in_bytes);
    case Target::kCount: break;
  }
  return Status::Internal("unplanned manifest field");
}

Status ManifestEntryDecoder::DecodeCountMap(const Step& s, Decoder* d, std::map<int32_t, int64_t>* out) const {
  return DecodeMetricsMap<false>(s, d, out);
}

Status ManifestEntryDecoder::DecodeBytesMap(const Step& s, Decoder* d, std::map<int32_t, std::string>* out) const {
  return DecodeMetricsMap<true>(s, d, out);
}

Status ManifestEntryDecoder::DecodePartition(Decoder* d, PartitionValues* out) const {
  out->resize(plan_.partition_size);
  for (size_t i : plan_.partition_absent) (*out)[i].reset();
  for (const PartitionStep& p : plan_.partition_steps) {
    if (p.index < 0) {
      Status st = avro::SkipDatum(*p.node, d);
      if (!st.ok()) return FieldError(p.path, st);
      continue;
    }
    std::optional<Literal>& slot = (*out)[static_cast<size_t>(p.index)];
    auto fail = [&](const Status& st) { return FieldError(p.path, st); };
    bool is_null = false;
    Status st = ReadBranch(p.scalar, d, &is_null);
    if (!st.ok()) return fail(st);
    if (is_null) {
      slot.reset();
      continue;
    }
    switch (p.conv) {
      case Conv::kBoolean: {
        bool b = false;
        st = d->ReadBoolean(&b);
        if (st.ok()) slot = Literal::Boolean(b);
        break;
      }
      case Conv::kInt32:
      case Conv::kInt64: {
        int64_t v = 0;
        st = d->ReadLong(&v);
        if (st.ok() && p.conv == Conv::kInt32) st = CheckInt32(v);
        if (st.ok()) slot = p.conv == Conv::kInt32 ? p.make_int(static_cast<int32_t>(v)) : p.make_long(v);
        break;
      }
      case Conv::kFloat:
      case Conv::kDouble: {
        if (p.scalar.type == avro::Type::kFloat) {
          float v = 0;
          st = d->ReadFloat(&v);
          if (st.ok()) slot = p.conv == Conv::kFloat ? Literal::Float(v) : Literal::Double(v);
        } else {
          double v = 0;
          st = d->ReadDouble(&v);
          if (st.ok()) slot = Literal::Double(v);
        }
        break;
      }
      case Conv::kBytes:
      case Conv::kUuidText: {
        std::string_view bytes;
        st = p.scalar.type == avro::Type::kFixed
                 ? d->ReadFixed(static_cast<size_t>(p.scalar.node->fixed_size()), &bytes)
                 : d->ReadBytes(&bytes);
        if (!st.ok()) break;
        Result<Literal> lit =
            p.conv == Conv::kUuidText ? Literal::Parse(p.type, bytes) : Literal::FromBytes(p.type, bytes);
        if (!lit.ok()) {
          st = Status::Corrupt(lit.status().message());
          break;
        }
        slot = std::move(lit).value();
        break;
      }
      case Conv::kSkip: break;
    }
    if (!st.ok()) return fail(st);
  }
  return Status::OK();
}

}  // namespace floe::iceberg::internal
