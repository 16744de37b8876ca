#include "floe/iceberg/parquet_metrics.h"

#include <cstring>

#include "floe/base/strings.h"
#include "floe/base/utf8.h"
#include "floe/formats/parquet/schema.h"

namespace floe::iceberg {
namespace {

using parquet::ColumnDescriptor;
using parquet::ValueConversion;
namespace pq = floe::parquet;

template <typename T>
Result<T> LoadLittleEndian(std::string_view bytes, const std::string& column) {
  if (bytes.size() != sizeof(T)) {
    return Status::Corrupt(StrCat("column ", column, ": statistics value has ", bytes.size(), " bytes, expected ",
                                  sizeof(T)));
  }
  T value;
  std::memcpy(&value, bytes.data(), sizeof value);
  return value;
}

Result<__int128> BigEndianSigned(std::string_view bytes, const std::string& column) {
  if (bytes.empty() || bytes.size() > 16) {
    return Status::Corrupt(StrCat("column ", column, ": decimal statistics value has ", bytes.size(), " bytes"));
  }
  unsigned __int128 value = (static_cast<uint8_t>(bytes[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (const char c : bytes) value = (value << 8) | static_cast<uint8_t>(c);
  return static_cast<__int128>(value);
}

// One Parquet statistics value (plain encoding, no length prefix) as a
// Literal of the column's Iceberg type; nullopt when the two do not map
// (a unit the Iceberg type cannot hold), so the bound is left out.
Result<std::optional<Literal>> StatisticToLiteral(const ColumnDescriptor& column, const TypePtr& type,
                                                  std::string_view bytes) {
  const std::string name = column.dotted_path();
  const pq::Type physical = column.physical_type;
  auto as_int64 = [&]() -> Result<int64_t> {
    if (physical == pq::Type::INT32) {
      FLOE_ASSIGN_OR_RETURN(int32_t v, LoadLittleEndian<int32_t>(bytes, name));
      return int64_t{v};
    }
    return LoadLittleEndian<int64_t>(bytes, name);
  };
  const bool millis = column.conversion == ValueConversion::kMillisToMicros32 ||
                      column.conversion == ValueConversion::kMillisToMicros64;
  const bool file_nanos = column.type && (column.type->id() == floe::TypeId::kTimestamp ||
                                          column.type->id() == floe::TypeId::kTime64) &&
                          column.type->unit() == floe::TimeUnit::kNano;
  switch (type->id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return Status::Corrupt(StrCat("column ", name, ": boolean statistics value size"));
      return std::optional<Literal>(Literal::Boolean(bytes[0] != 0));
    case TypeId::kInt:
    case TypeId::kDate: {
      if (physical != pq::Type::INT32) return std::optional<Literal>();
      FLOE_ASSIGN_OR_RETURN(int32_t v, LoadLittleEndian<int32_t>(bytes, name));
      return std::optional<Literal>(type->id() == TypeId::kInt ? Literal::Int(v) : Literal::Date(v));
    }
    case TypeId::kLong: {
      if (physical != pq::Type::INT32 && physical != pq::Type::INT64) return std::optional<Literal>();
      FLOE_ASSIGN_OR_RETURN(int64_t v, as_int64());
      return std::optional<Literal>(Literal::Long(v));
    }
    case TypeId::kFloat: {
      if (physical != pq::Type::FLOAT) return std::optional<Literal>();
      FLOE_ASSIGN_OR_RETURN(float v, LoadLittleEndian<float>(bytes, name));
      return std::optional<Literal>(Literal::Float(v));
    }
    case TypeId::kDouble: {
      if (physical == pq::Type::FLOAT) {
        FLOE_ASSIGN_OR_RETURN(float v, LoadLittleEndian<float>(bytes, name));
        return std::optional<Literal>(Literal::Double(v));
      }
      if (physical != pq::Type::DOUBLE) return std::optional<Literal>();
      FLOE_ASSIGN_OR_RETURN(double v, LoadLittleEndian<double>(bytes, name));
      return std::optional<Literal>(Literal::Double(v));
    }
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      if ((physical != pq::Type::INT64 && physical != pq::Type::INT32) || file_nanos) return std::optional<Literal>();
      FLOE_ASSIGN_OR_RETURN(int64_t v, as_int64());
      if (millis) v *= 1000;
      if (type->id() == TypeId::kTime) return std::optional<Literal>(Literal::Time(v));
      return std::optional<Literal>(type->id() == TypeId::kTimestamp ? Literal::Timestamp(v)
                                                                     : Literal::TimestampTz(v));
    }
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      if (physical != pq::Type::INT64 || !file_nanos) return std::optional<Literal>();
      FLOE_ASSIGN_OR_RETURN(int64_t v, as_int64());
      return std::optional<Literal>(type->id() == TypeId::kTimestampNs ? Literal::TimestampNs(v)
                                                                       : Literal::TimestampTzNs(v));
    }
    case TypeId::kDecimal: {
      __int128 unscaled = 0;
      if (physical == pq::Type::INT32 || physical == pq::Type::INT64) {
        FLOE_ASSIGN_OR_RETURN(int64_t v, as_int64());
        unscaled = v;
      } else if (physical == pq::Type::FIXED_LEN_BYTE_ARRAY || physical == pq::Type::BYTE_ARRAY) {
        FLOE_ASSIGN_OR_RETURN(unscaled, BigEndianSigned(bytes, name));
      } else {
        return std::optional<Literal>();
      }
      auto literal = Literal::Make(type, unscaled);
      if (!literal.ok()) return Status::Corrupt(StrCat("column ", name, ": ", literal.status().message()));
      return std::optional<Literal>(std::move(*literal));
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixed:
    case TypeId::kUuid: {
      if (physical != pq::Type::BYTE_ARRAY && physical != pq::Type::FIXED_LEN_BYTE_ARRAY) {
        return std::optional<Literal>();
      }
      auto literal = Literal::Make(type, std::string(bytes));
      if (!literal.ok()) return Status::Corrupt(StrCat("column ", name, ": ", literal.status().message()));
      return std::optional<Literal>(std::move(*literal));
    }
    default: return std::optional<Literal>();
  }
}

// Bounds of one column over the row groups seen so far.
struct ColumnBounds {
  bool usable = true;  // false once a row group lacks statistics
  std::optional<Literal> lower;
  std::optional<Literal> upper;
};

}  // namespace

Result<MetricsMode> MetricsMode::Parse(std::string_view text) {
  const std::string lower = ToLowerAscii(Trim(text));
  if (lower == "none") return MetricsMode{Kind::kNone, 0};
  if (lower == "counts") return MetricsMode{Kind::kCounts, 0};
  if (lower == "full") return MetricsMode{Kind::kFull, 0};
  if (lower.starts_with("truncate(") && lower.ends_with(")")) {
    const std::string digits = lower.substr(9, lower.size() - 10);
    int64_t length = 0;
    if (ParseInt64(digits, &length) && length > 0 && length <= (1 << 20)) {
      return MetricsMode{Kind::kTruncate, static_cast<int32_t>(length)};
    }
  }
  return Status::InvalidArgument(
      StrCat("metrics mode ", Quote(text), " is not one of none, counts, truncate(N), full"));
}

Result<MetricsConfig> MetricsConfig::FromProperties(const std::map<std::string, std::string>& properties) {
  static constexpr std::string_view kDefault = "write.metadata.metrics.default";
  static constexpr std::string_view kColumnPrefix = "write.metadata.metrics.column.";
  MetricsConfig config;
  for (const auto& [key, value] : properties) {
    if (key == kDefault || key.starts_with(kColumnPrefix)) {
      auto mode = MetricsMode::Parse(value);
      if (!mode.ok()) return Status::InvalidArgument(StrCat("table property ", key, ": ", mode.status().message()));
      if (key == kDefault) {
        config.default_mode = *mode;
      } else {
        config.column_modes[key.substr(kColumnPrefix.size())] = *mode;
      }
    }
  }
  return config;
}

const MetricsMode& MetricsConfig::ModeFor(const std::string& column_name) const {
  auto it = column_modes.find(column_name);
  return it == column_modes.end() ? default_mode : it->second;
}

std::string TruncateLowerBound(const Literal& value, int32_t length) {
  const std::string_view bytes = value.bytes();
  if (value.type()->id() == TypeId::kString) {
    return std::string(bytes.substr(0, Utf8PrefixOfCodePoints(bytes, static_cast<size_t>(length))));
  }
  return std::string(bytes.substr(0, static_cast<size_t>(length)));
}

std::optional<std::string> TruncateUpperBound(const Literal& value, int32_t length) {
  const std::string_view bytes = value.bytes();
  const size_t cut = value.type()->id() == TypeId::kString ? Utf8PrefixOfCodePoints(bytes, static_cast<size_t>(length))
                                                           : std::min(bytes.size(), static_cast<size_t>(length));
  if (cut == bytes.size()) return std::string(bytes);
  if (value.type()->id() == TypeId::kString) return IncrementUtf8(bytes.substr(0, cut));
  return IncrementBytes(bytes.substr(0, cut));
}

int64_t RowGroupStartOffset(const parquet::RowGroup& row_group) {
  if (row_group.file_offset.has_value() && *row_group.file_offset > 0) return *row_group.file_offset;
  for (const auto& chunk : row_group.columns) {
    if (!chunk.meta_data.has_value()) continue;
    const auto& meta = *chunk.meta_data;
    const int64_t start = meta.dictionary_page_offset.value_or(meta.data_page_offset);
    return start > 0 ? start : meta.data_page_offset;
  }
  return -1;
}

Status FillParquetMetrics(const parquet::FileMetaData& footer, const Schema& schema, const MetricsConfig& config,
                          DataFile* file) {
  FLOE_ASSIGN_OR_RETURN(auto parquet_schema, parquet::ParquetSchema::Make(footer.schema));
  file->record_count = footer.num_rows;
  file->column_sizes.clear();
  file->value_counts.clear();
  file->null_value_counts.clear();
  file->nan_value_counts.clear();
  file->lower_bounds.clear();
  file->upper_bounds.clear();
  file->split_offsets.clear();

  std::map<int32_t, ColumnBounds> bounds;
  std::map<int32_t, bool> null_counts_complete;
  std::map<int32_t, bool> nan_counts_complete;
  for (const auto& row_group : footer.row_groups) {
    const int64_t start = RowGroupStartOffset(row_group);
    for (size_t c = 0; c < row_group.columns.size() && c < parquet_schema.columns().size(); ++c) {
      const auto& chunk = row_group.columns[c];
      if (!chunk.meta_data.has_value()) continue;
      const auto& meta = *chunk.meta_data;
      const ColumnDescriptor& column = parquet_schema.column(static_cast<int>(c));
      const auto& field_id = parquet_schema.nodes()[static_cast<size_t>(column.node)].field_id;
      if (!field_id.has_value()) continue;
      const NestedField* field = schema.FindFieldById(*field_id);
      if (field == nullptr || !field->type->is_primitive()) continue;
      const MetricsMode& mode = config.ModeFor(schema.FindColumnName(*field_id));
      if (mode.kind == MetricsMode::Kind::kNone) continue;
      const int32_t id = *field_id;
      file->column_sizes[id] += meta.total_compressed_size;
      file->value_counts[id] += meta.num_values;
      const auto& stats = meta.statistics;
      auto [null_it, null_new] = null_counts_complete.try_emplace(id, true);
      if (stats.has_value() && stats->null_count.has_value() && null_it->second) {
        file->null_value_counts[id] += *stats->null_count;
      } else {
        null_it->second = false;
      }
      const bool floating = field->type->id() == TypeId::kFloat || field->type->id() == TypeId::kDouble;
      auto [nan_it, nan_new] = nan_counts_complete.try_emplace(id, floating);
      if (nan_it->second && stats.has_value() && stats->nan_count.has_value()) {
        file->nan_value_counts[id] += *stats->nan_count;
      } else {
        nan_it->second = false;
      }
      if (mode.kind == MetricsMode::Kind::kCounts || column.max_repetition_level > 0) continue;
      ColumnBounds& b = bounds[id];
      if (!b.usable) continue;
      const bool all_null = stats.has_value() && stats->null_count.has_value() &&
                            *stats->null_count == meta.num_values;
      if (all_null) continue;  // contributes no bounds, and does not spoil them
      if (!stats.has_value() || !stats->min_value.has_value() || !stats->max_value.has_value()) {
        b.usable = false;
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(auto lower, StatisticToLiteral(column, field->type, *stats->min_value));
      FLOE_ASSIGN_OR_RETURN(auto upper, StatisticToLiteral(column, field->type, *stats->max_value));
      if (!lower.has_value() || !upper.has_value()) {
        b.usable = false;
        continue;
      }
      if (!b.lower.has_value() || lower->Compare(*b.lower) < 0) b.lower = std::move(lower);
      if (!b.upper.has_value() || upper->Compare(*b.upper) > 0) b.upper = std::move(upper);
    }
    if (start > 0) file->split_offsets.push_back(start);
  }
  for (const auto& [id, complete] : null_counts_complete) {
    if (!complete) file->null_value_counts.erase(id);
  }
  for (const auto& [id, complete] : nan_counts_complete) {
    if (!complete) file->nan_value_counts.erase(id);
  }
  for (const auto& [id, b] : bounds) {
    if (!b.usable || !b.lower.has_value() || !b.upper.has_value()) continue;
    const MetricsMode& mode = config.ModeFor(schema.FindColumnName(id));
    const TypeId type = b.lower->type()->id();
    const bool truncatable = type == TypeId::kString || type == TypeId::kBinary;
    if (mode.kind == MetricsMode::Kind::kTruncate && truncatable) {
      file->lower_bounds[id] = TruncateLowerBound(*b.lower, mode.length);
      if (auto upper = TruncateUpperBound(*b.upper, mode.length)) file->upper_bounds[id] = std::move(*upper);
    } else {
      file->lower_bounds[id] = b.lower->ToBytes();
      file->upper_bounds[id] = b.upper->ToBytes();
    }
  }
  return Status::OK();
}

}  // namespace floe::iceberg
