#include "floe/io/aws_config.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "floe/base/strings.h"

namespace floe {
namespace {

using Profiles = std::map<std::string, std::map<std::string, std::string>>;

// The profile file at `path`, or no sections when it does not exist.
Result<Profiles> LoadProfileFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT || errno == ENOTDIR) return Profiles{};
    return Status::IOError(StrCat("AWS profile file ", Quote(path), ": ", std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseAwsProfileFile(text.str(), path);
}

Result<int64_t> ParsePositive(const std::string& name, const std::string& value, int64_t min) {
  int64_t v = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, v);
  if (ec != std::errc() || ptr != end || v < min) {
    return Status::InvalidArgument(StrCat("property ", Quote(name), " is ", Quote(value), ": expected an integer >= ", min));
  }
  return v;
}

}  // namespace

std::optional<std::string> ProcessEnv(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

Result<Profiles> ParseAwsProfileFile(std::string_view text, std::string_view file_name) {
  Profiles out;
  std::string section;
  bool have_section = false;
  int line_no = 0;
  for (std::string_view line : Split(text, '\n')) {
    ++line_no;
    line = Trim(line);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']') {
        return Status::Corrupt(StrCat("AWS profile file ", Quote(file_name), " line ", line_no, ": unclosed section ",
                                      Quote(line)));
      }
      std::string_view name = Trim(line.substr(1, line.size() - 2));
      if (StartsWith(name, "profile ")) name = Trim(name.substr(8));
      section = std::string(name);
      have_section = true;
      out[section];
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      // A nested setting's continuation ("  addressing_style = path" under
      // "s3 =") has an '='; anything else is malformed.
      return Status::Corrupt(StrCat("AWS profile file ", Quote(file_name), " line ", line_no, ": expected key = value, got ",
                                    Quote(line)));
    }
    if (!have_section) continue;  // settings before any section belong to none
    std::string key(Trim(line.substr(0, eq)));
    std::string value(Trim(line.substr(eq + 1)));
    out[section][key] = value;
  }
  return out;
}

