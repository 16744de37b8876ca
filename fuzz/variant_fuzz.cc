// Fuzzes the Variant binary decoder and the rebuilding of shredded variants
// (formats/parquet/variant/), both fed untrusted bytes: a variant column's
// metadata and value come from whatever file is read.
//
// - An input that starts with "PAR1" is a Parquet file: it is scanned, and
//   every row of every top-level struct column is given to UnshredVariant
//   (a struct not shaped as a variant is refused, which is fine). A row
//   stored unshredded must rebuild to what DecodeVariant gives for its own
//   metadata and value bytes.
// - Any other input is a serialized variant (metadata, then value).
//   DecodeSerializedVariant must agree with parsing the metadata and then
//   decoding the rest.
// Every decoded value's JSON text (variant_json.h) must be valid JSON.
// Any error is fine; a crash, UB, leak or disagreement is not.

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "floe/formats/parquet/record_batch_reader.h"
#include "floe/formats/parquet/variant/variant_decoder.h"
#include "floe/formats/parquet/variant/variant_json.h"
#include "floe/formats/parquet/variant/variant_shredding.h"
#include "floe/io/file_io.h"

namespace {

using floe::Array;
using floe::TypeId;

// The metadata and value bytes of row `i` when it is stored unshredded: a
// binary metadata and value, and no typed_value or a null one.
std::optional<std::pair<std::string_view, std::string_view>> UnshreddedBytes(const Array& column, int64_t i) {
  std::optional<Array> metadata, value, typed;
  for (int k = 0; k < column.num_fields(); ++k) {
    const std::string& name = column.type()->field(k).name;
    if (name == "metadata") metadata = column.field(k);
    if (name == "value") value = column.field(k);
    if (name == "typed_value") typed = column.field(k);
  }
  const auto binary = [](const std::optional<Array>& a) {
    return a && (a->type()->id() == TypeId::kBinary || a->type()->id() == TypeId::kString);
  };
  if (column.IsNull(i) || !binary(metadata) || !binary(value) || metadata->IsNull(i) || value->IsNull(i) ||
      (typed && typed->IsValid(i))) {
    return std::nullopt;
  }
  return std::make_pair(metadata->GetString(i), value->GetString(i));
}

// A JSON text checker after RFC 8259's grammar. simdjson cannot be the
// judge: it refuses integers past 64 bits, which JSON allows and a
// decimal16 prints.
class JsonGrammar {
 public:
  explicit JsonGrammar(std::string_view text) : s_(text) {}
  bool Valid() { return Value(0) && i_ == s_.size(); }

 private:
  bool Value(int depth) {
    if (depth > 1000 || i_ == s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') return Container('}', depth, /*object=*/true);
    if (c == '[') return Container(']', depth, /*object=*/false);
    if (c == '"') return String();
    for (const std::string_view word : {"true", "false", "null"}) {
      if (s_.substr(i_, word.size()) == word) {
        i_ += word.size();
        return true;
      }
    }
    return Number();
  }
  bool Container(char close, int depth, bool object) {
    ++i_;
    if (Take(close)) return true;
    do {
      if (object && !(String() && Take(':'))) return false;
      if (!Value(depth + 1)) return false;
    } while (Take(','));
    return Take(close);
  }
  bool String() {
    if (!Take('"')) return false;
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c == '\\') {
        if (i_ == s_.size()) return false;
        const char e = s_[i_++];
        if (e == 'u') {
          for (int k = 0; k < 4; ++k) {
            if (i_ == s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_++]))) return false;
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return false;
        }
      }
    }
    return false;
  }
  bool Number() {
    Take('-');
    if (Take('0')) {
    } else if (!Digits()) {
      return false;
    }
    if (Take('.') && !Digits()) return false;
    if (Take('e') || Take('E')) {
      if (!Take('+')) Take('-');
      if (!Digits()) return false;
    }
    return true;
  }
  bool Digits() {
    const size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ > start;
  }
  bool Take(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// UTF-8 per RFC 3629 (no overlongs, surrogates or code points past
// U+10FFFF), written apart from value_format's, which the printer uses.
bool IsUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    int length = 0;
    uint32_t cp = 0;
    if (b < 0x80) {
      ++i;
      continue;
    } else if ((b & 0xe0) == 0xc0) {
      length = 2, cp = b & 0x1f;
    } else if ((b & 0xf0) == 0xe0) {
      length = 3, cp = b & 0x0f;
    } else if ((b & 0xf8) == 0xf0) {
      length = 4, cp = b & 0x07;
    } else {
      return false;
    }
    if (i + static_cast<size_t>(length) > s.size()) return false;
    for (int k = 1; k < length; ++k) {
      const auto c = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((c & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    static constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kSmallest[length] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += static_cast<size_t>(length);
  }
  return true;
}

// The JSON text must be valid JSON and valid UTF-8.
void CheckJson(const floe::parquet::VariantValue& value) {
  const std::string json = floe::parquet::VariantToJson(value);
  if (!JsonGrammar(json).Valid() || !IsUtf8(json)) std::abort();
}

void CheckColumn(const Array& column) {
  if (column.type()->id() != TypeId::kStruct) return;
  for (int64_t i = 0; i < column.length(); ++i) {
    auto rebuilt = floe::parquet::UnshredVariant(column, i);
    if (!rebuilt.ok()) continue;
    if (!rebuilt->has_value()) continue;
    CheckJson(**rebuilt);
    const std::string text = (*rebuilt)->ToString();
    const auto bytes = UnshreddedBytes(column, i);
    if (!bytes) continue;
    auto metadata = floe::parquet::VariantMetadata::Parse(bytes->first);
    if (!metadata.ok()) std::abort();  // the rebuild accepted it
    auto decoded = floe::parquet::DecodeVariant(*metadata, bytes->second);
    if (!decoded.ok() || decoded->ToString() != text) std::abort();
  }
}

void FuzzParquet(std::string_view input) {
  std::shared_ptr<floe::FileIO> io = floe::NewMemoryFileIO();
  if (!io->WriteAll("mem://fuzz.parquet", input).ok()) return;
  floe::parquet::ReaderOptions options;
  options.max_page_size = 16 << 20;
  auto opened = floe::parquet::ParquetFileReader::Open(io, "mem://fuzz.parquet", options);
  if (!opened.ok()) return;
  floe::parquet::ScanOptions scan;
  scan.batch_size = 64;
  auto reader = floe::parquet::ParquetRecordBatchReader::Make(
      std::shared_ptr<const floe::parquet::ParquetFileReader>(std::move(*opened)), scan);
  if (!reader.ok()) return;
  // Bound the work per input: a tiny file may declare billions of rows.
  for (int batches = 0; batches < 200; ++batches) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || !batch->has_value()) return;
    for (const Array& column : (*batch)->columns()) CheckColumn(column);
  }
}

void FuzzSerialized(std::string_view input) {
  auto whole = floe::parquet::DecodeSerializedVariant(input);
  size_t consumed = 0;
  auto metadata = floe::parquet::VariantMetadata::Parse(input, &consumed);
  if (!metadata.ok()) {
    if (whole.ok()) std::abort();
    return;
  }
  if (consumed > input.size()) std::abort();
  auto split = floe::parquet::DecodeVariant(*metadata, input.substr(consumed));
  if (whole.ok() != split.ok()) std::abort();
  if (whole.ok() && whole->ToString() != split->ToString()) std::abort();
  if (whole.ok()) CheckJson(*whole);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.substr(0, 4) == "PAR1") {
    FuzzParquet(input);
  } else {
    FuzzSerialized(input);
  }
  return 0;
}
