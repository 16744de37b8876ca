#include "floe/iceberg/expression/parser.h"

#include <cctype>
#include <charconv>

#include "floe/base/strings.h"

namespace floe::iceberg {
namespace {

constexpr int kMaxDepth = 256;

enum class TokenKind { kWord, kQuotedName, kString, kNumber, kOp, kLParen, kRParen, kComma, kDot, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  size_t pos = 0;
  std::string text;  // words and numbers as written; names and strings unescaped; operators
};

bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<ExpressionPtr> Parse() {
    FLOE_RETURN_IF_ERROR(Tokenize());
    FLOE_ASSIGN_OR_RETURN(ExpressionPtr e, ParseOr());
    if (Peek().kind != TokenKind::kEnd) return Error("unexpected " + Describe(Peek()), Peek().pos);
    return e;
  }

 private:
  Status Error(std::string_view what, size_t pos, bool unsupported = false) const {
    std::string message = StrCat("--where: ", what, " at offset ", pos, " in \"", text_, "\"");
    return unsupported ? Status::Unsupported(std::move(message)) : Status::InvalidArgument(std::move(message));
  }

  static std::string Describe(const Token& t) {
    switch (t.kind) {
      case TokenKind::kEnd: return "end of filter";
      case TokenKind::kString: return "'" + t.text + "'";
      case TokenKind::kQuotedName: return "\"" + t.text + "\"";
      default: return "'" + t.text + "'";
    }
  }

  Status Tokenize() {
    size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      Token t;
      t.pos = i;
      if (c == '\'' || c == '"') {
        // Quoted: a doubled quote stands for the quote itself.
        t.kind = c == '\'' ? TokenKind::kString : TokenKind::kQuotedName;
        size_t j = i + 1;
        bool closed = false;
        while (j < text_.size()) {
          if (text_[j] == c) {
            if (j + 1 < text_.size() && text_[j + 1] == c) {
              t.text.push_back(c);
              j += 2;
              continue;
            }
            closed = true;
            ++j;
            break;
          }
          t.text.push_back(text_[j++]);
        }
        if (!closed) return Error(c == '\'' ? "unterminated string" : "unterminated quoted name", i);
        if (t.kind == TokenKind::kQuotedName && t.text.empty()) return Error("empty quoted name", i);
        i = j;
      } else if (IsDigit(c) || ((c == '-' || c == '+' || c == '.') && i + 1 < text_.size() &&
                                (IsDigit(text_[i + 1]) || (text_[i + 1] == '.' && c != '.')))) {
        t.kind = TokenKind::kNumber;
        size_t j = i + ((c == '-' || c == '+') ? 1 : 0);
        while (j < text_.size() && IsDigit(text_[j])) ++j;
        if (j < text_.size() && text_[j] == '.') {
          ++j;
          while (j < text_.size() && IsDigit(text_[j])) ++j;
        }
        if (j < text_.size() && (text_[j] == 'e' || text_[j] == 'E')) {
          size_t k = j + 1;
          if (k < text_.size() && (text_[k] == '-' || text_[k] == '+')) ++k;
          if (k < text_.size() && IsDigit(text_[k])) {
            while (k < text_.size() && IsDigit(text_[k])) ++k;
            j = k;
          }
        }
        t.text = std::string(text_.substr(i, j - i));
        i = j;
      } else if (IsWordStart(c)) {
        t.kind = TokenKind::kWord;
        size_t j = i;
        while (j < text_.size() && IsWordChar(text_[j])) ++j;
        t.text = std::string(text_.substr(i, j - i));
        i = j;
      } else if (c == '(' || c == ')' || c == ',' || c == '.') {
        t.kind = c == '(' ? TokenKind::kLParen
                 : c == ')' ? TokenKind::kRParen
                 : c == ',' ? TokenKind::kComma
                            : TokenKind::kDot;
        t.text = std::string(1, c);
        ++i;
      } else if (c == '=' || c == '!' || c == '<' || c == '>') {
        t.kind = TokenKind::kOp;
        const std::string_view two = text_.substr(i, 2);
        if (two == "==" || two == "!=" || two == "<>" || two == "<=" || two == ">=") {
          t.text = std::string(two);
          i += 2;
        } else if (c == '!') {
          return Error("unexpected character '!'", i);
        } else {
          t.text = std::string(1, c);
          ++i;
        }
      } else {
        return Error(StrCat("unexpected character ", Quote(std::string_view(&text_[i], 1))), i);
      }
      tokens_.push_back(std::move(t));
    }
    Token end;
    end.pos = text_.size();
    tokens_.push_back(end);
    return Status::OK();
  }

