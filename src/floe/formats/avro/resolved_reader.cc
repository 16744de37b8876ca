#include "floe/formats/avro/resolved_reader.h"

#include <map>
#include <utility>

#include "floe/base/strings.h"
#include "floe/formats/avro/datum_internal.h"

namespace floe::avro {

struct ResolvedReader::Step {
  enum class Op : uint8_t { kDirect, kPromote, kRecord, kArray, kMap, kWriterUnion, kReaderUnion, kEnum };
  struct WriterField {
    int reader_index = -1;  // -1: skip
    const Step* step = nullptr;
    const Node* writer_type = nullptr;
  };
  Op op = Op::kDirect;
  const Node* writer = nullptr;
  const Node* reader = nullptr;
  std::string path;
  // kRecord
  size_t reader_field_count = 0;
  std::vector<WriterField> fields;
  std::vector<std::pair<size_t, Datum>> defaults;
  // kArray, kMap, kReaderUnion
  const Step* inner = nullptr;
  int reader_branch = -1;
  // kWriterUnion: one step per writer branch, null when the reader has no place for it
  std::vector<const Step*> branches;
  // kEnum: writer symbol index to reader symbol index, -1 when unknown
  std::vector<int> symbol_map;
};

using Step = ResolvedReader::Step;

namespace {

bool Promotes(Type from, Type to) {
  switch (from) {
    case Type::kInt: return to == Type::kLong || to == Type::kFloat || to == Type::kDouble;
    case Type::kLong: return to == Type::kFloat || to == Type::kDouble;
    case Type::kFloat: return to == Type::kDouble;
    case Type::kString: return to == Type::kBytes;
    case Type::kBytes: return to == Type::kString;
    default: return false;
  }
}

// Whether a writer (non-union) type can go into reader branch `r` at all.
bool Matches(const Node& w, const Node& r, bool allow_promotion) {
  if (w.type() == r.type()) return w.type() != Type::kFixed || w.fixed_size() == r.fixed_size();
  return allow_promotion && Promotes(w.type(), r.type());
}

class Planner {
 public:
  explicit Planner(std::vector<std::unique_ptr<Step>>* steps) : steps_(steps) {}

  Result<const Step*> Plan(const Node& w, const Node& r, const std::string& path) {
    auto key = std::make_pair(&w, &r);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    steps_->push_back(std::make_unique<Step>());
    Step* s = steps_->back().get();
    s->writer = &w;
    s->reader = &r;
    s->path = path;
    memo_[key] = s;  // before recursing, so recursive records terminate
    FLOE_RETURN_IF_ERROR(Fill(s, w, r, path));
    return s;
  }

 private:
  Status Mismatch(const Node& w, const Node& r, const std::string& path) {
    return Status::Corrupt(StrCat(path, ": file type ", TypeName(w.type()), " cannot be read as ", TypeName(r.type())));
  }

  Status Fill(Step* s, const Node& w, const Node& r, const std::string& path) {
    if (w.type() == Type::kUnion) {
      s->op = Step::Op::kWriterUnion;
      for (const Node* wb : w.branches()) {
        Result<const Step*> b = Plan(*wb, r, path);
        // A branch the reader cannot hold fails only when a value takes it.
        s->branches.push_back(b.ok() ? *b : nullptr);
      }
      return Status::OK();
    }
    if (r.type() == Type::kUnion) {
      // First a branch of the same type and name, then of the same type,
      // then one the writer's type promotes to.
      for (int pass = 0; pass < 3; ++pass) {
        for (size_t i = 0; i < r.branches().size(); ++i) {
          const Node& rb = *r.branches()[i];
          if (!Matches(w, rb, pass == 2)) continue;
          if (pass == 0 && w.is_named() && w.full_name() != rb.full_name()) continue;
          s->op = Step::Op::kReaderUnion;
          s->reader_branch = static_cast<int>(i);
          FLOE_ASSIGN_OR_RETURN(s->inner, Plan(w, *r.branches()[i], path));
          return Status::OK();
        }
      }
      return Status::Corrupt(StrCat(path, ": file type ", TypeName(w.type()), " matches no branch of the reader's union"));
    }
    if (w.type() != r.type()) {
      if (!Promotes(w.type(), r.type())) return Mismatch(w, r, path);
      s->op = Step::Op::kPromote;
      return Status::OK();
    }
    switch (w.type()) {
      case Type::kFixed:
        if (w.fixed_size() != r.fixed_size()) {
          return Status::Corrupt(StrCat(path, ": file has fixed(", w.fixed_size(), "), reader fixed(", r.fixed_size(), ")"));
        }
        s->op = Step::Op::kDirect;
        return Status::OK();
      case Type::kEnum:
        s->op = Step::Op::kEnum;
        for (const std::string& sym : w.symbols()) {
          int idx = -1;
          for (size_t i = 0; i < r.symbols().size(); ++i) {
            if (r.symbols()[i] == sym) idx = static_cast<int>(i);
          }
          if (idx < 0 && r.enum_default()) {
            for (size_t i = 0; i < r.symbols().size(); ++i) {
              if (r.symbols()[i] == *r.enum_default()) idx = static_cast<int>(i);
            }
          }
          s->symbol_map.push_back(idx);
        }
        return Status::OK();
      case Type::kArray:
      case Type::kMap:
        s->op = w.type() == Type::kArray ? Step::Op::kArray : Step::Op::kMap;
        {
          FLOE_ASSIGN_OR_RETURN(s->inner, Plan(*w.items(), *r.items(), path + "[]"));
        }
        return Status::OK();
      case Type::kRecord: return FillRecord(s, w, r, path);
      default:
        s->op = Step::Op::kDirect;
        return Status::OK();
    }
  }

