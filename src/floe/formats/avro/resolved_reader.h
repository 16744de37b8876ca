// Schema resolution: reading data written with one schema (the writer's,
// from the file) into the shape of another (the reader's, the caller's
// model), the way Iceberg reads manifests.
//
// Record fields match by Iceberg's "field-id" attribute when the reader
// field has one and the writer record has a field with the same id, and by
// name (or a reader alias) otherwise; record and fixed names are not
// compared, because writers name Iceberg's nested records differently (Java
// "r2", "k117_v118"). A reader field the writer lacks takes its "default",
// or null when its type is a union with null; otherwise the plan fails.
// Writer fields the reader lacks are skipped. Promotions follow the Avro
// spec: int to long, float or double; long to float or double; float to
// double; string and bytes either way. Enums map by symbol. A writer union
// resolves branch by branch; a writer value read into a reader union takes
// the first branch of the same type (or one it promotes to).
//
// Thread safety: a ResolvedReader is immutable; Read() may be called from
// several threads at once (each with its own Decoder and Datum). The
// schemas must outlive it.

#pragma once

#include <memory>
#include <vector>

#include "floe/base/result.h"
#include "floe/formats/avro/binary.h"
#include "floe/formats/avro/datum.h"
#include "floe/formats/avro/schema.h"

namespace floe::avro {

class ResolvedReader {
 public:
  // Plans reading `writer` data as `reader`. Corrupt, naming the field path,
  // when the writer's schema cannot be read as the reader's: a type that
  // neither matches nor promotes, a required reader field missing without a
  // default (for a file read with floe's model, that is a file that breaks
  // its format's spec).
  static Result<std::unique_ptr<ResolvedReader>> Make(const Node& writer, const Node& reader);

  ~ResolvedReader();
  ResolvedReader(const ResolvedReader&) = delete;
  ResolvedReader& operator=(const ResolvedReader&) = delete;

  // Decodes one writer value into `out`, shaped as the reader schema (record
  // fields in reader order, union branches numbered as in the reader).
  // Corrupt as DecodeDatum, and when the value takes a writer union branch
  // or enum symbol the reader has no place for.
  Status Read(Decoder* decoder, Datum* out) const;

  struct Step;

 private:
  ResolvedReader() = default;
  std::vector<std::unique_ptr<Step>> steps_;
  const Step* root_ = nullptr;
};

}  // namespace floe::avro