Result<S3Config> ResolveS3Config(const std::map<std::string, std::string>& properties, const EnvLookup& env) {
  S3Config config;
  auto prop = [&](const char* name) -> std::optional<std::string> {
    auto it = properties.find(name);
    if (it == properties.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
  auto envv = [&](const char* name) -> std::optional<std::string> {
    auto v = env(name);
    if (!v || v->empty()) return std::nullopt;
    return v;
  };

  config.profile = envv("AWS_PROFILE").value_or("default");
  std::string home = envv("HOME").value_or("");
  const std::string credentials_file =
      envv("AWS_SHARED_CREDENTIALS_FILE").value_or(home.empty() ? "" : home + "/.aws/credentials");
  const std::string config_file = envv("AWS_CONFIG_FILE").value_or(home.empty() ? "" : home + "/.aws/config");
  Profiles credentials_profiles, config_profiles;
  if (!credentials_file.empty()) {
    FLOE_ASSIGN_OR_RETURN(credentials_profiles, LoadProfileFile(credentials_file));
  }
  if (!config_file.empty()) {
    FLOE_ASSIGN_OR_RETURN(config_profiles, LoadProfileFile(config_file));
  }
  auto from_profile = [&](const Profiles& p, const char* key) -> std::optional<std::string> {
    auto s = p.find(config.profile);
    if (s == p.end()) return std::nullopt;
    auto k = s->second.find(key);
    if (k == s->second.end() || k->second.empty()) return std::nullopt;
    return k->second;
  };

  // Endpoint and region.
  if (auto v = prop("s3.endpoint")) {
    config.endpoint = *v;
  } else if (auto v = envv("AWS_ENDPOINT_URL_S3")) {
    config.endpoint = *v;
  } else if (auto v = envv("AWS_ENDPOINT_URL")) {
    config.endpoint = *v;
  } else if (auto v = from_profile(config_profiles, "endpoint_url")) {
    config.endpoint = *v;
  }
  while (!config.endpoint.empty() && config.endpoint.back() == '/') config.endpoint.pop_back();
  if (!config.endpoint.empty() && !StartsWith(config.endpoint, "http://") && !StartsWith(config.endpoint, "https://")) {
    return Status::InvalidArgument(
        StrCat("S3 endpoint ", Quote(config.endpoint), " must start with http:// or https://"));
  }
  if (auto v = prop("client.region")) {
    config.region = *v;
  } else if (auto v = prop("s3.region")) {
    config.region = *v;
  } else if (auto v = envv("AWS_REGION")) {
    config.region = *v;
  } else if (auto v = envv("AWS_DEFAULT_REGION")) {
    config.region = *v;
  } else if (auto v = from_profile(config_profiles, "region")) {
    config.region = *v;
  }

  // Credentials: one complete set from the first source that has any.
  auto take = [&](std::optional<std::string> id, std::optional<std::string> secret, std::optional<std::string> token,
                  std::string_view source) -> Result<bool> {
    if (!id && !secret) return false;
    if (!id || !secret) {
      return Status::InvalidArgument(StrCat(source, " sets ", id ? "an access key id without its secret access key"
                                                                 : "a secret access key without its access key id"));
    }
    config.credentials = AwsCredentials{*id, *secret, token.value_or("")};
    return true;
  };
  FLOE_ASSIGN_OR_RETURN(bool have, take(prop("s3.access-key-id"), prop("s3.secret-access-key"),
                                        prop("s3.session-token"), "the properties"));
  if (!have) {
    FLOE_ASSIGN_OR_RETURN(have, take(envv("AWS_ACCESS_KEY_ID"), envv("AWS_SECRET_ACCESS_KEY"),
                                     envv("AWS_SESSION_TOKEN"), "the environment"));
  }
  if (!have) {
    FLOE_ASSIGN_OR_RETURN(have, take(from_profile(credentials_profiles, "aws_access_key_id"),
                                     from_profile(credentials_profiles, "aws_secret_access_key"),
                                     from_profile(credentials_profiles, "aws_session_token"),
                                     StrCat("profile ", Quote(config.profile), " in ", Quote(credentials_file))));
  }
  if (!have) {
    FLOE_ASSIGN_OR_RETURN(have, take(from_profile(config_profiles, "aws_access_key_id"),
                                     from_profile(config_profiles, "aws_secret_access_key"),
                                     from_profile(config_profiles, "aws_session_token"),
                                     StrCat("profile ", Quote(config.profile), " in ", Quote(config_file))));
  }

  if (auto v = prop("s3.path-style-access")) {
    if (*v == "true") {
      config.path_style = true;
    } else if (*v == "false") {
      config.path_style = false;
    } else {
      return Status::InvalidArgument(StrCat("property 's3.path-style-access' is ", Quote(*v), ": expected true or false"));
    }
  }

  struct Numeric {
    const char* name;
    int64_t* target;
    int64_t min;
  };
  int64_t max_attempts = config.max_attempts, parts = config.max_parallel_parts, reads = config.max_parallel_reads;
  const Numeric numerics[] = {
      {"s3.connect-timeout-ms", &config.connect_timeout_ms, 1},
      {"s3.request-timeout-ms", &config.request_timeout_ms, 1},
      {"s3.max-attempts", &max_attempts, 1},
      {"s3.multipart.part-size-bytes", &config.part_size, 5 << 20},
      {"s3.multipart.num-threads", &parts, 1},
      {"s3.max-parallel-reads", &reads, 1},
  };
  for (const auto& n : numerics) {
    if (auto v = prop(n.name)) {
      FLOE_ASSIGN_OR_RETURN(*n.target, ParsePositive(n.name, *v, n.min));
    }
  }
  config.max_attempts = static_cast<int>(std::min<int64_t>(max_attempts, 100));
  config.max_parallel_parts = static_cast<int>(std::min<int64_t>(parts, 64));
  config.max_parallel_reads = static_cast<int>(std::min<int64_t>(reads, 64));
  return config;
}

}  // namespace floe
