#include "testing/child_processes.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace floe::testing {

std::vector<std::string> RunInChildProcesses(int count, const std::function<std::string(int child)>& work) {
  struct Child {
    pid_t pid = -1;
    int read_fd = -1;
  };
  std::vector<Child> children;
  for (int i = 0; i < count; ++i) {
    int fds[2];
    if (pipe(fds) != 0) {
      ADD_FAILURE() << "child " << i << ": pipe failed";
      children.push_back(Child{});
      continue;
    }
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      const std::string report = work(i);
      (void)!write(fds[1], report.data(), report.size());
      close(fds[1]);
      _exit(0);
    }
    close(fds[1]);
    if (pid < 0) {
      ADD_FAILURE() << "child " << i << ": fork failed";
      close(fds[0]);
      children.push_back(Child{});
      continue;
    }
    children.push_back(Child{pid, fds[0]});
  }
  std::vector<std::string> reports;
  for (size_t i = 0; i < children.size(); ++i) {
    const Child& child = children[i];
    std::string report;
    if (child.pid > 0) {
      char buf[4096];
      ssize_t n;
      while ((n = read(child.read_fd, buf, sizeof(buf))) > 0) report.append(buf, static_cast<size_t>(n));
      close(child.read_fd);
      int wstatus = 0;
      if (waitpid(child.pid, &wstatus, 0) != child.pid) {
        ADD_FAILURE() << "child " << i << ": waitpid failed";
        report.clear();
      } else if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
        ADD_FAILURE() << "child " << i << " ended with status " << wstatus;
        report.clear();
      }
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace floe::testing
