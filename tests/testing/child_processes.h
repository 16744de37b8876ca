// Runs work in forked child processes, for tests that race separate
// processes (each with its own catalog connections) on one table.

#pragma once

#include <functional>
#include <string>
#include <vector>

namespace floe::testing {

// Forks `count` children at once; child i runs `work(i)` and hands the
// string it returns to the parent through a pipe, then leaves with _exit(0)
// (no atexit handlers or gtest teardown in the child). Returns the reports
// in child order once all have finished. A failed fork, a child that died
// or exited non-zero is a test failure (ADD_FAILURE naming the child); its
// report is then empty. Call it from the test's main thread with no other
// threads running: only the forking thread exists in a child.
std::vector<std::string> RunInChildProcesses(int count, const std::function<std::string(int child)>& work);

}  // namespace floe::testing
