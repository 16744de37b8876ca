#include "floe/catalog/catalog.h"

#include <algorithm>

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

iceberg::TableDefinition CreateTableRequest::Definition(std::string table_location) const {
  return iceberg::TableDefinition{schema,     partition_spec, sort_order, std::move(table_location),
                                  properties, format_version};
}

std::vector<iceberg::ViewUpdate> CreateViewRequest::NewViewUpdates(std::string uuid, std::string view_location,
                                                                   int64_t now_ms) const {
  iceberg::ViewVersion version = view_version;
  version.schema_id = iceberg::kLastAdded;
  if (version.timestamp_ms == 0) version.timestamp_ms = now_ms;
  return {iceberg::AssignUuid{std::move(uuid)},
          iceberg::SetLocation{std::move(view_location)},
          iceberg::AddSchema{schema},
          iceberg::SetProperties{properties},
          iceberg::AddViewVersion{std::move(version)},
          iceberg::SetCurrentViewVersion{iceberg::kLastAdded}};
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

std::string ViewNotFoundMessage(const TableIdentifier& ident) {
  return StrCat("view ", ident.ToString(), " does not exist");
}

namespace {

template <typename T, typename NameOf>
Page<T> Cut(std::vector<T> sorted, const PageRequest& page, NameOf name_of) {
  Page<T> out;
  auto begin = sorted.begin();
  if (!page.page_token.empty()) {
    begin = std::find_if(sorted.begin(), sorted.end(),
                         [&](const T& item) { return name_of(item) > page.page_token; });
  }
  auto end = sorted.end();
  if (page.page_size > 0 && static_cast<size_t>(end - begin) > page.page_size) {
    end = begin + static_cast<std::ptrdiff_t>(page.page_size);
    out.next_page_token = name_of(*(end - 1));
  }
  out.items.assign(std::make_move_iterator(begin), std::make_move_iterator(end));
  return out;
}

}  // namespace

Page<Namespace> PageOf(std::vector<Namespace> sorted, const PageRequest& page) {
  return Cut(std::move(sorted), page, [](const Namespace& ns) -> std::string {
    return ns.levels.empty() ? std::string() : ns.levels.back();
  });
}

Page<TableIdentifier> PageOf(std::vector<TableIdentifier> sorted, const PageRequest& page) {
  return Cut(std::move(sorted), page, [](const TableIdentifier& ident) { return ident.name; });
}

Result<Page<Namespace>> Catalog::ListNamespaces(const Namespace& parent, const PageRequest& page) {
  FLOE_ASSIGN_OR_RETURN(std::vector<Namespace> all, ListNamespaces(parent));
  return PageOf(std::move(all), page);
}

Result<Page<TableIdentifier>> Catalog::ListTables(const Namespace& ns, const PageRequest& page) {
  FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> all, ListTables(ns));
  return PageOf(std::move(all), page);
}

Status Catalog::ViewsUnsupported() const {
  return Status::Unsupported(StrCat("catalog ", name(), " does not support views"));
}

Result<std::vector<TableIdentifier>> Catalog::ListViews(const Namespace&) { return ViewsUnsupported(); }

Result<Page<TableIdentifier>> Catalog::ListViews(const Namespace& ns, const PageRequest& page) {
  FLOE_ASSIGN_OR_RETURN(std::vector<TableIdentifier> all, ListViews(ns));
  return PageOf(std::move(all), page);
}

Result<iceberg::ViewState> Catalog::CreateView(const TableIdentifier&, const CreateViewRequest&) {
  return ViewsUnsupported();
}
Result<iceberg::ViewState> Catalog::LoadView(const TableIdentifier&) { return ViewsUnsupported(); }
Result<bool> Catalog::ViewExists(const TableIdentifier&) { return ViewsUnsupported(); }
Status Catalog::DropView(const TableIdentifier&) { return ViewsUnsupported(); }
Status Catalog::RenameView(const TableIdentifier&, const TableIdentifier&) { return ViewsUnsupported(); }
Result<iceberg::ViewState> Catalog::ReplaceView(const TableIdentifier&, const std::vector<iceberg::ViewRequirement>&,
                                                const std::vector<iceberg::ViewUpdate>&) {
  return ViewsUnsupported();
}

Result<std::vector<iceberg::TableState>> Catalog::CommitTransaction(const std::vector<TableCommit>& commits) {
  (void)commits;
  return Status::Unsupported(StrCat("catalog ", name(), " cannot commit several tables atomically"));
}

}  // namespace floe::catalog
