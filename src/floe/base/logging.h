// Leveled logging to stderr (or a sink set by tests).
//
//   FLOE_LOG(kWarning) << "retrying " << path << " after " << status.ToString();
//
// A disabled level costs one relaxed atomic load: the stream expression is not
// evaluated. The level comes from SetLogLevel() or the FLOE_LOG environment
// variable (debug, info, warning, error, off); the default is warning, so the
// CLI stays quiet. Thread-safe: each message is emitted whole, under a lock.

#pragma once

#include <functional>
#include <sstream>
#include <string_view>

#include "floe/base/result.h"

namespace floe {

enum class LogLevel : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kOff = 4 };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
// "debug", "info", "warning" (or "warn"), "error", "off"; InvalidArgument otherwise.
Result<LogLevel> ParseLogLevel(std::string_view name);
// Applies FLOE_LOG if set; an invalid value is reported once and ignored.
void InitLoggingFromEnv();

// Receives every emitted line (without trailing newline). Null restores stderr.
using LogSink = std::function<void(LogLevel, std::string_view line)>;
void SetLogSink(LogSink sink);

bool LogEnabled(LogLevel level);

class LogMessage {
 public:
  LogMessage(LogLevel level, const char* file, int line);
  ~LogMessage();
  LogMessage(const LogMessage&) = delete;
  LogMessage& operator=(const LogMessage&) = delete;
  std::ostream& stream() { return stream_; }

 private:
  LogLevel level_;
  std::ostringstream stream_;
};

}  // namespace floe

#define FLOE_LOG(level)                                     \
  if (!::floe::LogEnabled(::floe::LogLevel::level)) {       \
  } else                                                    \
    ::floe::LogMessage(::floe::LogLevel::level, __FILE__, __LINE__).stream()
