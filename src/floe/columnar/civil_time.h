// Days since 1970-01-01 to and from proleptic Gregorian dates, after Howard
// Hinnant's "chrono-Compatible Low-Level Date Algorithms" (public domain).
// Valid for day counts within +-2^60 (every date32 and every day of an int64
// timestamp); year 0 is 1 BC, year -1 is 2 BC. Internal to columnar/.

#pragma once

#include <cstdint>

namespace floe::civil {

struct Date {
  int64_t year;
  int32_t month;  // 1..12
  int32_t day;    // 1..31
};

constexpr Date CivilFromDays(int64_t days) {
  days += 719468;  // shift the epoch to 0000-03-01, so leap days end the year
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<uint32_t>(days - era * 146097);                                // [0, 146096]
  const uint32_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;  // [0, 399]
  const uint32_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);  // [0, 365]
  const uint32_t month_from_march = (5 * day_of_year + 2) / 153;                                       // [0, 11]
  const auto day = static_cast<int32_t>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  const auto month = static_cast<int32_t>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  return Date{static_cast<int64_t>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

constexpr int64_t DaysFromCivil(int64_t year, int32_t month, int32_t day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto year_of_era = static_cast<uint32_t>(year - era * 400);                                // [0, 399]
  const auto month_from_march = static_cast<uint32_t>(month > 2 ? month - 3 : month + 9);          // [0, 11]
  const uint32_t day_of_year = (153 * month_from_march + 2) / 5 + static_cast<uint32_t>(day) - 1;  // [0, 365]
  const uint32_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;  // [0, 146096]
  return era * 146097 + static_cast<int64_t>(day_of_era) - 719468;
}

}  // namespace floe::civil