  static int FindWriterField(const Node& w, const Field& rf) {
    if (const std::optional<int32_t> id = rf.field_id()) {
      for (size_t i = 0; i < w.fields().size(); ++i) {
        if (w.fields()[i].field_id() == id) return static_cast<int>(i);
      }
    }
    if (int i = w.FieldIndex(rf.name); i >= 0) {
      // Matching by name must not pair fields whose ids say they differ.
      const std::optional<int32_t> wid = w.fields()[static_cast<size_t>(i)].field_id();
      if (!rf.field_id() || !wid) return i;
    }
    for (const std::string& alias : rf.aliases) {
      if (int i = w.FieldIndex(alias); i >= 0) return i;
    }
    return -1;
  }

  Status FillRecord(Step* s, const Node& w, const Node& r, const std::string& path) {
    s->op = Step::Op::kRecord;
    s->reader_field_count = r.fields().size();
    s->fields.resize(w.fields().size());
    for (size_t i = 0; i < w.fields().size(); ++i) s->fields[i].writer_type = w.fields()[i].type;
    for (size_t ri = 0; ri < r.fields().size(); ++ri) {
      const Field& rf = r.fields()[ri];
      const std::string fpath = path.empty() ? rf.name : StrCat(path, ".", rf.name);
      const int wi = FindWriterField(w, rf);
      if (wi >= 0 && s->fields[static_cast<size_t>(wi)].reader_index < 0) {
        Step::WriterField& wf = s->fields[static_cast<size_t>(wi)];
        wf.reader_index = static_cast<int>(ri);
        FLOE_ASSIGN_OR_RETURN(wf.step, Plan(*w.fields()[static_cast<size_t>(wi)].type, *rf.type, fpath));
        continue;
      }
      if (rf.default_json) {
        Result<Datum> d = DatumFromJsonDefault(*rf.type, *rf.default_json);
        if (!d.ok()) return Status::Corrupt(StrCat(fpath, ": reader default: ", d.status().message()));
        s->defaults.emplace_back(ri, std::move(d).value());
        continue;
      }
      if (rf.type->type() == Type::kUnion && rf.type->NullBranch() >= 0) {
        Datum null;
        null.set_branch(rf.type->NullBranch());
        s->defaults.emplace_back(ri, std::move(null));
        continue;
      }
      const std::optional<int32_t> id = rf.field_id();
      return Status::Corrupt(StrCat("required field ", Quote(fpath), id ? StrCat(" (field-id ", *id, ")") : "",
                                    " is missing from the file's schema"));
    }
    return Status::OK();
  }

