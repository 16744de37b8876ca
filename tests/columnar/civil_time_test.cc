#include "floe/columnar/civil_time.h"

#include <gtest/gtest.h>

#include <string>

#include "floe/columnar/value_format.h"

namespace floe {
namespace {

std::string Date(int64_t days) {
  std::string out;
  value_format::AppendDate(days, &out);
  return out;
}

std::string Timestamp(int64_t value, TimeUnit unit, bool zone) {
  std::string out;
  value_format::AppendTimestamp(value, unit, zone, &out);
  return out;
}

TEST(CivilTimeTest, KnownDates) {
  EXPECT_EQ(Date(0), "1970-01-01");
  EXPECT_EQ(Date(-1), "1969-12-31");
  EXPECT_EQ(Date(59), "1970-03-01");
  EXPECT_EQ(Date(11016), "2000-02-29");
  EXPECT_EQ(Date(-141427), "1582-10-15");  // the Gregorian reform, proleptic either side
  EXPECT_EQ(Date(-719528), "0000-01-01");
  EXPECT_EQ(Date(-719529), "-0001-12-31");
  EXPECT_EQ(Date(2932896), "9999-12-31");
  EXPECT_EQ(Date(2932897), "10000-01-01");
  EXPECT_EQ(Date(INT32_MIN), "-5877641-06-23");
  EXPECT_EQ(Date(INT32_MAX), "5881580-07-11");
}

// Every day from year -1000 to 3000 maps to a valid date, one day after the
// previous one, and back to its day count.
TEST(CivilTimeTest, DaysAndDatesRoundTripOverFourMillennia) {
  const int64_t first = civil::DaysFromCivil(-1000, 1, 1);
  const int64_t last = civil::DaysFromCivil(3000, 12, 31);
  civil::Date previous = civil::CivilFromDays(first - 1);
  for (int64_t days = first; days <= last; ++days) {
    const civil::Date date = civil::CivilFromDays(days);
    ASSERT_EQ(civil::DaysFromCivil(date.year, date.month, date.day), days);
    const bool next_day = date.year == previous.year && date.month == previous.month && date.day == previous.day + 1;
    const bool next_month = date.year == previous.year && date.month == previous.month + 1 && date.day == 1;
    const bool next_year = date.year == previous.year + 1 && date.month == 1 && date.day == 1 && previous.month == 12 &&
                           previous.day == 31;
    ASSERT_TRUE(next_day || next_month || next_year) << days;
    previous = date;
  }
}

TEST(CivilTimeTest, TimestampsFloorTowardsThePast) {
  EXPECT_EQ(Timestamp(0, TimeUnit::kMicro, false), "1970-01-01T00:00:00.000000");
  EXPECT_EQ(Timestamp(-1, TimeUnit::kNano, true), "1969-12-31T23:59:59.999999999+00:00");
  EXPECT_EQ(Timestamp(INT64_MIN, TimeUnit::kMicro, false), "-290308-12-21T19:59:05.224192");
  EXPECT_EQ(Timestamp(INT64_MAX, TimeUnit::kMicro, false), "294247-01-10T04:00:54.775807");
  EXPECT_EQ(Timestamp(INT64_MIN, TimeUnit::kNano, false), "1677-09-21T00:12:43.145224192");
}

TEST(CivilTimeTest, TimesOutsideADayAreStillShown) {
  std::string out;
  value_format::AppendTime(-1, TimeUnit::kMicro, &out);
  EXPECT_EQ(out, "-00:00:00.000001");
  out.clear();
  value_format::AppendTime(INT64_MIN, TimeUnit::kNano, &out);
  EXPECT_EQ(out, "-2562047:47:16.854775808");
}

}  // namespace
}  // namespace floe
