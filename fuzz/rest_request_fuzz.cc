// Fuzzes what `floe serve` does with a request body, which comes from the
// network: every REST message parser (catalog/rest/) reads the input, and a
// request that parses goes on as the server takes it:
// - a create-table request builds its table's first metadata
//   (NewTableMetadata), a create-view request its view's;
// - a commit's requirements and updates are applied to a base table (a v2
//   table with snapshots, refs, two schemas and specs) or to no table (a
//   create transaction); a view commit's to a base view.
// Metadata a commit or create accepts must serialize, and read back equal:
// otherwise the server would write a metadata file it cannot load. A message
// that parses must write and parse again to the same JSON. The input is also
// read as a form body and a namespace path segment (a request's other text)
// and as the server's config file (an operator's).
// Errors must be of the kinds a bad request gets: InvalidArgument, NotFound,
// AlreadyExists, CommitConflict or Unsupported. Not Corrupt, which the
// server answers with a 500 (a 503 that invites a retry on a commit); not
// anything else; and no crash, UB or leak.

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/rest_path.h"
#include "floe/catalog/rest/view_messages.h"
#include "floe/iceberg/new_table_metadata.h"
#include "floe/iceberg/table_metadata_json.h"
#include "floe/iceberg/table_update.h"
#include "floe/iceberg/view_metadata_json.h"
#include "floe/iceberg/view_update.h"
#include "floe/server/server_config.h"
#include "rest_request_bases.h"

namespace {

namespace rest = floe::catalog::rest;
namespace iceberg = floe::iceberg;
using floe::Status;

// The kinds a request may be refused with; any other is a bug.
void CheckRefusal(const Status& s) {
  if (s.ok() || s.IsInvalidArgument() || s.IsNotFound() || s.IsAlreadyExists() || s.IsCommitConflict() ||
      s.IsUnsupported()) {
    return;
  }
  std::abort();
}

const iceberg::TableMetadata& BaseTable() {
  static const iceberg::TableMetadata* base = [] {
    auto m = iceberg::TableMetadataFromJson(floe::fuzz::kBaseTable, "base");
    if (!m.ok()) std::abort();  // the fuzz target's own fixture must read
    return new iceberg::TableMetadata(std::move(*m));
  }();
  return *base;
}

const iceberg::ViewMetadata& BaseView() {
  static const iceberg::ViewMetadata* base = [] {
    auto m = iceberg::ViewMetadataFromJson(floe::fuzz::kBaseView, "base");
    if (!m.ok()) std::abort();
    return new iceberg::ViewMetadata(std::move(*m));
  }();
  return *base;
}

// Metadata the server accepted must write and read back equal.
template <typename Metadata, typename Write, typename Read>
void CheckAccepted(const floe::Result<Metadata>& metadata, Write write, Read read) {
  if (!metadata.ok()) {
    CheckRefusal(metadata.status());
    return;
  }
  auto json = write(*metadata);
  if (!json.ok()) std::abort();
  auto again = read(*json);
  if (!again.ok() || !(*again == *metadata)) std::abort();
}

void CheckTable(const floe::Result<iceberg::TableMetadata>& metadata) {
  CheckAccepted(
      metadata, [](const auto& m) { return iceberg::TableMetadataToJson(m); },
      [](const std::string& json) { return iceberg::TableMetadataFromJson(json, "rewritten"); });
}

void CheckView(const floe::Result<iceberg::ViewMetadata>& metadata) {
  CheckAccepted(
      metadata, [](const auto& m) { return iceberg::ViewMetadataToJson(m); },
      [](const std::string& json) { return iceberg::ViewMetadataFromJson(json, "rewritten"); });
}

// Parses `input` with `parse`. A refusal must have a bad request's kind; a
// message must write, and parse again to the same JSON. Returns the message.
template <typename Parse>
auto ParseRequest(std::string_view input, Parse parse) -> std::optional<std::remove_cvref_t<decltype(*parse(input))>> {
  auto message = parse(input);
  if (!message.ok()) {
    CheckRefusal(message.status());
    return std::nullopt;
  }
  const std::string first = rest::ToJson(*message);
  auto again = parse(first);
  if (!again.ok() || rest::ToJson(*again) != first) std::abort();
  return std::move(*message);
}

void FuzzTableMessages(std::string_view input) {
  if (auto m = ParseRequest(input, rest::ParseCreateTableRequest)) {
    CheckTable(iceberg::NewTableMetadata(m->table.Definition(m->table.location.value_or("s3://bucket/t"))));
  }
  if (auto m = ParseRequest(input, rest::ParseCommitTableRequest)) {
    CheckTable(iceberg::ApplyTableChanges(&BaseTable(), m->requirements, m->updates));
    CheckTable(iceberg::ApplyTableChanges(nullptr, m->requirements, m->updates));
  }
  if (auto m = ParseRequest(input, rest::ParseCommitTransactionRequest)) {
    for (const rest::CommitTableRequest& change : m->table_changes) {
      CheckTable(iceberg::ApplyTableChanges(&BaseTable(), change.requirements, change.updates));
    }
  }
}

void FuzzViewMessages(std::string_view input) {
  if (auto m = ParseRequest(input, rest::ParseCreateViewRequest)) {
    const std::string location = m->view.location.value_or("s3://bucket/v");
    CheckView(iceberg::ApplyViewChanges(
        nullptr, {}, m->view.NewViewUpdates("0f8f5a8e-1b4f-4b43-9d2e-6cbbd2a0b7a1", location, 1700000000000)));
  }
  if (auto m = ParseRequest(input, rest::ParseCommitViewRequest)) {
    CheckView(iceberg::ApplyViewChanges(&BaseView(), m->requirements, m->updates));
  }
}

void FuzzSmallMessages(std::string_view input) {
  ParseRequest(input, rest::ParseNamespaceMessage);
  ParseRequest(input, rest::ParseUpdateNamespacePropertiesRequest);
  ParseRequest(input, rest::ParseRenameTableRequest);
  ParseRequest(input, rest::ParseRegisterTableRequest);
  if (auto m = rest::ParseReportMetricsRequest(input); !m.ok()) CheckRefusal(m.status());
  ParseRequest(input, rest::ParseTableIdentifier);
}

// The request's other untrusted text: a form body (OAuth token requests), a
// path segment naming a namespace, and the server's config file.
void FuzzText(std::string_view input) {
  if (auto form = rest::ParseForm(input); form.ok()) {
    auto again = rest::ParseForm(rest::FormEncode(*form));
    if (!again.ok() || *again != *form) std::abort();
  } else {
    CheckRefusal(form.status());
  }
  if (auto ns = rest::DecodeNamespace(input); ns.ok()) {
    auto again = rest::DecodeNamespace(rest::EncodeNamespace(*ns));
    if (!again.ok() || again->levels != ns->levels) std::abort();
  } else {
    CheckRefusal(ns.status());
  }
  floe::server::RestServerOptions options;
  if (auto settings = floe::server::ApplyServerConfig(input, &options); !settings.ok()) {
    CheckRefusal(settings.status());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  FuzzTableMessages(input);
  FuzzViewMessages(input);
  FuzzSmallMessages(input);
  FuzzText(input);
  return 0;
}
