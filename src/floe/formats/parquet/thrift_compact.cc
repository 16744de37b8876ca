#include "floe/formats/parquet/thrift_compact.h"

#include <algorithm>

#include "floe/base/strings.h"

namespace floe::parquet {

std::string_view CompactTypeName(CompactType type) {
  switch (type) {
    case CompactType::kStop: return "stop";
    case CompactType::kBooleanTrue: return "bool(true)";
    case CompactType::kBooleanFalse: return "bool";
    case CompactType::kI8: return "i8";
    case CompactType::kI16: return "i16";
    case CompactType::kI32: return "i32";
    case CompactType::kI64: return "i64";
    case CompactType::kDouble: return "double";
    case CompactType::kBinary: return "binary";
    case CompactType::kList: return "list";
    case CompactType::kSet: return "set";
    case CompactType::kMap: return "map";
    case CompactType::kStruct: return "struct";
    case CompactType::kUuid: return "uuid";
  }
  return "invalid";
}

// ---- reader ------------------------------------------------------------------

bool ThriftCompactReader::Fail(Status error) {
  if (status_.ok()) status_ = std::move(error);
  // Later reads must fail too: leave no bytes to read.
  pos_ = end_;
  return false;
}

void ThriftCompactReader::AddContext(std::string_view context) { status_ = status_.WithContext(context); }

bool ThriftCompactReader::Truncated(const char* what) {
  return Fail(Status::Corrupt(StrCat("thrift: input ends inside a ", what, " at byte ", position())));
}

bool ThriftCompactReader::Invalid(const char* what, int64_t value) {
  return Fail(Status::Corrupt(StrCat("thrift: ", what, " (", value, ") at byte ", position())));
}

bool ThriftCompactReader::ReadFieldHeaderSlow(ThriftField* field) {
  if (pos_ == end_) return Truncated("field header");
  const uint8_t b = *pos_++;
  const uint8_t type = b & 0x0f;
  const uint8_t delta = b >> 4;
  if (type == 0) {
    if (delta != 0) return Invalid("field header with type 0 (stop) and a delta", b);
    field->type = CompactType::kStop;
    field->id = 0;
    return true;
  }
  if (type > static_cast<uint8_t>(CompactType::kUuid)) return Invalid("field type id", type);
  if (delta != 0) {
    const int id = field->id + delta;
    if (id > INT16_MAX) return Invalid("field id after delta exceeds 32767", id);
    field->id = static_cast<int16_t>(id);
  } else if (!ReadI16(&field->id)) {
    return false;
  }
  field->type = static_cast<CompactType>(type);
  return true;
}

bool ThriftCompactReader::ReadBoolElement(bool* out) {
  if (pos_ == end_) return Truncated("bool");
  const uint8_t b = *pos_;
  if (b > 2) return Invalid("bool element byte", b);
  ++pos_;
  *out = b == 1;
  return true;
}

bool ThriftCompactReader::ReadUuid(std::array<uint8_t, 16>* out) {
  if (remaining() < out->size()) return Truncated("uuid");
  std::memcpy(out->data(), pos_, out->size());
  pos_ += out->size();
  return true;
}

bool ThriftCompactReader::ContainerTooLarge(uint64_t elements, uint64_t min_bytes, const char* what) {
  if (min_bytes > remaining()) {
    return Fail(Status::Corrupt(StrCat("thrift: ", what, " of ", elements, " elements at byte ", position(),
                                       " cannot fit in the ", remaining(), " bytes left")));
  }
  return Fail(Status::Corrupt(StrCat("thrift: ", what, " of ", elements, " elements at byte ", position(),
                                     " exceeds the element budget of this message")));
}

bool ThriftCompactReader::ReadMapHeader(ThriftMapHeader* header) {
  uint32_t size = 0;
  if (!ReadVarint32(&size)) return false;
  if (size > static_cast<uint32_t>(INT32_MAX)) return Invalid("map size is negative", static_cast<int32_t>(size));
  if (size == 0) {
    *header = ThriftMapHeader{};
    return true;
  }
  if (pos_ == end_) return Truncated("map header");
  const uint8_t b = *pos_++;
  const uint8_t key = thrift_internal::NormalizeElementType(b >> 4);
  const uint8_t value = thrift_internal::NormalizeElementType(b & 0x0f);
  if (!thrift_internal::IsValueType(key)) return Invalid("map key type id", key);
  if (!thrift_internal::IsValueType(value)) return Invalid("map value type id", value);
  header->key_type = static_cast<CompactType>(key);
  header->value_type = static_cast<CompactType>(value);
  header->size = size;
  // A pair is two elements and takes at least the two elements' minimum bytes.
  const uint64_t pair_bytes =
      thrift_internal::MinElementBytes(header->key_type) + thrift_internal::MinElementBytes(header->value_type);
  return ChargeElements(uint64_t{2} * size, size * pair_bytes, "map");
}

bool ThriftCompactReader::Skip(CompactType type, bool in_field) {
  switch (type) {
    case CompactType::kBooleanTrue:
    case CompactType::kBooleanFalse: {
      if (in_field) return true;  // the value was the header's type
      bool ignored = false;
      return ReadBoolElement(&ignored);
    }
    case CompactType::kI8: {
      int8_t ignored = 0;
      return ReadI8(&ignored);
    }
    case CompactType::kI16: {
      int16_t ignored = 0;
      return ReadI16(&ignored);
    }
    case CompactType::kI32: {
      uint32_t ignored = 0;
      return ReadVarint32(&ignored);
    }
    case CompactType::kI64: {
      uint64_t ignored = 0;
      return ReadVarint64(&ignored);
    }
    case CompactType::kDouble: {
      double ignored = 0;
      return ReadDouble(&ignored);
    }
    case CompactType::kBinary: {
      std::string_view ignored;
      return ReadBinary(&ignored);
    }
    case CompactType::kUuid: {
      std::array<uint8_t, 16> ignored;
      return ReadUuid(&ignored);
    }
    case CompactType::kList:
    case CompactType::kSet: {
      if (depth_ == kMaxDepth) return Invalid("nesting deeper than the limit", kMaxDepth);
      ++depth_;
      ThriftListHeader header;
      if (!ReadListHeader(&header)) return false;
      for (uint32_t i = 0; i < header.size; ++i) {
        if (!Skip(header.element_type, /*in_field=*/false)) return false;
      }
      --depth_;
      return true;
    }
    case CompactType::kMap: {
      if (depth_ == kMaxDepth) return Invalid("nesting deeper than the limit", kMaxDepth);
      ++depth_;
      ThriftMapHeader header;
      if (!ReadMapHeader(&header)) return false;
      for (uint32_t i = 0; i < header.size; ++i) {
        if (!Skip(header.key_type, /*in_field=*/false) || !Skip(header.value_type, /*in_field=*/false)) return false;
      }
      --depth_;
      return true;
    }
    case CompactType::kStruct: {
      if (!BeginStruct()) return false;
      ThriftField field;
      while (true) {
        if (!ReadFieldHeader(&field)) return false;
        if (field.type == CompactType::kStop) break;
        if (!Skip(field.type, /*in_field=*/true)) return false;
      }
      EndStruct();
      return true;
    }
    case CompactType::kStop: break;
  }
  return Invalid("cannot skip a value of type id", static_cast<uint8_t>(type));
}

// ---- writer ------------------------------------------------------------------

void ThriftCompactWriter::Fail(std::string message) {
  if (status_.ok()) status_ = Status::InvalidArgument("thrift: " + std::move(message));
}

void ThriftCompactWriter::BeginStruct() {
  ++depth_;
  if (depth_ > ThriftCompactReader::kMaxDepth) {
    Fail(StrCat("struct nesting deeper than ", ThriftCompactReader::kMaxDepth));
    return;
  }
  last_field_id_[static_cast<size_t>(depth_)] = 0;
}

void ThriftCompactWriter::EndStruct() {
  out_->push_back(0);
  --depth_;
}

void ThriftCompactWriter::WriteFieldHeader(CompactType type, int16_t id) {
  const auto t = static_cast<uint8_t>(type);
  if (!thrift_internal::IsValueType(t)) {
    Fail(StrCat("field ", id, " has invalid type id ", static_cast<int>(t)));
    return;
  }
  int16_t& last = last_field_id_[static_cast<size_t>(std::clamp(depth_, 0, ThriftCompactReader::kMaxDepth))];
  const int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | t));
  } else {
    out_->push_back(static_cast<char>(t));
    WriteI16(id);
  }
  last = id;
}

