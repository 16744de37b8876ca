#include "floe/io/s3_xml.h"

#include <charconv>
#include <ctime>

#include "floe/base/strings.h"

namespace floe {
namespace {

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

Result<std::vector<std::string_view>> XmlBlocks(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  const std::string open = StrCat("<", tag);
  const std::string close = StrCat("</", tag, ">");
  size_t pos = 0;
  while (true) {
    size_t start = xml.find(open, pos);
    if (start == std::string_view::npos) return out;
    const size_t after = start + open.size();
    // "<Key>" or "<Key attr=...>", but not "<KeyCount>".
    if (after >= xml.size() || (xml[after] != '>' && xml[after] != ' ' && xml[after] != '/')) {
      pos = after;
      continue;
    }
    const size_t gt = xml.find('>', after);
    if (gt == std::string_view::npos) {
      return Status::Corrupt(StrCat("S3 response: element <", tag, "> is not closed"));
    }
    if (xml[gt - 1] == '/') {  // <Tag/>
      out.push_back(std::string_view());
      pos = gt + 1;
      continue;
    }
    const size_t end = xml.find(close, gt + 1);
    if (end == std::string_view::npos) {
      return Status::Corrupt(StrCat("S3 response: element <", tag, "> has no </", tag, ">"));
    }
    out.push_back(xml.substr(gt + 1, end - gt - 1));
    pos = end + close.size();
  }
}

Result<std::vector<std::string>> XmlElements(std::string_view xml, std::string_view tag) {
  FLOE_ASSIGN_OR_RETURN(auto blocks, XmlBlocks(xml, tag));
  std::vector<std::string> out;
  out.reserve(blocks.size());
  for (auto b : blocks) {
    FLOE_ASSIGN_OR_RETURN(std::string text, XmlUnescape(b));
    out.push_back(std::move(text));
  }
  return out;
}

Result<std::string> XmlFirst(std::string_view xml, std::string_view tag) {
  FLOE_ASSIGN_OR_RETURN(auto all, XmlElements(xml, tag));
  return all.empty() ? std::string() : std::move(all.front());
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

Result<std::string> XmlUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    const size_t semi = text.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) {
      return Status::Corrupt(StrCat("S3 response: malformed XML entity at ", Quote(text.substr(i, 12))));
    }
    const std::string_view name = text.substr(i + 1, semi - i - 1);
    if (name == "amp") {
      out += '&';
    } else if (name == "lt") {
      out += '<';
    } else if (name == "gt") {
      out += '>';
    } else if (name == "quot") {
      out += '"';
    } else if (name == "apos") {
      out += '\'';
    } else if (name.size() >= 2 && name[0] == '#') {
      const bool hex = name[1] == 'x' || name[1] == 'X';
      const std::string_view digits = name.substr(hex ? 2 : 1);
      uint32_t cp = 0;
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (ec != std::errc() || ptr != digits.data() + digits.size() || cp > 0x10FFFF || digits.empty()) {
        return Status::Corrupt(StrCat("S3 response: malformed character reference ", Quote(name)));
      }
      AppendUtf8(out, cp);
    } else {
      return Status::Corrupt(StrCat("S3 response: unknown XML entity ", Quote(name)));
    }
    i = semi;
  }
  return out;
}

S3ErrorBody ParseS3Error(std::string_view xml) {
  S3ErrorBody e;
  e.code = XmlFirst(xml, "Code").value_or("");
  e.message = XmlFirst(xml, "Message").value_or("");
  return e;
}

int64_t ParseIso8601Millis(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.fff]Z
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':') {
    return -1;
  }
  auto num = [&](size_t pos, size_t len, int& out) {
    auto [p, ec] = std::from_chars(text.data() + pos, text.data() + pos + len, out);
    return ec == std::errc() && p == text.data() + pos + len;
  };
  std::tm tm{};
  int year, month, day, hour, minute, second;
  if (!num(0, 4, year) || !num(5, 2, month) || !num(8, 2, day) || !num(11, 2, hour) || !num(14, 2, minute) ||
      !num(17, 2, second)) {
    return -1;
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  int millis = 0;
  if (text.size() > 20 && text[19] == '.') {
    size_t end = 20;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    const std::string_view frac = text.substr(20, std::min<size_t>(3, end - 20));
    for (size_t i = 0; i < 3; ++i) millis = millis * 10 + (i < frac.size() ? frac[i] - '0' : 0);
  }
  return static_cast<int64_t>(timegm(&tm)) * 1000 + millis;
}

Result<S3ListResult> ParseListObjectsV2(std::string_view xml) {
  S3ListResult result;
  if (xml.find("<ListBucketResult") == std::string_view::npos) {
    return Status::Corrupt(StrCat("S3 ListObjectsV2 response is not a ListBucketResult: ",
                                  Quote(xml.substr(0, 120))));
  }
  FLOE_ASSIGN_OR_RETURN(auto contents, XmlBlocks(xml, "Contents"));
  for (auto block : contents) {
    S3ListedObject obj;
    FLOE_ASSIGN_OR_RETURN(obj.key, XmlFirst(block, "Key"));
    FLOE_ASSIGN_OR_RETURN(std::string size, XmlFirst(block, "Size"));
    auto [p, ec] = std::from_chars(size.data(), size.data() + size.size(), obj.size);
    if (ec != std::errc() || p != size.data() + size.size() || obj.size < 0) {
      return Status::Corrupt(StrCat("S3 ListObjectsV2 response: object ", Quote(obj.key), " has size ", Quote(size)));
    }
    FLOE_ASSIGN_OR_RETURN(std::string modified, XmlFirst(block, "LastModified"));
    obj.mtime_ms = std::max<int64_t>(0, ParseIso8601Millis(modified));
    FLOE_ASSIGN_OR_RETURN(obj.etag, XmlFirst(block, "ETag"));
    result.objects.push_back(std::move(obj));
  }
  // Contents also hold <Key>; the truncation flag and token are top-level only.
  FLOE_ASSIGN_OR_RETURN(std::string truncated, XmlFirst(xml, "IsTruncated"));
  result.is_truncated = truncated == "true";
  FLOE_ASSIGN_OR_RETURN(result.next_continuation_token, XmlFirst(xml, "NextContinuationToken"));
  return result;
}

Result<std::vector<S3DeleteFailure>> ParseDeleteResult(std::string_view xml) {
  std::vector<S3DeleteFailure> out;
  FLOE_ASSIGN_OR_RETURN(auto errors, XmlBlocks(xml, "Error"));
  for (auto block : errors) {
    S3DeleteFailure f;
    FLOE_ASSIGN_OR_RETURN(f.key, XmlFirst(block, "Key"));
    FLOE_ASSIGN_OR_RETURN(f.code, XmlFirst(block, "Code"));
    FLOE_ASSIGN_OR_RETURN(f.message, XmlFirst(block, "Message"));
    out.push_back(std::move(f));
  }
  return out;
}

std::string DeleteObjectsBody(const std::vector<std::string>& keys) {
  std::string body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>";
  for (const auto& k : keys) body += "<Object><Key>" + XmlEscape(k) + "</Key></Object>";
  body += "</Delete>";
  return body;
}

std::string CompleteMultipartUploadBody(const std::vector<S3CompletedPart>& parts) {
  std::string body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUpload>";
  for (const auto& p : parts) {
    body += StrCat("<Part><PartNumber>", p.part_number, "</PartNumber><ETag>", XmlEscape(p.etag), "</ETag></Part>");
  }
  body += "</CompleteMultipartUpload>";
  return body;
}

}  // namespace floe
