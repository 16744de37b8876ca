// Reading Avro files with Debian's python3-avro (an implementation
// independent of floe's) through tests/formats/avro_python_read.py, which
// prints the file's codec, metadata, every field-id / element-id of its
// schema and its rows as one JSON object.

#pragma once

#include <gtest/gtest.h>
#include <simdjson.h>

#include <set>
#include <string>
#include <tuple>

#include "testing/run_process.h"

namespace floe::iceberg::testing {

inline constexpr const char* kPython = "/usr/bin/python3";

inline bool PythonHasAvro() {
  const floe::testing::ProcessResult r = floe::testing::RunProcess({kPython, "-c", "import avro.datafile"});
  return r.exit_code == 0;
}

// Runs the reader script and parses its JSON (kept alive in `parser`).
inline simdjson::dom::element ReadWithPython(const std::string& path, simdjson::dom::parser* parser,
                                             std::string* text) {
  const floe::testing::ProcessResult r =
      floe::testing::RunProcess({kPython, std::string(FLOE_SOURCE_DIR) + "/tests/formats/avro_python_read.py", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  *text = r.out;
  simdjson::dom::element doc;
  EXPECT_EQ(parser->parse(*text).get(doc), simdjson::SUCCESS) << *text;
  return doc;
}

using Id = std::tuple<std::string, std::string, std::string>;  // path, attribute, value as JSON

inline std::set<Id> Ids(simdjson::dom::element doc) {
  std::set<Id> out;
  for (simdjson::dom::element e : doc["ids"].get_array()) {
    simdjson::dom::array a = e.get_array();
    out.emplace(std::string(a.at(0).get_string().value()), std::string(a.at(1).get_string().value()),
                simdjson::minify(a.at(2)));
  }
  return out;
}

inline std::string Str(simdjson::dom::element e) { return std::string(e.get_string().value()); }
inline int64_t Int(simdjson::dom::element e) { return e.get_int64().value(); }

}  // namespace floe::iceberg::testing
