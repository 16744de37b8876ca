// The REST client's transport against scripted endpoints: test doubles of
// remote failure modes (throttling, lost connections, expiring tokens) that a
// real server does not produce on demand.

#include "floe/catalog/rest_http.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "floe/catalog/rest_auth.h"

namespace floe::catalog {
namespace {

using std::chrono::milliseconds;

// An httplib server on a free loopback port, serving until destroyed.
class ScriptedServer {
 public:
  ScriptedServer() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~ScriptedServer() {
    server_.stop();
    thread_.join();
  }
  httplib::Server& server() { return server_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

// A TCP endpoint that reads each request's head and hangs up without an
// answer: a server that died while handling the request.
class HangUpServer {
 public:
  HangUpServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(fd_, 16), 0);
    socklen_t len = sizeof(addr);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      for (;;) {
        const int client = ::accept(fd_, nullptr, nullptr);
        if (client < 0) return;
        if (stopping_) {
          ::close(client);
          return;
        }
        std::string head;
        char buffer[4096];
        while (head.find("\r\n\r\n") == std::string::npos) {
          const ssize_t n = ::read(client, buffer, sizeof(buffer));
          if (n <= 0) break;
          head.append(buffer, static_cast<size_t>(n));
        }
        ++requests_;
        ::close(client);
      }
    });
  }
  ~HangUpServer() {
    stopping_ = true;
    // Wake the accept() with one last connection.
    const int wake = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    (void)::connect(wake, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    ::close(wake);
    thread_.join();
    ::close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int requests() const { return requests_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

struct Recorder {
  std::mutex mutex;
  std::vector<milliseconds> sleeps;
  std::function<void(milliseconds)> Hook() {
    return [this](milliseconds d) {
      std::lock_guard lock(mutex);
      sleeps.push_back(d);
    };
  }
};

RestHttpOptions Options(const std::string& url, Recorder* recorder, int max_attempts = 4) {
  RestHttpOptions options;
  options.base_url = url;
  options.retry.max_attempts = max_attempts;
  options.retry.base_delay_ms = 10;
  options.retry.max_delay_ms = 40;
  options.http.request_timeout_ms = 10'000;
  options.sleep = recorder->Hook();
  return options;
}

RestRequest Get(std::string path) {
  RestRequest request;
  request.path = std::move(path);
  return request;
}

TEST(RestHttpTest, RetriesThrottlingAfterRetryAfterSeconds) {
  ScriptedServer server;
  std::atomic<int> calls{0};
  server.server().Get("/v1/config", [&](const httplib::Request&, httplib::Response& res) {
    if (++calls <= 2) {
      res.status = calls == 1 ? 429 : 503;
      res.set_header("Retry-After", "3");
      return;
    }
    res.set_content("{}", "application/json");
  });
  Recorder recorder;
  RestHttp http(Options(server.url(), &recorder));
  auto response = http.Send(Get("v1/config"));
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(calls, 3);
  ASSERT_EQ(recorder.sleeps.size(), 2u);
  EXPECT_EQ(recorder.sleeps[0], milliseconds(3000));  // the server's word, not the 40 ms backoff cap
  EXPECT_EQ(recorder.sleeps[1], milliseconds(3000));
}

TEST(RestHttpTest, ThrottledPostIsRetriedAndLongRetryAfterIsCapped) {
  ScriptedServer server;
  std::atomic<int> calls{0};
  std::string last_body;
  server.server().Post("/v1/x", [&](const httplib::Request& req, httplib::Response& res) {
    last_body = req.body;
    if (++calls == 1) {
      res.status = 503;
      res.set_header("Retry-After", "86400");
      return;
    }
    res.status = 204;
  });
  Recorder recorder;
  RestHttpOptions options = Options(server.url(), &recorder);
  options.max_retry_after_ms = 250;
  RestHttp http(options);
  RestRequest post = Get("v1/x");
  post.method = "POST";
  post.body = R"({"a":1})";
  auto response = http.Send(post);
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 204);
  EXPECT_EQ(calls, 2);  // 503: the server did not process it, so even a POST is sent again
  EXPECT_EQ(last_body, R"({"a":1})");
  ASSERT_EQ(recorder.sleeps.size(), 1u);
  EXPECT_EQ(recorder.sleeps[0], milliseconds(250));
}

TEST(RestHttpTest, BacksOffWithJitterWithoutRetryAfterAndGivesUp) {
  ScriptedServer server;
  std::atomic<int> calls{0};
  server.server().Get("/v1/config", [&](const httplib::Request&, httplib::Response& res) {
    ++calls;
    res.status = 503;
  });
  Recorder recorder;
  RestHttp http(Options(server.url(), &recorder, 4));
  auto response = http.Send(Get("v1/config"));
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 503);  // the last answer goes to the caller
  EXPECT_EQ(calls, 4);
  ASSERT_EQ(recorder.sleeps.size(), 3u);
  for (size_t i = 0; i < recorder.sleeps.size(); ++i) {
    EXPECT_LE(recorder.sleeps[i].count(), std::min<int64_t>(40, 10 << i)) << i;
  }
}

TEST(RestHttpTest, ServerErrorsAreNotRetried) {
  ScriptedServer server;
  std::atomic<int> calls{0};
  server.server().Post("/v1/commit", [&](const httplib::Request&, httplib::Response& res) {
    ++calls;
    res.status = 500;
  });
  Recorder recorder;
  RestHttp http(Options(server.url(), &recorder));
  RestRequest post = Get("v1/commit");
  post.method = "POST";
  post.body = "{}";
  auto response = http.Send(post);
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 500);
  EXPECT_EQ(calls, 1);  // may be CommitStateUnknown: only the caller can resolve it
}

TEST(RestHttpTest, PostIsNotResentAfterTheConnectionDropped) {
  HangUpServer server;
  Recorder recorder;
  RestHttp http(Options(server.url(), &recorder));
  RestRequest post = Get("v1/ns/namespaces/a/tables/t");
  post.method = "POST";
  post.body = "{}";
  TransportFailure failure = TransportFailure::kNone;
  auto response = http.Send(post, &failure);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kIOError);
  EXPECT_EQ(failure, TransportFailure::kOutcomeUnknown);
  EXPECT_EQ(server.requests(), 1);
  EXPECT_NE(response.status().message().find("POST " + server.url() + "/v1/ns/namespaces/a/tables/t"),
            std::string::npos)
      << response.status().message();
}