  const Token& Peek(size_t ahead = 0) const {
    return tokens_[std::min(next_ + ahead, tokens_.size() - 1)];
  }
  const Token& Take() {
    const Token& t = tokens_[next_];
    if (next_ + 1 < tokens_.size()) ++next_;
    return t;
  }
  bool IsWord(const Token& t, std::string_view word) const {
    return t.kind == TokenKind::kWord && EqualsIgnoreCase(t.text, word);
  }
  bool TakeWord(std::string_view word) {
    if (!IsWord(Peek(), word)) return false;
    Take();
    return true;
  }
  static bool IsKeyword(const Token& t) {
    static constexpr std::string_view kKeywords[] = {"and", "or",   "not",    "in",   "is",   "null",
                                                     "nan", "like", "starts", "with", "true", "false"};
    if (t.kind != TokenKind::kWord) return false;
    for (std::string_view k : kKeywords) {
      if (EqualsIgnoreCase(t.text, k)) return true;
    }
    return false;
  }

  // Joins terms into a balanced tree, so a filter of n terms is log n deep.
  static ExpressionPtr Balanced(Operation op, const std::vector<ExpressionPtr>& terms, size_t begin, size_t end) {
    if (end - begin == 1) return terms[begin];
    const size_t mid = begin + (end - begin + 1) / 2;  // left-heavy: a and b and c is ((a and b) and c)
    ExpressionPtr left = Balanced(op, terms, begin, mid);
    ExpressionPtr right = Balanced(op, terms, mid, end);
    return op == Operation::kAnd ? And(std::move(left), std::move(right)) : Or(std::move(left), std::move(right));
  }

