// The rich table the Parquet cross-engine tests write and read: every type
// DuckDB writes that floe maps, with nulls, empty strings and lists,
// extremes and nesting.
export const richTableSql = `
SELECT
  i AS id,
  CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 3 - 4000)::INTEGER END AS int32_col,
  CASE WHEN i = 1 THEN 9223372036854775807 WHEN i = 2 THEN -9223372036854775808 ELSE (i * 1000003)::BIGINT END AS int64_col,
  (i % 120)::TINYINT AS int8_col, (i % 30000 - 15000)::SMALLINT AS int16_col,
  (i % 250)::UTINYINT AS uint8_col, (i % 60000)::USMALLINT AS uint16_col,
  (i * 7919)::UINTEGER AS uint32_col, CASE WHEN i = 3 THEN 18446744073709551615 ELSE i * 104729 END::UBIGINT AS uint64_col,
  CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN '' ELSE 'value ' || (i % 37) END AS string_col,
  md5(i::VARCHAR) AS unique_string_col,
  CASE WHEN i % 9 = 0 THEN NULL ELSE i / 7.0 END::DOUBLE AS double_col,
  CASE WHEN i = 4 THEN 'NaN'::FLOAT WHEN i = 5 THEN '-inf'::FLOAT WHEN i = 6 THEN -0.0 ELSE i / 3.0 END::FLOAT AS float_col,
  i % 3 = 0 AS bool_col,
  CASE WHEN i % 4 = 0 THEN NULL ELSE i % 2 = 0 END AS nullable_bool_col,
  DATE '1969-12-25' + (i % 1000)::INTEGER AS date_col,
  TIMESTAMP '1960-01-01 00:00:00' + to_microseconds(i * 1000000007) AS timestamp_col,
  (TIMESTAMP '2020-01-01 00:00:00' + to_microseconds(i * 37))::TIMESTAMPTZ AS timestamptz_col,
  TIME '00:00:00' + to_microseconds((i * 1000003) % 86400000000) AS time_col,
  ((i % 790) * 0.25 - 99)::DECIMAL(4,2) AS decimal4_col,
  (i * 1.25)::DECIMAL(18,2) AS decimal18_col,
  CASE WHEN i % 6 = 0 THEN NULL ELSE (i * 12345.678 - 99999)::DECIMAL(38,3) END AS decimal38_col,
  md5(i::VARCHAR)::UUID AS uuid_col,
  ('\\x00\\x01' || i::VARCHAR)::BLOB AS blob_col,
  CASE WHEN i % 11 = 0 THEN NULL WHEN i % 11 = 1 THEN [] ELSE [i, NULL, i + 1] END AS list_col,
  CASE WHEN i % 13 = 0 THEN NULL ELSE ['a' || i, NULL, ''] END AS string_list_col,
  CASE WHEN i % 8 = 0 THEN NULL ELSE {'a': i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'x' || i END} END AS struct_col,
  CASE WHEN i % 17 = 0 THEN NULL ELSE MAP {'k' || (i % 5): i, 'z': NULL} END AS map_col,
  [[i], [], NULL, [NULL, i]] AS nested_list_col,
  CASE WHEN i % 19 = 0 THEN NULL ELSE [{'p': i, 'q': [i, i]}, NULL] END AS list_of_struct_col
FROM range(3000) t(i)`;

