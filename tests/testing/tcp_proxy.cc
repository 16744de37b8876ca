#include "testing/tcp_proxy.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace floe::testing {
namespace {

bool WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::send(fd, data, n, MSG_NOSIGNAL);
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

TcpProxy::TcpProxy(int upstream_port) : upstream_port_(upstream_port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 64) != 0) {
    ADD_FAILURE() << "TcpProxy: bind/listen failed: " << std::strerror(errno);
    return;
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

TcpProxy::~TcpProxy() {
  stopping_ = true;
  ::shutdown(listen_fd_, SHUT_RDWR);
  ::close(listen_fd_);
  if (acceptor_.joinable()) acceptor_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
}

void TcpProxy::Queue(Mode mode, int n) {
  std::lock_guard lock(mutex_);
  for (int i = 0; i < n; ++i) queued_.push_back(mode);
}

std::string TcpProxy::sent() const {
  std::lock_guard lock(sent_mutex_);
  return sent_;
}

void TcpProxy::AcceptLoop() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int client = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    ++connections_;
    std::lock_guard lock(mutex_);
    Mode mode = Mode::kForward;
    if (!queued_.empty()) {
      mode = queued_.front();
      queued_.pop_front();
    }
    threads_.emplace_back([this, client, mode] { Serve(client, mode); });
  }
}

void TcpProxy::Serve(int client, Mode mode) {
  char buf[64 * 1024];
  if (mode == Mode::kHang) {
    while (!stopping_) {
      pollfd p{client, POLLIN, 0};
      if (::poll(&p, 1, 100) > 0 && ::recv(client, buf, sizeof buf, 0) <= 0) break;
    }
    ::close(client);
    return;
  }
  if (mode == Mode::kSlowDown) {
    // Read the request head, answer, close. The body (if any) is dropped.
    std::string head;
    while (head.find("\r\n\r\n") == std::string::npos) {
      pollfd p{client, POLLIN, 0};
      if (::poll(&p, 1, 2000) <= 0) break;
      const ssize_t n = ::recv(client, buf, sizeof buf, 0);
      if (n <= 0) break;
      head.append(buf, static_cast<size_t>(n));
    }
    const std::string body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
        "<Message>Please reduce your request rate.</Message></Error>";
    const std::string answer = "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    WriteAll(client, answer.data(), answer.size());
    ::shutdown(client, SHUT_RDWR);
    ::close(client);
    return;
  }
  const int upstream = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(upstream_port_));
  if (::connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(upstream);
    ::close(client);
    return;
  }
  pollfd fds[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
  while (!stopping_) {
    if (::poll(fds, 2, 100) < 0) break;
    bool done = false;
    for (int i = 0; i < 2 && !done; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::recv(fds[i].fd, buf, sizeof buf, 0);
      if (n <= 0) {
        done = true;
        break;
      }
      if (i == 1 && mode == Mode::kDropResponse) {
        // The server answered: the request took effect. Cut the client off.
        done = true;
        break;
      }
      if (i == 0) {
        std::lock_guard lock(sent_mutex_);
        sent_.append(buf, static_cast<size_t>(n));
      }
      if (!WriteAll(fds[1 - i].fd, buf, static_cast<size_t>(n))) done = true;
    }
    if (done) break;
  }
  // RST rather than FIN, as a crashed peer would look.
  linger l{1, 0};
  ::setsockopt(client, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  ::close(client);
  ::close(upstream);
}

}  // namespace floe::testing