  std::vector<std::unique_ptr<Step>>* steps_;
  std::map<std::pair<const Node*, const Node*>, const Step*> memo_;
};

}  // namespace

class ResolvedReaderImpl {
 public:
  static Status Read(const Step& s, Decoder* d, Datum* out, int depth);
};

Status ResolvedReaderImpl::Read(const Step& s, Decoder* d, Datum* out, int depth) {
  if (depth > kMaxNestingDepth) return Status::Corrupt(StrCat("value nests deeper than ", kMaxNestingDepth, " levels"));
  switch (s.op) {
    case Step::Op::kDirect: return internal::Decode(*s.writer, d, out, depth);
    case Step::Op::kPromote: {
      FLOE_RETURN_IF_ERROR(internal::Decode(*s.writer, d, out, depth));
      switch (s.reader->type()) {
        case Type::kLong: *out = Datum::Long(out->long_value()); break;
        case Type::kFloat:
          *out = Datum::Float(s.writer->type() == Type::kFloat ? out->float_value()
                                                                 : static_cast<float>(out->long_value()));
          break;
        case Type::kDouble:
          *out = Datum::Double(s.writer->type() == Type::kFloat    ? out->double_value()
                               : s.writer->type() == Type::kDouble ? out->double_value()
                                                                   : static_cast<double>(out->long_value()));
          break;
        case Type::kString: *out = Datum::String(out->bytes_value()); break;
        case Type::kBytes: *out = Datum::Bytes(out->bytes_value()); break;
        default: return Status::Internal("bad promotion");
      }
      return Status::OK();
    }
    case Step::Op::kEnum: {
      const size_t at = d->position();
      FLOE_RETURN_IF_ERROR(internal::Decode(*s.writer, d, out, depth));
      const int mapped = s.symbol_map[static_cast<size_t>(out->enum_index())];
      if (mapped < 0) {
        return Status::Corrupt(StrCat(s.path, ": enum symbol ", Quote(s.writer->symbols()[out->enum_index()]),
                                      " at offset ", at, " is unknown to the reader"));
      }
      *out = Datum::Enum(mapped);
      return Status::OK();
    }
    case Step::Op::kWriterUnion: {
      const size_t at = d->position();
      int64_t b;
      FLOE_RETURN_IF_ERROR(d->ReadLong(&b));
      if (b < 0 || static_cast<size_t>(b) >= s.branches.size()) {
        return Status::Corrupt(
            StrCat("union branch ", b, " at offset ", at, " is out of range (", s.branches.size(), " branches)"));
      }
      const Step* inner = s.branches[static_cast<size_t>(b)];
      if (inner == nullptr) {
        return Status::Corrupt(StrCat(s.path.empty() ? "value" : s.path, ": the file's value at offset ", at, " is a ",
                                      TypeName(s.writer->branches()[static_cast<size_t>(b)]->type()),
                                      ", which the reader's type ", TypeName(s.reader->type()), " cannot hold"));
      }
      return Read(*inner, d, out, depth + 1);
    }
    case Step::Op::kReaderUnion:
      FLOE_RETURN_IF_ERROR(Read(*s.inner, d, out, depth + 1));
      out->set_branch(s.reader_branch);
      return Status::OK();
    case Step::Op::kRecord: {
      if (out->kind() != DatumKind::kRecord) *out = Datum::Record({});
      out->set_branch(-1);
      out->mutable_children().resize(s.reader_field_count);
      for (const Step::WriterField& wf : s.fields) {
        if (wf.reader_index < 0) {
          FLOE_RETURN_IF_ERROR(internal::Skip(*wf.writer_type, d, depth + 1));
        } else {
          FLOE_RETURN_IF_ERROR(Read(*wf.step, d, &out->mutable_children()[static_cast<size_t>(wf.reader_index)], depth + 1));
        }
      }
      for (const auto& [index, value] : s.defaults) out->mutable_children()[index] = value;
      return Status::OK();
    }
    case Step::Op::kArray:
    case Step::Op::kMap: {
      const bool is_map = s.op == Step::Op::kMap;
      std::vector<std::string> keys;
      std::vector<Datum> items;
      // Reuse the output's storage across rows.
      if (out->kind() == (is_map ? DatumKind::kMap : DatumKind::kArray)) {
        items = std::move(out->mutable_children());
        keys = std::move(out->mutable_map_keys());
      }
      const size_t min_bytes = internal::MinEncodedBytes(*s.writer->items(), 0) + (is_map ? 1 : 0);
      int64_t total = 0;
      while (true) {
        int64_t count, byte_size;
        FLOE_RETURN_IF_ERROR(d->ReadBlockCount(&count, &byte_size, min_bytes));
        if (count == 0) break;
        FLOE_RETURN_IF_ERROR(internal::CheckItemCount(*s.writer->items(), count, total, *d));
        const size_t new_size = static_cast<size_t>(total + count);
        if (items.size() < new_size) items.resize(new_size);
        if (is_map && keys.size() < new_size) keys.resize(new_size);
        for (int64_t i = 0; i < count; ++i, ++total) {
          if (is_map) {
            std::string_view key;
            FLOE_RETURN_IF_ERROR(d->ReadBytes(&key));
            keys[static_cast<size_t>(total)].assign(key);
          }
          FLOE_RETURN_IF_ERROR(Read(*s.inner, d, &items[static_cast<size_t>(total)], depth + 1));
        }
      }
      items.resize(static_cast<size_t>(total));
      if (is_map) {
        keys.resize(static_cast<size_t>(total));
        *out = Datum::Map(std::move(keys), std::move(items));
      } else {
        *out = Datum::Array(std::move(items));
      }
      return Status::OK();
    }
  }
  return Status::Internal("unknown resolution step");
}

Result<std::unique_ptr<ResolvedReader>> ResolvedReader::Make(const Node& writer, const Node& reader) {
  std::unique_ptr<ResolvedReader> r(new ResolvedReader());
  Planner planner(&r->steps_);
  FLOE_ASSIGN_OR_RETURN(r->root_, planner.Plan(writer, reader, ""));
  return r;
}

ResolvedReader::~ResolvedReader() = default;

Status ResolvedReader::Read(Decoder* decoder, Datum* out) const {
  return ResolvedReaderImpl::Read(*root_, decoder, out, 0);
}

}  // namespace floe::avro
