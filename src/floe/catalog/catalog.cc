#include "floe/catalog/catalog.h"

#include "floe/base/strings.h"

namespace floe::catalog {
namespace {

Status ValidateLevel(std::string_view level, std::string_view what, std::string_view whole) {
  if (level.empty()) return Status::InvalidArgument(StrCat(what, " ", Quote(whole), " has an empty level"));
  if (level.find('.') != std::string_view::npos) {
    return Status::InvalidArgument(StrCat(what, " ", Quote(whole), ": level ", Quote(level), " contains '.'"));
  }
  return Status::OK();
}

}  // namespace

Result<Namespace> Namespace::Parse(std::string_view dotted) {
  Namespace ns;
  if (dotted.empty()) return ns;
  for (std::string_view level : Split(dotted, '.')) {
    FLOE_RETURN_IF_ERROR(ValidateLevel(level, "namespace", dotted));
    ns.levels.emplace_back(level);
  }
  return ns;
}

std::string Namespace::ToString() const {
  std::string out;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) out += '.';
    out += levels[i];
  }
  return out;
}

Status Namespace::Validate() const {
  for (const std::string& level : levels) FLOE_RETURN_IF_ERROR(ValidateLevel(level, "namespace", ToString()));
  return Status::OK();
}

Result<TableIdentifier> TableIdentifier::Parse(std::string_view dotted) {
  if (dotted.empty()) return Status::InvalidArgument("table identifier is empty");
  TableIdentifier ident;
  const size_t dot = dotted.rfind('.');
  ident.name = std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
  if (ident.name.empty())
    return Status::InvalidArgument(StrCat("table identifier ", Quote(dotted), " has an empty name"));
  if (dot != std::string_view::npos) {
    auto ns = Namespace::Parse(dotted.substr(0, dot));
    if (!ns.ok() || ns->empty()) {
      return Status::InvalidArgument(StrCat("table identifier ", Quote(dotted), " has an empty level"));
    }
    ident.ns = std::move(*ns);
  }
  return ident;
}

std::string TableIdentifier::ToString() const { return ns.empty() ? name : ns.ToString() + "." + name; }

Status TableIdentifier::Validate() const {
  FLOE_RETURN_IF_ERROR(ns.Validate());
  if (ns.empty()) return Status::InvalidArgument(StrCat("table identifier ", Quote(ToString()), " has no namespace"));
  return ValidateLevel(name, "table identifier", ToString());
}

std::string NamespaceNotFoundMessage(const Namespace& ns) {
  return StrCat("namespace ", ns.ToString(), " does not exist");
}

std::string TableNotFoundMessage(const TableIdentifier& ident) {
  return StrCat("table ", ident.ToString(), " does not exist");
}

Result<std::vector<iceberg::TableState>> Catalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  (void)commits;
  return Status::Unsupported(StrCat("catalog ", name(), " cannot commit several tables atomically"));
}

}  // namespace floe::catalog
