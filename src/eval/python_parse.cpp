// Recursive descent over CPython's expression grammar (the `eval` start rule), building the
// nodes of python.hpp. What CPython refuses is refused here with its kind of message.
#include <functional>

#include "eval/python.hpp"
#include "eval/python_lex.hpp"

namespace tooluse::eval::detail {
namespace {

using K = py_node_kind;

py_node_ptr make(K kind) {
  auto n = std::make_unique<py_node>();
  n->kind = kind;
  return n;
}

class parser {
 public:
  parser(std::string_view src, std::vector<token> toks) : src_(src), t_(std::move(toks)) {}

  py_node_ptr eval_input() {
    auto body = star_expressions();
    while (peek().kind == tok::newline) ++i_;
    if (peek().kind != tok::end) fail();
    return body;
  }

 private:
  std::string_view src_;
  std::vector<token> t_;
  std::size_t i_ = 0;
  int depth_ = 0;

  /// Bounds recursion (unary operators, `not`, `lambda`, `**` chains nest without brackets);
  /// CPython refuses such input too ("too many nested parentheses" / a recursion error).
  struct nest {
    explicit nest(parser& p) : p_(p) {
      if (++p_.depth_ > 400) p_.fail("too complex expression");
    }
    ~nest() { --p_.depth_; }
    parser& p_;
  };

