// `floe io ...`: object storage by hand, through the same FileIO every other
// layer uses, so --trace-io shows exactly what each step costs.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "floe/base/strings.h"
#include "floe/cli/command.h"
#include "floe/cli/output.h"
#include "floe/columnar/builder.h"

namespace floe::cli {
namespace {

constexpr int64_t kCopyChunk = 8 << 20;

std::shared_ptr<const Schema> ListingSchema() {
  static const auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("path", DataType::Utf8(), false),
      Field("size", DataType::Int64(), false),
      Field("modified", DataType::Timestamp(TimeUnit::kMicro, "UTC"), true),
  });
  return schema;
}

Result<RecordBatch> ListingBatch(const std::vector<FileInfo>& files) {
  StringBuilder paths;
  PrimitiveBuilder<int64_t> sizes;
  PrimitiveBuilder<int64_t> times(ListingSchema()->fields[2].type);
  for (const auto& f : files) {
    FLOE_RETURN_IF_ERROR(paths.Append(f.path));
    FLOE_RETURN_IF_ERROR(sizes.Append(f.size));
    if (f.mtime_ms > 0) {
      FLOE_RETURN_IF_ERROR(times.Append(f.mtime_ms * 1000));
    } else {
      FLOE_RETURN_IF_ERROR(times.AppendNulls(1));
    }
  }
  return FinishBatch(ListingSchema(), {&paths, &sizes, &times});
}

Status PrintListing(CommandContext& ctx, const std::vector<FileInfo>& files) {
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, ListingBatch(files));
  return PrintBatches(ctx, ListingSchema(), {batch});
}

Status Ls(CommandContext& ctx, std::string prefix, int max_keys) {
  if (prefix.empty()) prefix = ctx.options().warehouse;
  if (max_keys < 1) return Status::InvalidArgument(StrCat("--max ", max_keys, " must be at least 1"));
  FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(prefix));
  std::vector<FileInfo> files;
  ListOptions options{.start_after = "", .max_keys = max_keys};
  // Page through; a trailing prefix without '/' is a plain string prefix, as on S3.
  while (true) {
    FLOE_ASSIGN_OR_RETURN(ListPage page, io->List(prefix, options));
    for (auto& f : page.objects) files.push_back(std::move(f));
    if (page.next_start_after.empty()) break;
    options.start_after = std::move(page.next_start_after);
  }
  return PrintListing(ctx, files);
}

Status Stat(CommandContext& ctx, const std::string& path) {
  FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(path));
  FLOE_ASSIGN_OR_RETURN(FileInfo info, io->Stat(path));
  return PrintListing(ctx, {info});
}

Status Cat(CommandContext& ctx, const std::string& path, int64_t offset, int64_t length) {
  FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(path));
  FLOE_ASSIGN_OR_RETURN(auto file, io->OpenRead(path));
  if (offset < 0 || offset > file->size()) {
    return Status::InvalidArgument(StrCat("--offset ", offset, " is outside ", Quote(path), " (", file->size(), " bytes)"));
  }
  const int64_t end = length < 0 ? file->size() : offset + length;
  if (end > file->size()) {
    return Status::InvalidArgument(StrCat("--offset ", offset, " --length ", length, " runs past the end of ",
                                          Quote(path), " (", file->size(), " bytes)"));
  }
  for (int64_t pos = offset; pos < end; pos += kCopyChunk) {
    FLOE_ASSIGN_OR_RETURN(Buffer chunk, file->Read(pos, std::min(kCopyChunk, end - pos)));
    ctx.out().write(reinterpret_cast<const char*>(chunk.data()), chunk.size());
  }
  return ctx.out().good() ? Status::OK() : Status::IOError("writing to standard output failed");
}