TEST(RestHttpTest, PostWithAnIdempotencyKeyIsResentAfterTheConnectionDropped) {
  HangUpServer server;
  Recorder recorder;
  RestHttp http(Options(server.url(), &recorder, 3));
  http.set_idempotency_keys(true);  // the server announced idempotency-key-lifetime
  RestRequest post = Get("v1/ns/namespaces/a/tables/t");
  post.method = "POST";
  post.body = "{}";
  TransportFailure failure = TransportFailure::kNone;
  auto response = http.Send(post, &failure);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(server.requests(), 3);  // every attempt, one key (the server replays)
  EXPECT_EQ(failure, TransportFailure::kOutcomeUnknown);  // still: the caller resolves it
}

TEST(RestHttpTest, IdempotentRequestsAreResentAfterTheConnectionDropped) {
  HangUpServer server;
  Recorder recorder;
  RestHttp http(Options(server.url(), &recorder, 3));
  auto response = http.Send(Get("v1/config"));
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(server.requests(), 3);
  RestRequest del = Get("v1/namespaces/a");
  del.method = "DELETE";
  EXPECT_FALSE(http.Send(del).ok());
  EXPECT_EQ(server.requests(), 6);
}

TEST(RestHttpTest, RefusedConnectionIsRetriedEvenForPost) {
  int port = 0;
  {
    ScriptedServer gone;  // a port that was free a moment ago
    port = std::stoi(gone.url().substr(gone.url().rfind(':') + 1));
  }
  Recorder recorder;
  RestHttp http(Options("http://127.0.0.1:" + std::to_string(port), &recorder, 3));
  RestRequest post = Get("v1/x");
  post.method = "POST";
  TransportFailure failure = TransportFailure::kNone;
  auto response = http.Send(post, &failure);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(failure, TransportFailure::kNotSent);  // never reached a server: safe to send again
  EXPECT_EQ(recorder.sleeps.size(), 2u);
}

