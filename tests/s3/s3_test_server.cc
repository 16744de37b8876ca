#include "s3_test_server.h"

#include <atomic>
#include <cstdlib>
#include <cctype>
#include <filesystem>
#include <unistd.h>

#include "floe/base/strings.h"
#include "testing/run_process.h"

namespace floe::testing {
namespace {

struct State {
  std::string kind;
  std::string dir;
  std::string endpoint;
};
State& state() {
  static State s;
  return s;
}

const std::string kScript = FLOE_SOURCE_DIR "/tests/s3/s3_test_server.sh";

}  // namespace

void S3TestServer::SetUp() {
  const char* kind = std::getenv("FLOE_TEST_S3_SERVER");
  state().kind = kind != nullptr && *kind != '\0' ? kind : "moto";
  std::string tmpl = (std::filesystem::temp_directory_path() / "floe-s3-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  state().dir = tmpl;
  auto r = RunProcess({"/bin/bash", kScript, "start", state().kind, state().dir});
  ASSERT_EQ(r.exit_code, 0) << "starting " << state().kind << " failed: " << r.err << r.out;
  state().endpoint = std::string(Trim(r.out));
  ASSERT_TRUE(StartsWith(state().endpoint, "http://127.0.0.1:")) << r.out;
}

void S3TestServer::TearDown() {
  if (state().dir.empty()) return;
  RunProcess({"/bin/bash", kScript, "stop", state().dir});
  std::error_code ec;
  std::filesystem::remove_all(state().dir, ec);
}

const std::string& S3TestServer::kind() { return state().kind; }
const std::string& S3TestServer::endpoint() { return state().endpoint; }
int S3TestServer::port() { return std::atoi(state().endpoint.substr(state().endpoint.rfind(':') + 1).c_str()); }

S3Config S3TestServer::Config() {
  S3Config c;
  c.endpoint = endpoint();
  c.region = "us-east-1";
  c.credentials = {"floe-test", "floe-test-secret", ""};
  c.part_size = 5 << 20;
  c.retry_base_delay_ms = 10;
  c.retry_max_delay_ms = 200;
  c.connect_timeout_ms = 2000;
  c.request_timeout_ms = 60000;
  return c;
}

void S3TestServer::StopGateway() {
  auto r = RunProcess({"/bin/bash", kScript, "stop-rgw-gateway", state().dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

void S3TestServer::StartGateway() {
  auto r = RunProcess({"/bin/bash", kScript, "start-rgw-gateway", state().dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

std::string S3TestServer::NewBucket(S3Client& client, const std::string& hint) {
  static std::atomic<int> counter{0};
  std::string name = "floe-";
  for (char c : hint) {
    if (name.size() >= 50) break;
    name += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : (std::isalnum(static_cast<unsigned char>(c)) ? c : '-');
  }
  name += StrCat("-", getpid() % 100000, "-", counter++);
  Status st = client.CreateBucket(name);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return name;
}

::testing::Environment* const kServer = ::testing::AddGlobalTestEnvironment(new S3TestServer);

}  // namespace floe::testing
