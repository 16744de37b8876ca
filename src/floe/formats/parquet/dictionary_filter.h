// Pruning by dictionary: a column chunk whose every data page is
// dictionary-encoded holds no value its dictionary page lacks. When no
// dictionary value satisfies the filter's predicates on that column, taken
// together (a row of a column outside lists has one value, which must
// satisfy all of them; a list's row must have, for each predicate, a value
// that satisfies it), no row of the row group matches, although its
// statistics, whose bounds span the gaps between the values, could not rule
// it out: `region = 'EU'` in a row group of 'AF', 'AS' and 'NA'.
// parquet-mr's DictionaryFilter prunes the same way.
//
// Values are compared as statistics_filter.h compares them (the column's
// type order; floats by value), and a comparison that cannot be decided — a
// NaN, an INTERVAL, INT96 outside INT96_TIMESTAMP_ORDER, a predicate value
// of the wrong size — counts as satisfied, so pruning stays conservative.
//
// Thread safety: pure functions.

#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/parquet/metadata.h"
#include "floe/formats/parquet/schema.h"
#include "floe/formats/parquet/statistics_filter.h"

namespace floe::parquet {

// Whether every data page of the chunk is dictionary-encoded. Told by its
// encoding_stats; without them, by its encodings as Parquet 1.0 writers
// list them: PLAIN_DICTIONARY with nothing besides the levels' RLE and
// BIT_PACKED (a page that fell back adds PLAIN). A chunk of 2.0 encodings
// (RLE_DICTIONARY) without encoding_stats cannot tell — its PLAIN may be
// the dictionary page's or a fallen-back page's — and gets false.
bool AllDataPagesDictionaryEncoded(const ColumnMetaData& meta);

// Whether a dictionary can rule out rows by `predicate`: comparisons and
// IN. Null tests cannot: a dictionary holds no nulls.
bool DictionaryCanDecide(const ColumnPredicate& predicate);

// The `num_values` values of a dictionary page of `column` (PLAIN, or
// PLAIN_DICTIONARY as Parquet 1.0 names it), as statistics encode them:
// views into `data` (16 bytes of memory each), byte arrays without their
// length prefix. Corrupt when `data` holds fewer values; Unsupported for
// another encoding and for BOOLEAN, whose dictionaries (which no known
// writer produces) could only ever hold two values.
Result<std::vector<std::string_view>> DictionaryPageValues(const ColumnDescriptor& column, Encoding encoding,
                                                           std::span<const uint8_t> data, int64_t num_values);

// Whether `dictionary` may hold a value satisfying every one of `predicates`
// (all on `column`; those DictionaryCanDecide rejects are left out), or,
// for a column inside a list or map, a value for each of them. An IN list is
// looked up by bytes where equal values have equal bytes (INT32, INT64,
// strings and binary, FIXED_LEN_BYTE_ARRAY but FLOAT16 and INTERVAL) and
// its values have the column's size; otherwise (floats, FLOAT16, INT96,
// INTERVAL, decimals in BYTE_ARRAY, a value of the wrong size) it is
// compared value by value, and left out when that would take more than
// ~16 M comparisons.
bool DictionaryMayMatch(const ColumnDescriptor& column, std::span<const ColumnPredicate* const> predicates,
                        std::span<const std::string_view> dictionary);

}  // namespace floe::parquet