Status Put(CommandContext& ctx, const std::string& path, const std::string& from, WriteOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(path));
  FLOE_ASSIGN_OR_RETURN(auto out, io->OpenWrite(path, options));
  if (from.empty() || from == "-") {
    std::vector<char> buf(1 << 20);
    while (std::cin.read(buf.data(), static_cast<std::streamsize>(buf.size())) || std::cin.gcount() > 0) {
      FLOE_RETURN_IF_ERROR(out->Append(std::string_view(buf.data(), static_cast<size_t>(std::cin.gcount()))));
    }
    if (std::cin.bad()) return Status::IOError("reading standard input failed");
  } else {
    FLOE_ASSIGN_OR_RETURN(auto src_io, ctx.FileIOFor(from));
    FLOE_ASSIGN_OR_RETURN(auto src, src_io->OpenRead(from));
    for (int64_t pos = 0; pos < src->size(); pos += kCopyChunk) {
      FLOE_ASSIGN_OR_RETURN(Buffer chunk, src->Read(pos, std::min(kCopyChunk, src->size() - pos)));
      FLOE_RETURN_IF_ERROR(out->Append(chunk.span()));
    }
  }
  return out->Close();
}

Status Rm(CommandContext& ctx, const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    FLOE_ASSIGN_OR_RETURN(auto io, ctx.FileIOFor(p));
    FLOE_RETURN_IF_ERROR(io->Delete(p));
  }
  return Status::OK();
}

}  // namespace

void AddIoCommands(CLI::App& app, CommandSet& commands) {
  CLI::App* io = commands.AddGroup(app, "io", "Object storage by hand: ls, stat, cat, put, cp, rm");

  auto* prefix = &commands.Keep<std::string>();
  auto* max_keys = &commands.Keep<int>(1000);
  CLI::App* ls = commands.Add(*io, "ls", "List objects under a prefix (default: the warehouse)",
                              [prefix, max_keys](CommandContext& ctx) { return Ls(ctx, *prefix, *max_keys); });
  ls->add_option("prefix", *prefix, "Location prefix");
  ls->add_option("--max", *max_keys, "Keys per LIST request")->capture_default_str();

  auto* stat_path = &commands.Keep<std::string>();
  CLI::App* stat = commands.Add(*io, "stat", "Size and modification time of one object",
                                [stat_path](CommandContext& ctx) { return Stat(ctx, *stat_path); });
  stat->add_option("path", *stat_path, "Object location")->required();

  auto* cat_path = &commands.Keep<std::string>();
  auto* offset = &commands.Keep<int64_t>(0);
  auto* length = &commands.Keep<int64_t>(-1);
  CLI::App* cat = commands.Add(*io, "cat", "Write an object (or a byte range of it) to standard output",
                               [=](CommandContext& ctx) { return Cat(ctx, *cat_path, *offset, *length); });
  cat->add_option("path", *cat_path, "Object location")->required();
  cat->add_option("--offset", *offset, "First byte");
  cat->add_option("--length", *length, "Number of bytes (default: to the end)");

  auto* put_path = &commands.Keep<std::string>();
  auto* put_from = &commands.Keep<std::string>();
  auto* put_options = &commands.Keep<WriteOptions>();
  CLI::App* put = commands.Add(*io, "put", "Write an object from standard input or another object",
                               [=](CommandContext& ctx) { return Put(ctx, *put_path, *put_from, *put_options); });
  put->add_option("path", *put_path, "Object location")->required();
  put->add_option("--from", *put_from, "Source location (default: standard input)");
  put->add_flag("--if-absent", put_options->if_absent, "Fail with AlreadyExists if the object exists (atomic)");
  put->add_flag("--durable", put_options->durable, "Make the object survive a crash before returning");

  auto* cp_src = &commands.Keep<std::string>();
  auto* cp_dst = &commands.Keep<std::string>();
  auto* cp_if_absent = &commands.Keep<bool>(false);
  CLI::App* cp = commands.Add(*io, "cp", "Copy an object, across storage schemes too", [=](CommandContext& ctx) {
    return Put(ctx, *cp_dst, *cp_src, WriteOptions{.if_absent = *cp_if_absent, .durable = false});
  });
  cp->add_option("source", *cp_src, "Source location")->required();
  cp->add_option("destination", *cp_dst, "Destination location")->required();
  cp->add_flag("--if-absent", *cp_if_absent, "Fail with AlreadyExists if the destination exists");

  auto* rm_paths = &commands.Keep<std::vector<std::string>>();
  CLI::App* rm = commands.Add(*io, "rm", "Delete objects (missing ones are not an error)",
                              [rm_paths](CommandContext& ctx) { return Rm(ctx, *rm_paths); });
  rm->add_option("paths", *rm_paths, "Object locations")->required();
}

}  // namespace floe::cli
