// TcpProxy: a TCP forwarder on 127.0.0.1 in front of a real server, that can
// break chosen connections the way networks and overloaded servers do.
//
// Each accepted connection takes the mode queued for it at accept time:
// forward normally, forward the request but cut the connection when the
// answer starts (the request took effect, the client never hears so),
// answer "503 Slow Down" without reaching the server, or swallow the request
// and never answer (a hung server). Clients that reuse
// connections see a mode only on a new connection. Every byte a client
// sends through is kept, so tests can read the requests as sent.

#pragma once

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace floe::testing {

class TcpProxy {
 public:
  enum class Mode { kForward, kDropResponse, kSlowDown, kHang };

  explicit TcpProxy(int upstream_port);
  ~TcpProxy();
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  int port() const { return port_; }
  // The next `n` new connections get `mode`; after them, kForward again.
  void Queue(Mode mode, int n = 1);
  int connections() const { return connections_.load(); }
  // Everything the clients sent that was forwarded to the server, in order.
  std::string sent() const;

 private:
  void AcceptLoop();
  void Serve(int client, Mode mode);

  int upstream_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::mutex mutex_;
  mutable std::mutex sent_mutex_;
  std::string sent_;  // guarded by sent_mutex_
  std::deque<Mode> queued_;  // guarded by mutex_
  std::vector<std::thread> threads_;  // guarded by mutex_
  std::thread acceptor_;
};

}  // namespace floe::testing