  Result<ExpressionPtr> ParseOr() {
    std::vector<ExpressionPtr> terms;
    do {
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr term, ParseAnd());
      terms.push_back(std::move(term));
    } while (TakeWord("or"));
    return Balanced(Operation::kOr, terms, 0, terms.size());
  }

  Result<ExpressionPtr> ParseAnd() {
    std::vector<ExpressionPtr> terms;
    do {
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr term, ParseUnary());
      terms.push_back(std::move(term));
    } while (TakeWord("and"));
    return Balanced(Operation::kAnd, terms, 0, terms.size());
  }

  Result<ExpressionPtr> ParseUnary() {
    if (++depth_ > kMaxDepth) return Error(StrCat("nesting deeper than ", kMaxDepth), Peek().pos);
    Result<ExpressionPtr> result = ParseUnaryInner();
    --depth_;
    return result;
  }

  Result<ExpressionPtr> ParseUnaryInner() {
    const Token& t = Peek();
    if (IsWord(t, "not")) {
      Take();
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr child, ParseUnary());
      return Not(std::move(child));
    }
    if (t.kind == TokenKind::kLParen) {
      Take();
      FLOE_ASSIGN_OR_RETURN(ExpressionPtr inner, ParseOr());
      if (Peek().kind != TokenKind::kRParen) return Error("expected ')'", Peek().pos);
      Take();
      return inner;
    }
    if (TakeWord("true")) return AlwaysTrue();
    if (TakeWord("false")) return AlwaysFalse();
    return ParsePredicate();
  }

  Result<std::string> ParseColumn() {
    std::string name;
    while (true) {
      const Token& t = Peek();
      if (t.kind == TokenKind::kQuotedName || (t.kind == TokenKind::kWord && !IsKeyword(t))) {
        name += Take().text;
      } else {
        return Error(name.empty() ? "expected a column name" : "expected a field name after '.'", t.pos);
      }
      if (Peek().kind != TokenKind::kDot) return name;
      Take();
      name.push_back('.');
    }
  }

  Result<Literal> ParseValue() {
    const Token& t = Peek();
    if (t.kind == TokenKind::kString) return Literal::String(Take().text);
    if (t.kind == TokenKind::kNumber) {
      std::string_view digits = t.text;
      if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
      int64_t v = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      std::string text = Take().text;
      if (ec == std::errc() && end == digits.data() + digits.size()) return Literal::Long(v);
      return Literal::String(std::move(text));
    }
    if (IsWord(t, "true") || IsWord(t, "false")) return Literal::Boolean(EqualsIgnoreCase(Take().text, "true"));
    if (IsWord(t, "null")) return Error("null is not a value (use 'is null')", t.pos);
    return Error("expected a value", t.pos);
  }

  Result<std::vector<Literal>> ParseList() {
    if (Peek().kind != TokenKind::kLParen) return Error("expected '('", Peek().pos);
    Take();
    std::vector<Literal> values;
    while (true) {
      FLOE_ASSIGN_OR_RETURN(Literal v, ParseValue());
      values.push_back(std::move(v));
      if (Peek().kind == TokenKind::kComma) {
        Take();
        continue;
      }
      if (Peek().kind != TokenKind::kRParen) return Error("expected ',' or ')'", Peek().pos);
      Take();
      return values;
    }
  }

  Result<std::string> ParseString(std::string_view after) {
    if (Peek().kind != TokenKind::kString) return Error(StrCat("expected a quoted string after ", after), Peek().pos);
    return Take().text;
  }

  // `like 'p'`: a prefix match when the only wildcard is one trailing '%'.
  Result<ExpressionPtr> ParseLike(std::string column, bool negated) {
    const size_t pos = Peek().pos;
    FLOE_ASSIGN_OR_RETURN(std::string pattern, ParseString("like"));
    const bool prefix = !pattern.empty() && pattern.back() == '%';
    const std::string_view body = prefix ? std::string_view(pattern).substr(0, pattern.size() - 1) : pattern;
    if (body.find_first_of("%_\\") != std::string_view::npos) {
      return Error(StrCat("like pattern ", Quote(pattern), " is not a prefix match ('abc%')"), pos, true);
    }
    if (prefix) {
      return negated ? NotStartsWith(std::move(column), std::string(body))
                     : StartsWith(std::move(column), std::string(body));
    }
    Literal value = Literal::String(std::string(body));
    return negated ? NotEqual(std::move(column), std::move(value)) : Equal(std::move(column), std::move(value));
  }

  Result<ExpressionPtr> ParsePredicate() {
    FLOE_ASSIGN_OR_RETURN(std::string column, ParseColumn());
    const Token& t = Peek();
    if (t.kind == TokenKind::kOp) {
      const std::string op = Take().text;
      FLOE_ASSIGN_OR_RETURN(Literal value, ParseValue());
      Operation operation = Operation::kEq;
      if (op == "!=" || op == "<>") {
        operation = Operation::kNotEq;
      } else if (op == "<") {
        operation = Operation::kLt;
      } else if (op == "<=") {
        operation = Operation::kLtEq;
      } else if (op == ">") {
        operation = Operation::kGt;
      } else if (op == ">=") {
        operation = Operation::kGtEq;
      }
      return Predicate(operation, std::move(column), {std::move(value)});
    }
    if (TakeWord("in")) {
      FLOE_ASSIGN_OR_RETURN(std::vector<Literal> values, ParseList());
      return In(std::move(column), std::move(values));
    }
    if (TakeWord("is")) {
      const bool negated = TakeWord("not");
      if (TakeWord("null")) return negated ? NotNull(std::move(column)) : IsNull(std::move(column));
      if (TakeWord("nan")) return negated ? NotNan(std::move(column)) : IsNan(std::move(column));
      return Error("expected 'null' or 'nan'", Peek().pos);
    }
    const bool negated = TakeWord("not");
    if (negated && TakeWord("in")) {
      FLOE_ASSIGN_OR_RETURN(std::vector<Literal> values, ParseList());
      return NotIn(std::move(column), std::move(values));
    }
    if (TakeWord("starts")) {
      if (!TakeWord("with")) return Error("expected 'with'", Peek().pos);
      FLOE_ASSIGN_OR_RETURN(std::string prefix, ParseString("starts with"));
      return negated ? NotStartsWith(std::move(column), std::move(prefix))
                     : StartsWith(std::move(column), std::move(prefix));
    }
    if (TakeWord("like")) return ParseLike(std::move(column), negated);
    if (negated) return Error("expected 'in', 'starts with' or 'like' after 'not'", Peek().pos);
    return Error("expected an operator", Peek().pos);
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t next_ = 0;
  int depth_ = 0;
};

}  // namespace

Result<ExpressionPtr> ParseExpression(std::string_view text) { return Parser(text).Parse(); }

}  // namespace floe::iceberg
