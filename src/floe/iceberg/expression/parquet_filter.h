// ToParquetPredicates: the part of a bound row filter that Parquet row-group
// statistics and page indexes can prune on (formats/parquet/statistics_filter.h).
//
// Takes the top-level AND conjuncts of `bound` (after RewriteNot) that are a
// single-column predicate whose field id names a leaf column of
// `file_schema` outside lists and maps: is null, is not null, <, <=, >, >=,
// =, in, and starts with (as `>= prefix and < the prefix's successor`). The
// literal is converted to the column's statistics encoding: 4-byte INT32
// (ints, dates, narrow ints, decimals stored as INT32, TIME_MILLIS), 8-byte
// INT64 (longs, timestamps in the file's own unit, times, decimals stored as
// INT64), FLOAT, DOUBLE, BOOLEAN, big-endian two's complement for decimals in
// bytes, and the bytes of strings, binary, fixed and uuid. Where the file's
// unit is coarser than the literal's (a millisecond timestamp file against a
// microsecond literal) the bound is rounded so the predicate still holds for
// every matching row; a value the column cannot hold (an int column in the
// file against a long literal beyond int32) drops the conjunct.
//
// Everything else is dropped: the result selects a superset of the rows
// `bound` does, so pruning by it never loses a matching row, and the engine
// evaluates `bound` itself on what is read.
//
// Thread safety: a pure function.

#pragma once

#include <vector>

#include "floe/formats/parquet/schema.h"
#include "floe/formats/parquet/statistics_filter.h"
#include "floe/iceberg/expression/expression.h"

namespace floe::iceberg {

std::vector<parquet::ColumnPredicate> ToParquetPredicates(const Expression& bound,
                                                          const parquet::ParquetSchema& file_schema);

}  // namespace floe::iceberg