TEST(RestHttpTest, ParsesRetryAfterSecondsAndDates) {
  const auto now = std::chrono::sys_days(std::chrono::year(2015) / 10 / 21) + std::chrono::hours(7) +
                   std::chrono::minutes(27) + std::chrono::seconds(55);
  EXPECT_EQ(ParseRetryAfter("120", now), milliseconds(120'000));
  EXPECT_EQ(ParseRetryAfter(" 0 ", now), milliseconds(0));
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now), milliseconds(5000));
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now), milliseconds(0));  // past: at once
  EXPECT_FALSE(ParseRetryAfter("", now).has_value());
  EXPECT_FALSE(ParseRetryAfter("-5", now).has_value());
  EXPECT_FALSE(ParseRetryAfter("soon", now).has_value());
  EXPECT_FALSE(ParseRetryAfter("Wed, 32 Oct 2015 07:28:00 GMT", now).has_value());
}

// --- OAuth2 ------------------------------------------------------------------

// A token endpoint issuing t1, t2, ... (expires_in `lifetime` seconds) to
// client "floe" with secret "s3cret", and a resource that accepts only the
// newest token.
struct TokenServer {
  ScriptedServer server;
  std::atomic<int> issued{0};
  std::atomic<int> resource_calls{0};
  int lifetime = 3600;
  std::mutex mutex;
  std::string last_form;

  TokenServer() {
    server.server().Post("/v1/oauth/tokens", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(mutex);
        last_form = req.body;
      }
      if (req.get_param_value("client_secret") != "s3cret" || req.get_param_value("client_id") != "floe" ||
          req.get_param_value("grant_type") != "client_credentials") {
        res.status = 401;
        res.set_content(R"({"error":"invalid_client","error_description":"unknown client"})", "application/json");
        return;
      }
      const int n = ++issued;
      res.set_content("{\"access_token\":\"t" + std::to_string(n) + "\",\"token_type\":\"bearer\",\"expires_in\":" +
                          std::to_string(lifetime) +
                          ",\"issued_token_type\":\"urn:ietf:params:oauth:token-type:access_token\"}",
                      "application/json");
    });
    server.server().Get("/v1/config", [this](const httplib::Request& req, httplib::Response& res) {
      ++resource_calls;
      if (req.get_header_value("Authorization") != "Bearer t" + std::to_string(issued.load())) {
        res.status = 401;
        res.set_content(R"({"error":{"message":"expired","type":"NotAuthorizedException","code":401}})",
                        "application/json");
        return;
      }
      res.set_content("{}", "application/json");
    });
  }
};

OAuth2Options Credential(std::string credential,
                         std::function<std::chrono::steady_clock::time_point()> now = nullptr) {
  OAuth2Options options;
  options.credential = std::move(credential);
  options.now = std::move(now);
  return options;
}

OAuth2Options FixedToken(std::string token) {
  OAuth2Options options;
  options.token = std::move(token);
  return options;
}

// A session whose token requests go through a transport of their own.
template <typename Tokens>
std::shared_ptr<OAuth2Session> Session(Tokens& tokens, Recorder* recorder, OAuth2Options options) {
  return std::make_shared<OAuth2Session>(std::make_shared<RestHttp>(Options(tokens.server.url(), recorder)),
                                         std::move(options));
}

