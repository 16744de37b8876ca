// Helpers shared by the manifest tests: a table schema with a column of
// most primitive types, a partition spec with a field of each transform
// result type, and data files with every field set.

#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "floe/iceberg/literal.h"
#include "floe/iceberg/manifest_entry.h"
#include "floe/iceberg/manifest_file.h"
#include "floe/iceberg/manifest_reader.h"
#include "floe/iceberg/manifest_writer.h"
#include "floe/iceberg/partition_spec.h"
#include "floe/iceberg/schema.h"
#include "floe/io/file_io.h"

namespace floe::iceberg::testing {

inline NestedField Col(int32_t id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, {}, {}, {}};
}

// Columns 1..14, one per primitive type.
inline Schema WideSchema() {
  return Schema::Make(
             3, {Col(1, "id", Type::Long(), true), Col(2, "category", Type::String()), Col(3, "ts", Type::Timestamp()),
                 Col(4, "tstz", Type::TimestampTz()), Col(5, "price", Type::Decimal(9, 2).value()),
                 Col(6, "uid", Type::Uuid()), Col(7, "flag", Type::Boolean()), Col(8, "score", Type::Double()),
                 Col(9, "ratio", Type::Float()), Col(10, "blob", Type::Binary()),
                 Col(11, "code", Type::Fixed(4).value()), Col(12, "t", Type::Time()), Col(13, "n", Type::Int()),
                 Col(14, "d", Type::Date()), Col(15, "big", Type::Decimal(38, 10).value())})
      .value();
}

// A field of every transform result type: int (bucket, hour, month), date
// (day), string (identity, truncate), decimal, uuid, boolean, double, float,
// binary, fixed, time, timestamp, timestamptz, long; and a name that is not
// a valid Avro name.
inline PartitionSpec WideSpec() {
  PartitionSpec spec;
  spec.spec_id = 2;
  spec.fields = {
      PartitionField{{1}, 1000, "id_bucket", Transform::Bucket(16).value()},
      PartitionField{{2}, 1001, "category", Transform::Identity()},
      PartitionField{{3}, 1002, "ts_day", Transform::Day()},
      PartitionField{{4}, 1003, "tstz_hour", Transform::Hour()},
      PartitionField{{5}, 1004, "price", Transform::Identity()},
      PartitionField{{6}, 1005, "uid", Transform::Identity()},
      PartitionField{{7}, 1006, "flag", Transform::Identity()},
      PartitionField{{8}, 1007, "score", Transform::Identity()},
      PartitionField{{9}, 1008, "ratio", Transform::Identity()},
      PartitionField{{10}, 1009, "blob", Transform::Identity()},
      PartitionField{{11}, 1010, "code", Transform::Identity()},
      PartitionField{{12}, 1011, "t", Transform::Identity()},
      PartitionField{{2}, 1012, "category_trunc", Transform::Truncate(3).value()},
      PartitionField{{3}, 1013, "ts", Transform::Identity()},
      PartitionField{{4}, 1014, "tstz", Transform::Identity()},
      PartitionField{{1}, 1015, "id", Transform::Identity()},
      PartitionField{{14}, 1016, "d_month", Transform::Month()},
      PartitionField{{13}, 1017, "1st n-value", Transform::Identity()},
      PartitionField{{15}, 1018, "big", Transform::Identity()},
  };
  return spec;
}

inline Literal Dec(TypePtr type, Decimal128Value unscaled) { return Literal::Make(std::move(type), unscaled).value(); }

