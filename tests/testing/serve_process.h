// A `floe serve` child process: started from its argv (which must ask for
// --port 0 or a fixed port), its stderr (the access log) appended to a log
// file, its URL read from the first stdout line "listening on URL" and the
// rest of stdout drained so the server never blocks on it. Stopped with
// SIGTERM (graceful) when the object goes, SIGKILL if it has not exited
// within 10 s.
//
// Shared by the tests (catalog/rest_server_util.h) and
// bench/serve_commit_bench.cc, whose release tree has no test library: so
// header-only and free of gtest.
//
// Thread safety: not thread-safe; url() and pid() may be read from any
// thread once Start returned.

#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "floe/base/result.h"
#include "floe/base/strings.h"

namespace floe::testing {

class ServeProcess {
 public:
  // IOError when the process cannot be started, or when its first line is
  // not "listening on URL" (the message names `log_path`, where floe serve
  // wrote why).
  static Result<std::unique_ptr<ServeProcess>> Start(std::vector<std::string> args, const std::string& log_path) {
    int out[2];
    if (pipe(out) != 0) return Status::IOError("floe serve: pipe failed");
    auto process = std::unique_ptr<ServeProcess>(new ServeProcess());
    process->pid_ = fork();
    if (process->pid_ < 0) return Status::IOError("floe serve: fork failed");
    if (process->pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (log >= 0) dup2(log, STDERR_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    std::string line;
    char c;
    while (read(out[0], &c, 1) == 1 && c != '\n') line.push_back(c);
    process->drain_ = std::thread([fd = out[0]] {
      char buffer[4096];
      while (read(fd, buffer, sizeof(buffer)) > 0) {
      }
      close(fd);
    });
    const std::string marker = "listening on ";
    const size_t at = line.find(marker);
    if (at == std::string::npos) {
      return Status::IOError(StrCat("floe serve did not start: first line '", line, "' (see ", log_path, ")"));
    }
    process->url_ = line.substr(at + marker.size());
    return process;
  }

  ~ServeProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          kill(pid_, SIGKILL);
          waitpid(pid_, &status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    if (drain_.joinable()) drain_.join();
  }

  // "http://127.0.0.1:PORT".
  const std::string& url() const { return url_; }
  pid_t pid() const { return pid_; }

 private:
  ServeProcess() = default;

  pid_t pid_ = -1;
  std::string url_;
  std::thread drain_;
};

}  // namespace floe::testing