void ThriftCompactWriter::WriteVarint64(uint64_t value) {
  char buf[10];
  size_t n = 0;
  while (value >= 0x80) {
    buf[n++] = static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  buf[n++] = static_cast<char>(value);
  out_->append(buf, n);
}

void ThriftCompactWriter::WriteDouble(double value) {
  char buf[sizeof(double)];
  std::memcpy(buf, &value, sizeof buf);
  out_->append(buf, sizeof buf);
}

void ThriftCompactWriter::WriteBinary(std::string_view value) {
  if (value.size() > static_cast<size_t>(INT32_MAX)) {
    Fail(StrCat("binary of ", value.size(), " bytes exceeds INT32_MAX"));
    return;
  }
  WriteVarint32(static_cast<uint32_t>(value.size()));
  out_->append(value);
}

void ThriftCompactWriter::WriteListHeader(CompactType element_type, size_t size) {
  const auto t = static_cast<uint8_t>(element_type);
  if (!thrift_internal::IsValueType(t)) {
    Fail(StrCat("list element type id ", static_cast<int>(t), " is invalid"));
    return;
  }
  if (size > static_cast<size_t>(INT32_MAX)) {
    Fail(StrCat("list of ", size, " elements exceeds INT32_MAX"));
    return;
  }
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | t));
  } else {
    out_->push_back(static_cast<char>(0xf0 | t));
    WriteVarint32(static_cast<uint32_t>(size));
  }
}

void ThriftCompactWriter::WriteMapHeader(CompactType key_type, CompactType value_type, size_t size) {
  const auto k = static_cast<uint8_t>(key_type);
  const auto v = static_cast<uint8_t>(value_type);
  if (size > static_cast<size_t>(INT32_MAX)) {
    Fail(StrCat("map of ", size, " pairs exceeds INT32_MAX"));
    return;
  }
  if (size == 0) {
    out_->push_back(0);
    return;
  }
  if (!thrift_internal::IsValueType(k) || !thrift_internal::IsValueType(v)) {
    Fail(StrCat("map key/value type ids ", static_cast<int>(k), "/", static_cast<int>(v), " are invalid"));
    return;
  }
  WriteVarint32(static_cast<uint32_t>(size));
  out_->push_back(static_cast<char>((k << 4) | v));
}

}  // namespace floe::parquet
