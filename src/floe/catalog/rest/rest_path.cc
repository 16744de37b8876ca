#include "floe/catalog/rest/rest_path.h"

#include "floe/base/hex.h"
#include "floe/base/strings.h"

namespace floe::catalog::rest {

namespace {

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

}  // namespace

std::string UrlEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

Result<std::string> UrlDecode(std::string_view text, bool plus_as_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) {
        return Status::InvalidArgument(StrCat("URL text ", Quote(text), ": truncated escape at offset ", i));
      }
      const int h = HexDigitValue(text[i + 1]);
      const int l = HexDigitValue(text[i + 2]);
      if (h < 0 || l < 0) {
        return Status::InvalidArgument(StrCat("URL text ", Quote(text), ": bad escape at offset ", i));
      }
      out.push_back(static_cast<char>(h * 16 + l));
      i += 2;
    } else if (c == '+' && plus_as_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string EncodeNamespace(const Namespace& ns) {
  std::string joined;
  for (size_t i = 0; i < ns.levels.size(); ++i) {
    if (i > 0) joined.push_back(kNamespaceSeparator);
    joined += ns.levels[i];
  }
  return UrlEncode(joined);
}

Result<Namespace> SplitNamespace(std::string_view decoded) {
  if (decoded.empty()) return Status::InvalidArgument("namespace in path is empty");
  Namespace ns;
  for (std::string_view level : Split(decoded, kNamespaceSeparator)) ns.levels.emplace_back(level);
  Status valid = ns.Validate();
  if (!valid.ok()) return valid;
  return ns;
}

Result<Namespace> DecodeNamespace(std::string_view encoded) {
  FLOE_ASSIGN_OR_RETURN(std::string decoded, UrlDecode(encoded));
  return SplitNamespace(decoded);
}

Result<std::map<std::string, std::string>> ParseForm(std::string_view body) {
  std::map<std::string, std::string> out;
  if (body.empty()) return out;
  for (std::string_view pair : Split(body, '&')) {
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    FLOE_ASSIGN_OR_RETURN(std::string key, UrlDecode(pair.substr(0, eq), true));
    std::string value;
    if (eq != std::string_view::npos) {
      FLOE_ASSIGN_OR_RETURN(value, UrlDecode(pair.substr(eq + 1), true));
    }
    if (!out.emplace(key, std::move(value)).second) {
      return Status::InvalidArgument(StrCat("form field ", Quote(key), " is given twice"));
    }
  }
  return out;
}

std::string FormEncode(const std::map<std::string, std::string>& fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out.push_back('&');
    out += UrlEncode(k);
    out.push_back('=');
    out += UrlEncode(v);
  }
  return out;
}

}  // namespace floe::catalog::rest