struct FakeClock {
  std::atomic<int64_t> ms{0};
  std::function<std::chrono::steady_clock::time_point()> Hook() {
    return [this] { return std::chrono::steady_clock::time_point(milliseconds(ms.load())); };
  }
};

TEST(RestAuthTest, FetchesAClientCredentialsTokenAndSendsItAsBearer) {
  TokenServer tokens;
  Recorder recorder;
  auto http = std::make_shared<RestHttp>(Options(tokens.server.url(), &recorder));
  auto auth = Session(tokens, &recorder, Credential("floe:s3cret"));
  http->set_auth(auth);
  auto response = http->Send(Get("v1/config"));
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(auth->fetches(), 1);
  EXPECT_NE(tokens.last_form.find("scope=catalog"), std::string::npos) << tokens.last_form;
  ASSERT_TRUE(http->Send(Get("v1/config")).ok());
  EXPECT_EQ(auth->fetches(), 1);  // reused while valid
}

TEST(RestAuthTest, RefreshesShortlyBeforeExpiry) {
  TokenServer tokens;
  tokens.lifetime = 100;
  FakeClock clock;
  Recorder recorder;
  auto http = std::make_shared<RestHttp>(Options(tokens.server.url(), &recorder));
  auto auth = Session(tokens, &recorder, Credential("floe:s3cret", clock.Hook()));
  http->set_auth(auth);
  ASSERT_EQ(http->Send(Get("v1/config"))->status, 200);
  clock.ms = 89'000;  // inside the lifetime minus a tenth
  ASSERT_EQ(http->Send(Get("v1/config"))->status, 200);
  EXPECT_EQ(auth->fetches(), 1);
  clock.ms = 91'000;
  ASSERT_EQ(http->Send(Get("v1/config"))->status, 200);
  EXPECT_EQ(auth->fetches(), 2);
  EXPECT_EQ(tokens.resource_calls, 3);  // no request was spent on a 401
}

TEST(RestAuthTest, A401FetchesANewTokenAndRetriesOnce) {
  TokenServer tokens;
  Recorder recorder;
  auto http = std::make_shared<RestHttp>(Options(tokens.server.url(), &recorder));
  auto auth = Session(tokens, &recorder, Credential("floe:s3cret"));
  http->set_auth(auth);
  ASSERT_EQ(http->Send(Get("v1/config"))->status, 200);
  ++tokens.issued;  // the server revokes t1 (only t2 is good now, which it never issued)
  auto response = http->Send(Get("v1/config"));
  ASSERT_TRUE(response.ok());
  // The retry carries t3 (fetched after the 401), which the server accepts.
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(auth->fetches(), 2);
  EXPECT_EQ(tokens.resource_calls, 3);
}

TEST(RestAuthTest, AFixedTokenIsNotRefreshedAndA401Stands) {
  TokenServer tokens;
  Recorder recorder;
  auto http = std::make_shared<RestHttp>(Options(tokens.server.url(), &recorder));
  auto auth = Session(tokens, &recorder, FixedToken("stale"));
  http->set_auth(auth);
  auto response = http->Send(Get("v1/config"));
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 401);
  EXPECT_EQ(auth->fetches(), 0);
  EXPECT_EQ(tokens.resource_calls, 1);
}

TEST(RestAuthTest, ARefusedCredentialIsPermissionDeniedWithoutTheSecret) {
  TokenServer tokens;
  Recorder recorder;
  auto http = std::make_shared<RestHttp>(Options(tokens.server.url(), &recorder));
  auto auth = Session(tokens, &recorder, Credential("floe:wrong-secret"));
  http->set_auth(auth);
  auto response = http->Send(Get("v1/config"));
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(response.status().message().find("401 invalid_client: unknown client"), std::string::npos)
      << response.status().message();
  EXPECT_EQ(response.status().message().find("wrong-secret"), std::string::npos);
  EXPECT_EQ(tokens.resource_calls, 0);
}

}  // namespace
}  // namespace floe::catalog
