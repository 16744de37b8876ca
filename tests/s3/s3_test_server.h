// The S3 server every test in this binary runs against, started once per
// run by a global test environment: moto (quick) or Ceph RGW (the real one),
// chosen by FLOE_TEST_S3_SERVER (default moto). See s3_test_server.sh.

#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "floe/io/aws_config.h"
#include "floe/io/s3_client.h"

namespace floe::testing {

class S3TestServer : public ::testing::Environment {
 public:
  void SetUp() override;
  void TearDown() override;

  static const std::string& kind();       // "moto" or "rgw"
  static const std::string& endpoint();   // "http://127.0.0.1:PORT"
  static int port();
  static bool checks_signatures() { return kind() == "rgw"; }
  // A configuration for the test account.
  static S3Config Config();
  // Stops / restarts only the gateway (rgw): the cluster keeps its data.
  static void StopGateway();
  static void StartGateway();
  // A new bucket, unique in this run, named after `hint`.
  static std::string NewBucket(S3Client& client, const std::string& hint);
};

}  // namespace floe::testing
