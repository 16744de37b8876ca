#include "floe/iceberg/transform_function.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "floe/base/strings.h"
#include "floe/base/utf8.h"

namespace floe::iceberg {
namespace {

constexpr int64_t kMicrosPerHour = 3'600'000'000LL;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
constexpr int64_t kNanosPerMicro = 1000;

uint32_t RotateLeft(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

std::string LittleEndianLong(int64_t value) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(static_cast<uint64_t>(value) >> (8 * i));
  return bytes;
}

int32_t HashLong(int64_t value) { return Murmur3Hash32(LittleEndianLong(value)); }

int64_t CanonicalDoubleBits(double value) {
  if (std::isnan(value)) return 0x7ff8000000000000LL;
  if (value == 0.0) value = 0.0;  // -0.0 hashes as 0.0
  int64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Microseconds of a timestamp value of any precision (floored).
int64_t TimestampMicros(const Literal& value) {
  const TypeId id = value.type()->id();
  if (id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs) {
    return FloorDiv(value.long_value(), kNanosPerMicro);
  }
  return value.long_value();
}

bool IsTimestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

int32_t EpochDays(const Literal& value) {
  if (value.type()->id() == TypeId::kDate) return value.int_value();
  return static_cast<int32_t>(FloorDiv(TimestampMicros(value), kMicrosPerDay));
}

std::chrono::year_month_day CivilDate(int32_t days) {
  return std::chrono::year_month_day(std::chrono::sys_days(std::chrono::days(days)));
}

template <typename T>
T TruncateInteger(T value, T width) {
  // spec: v - (((v % W) + W) % W), i.e. floor to a multiple of W.
  return value - (((value % width) + width) % width);
}

Result<Literal> Truncate(const Literal& value, int32_t width) {
  switch (value.type()->id()) {
    case TypeId::kInt: {
      const int64_t truncated = TruncateInteger<int64_t>(value.int_value(), width);
      if (truncated < std::numeric_limits<int32_t>::min()) {
        return Status::InvalidArgument(StrCat("truncate[", width, "] of ", value.int_value(), " overflows int"));
      }
      return Literal::Int(static_cast<int32_t>(truncated));
    }
    case TypeId::kLong: {
      const __int128 truncated = TruncateInteger<__int128>(value.long_value(), width);
      if (truncated < std::numeric_limits<int64_t>::min()) {
        return Status::InvalidArgument(StrCat("truncate[", width, "] of ", value.long_value(), " overflows long"));
      }
      return Literal::Long(static_cast<int64_t>(truncated));
    }
    case TypeId::kDecimal:
      return Literal::Make(value.type(), TruncateInteger<__int128>(value.decimal_value(), width));
    case TypeId::kString:
      return Literal::String(std::string(value.bytes().substr(0, Utf8PrefixOfCodePoints(value.bytes(), width))));
    case TypeId::kBinary:
      return Literal::Binary(std::string(value.bytes().substr(0, static_cast<size_t>(width))));
    default:
      return Status::InvalidArgument(
          StrCat("transform truncate[", width, "] cannot be applied to type ", value.type()->ToString()));
  }
}

std::string FormatYear(int32_t year) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d", year);
  return buffer;
}

}  // namespace

int64_t FloorDiv(int64_t value, int64_t divisor) {
  int64_t quotient = value / divisor;
  if ((value % divisor != 0) && ((value < 0) != (divisor < 0))) --quotient;
  return quotient;
}

int32_t YearsFromEpochDays(int32_t days) { return static_cast<int>(CivilDate(days).year()) - 1970; }

int32_t MonthsFromEpochDays(int32_t days) {
  const auto date = CivilDate(days);
  return (static_cast<int>(date.year()) - 1970) * 12 + static_cast<int>(static_cast<unsigned>(date.month())) - 1;
}

int32_t Murmur3Hash32(std::string_view bytes) {
  constexpr uint32_t c1 = 0xcc9e2d51;
  constexpr uint32_t c2 = 0x1b873593;
  uint32_t h = 0;  // seed 0
  const size_t blocks = bytes.size() / 4;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k = static_cast<uint32_t>(data[4 * i]) | (static_cast<uint32_t>(data[4 * i + 1]) << 8) |
                 (static_cast<uint32_t>(data[4 * i + 2]) << 16) | (static_cast<uint32_t>(data[4 * i + 3]) << 24);
    k *= c1;
    k = RotateLeft(k, 15);
    k *= c2;
    h ^= k;
    h = RotateLeft(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  const uint8_t* tail = data + blocks * 4;
  uint32_t k = 0;
  switch (bytes.size() & 3) {
    case 3: k ^= static_cast<uint32_t>(tail[2]) << 16; [[fallthrough]];
    case 2: k ^= static_cast<uint32_t>(tail[1]) << 8; [[fallthrough]];
    case 1:
      k ^= tail[0];
      k *= c1;
      k = RotateLeft(k, 15);
      k *= c2;
      h ^= k;
  }
  h ^= static_cast<uint32_t>(bytes.size());
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return static_cast<int32_t>(h);
}

int32_t BucketHash(const Literal& value) {
  switch (value.type()->id()) {
    case TypeId::kBoolean: return HashLong(value.bool_value() ? 1 : 0);
    case TypeId::kInt:
    case TypeId::kDate: return HashLong(value.int_value());
    case TypeId::kLong:
    case TypeId::kTime: return HashLong(value.long_value());
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return HashLong(TimestampMicros(value));
    case TypeId::kFloat: return HashLong(CanonicalDoubleBits(value.float_value()));
    case TypeId::kDouble: return HashLong(CanonicalDoubleBits(value.double_value()));
    // Decimals hash their minimal big-endian unscaled bytes, which is their
    // Appendix D form, as are the bytes of strings, uuids, fixed and binary.
    default: return Murmur3Hash32(value.ToBytes());
  }
}

int32_t BucketOf(const Literal& value, int32_t num_buckets) {
  return (BucketHash(value) & std::numeric_limits<int32_t>::max()) % num_buckets;
}

Result<std::optional<Literal>> ApplyTransform(const Transform& transform, const std::optional<Literal>& value) {
  if (transform.is_unknown()) {
    return Status::Unsupported(StrCat("transform ", Quote(transform.ToString()), " is not supported"));
  }
  if (transform.is_void() || !value.has_value()) return std::optional<Literal>();
  const Literal& v = *value;
  if (!transform.CanTransform(*v.type())) {
    return Status::InvalidArgument(StrCat("transform ", Quote(transform.ToString()), " cannot be applied to type ",
                                          Quote(v.type()->ToString())));
  }
  const TypeId id = v.type()->id();
  switch (transform.type()) {
    case TransformType::kIdentity: return value;
    case TransformType::kBucket: return std::optional<Literal>(Literal::Int(BucketOf(v, transform.param())));
    case TransformType::kTruncate: {
      FLOE_ASSIGN_OR_RETURN(auto truncated, Truncate(v, transform.param()));
      return std::optional<Literal>(std::move(truncated));
    }
    case TransformType::kYear: return std::optional<Literal>(Literal::Int(YearsFromEpochDays(EpochDays(v))));
    case TransformType::kMonth: return std::optional<Literal>(Literal::Int(MonthsFromEpochDays(EpochDays(v))));
    case TransformType::kDay: return std::optional<Literal>(Literal::Date(EpochDays(v)));
    case TransformType::kHour:
      if (!IsTimestamp(id)) break;
      return std::optional<Literal>(Literal::Int(static_cast<int32_t>(FloorDiv(TimestampMicros(v), kMicrosPerHour))));
    default: break;
  }
  return Status::InvalidArgument(
      StrCat("transform ", Quote(transform.ToString()), " cannot be applied to type ", Quote(v.type()->ToString())));
}

std::string PartitionValueToHumanString(const Transform& transform, const std::optional<Literal>& value) {
  if (!value.has_value()) return "null";
  const Literal& v = *value;
  switch (transform.type()) {
    case TransformType::kYear: return FormatYear(1970 + v.int_value());
    case TransformType::kMonth: {
      const int32_t months = v.int_value();
      const int32_t year = 1970 + static_cast<int32_t>(FloorDiv(months, 12));
      const int32_t month = months - static_cast<int32_t>(FloorDiv(months, 12)) * 12 + 1;
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "%02d", month);
      return StrCat(FormatYear(year), "-", buffer);
    }
    case TransformType::kDay:
      if (v.type()->id() == TypeId::kInt) return Literal::Date(v.int_value()).ToString();
      return v.ToString();
    case TransformType::kHour: {
      const int64_t hours = v.int_value();
      const int32_t days = static_cast<int32_t>(FloorDiv(hours, 24));
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "%02d", static_cast<int>(hours - int64_t{days} * 24));
      return StrCat(Literal::Date(days).ToString(), "-", buffer);
    }
    default: return v.ToString();
  }
}

std::string UrlFormEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<uint8_t>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
        c == '*' || c == '_') {
      out.push_back(ch);
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

std::string PartitionPath(const PartitionSpec& spec, const PartitionValues& values) {
  std::string path;
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    if (i > 0) path.push_back('/');
    const auto& field = spec.fields[i];
    const std::optional<Literal> none;
    const auto& value = i < values.size() ? values[i] : none;
    path += UrlFormEncode(field.name);
    path.push_back('=');
    path += UrlFormEncode(PartitionValueToHumanString(field.transform, value));
  }
  return path;
}

}  // namespace floe::iceberg
