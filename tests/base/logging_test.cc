#include "floe/base/logging.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace floe {
namespace {

class LoggingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = GetLogLevel();
    SetLogSink([this](LogLevel level, std::string_view line) { lines_.emplace_back(level, std::string(line)); });
  }
  void TearDown() override {
    SetLogSink(nullptr);
    SetLogLevel(saved_);
  }
  LogLevel saved_;
  std::vector<std::pair<LogLevel, std::string>> lines_;
};

TEST_F(LoggingTest, EmitsAtOrAboveLevelOnly) {
  SetLogLevel(LogLevel::kWarning);
  FLOE_LOG(kInfo) << "hidden";
  FLOE_LOG(kWarning) << "retrying " << 3;
  FLOE_LOG(kError) << "gave up";
  ASSERT_EQ(lines_.size(), 2u);
  EXPECT_EQ(lines_[0].first, LogLevel::kWarning);
  EXPECT_NE(lines_[0].second.find(" W "), std::string::npos) << lines_[0].second;
  EXPECT_NE(lines_[0].second.find("retrying 3"), std::string::npos);
  EXPECT_NE(lines_[1].second.find(" E "), std::string::npos);
}

TEST_F(LoggingTest, DisabledLevelDoesNotEvaluateTheStream) {
  SetLogLevel(LogLevel::kError);
  int evaluated = 0;
  auto touch = [&] { return ++evaluated; };
  FLOE_LOG(kDebug) << touch();
  EXPECT_EQ(evaluated, 0);
  SetLogLevel(LogLevel::kDebug);
  FLOE_LOG(kDebug) << touch();
  EXPECT_EQ(evaluated, 1);
}

TEST_F(LoggingTest, OffSilencesEverything) {
  SetLogLevel(LogLevel::kOff);
  FLOE_LOG(kError) << "nothing";
  EXPECT_TRUE(lines_.empty());
}

TEST_F(LoggingTest, LineNamesTheSourceFileBelowSrc) {
  SetLogLevel(LogLevel::kInfo);
  FLOE_LOG(kInfo) << "x";
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_NE(lines_[0].second.find("logging_test.cc:"), std::string::npos) << lines_[0].second;
}

TEST(ParseLogLevelTest, KnownNamesAndClearErrorOtherwise) {
  EXPECT_EQ(*ParseLogLevel("debug"), LogLevel::kDebug);
  EXPECT_EQ(*ParseLogLevel("warn"), LogLevel::kWarning);
  EXPECT_EQ(*ParseLogLevel("off"), LogLevel::kOff);
  auto bad = ParseLogLevel("loud");
  EXPECT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_EQ(bad.status().message(), "log level 'loud' is not one of debug, info, warning, error, off");
}

}  // namespace
}  // namespace floe