// The partition tuple of file `i` for WideSpec (some values null, a NaN).
inline PartitionValues WidePartition(int i) {
  const std::string uuid = {'\x12', '\x34', '\x56', '\x78', '\x9a', '\xbc', '\xde', '\xf0',
                            '\x01', '\x23', '\x45', '\x67', '\x89', '\xab', '\xcd', static_cast<char>(i)};
  return {
      Literal::Int(i % 16),
      i == 1 ? std::nullopt : std::optional<Literal>(Literal::String("cat-" + std::to_string(i))),
      Literal::Date(20747 + i),
      Literal::Int(497928 + i),
      Dec(Type::Decimal(9, 2).value(), i == 2 ? -123456 : 99999999),
      Literal::Make(Type::Uuid(), uuid).value(),
      Literal::Boolean(i % 2 == 0),
      i == 3 ? Literal::Double(std::numeric_limits<double>::quiet_NaN()) : Literal::Double(-0.5 * i),
      Literal::Float(1.5f * static_cast<float>(i)),
      Literal::Binary(std::string("\x00\xff", 2) + std::to_string(i)),
      Literal::Make(Type::Fixed(4).value(), std::string("ab\x00", 3) + static_cast<char>('0' + i)).value(),
      Literal::Time(int64_t{3600} * 1000000 * i),
      Literal::String("cat"),
      Literal::Timestamp(int64_t{1792612800} * 1000000 + i),
      Literal::TimestampTz(-int64_t{1000000} * i),
      Literal::Long(int64_t{1} << 40 | i),
      Literal::Int(677 + i),
      i == 0 ? std::nullopt : std::optional<Literal>(Literal::Int(-i)),
      Dec(Type::Decimal(38, 10).value(), (static_cast<Decimal128Value>(1) << 100) * (i % 2 == 0 ? 1 : -1)),
  };
}

// A data file with every v1 field set (and, for `format_version` >= 2/3, the
// fields those versions add).
inline DataFile FullDataFile(int i, int32_t spec_id, PartitionValues partition, int format_version,
                             DataFileContent content = DataFileContent::kData) {
  DataFile f;
  f.content = content;
  f.file_path = "s3://bucket/warehouse/db/t/data/part-" + std::to_string(i) + ".parquet";
  f.file_format = "PARQUET";
  f.spec_id = spec_id;
  f.partition = std::move(partition);
  f.record_count = 1000 + i;
  f.file_size_in_bytes = (int64_t{8} << 20) + i;
  for (int32_t c = 1; c <= 3; ++c) {
    f.column_sizes[c] = 100 * c + i;
    f.value_counts[c] = 1000 + i;
    f.null_value_counts[c] = c - 1;
    f.lower_bounds[c] = std::string("\x01\x00\x00\x00", 4) + std::to_string(c);
    f.upper_bounds[c] = std::string("\xff\xfe", 2) + std::to_string(i);
  }
  f.nan_value_counts[8] = i;
  f.key_metadata = std::string("\x00key\x01", 5);
  f.split_offsets = {4, 1 << 20, 2 << 20};
  f.sort_order_id = content == DataFileContent::kPositionDeletes ? std::nullopt : std::optional<int32_t>(1);
  if (content == DataFileContent::kEqualityDeletes) f.equality_ids = {1, 2};
  if (format_version >= 2 && content == DataFileContent::kPositionDeletes) {
    f.referenced_data_file = "s3://bucket/warehouse/db/t/data/part-0.parquet";
  }
  if (format_version >= 3) {
    if (content == DataFileContent::kData) f.first_row_id = 5000 + i;
    if (content == DataFileContent::kPositionDeletes) {
      f.file_format = "PUFFIN";
      f.content_offset = 4 + i;
      f.content_size_in_bytes = 40 + i;
    }
  }
  return f;
}

inline ManifestEntry Entry(DataFile f, std::optional<int64_t> snapshot_id = std::nullopt,
                           std::optional<int64_t> seq = std::nullopt, std::optional<int64_t> file_seq = std::nullopt) {
  ManifestEntry e;
  e.data_file = std::move(f);
  e.snapshot_id = snapshot_id;
  e.sequence_number = seq;
  e.file_sequence_number = file_seq;
  return e;
}

// Reads every entry of `manifest`, failing the test on error.
inline std::vector<ManifestEntry> MustRead(FileIO& io, const ManifestFile& manifest,
                                           const ManifestReaderOptions& options = {}) {
  auto reader = ManifestReader::Open(io, manifest, options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  auto entries = (*reader)->ReadAll();
  EXPECT_TRUE(entries.ok()) << entries.status().ToString();
  return entries.ok() ? *entries : std::vector<ManifestEntry>{};
}

}  // namespace floe::iceberg::testing