  const token& peek(std::size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  bool is_op(std::string_view o, std::size_t k = 0) const {
    return peek(k).kind == tok::op && peek(k).text == o;
  }
  bool is_kw(std::string_view w, std::size_t k = 0) const {
    return peek(k).kind == tok::name && peek(k).text == w;
  }
  bool accept_op(std::string_view o) {
    if (!is_op(o)) return false;
    ++i_;
    return true;
  }
  bool accept_kw(std::string_view w) {
    if (!is_kw(w)) return false;
    ++i_;
    return true;
  }
  [[noreturn]] void fail(const std::string& what = "invalid syntax") const {
    throw decode_error(what + " (<unknown>, line " + std::to_string(peek().line) + ")");
  }
  void expect_op(std::string_view o) {
    if (!accept_op(o)) fail();
  }
  std::string source_from(std::size_t tok_index) const {
    auto b = t_[tok_index].begin;
    auto e = t_[i_ > 0 ? i_ - 1 : 0].end;
    return std::string(src_.substr(b, e > b ? e - b : 0));
  }
  bool starts_expression() const {
    const token& t = peek();
    if (t.kind == tok::number || t.kind == tok::string) return true;
    if (t.kind == tok::name) {
      if (!is_python_keyword(t.text)) return true;
      return t.text == "None" || t.text == "True" || t.text == "False" || t.text == "not" ||
             t.text == "lambda" || t.text == "await";
    }
    if (t.kind == tok::op)
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
             t.text == "~" || t.text == "...";
    return false;
  }

  // star_expressions: a tuple when there is a comma.
  py_node_ptr star_expressions() {
    auto first = star_expression();
    if (!is_op(",")) return first;
    auto tup = make(K::tuple);
    tup->kids.push_back(std::move(first));
    while (accept_op(",")) {
      if (!starts_expression() && !is_op("*")) break;
      tup->kids.push_back(star_expression());
    }
    return tup;
  }
  py_node_ptr star_expression() {
    if (accept_op("*")) {
      auto s = make(K::starred);
      s->kids.push_back(bitwise_or());
      return s;
    }
    return expression();
  }
  py_node_ptr named_expression() {
    if (peek().kind == tok::name && is_op(":=", 1) && !is_python_keyword(peek().text)) {
      auto n = make(K::named_expr);
      auto target = make(K::name);
      target->id = peek().text;
      i_ += 2;
      n->kids.push_back(std::move(target));
      n->kids.push_back(expression());
      return n;
    }
    auto e = expression();
    if (is_op(":=")) fail("cannot use assignment expressions with " + std::string("expression"));
    return e;
  }
  py_node_ptr expression() {
    nest guard(*this);
    if (is_kw("lambda")) return lambda();
    auto body = disjunction();
    if (accept_kw("if")) {
      auto n = make(K::ifexp);
      auto test = disjunction();
      if (!accept_kw("else")) fail("expected 'else' after 'if' expression");
      n->kids.push_back(std::move(test));
      n->kids.push_back(std::move(body));
      n->kids.push_back(expression());
      return n;
    }
    return body;
  }
  py_node_ptr lambda() {
    std::size_t start = i_;
    ++i_;
    while (!is_op(":")) {
      if (accept_op("*") || accept_op("**") || accept_op("/")) {
        if (peek().kind == tok::name && !is_python_keyword(peek().text)) ++i_;
      } else if (peek().kind == tok::name && !is_python_keyword(peek().text)) {
        ++i_;
        if (accept_op("=")) expression();
      } else {
        fail();
      }
      if (!accept_op(",")) break;
    }
    expect_op(":");
    auto n = make(K::lambda);
    n->kids.push_back(expression());
    n->source = source_from(start);
    return n;
  }
  py_node_ptr boolop(std::string_view op, const std::function<py_node_ptr()>& next) {
    auto left = next();
    if (!is_kw(op)) return left;
    auto n = make(K::boolop);
    n->id = std::string(op);
    n->kids.push_back(std::move(left));
    while (accept_kw(op)) n->kids.push_back(next());
    return n;
  }
  py_node_ptr disjunction() { return boolop("or", [&] { return conjunction(); }); }
  py_node_ptr conjunction() { return boolop("and", [&] { return inversion(); }); }
  py_node_ptr inversion() {
    nest guard(*this);
    if (accept_kw("not")) {
      auto n = make(K::unaryop);
      n->id = "not";
      n->kids.push_back(inversion());
      return n;
    }
    return comparison();
  }
  py_node_ptr comparison() {
    auto left = bitwise_or();
    py_node_ptr n;
    while (true) {
      std::string op;
      if (peek().kind == tok::op && (peek().text == "==" || peek().text == "!=" || peek().text == "<" ||
                                     peek().text == "<=" || peek().text == ">" || peek().text == ">=")) {
        op = peek().text;
        ++i_;
      } else if (is_kw("in")) {
        op = "in";
        ++i_;
      } else if (is_kw("not") && is_kw("in", 1)) {
        op = "not in";
        i_ += 2;
      } else if (is_kw("is")) {
        ++i_;
        op = accept_kw("not") ? "is not" : "is";
      } else {
        break;
      }
      if (!n) {
        n = make(K::compare);
        n->kids.push_back(std::move(left));
      }
      n->ops.push_back(op);
      n->kids.push_back(bitwise_or());
    }
    return n ? std::move(n) : std::move(left);
  }
  py_node_ptr binary(std::initializer_list<std::string_view> ops, const std::function<py_node_ptr()>& next) {
    auto left = next();
    while (peek().kind == tok::op) {
      bool matched = false;
      for (auto o : ops) {
        if (peek().text == o) {
          ++i_;
          auto n = make(K::binop);
          n->id = std::string(o);
          n->kids.push_back(std::move(left));
          n->kids.push_back(next());
          left = std::move(n);
          matched = true;
          break;
        }
      }
      if (!matched) break;
    }
    return left;
  }
  py_node_ptr bitwise_or() { return binary({"|"}, [&] { return bitwise_xor(); }); }
  py_node_ptr bitwise_xor() { return binary({"^"}, [&] { return bitwise_and(); }); }
  py_node_ptr bitwise_and() { return binary({"&"}, [&] { return shift_expr(); }); }
  py_node_ptr shift_expr() { return binary({"<<", ">>"}, [&] { return sum(); }); }
  py_node_ptr sum() { return binary({"+", "-"}, [&] { return term(); }); }
  py_node_ptr term() { return binary({"*", "/", "//", "%", "@"}, [&] { return factor(); }); }
  py_node_ptr factor() {
    nest guard(*this);
    if (is_op("+") || is_op("-") || is_op("~")) {
      auto n = make(K::unaryop);
      n->id = peek().text;
      ++i_;
      n->kids.push_back(factor());
      return n;
    }
    return power();
  }
  py_node_ptr power() {
    py_node_ptr base;
    if (is_kw("await")) {
      ++i_;
      base = make(K::await_expr);
      base->kids.push_back(primary());
    } else {
      base = primary();
    }
    if (accept_op("**")) {
      auto n = make(K::binop);
      n->id = "**";
      n->kids.push_back(std::move(base));
      n->kids.push_back(factor());
      return n;
    }
    return base;
  }
  py_node_ptr primary() {
    auto node = atom();
    while (true) {
      if (accept_op(".")) {
        if (peek().kind != tok::name || is_python_keyword(peek().text)) fail();
        auto n = make(K::attribute);
        n->id = peek().text;
        ++i_;
        n->kids.push_back(std::move(node));
        node = std::move(n);
      } else if (accept_op("(")) {
        node = call(std::move(node));
      } else if (accept_op("[")) {
        auto n = make(K::subscript);
        n->kids.push_back(std::move(node));
        n->kids.push_back(slices());
        expect_op("]");
        node = std::move(n);
      } else {
        return node;
      }
    }
  }
  py_node_ptr call(py_node_ptr func) {
    auto n = make(K::call);
    n->kids.push_back(std::move(func));
    bool seen_keyword = false, seen_double_star = false;
    while (!is_op(")")) {
      if (accept_op("**")) {
        n->keywords.push_back({std::nullopt, expression()});
        seen_double_star = true;
      } else if (accept_op("*")) {
        if (seen_double_star) fail("iterable argument unpacking follows keyword argument unpacking");
        auto s = make(K::starred);
        s->kids.push_back(expression());
        n->kids.push_back(std::move(s));
      } else if (peek().kind == tok::name && is_op("=", 1)) {
        if (is_python_keyword(peek().text)) fail();
        std::string name = peek().text;
        i_ += 2;
        n->keywords.push_back({name, expression()});
        seen_keyword = true;
      } else {
        std::size_t start = i_;
        auto arg = named_expression();
        if (is_kw("for") || is_kw("async")) {
          arg = comprehension(K::generator_exp, std::move(arg), nullptr, start);
          if (n->kids.size() > 1 || !n->keywords.empty() || !is_op(")"))
            fail("Generator expression must be parenthesized");
        } else if (is_op("=")) {
          fail("expression cannot contain assignment, perhaps you meant \"==\"?");
        }
        if (seen_double_star) fail("positional argument follows keyword argument unpacking");
        if (seen_keyword) fail("positional argument follows keyword argument");
        n->kids.push_back(std::move(arg));
      }
      if (!accept_op(",")) break;
    }
    expect_op(")");
    return n;
  }
  py_node_ptr slice_item() {
    if (!is_op(":")) {
      auto e = named_expression();
      if (!is_op(":")) return e;
      auto s = make(K::slice);
      s->kids.push_back(std::move(e));
      return slice_rest(std::move(s));
    }
    auto s = make(K::slice);
    s->kids.push_back(nullptr);
    return slice_rest(std::move(s));
  }
  py_node_ptr slice_rest(py_node_ptr s) {
    expect_op(":");
    s->kids.push_back(starts_expression() ? expression() : nullptr);
    if (accept_op(":")) s->kids.push_back(starts_expression() ? expression() : nullptr);
    else s->kids.push_back(nullptr);
    return s;
  }
  py_node_ptr slices() {
    auto first = is_op("*") ? star_expression() : slice_item();
    if (!is_op(",")) return first;
    auto tup = make(K::tuple);
    tup->kids.push_back(std::move(first));
    while (accept_op(",")) {
      if (is_op("]")) break;
      tup->kids.push_back(is_op("*") ? star_expression() : slice_item());
    }
    return tup;
  }
  /// for ... in ... [if ...]* (repeated); the targets and iterables are checked, not kept.
  py_node_ptr comprehension(K kind, py_node_ptr elt, py_node_ptr value, std::size_t start) {
    auto n = make(kind);
    n->kids.push_back(std::move(elt));
    if (value) n->kids.push_back(std::move(value));
    if (!is_kw("for") && !is_kw("async")) fail();
    while (accept_kw("async") || is_kw("for")) {
      if (!accept_kw("for")) fail();
      do {
        if (is_op("*")) ++i_;
        bitwise_or();
      } while (accept_op(",") && !is_kw("in"));
      if (!accept_kw("in")) fail();
      disjunction();
      while (accept_kw("if")) disjunction();
    }
    n->source = source_from(start);
    return n;
  }
  py_node_ptr strings() {
    auto n = make(K::constant);
    std::string text;
    bool any_f = false, any_bytes = false, any_str = false;
    std::size_t start = i_;
    while (peek().kind == tok::string) {
      any_f |= peek().is_fstring;
      (peek().is_bytes ? any_bytes : any_str) = true;
      text += peek().value.as_str();
      ++i_;
    }
    if (any_bytes && any_str) fail("cannot mix bytes and nonbytes literals");
    if (any_f) {
      n->kind = K::joined_str;
      n->source = source_from(start);
      return n;
    }
    n->value = py_value::string(std::move(text));
    n->is_bytes = any_bytes;
    return n;
  }
  py_node_ptr atom() {
    nest guard(*this);
    const token& t = peek();
    if (t.kind == tok::string) return strings();
    if (t.kind == tok::number) {
      auto n = make(K::constant);
      n->value = t.value;
      n->is_imag = t.is_imag;
      ++i_;
      return n;
    }
    if (t.kind == tok::name) {
      auto n = make(K::constant);
      if (t.text == "None") n->value = py_value::none();
      else if (t.text == "True") n->value = py_value::boolean(true);
      else if (t.text == "False") n->value = py_value::boolean(false);
      else if (is_python_keyword(t.text)) fail();
      else {
        n->kind = K::name;
        n->id = t.text;
      }
      ++i_;
      return n;
    }
    if (accept_op("...")) {
      auto n = make(K::constant);
      n->is_ellipsis = true;
      return n;
    }
    std::size_t start = i_;
    if (accept_op("(")) {
      if (accept_op(")")) return make(K::tuple);
      if (is_kw("yield")) fail();  // not expected in a call list; refused rather than guessed
      auto first = is_op("*") ? star_expression() : named_expression();
      if (is_kw("for") || is_kw("async")) {
        auto g = comprehension(K::generator_exp, std::move(first), nullptr, start);
        expect_op(")");
        return g;
      }
      if (accept_op(")")) {
        if (first->kind == K::starred) fail("cannot use starred expression here");
        return first;
      }
      auto tup = make(K::tuple);
      tup->kids.push_back(std::move(first));
      while (accept_op(",")) {
        if (is_op(")")) break;
        tup->kids.push_back(is_op("*") ? star_expression() : named_expression());
      }
      expect_op(")");
      return tup;
    }
    if (accept_op("[")) {
      if (accept_op("]")) return make(K::list);
      auto first = is_op("*") ? star_expression() : named_expression();
      return display(K::list, K::list_comp, std::move(first), "]", start);
    }
    if (accept_op("{")) return brace(start);
    fail();
  }
  // display finishes a list or set display after its first item: a comprehension, or the
  // items up to `close` (a trailing comma allowed).
  py_node_ptr display(K kind, K comp_kind, py_node_ptr first, std::string_view close,
                      std::size_t start) {
    if (is_kw("for") || is_kw("async")) {
      auto c = comprehension(comp_kind, std::move(first), nullptr, start);
      expect_op(close);
      return c;
    }
    auto node = make(kind);
    node->kids.push_back(std::move(first));
    while (accept_op(",")) {
      if (is_op(close)) break;
      node->kids.push_back(is_op("*") ? star_expression() : named_expression());
    }
    expect_op(close);
    return node;
  }
  py_node_ptr brace(std::size_t start) {
    auto dict = make(K::dict);
    if (accept_op("}")) return dict;
    if (accept_op("**")) {
      dict->kids.push_back(nullptr);
      dict->kids.push_back(bitwise_or());
    } else {
      auto first = is_op("*") ? star_expression() : named_expression();
      if (!accept_op(":")) {
        return display(K::set, K::set_comp, std::move(first), "}", start);
      }
      auto value = expression();
      if (is_kw("for") || is_kw("async")) {
        auto c = comprehension(K::dict_comp, std::move(first), std::move(value), start);
        expect_op("}");
        return c;
      }
      dict->kids.push_back(std::move(first));
      dict->kids.push_back(std::move(value));
    }
    while (accept_op(",")) {
      if (is_op("}")) break;
      if (accept_op("**")) {
        dict->kids.push_back(nullptr);
        dict->kids.push_back(bitwise_or());
        continue;
      }
      dict->kids.push_back(expression());
      expect_op(":");
      dict->kids.push_back(expression());
    }
    expect_op("}");
    return dict;
  }
};

}  // namespace

py_node_ptr parse_python_expression(std::string_view text) {
  auto toks = tokenize_python(text);
  if (toks.size() == 1 || (toks[0].kind == tok::newline && toks.size() == 2))
    throw decode_error("invalid syntax (<unknown>, line 1)");
  parser p(text, std::move(toks));
  return p.eval_input();
}

}  // namespace tooluse::eval::detail
