#include "floe/base/logging.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <string>

#include "floe/base/strings.h"

namespace floe {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kWarning)};
std::mutex g_sink_mutex;
LogSink g_sink;  // guarded by g_sink_mutex

char LevelLetter(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return 'D';
    case LogLevel::kInfo: return 'I';
    case LogLevel::kWarning: return 'W';
    case LogLevel::kError: return 'E';
    case LogLevel::kOff: return '-';
  }
  return '?';
}

// The path below "src/" so lines read `io/local_file_io.cc:42`, not a build path.
std::string_view ShortFile(const char* file) {
  std::string_view f(file);
  const size_t pos = f.rfind("src/floe/");
  return pos == std::string_view::npos ? f : f.substr(pos + 9);
}

}  // namespace

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int>(level), std::memory_order_relaxed); }

LogLevel GetLogLevel() { return static_cast<LogLevel>(g_level.load(std::memory_order_relaxed)); }

bool LogEnabled(LogLevel level) {
  return level != LogLevel::kOff && static_cast<int>(level) >= g_level.load(std::memory_order_relaxed);
}

Result<LogLevel> ParseLogLevel(std::string_view name) {
  if (name == "debug") return LogLevel::kDebug;
  if (name == "info") return LogLevel::kInfo;
  if (name == "warning" || name == "warn") return LogLevel::kWarning;
  if (name == "error") return LogLevel::kError;
  if (name == "off") return LogLevel::kOff;
  return Status::InvalidArgument(StrCat("log level ", Quote(name), " is not one of debug, info, warning, error, off"));
}

void InitLoggingFromEnv() {
  const char* env = std::getenv("FLOE_LOG");
  if (env == nullptr || *env == '\0') return;
  auto level = ParseLogLevel(env);
  if (level.ok()) {
    SetLogLevel(*level);
  } else {
    std::fprintf(stderr, "floe: FLOE_LOG ignored: %s\n", level.status().message().c_str());
  }
}

void SetLogSink(LogSink sink) {
  std::lock_guard lock(g_sink_mutex);
  g_sink = std::move(sink);
}

LogMessage::LogMessage(LogLevel level, const char* file, int line) : level_(level) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t secs = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char stamp[64];
  std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(millis));
  stream_ << stamp << ' ' << LevelLetter(level) << ' ' << ShortFile(file) << ':' << line << "] ";
}

LogMessage::~LogMessage() {
  const std::string line = stream_.str();
  std::lock_guard lock(g_sink_mutex);
  if (g_sink) {
    g_sink(level_, line);
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

}  // namespace floe
