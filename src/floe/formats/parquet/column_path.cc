#include "floe/formats/parquet/column_path.h"

namespace floe::parquet {

void ColumnPath::const_iterator::Load(const char* at) {
  next_ = at;
  if (at == end_) {
    part_ = {};
    return;
  }
  // The packed lengths were validated when the path was built.
  uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    const auto b = static_cast<uint8_t>(*at++);
    length |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  part_ = std::string_view(at, static_cast<size_t>(length));
}

ColumnPath::ColumnPath(std::initializer_list<std::string_view> parts) {
  for (const std::string_view part : parts) push_back(part);
}

ColumnPath::ColumnPath(const std::vector<std::string>& parts) {
  for (const std::string& part : parts) push_back(part);
}

std::string_view ColumnPath::operator[](size_t i) const {
  auto it = begin();
  while (i-- > 0) ++it;
  return *it;
}

void ColumnPath::push_back(std::string_view part) {
  uint64_t length = part.size();
  while (length >= 0x80) {
    packed_.push_back(static_cast<char>((length & 0x7f) | 0x80));
    length >>= 7;
  }
  packed_.push_back(static_cast<char>(length));
  packed_.append(part);
  ++size_;
}

std::vector<std::string> ColumnPath::ToVector() const {
  std::vector<std::string> out;
  out.reserve(size_);
  for (const std::string_view part : *this) out.emplace_back(part);
  return out;
}

std::string ColumnPath::Dotted() const {
  std::string out;
  bool first = true;
  for (const std::string_view part : *this) {
    if (!first) out.push_back('.');
    out.append(part);
    first = false;
  }
  return out;
}

bool operator==(const ColumnPath& a, const ColumnPath& b) {
  if (a.size() != b.size()) return false;
  if (a.packed_ == b.packed_) return true;
  auto it = b.begin();
  for (const std::string_view part : a) {
    if (part != *it++) return false;
  }
  return true;
}

bool operator==(const ColumnPath& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  size_t i = 0;
  for (const std::string_view part : a) {
    if (part != b[i++]) return false;
  }
  return true;
}

}  // namespace floe::parquet
