// parse_javascript_function_call: BFCL's js_parser.py without tree-sitter.
//
// BFCL parses the model's text with tree-sitter-javascript 0.21.4, rejects it when the tree's
// s-expression holds "ERROR", then looks at the program's top-level expression statements for
// one whose child is a call_expression. Debian 12 ships no tree-sitter grammar for
// JavaScript, so this is a hand-written recursive-descent parser for the common part of the
// language (expressions incl. arrow/function/class expressions, objects, arrays, templates,
// regexes, and the usual statements); text outside it is rejected. Tokens are lexed on
// demand because `/` (division or regex) and template literals depend on the context.
//
// This file: the statement level; js_expr.cpp: expressions; js_lex.cpp: tokens and nodes.

#include <string>
#include <vector>

#include "eval/js_cst.hpp"

namespace tooluse::eval::detail::js_cst {

int parser::program() {
  std::vector<int> kids;
  while (peek().kind != tk::eof) kids.push_back(statement(true));
  std::vector<int> all;
  for (int k : kids) { attach(nodes_[k], all); all.push_back(k); }
  attach_at(s_.size(), all);  // comments before the end of input
  node root;
  root.type = "program";
  root.kids = std::move(all);
  root.end = s_.size();
  nodes_.push_back(std::move(root));
  return static_cast<int>(nodes_.size()) - 1;
}

// ---- statements
// The end of a statement: `;`, or automatic semicolon insertion (a line break before the
// next token, `}` or the end of input). Anything else is an ERROR in tree-sitter.
void parser::end_statement(std::vector<int>& k) {
  if (is(";")) { k.push_back(leaf()); return; }
  if (at_eof() || is("}") || peek().newline_before) return;
  // tree-sitter's error recovery inserts a MISSING `;` where that is cheaper than an ERROR.
  // The one shape handled: a string of 11 bytes or more followed by a label on the same line
  // (`'f(a=' https://x.org/...`, from quotes that end early). An ERROR over the string costs
  // 600 + its bytes against 610 for the MISSING `;` (java_parse.cpp's end_statement: node's
  // binding, our oracle, counts UTF-16 bytes and so already takes `'abcd'`).
  const node& e = nodes_[k.front()];
  if (k.size() == 1 && e.type == "string" && e.end - e.start >= 11 && peek().kind == tk::word &&
      !expr_keyword(text(peek()))) {
    token after = lex_at(peek().end);
    if (after.kind == tk::punct && text(after) == ":") return;
  }
  throw syntax_error{};
}

int parser::statement(bool top) {
  depth_guard guard(depth_);
  stmt_guard sg(stmt_open_, open_);
  (void)top;
  if (is(";")) return make("empty_statement", {leaf()});
  if (is("{")) return brace_statement();
  const token& t = peek();
  if (t.kind == tk::word) {
    std::string_view w = text(t);
    if (w == "var" || w == "let" || w == "const") {
      std::size_t save = pos_;
      std::vector<int> k{leaf()};
      if (peek().kind == tk::word || is("{") || is("[")) {
        while (true) {
          std::vector<int> d{binding()};
          if (is("=")) { d.push_back(leaf()); d.push_back(assignment()); }
          k.push_back(make("variable_declarator", d));
          if (!is(",")) break;
          k.push_back(leaf());
        }
        end_statement(k);
        return make("lexical_declaration", k);
      }
      pos_ = save;  // `let` used as an identifier
    } else if (w == "return" || w == "throw") {
      std::vector<int> k{leaf()};
      if (!is(";") && !is("}") && !at_eof() && !peek().newline_before) k.push_back(expression());
      end_statement(k);
      return make("return_statement", k);
    } else if (w == "if" || w == "while") {
      std::vector<int> k{leaf()};
      expect("(");
      k.push_back(parenthesized());
      k.push_back(statement());
      if (w == "if" && is_word("else")) { k.push_back(leaf()); k.push_back(statement()); }
      return make("if_statement", k);
    } else if (w == "for") {
      std::vector<int> k{leaf()};
      expect("(");
      k.push_back(balanced("(", ")"));
      k.push_back(statement());
      return make("for_statement", k);
    } else if (w == "try") {
      std::vector<int> k{leaf()};
      expect("{");
      k.push_back(block());
      if (is_word("catch")) {
        k.push_back(leaf());
        if (is("(")) k.push_back(balanced("(", ")"));
        expect("{");
        k.push_back(block());
      }
      if (is_word("finally")) { k.push_back(leaf()); expect("{"); k.push_back(block()); }
      return make("try_statement", k);
    } else if (w == "break" || w == "continue" || w == "debugger") {
      std::vector<int> k{leaf()};
      end_statement(k);
      return make("break_statement", k);
    } else if (!expr_keyword(w)) {
      std::size_t save = pos_;
      int label = leaf("statement_identifier");
      if (is(":")) {  // `map: f(x)` is a labeled statement, not an expression statement
        int colon = leaf();
        // At the end of input the body is a MISSING `;` (an empty_statement), not an ERROR.
        if (at_eof()) return make("labeled_statement", {label, colon, span("empty_statement", pos_, pos_)});
        return make("labeled_statement", {label, colon, statement()});
      }
      pos_ = save;
      nodes_.pop_back();
    }
    if (w == "function" || w == "async") {
      // A declaration at statement level: parsed like the expression form.
    } else if (w == "do" || w == "switch" || w == "with" || w == "import" || w == "export" ||
               w == "class" || w == "else" || w == "case" || w == "default") {
      if (!(w == "class" || w == "import")) throw syntax_error{};
    }
  }
  std::vector<int> k{expression()};
  end_statement(k);
  return make("expression_statement", k);
}

int parser::block() {
  std::vector<int> k{leaf()};  // {
  bool outer = in_block_;
  in_block_ = true;
  while (!is("}")) {
    if (at_eof()) throw syntax_error{};
    k.push_back(statement());
  }
  in_block_ = outer;
  k.push_back(leaf());
  return make("statement_block", k);
}

void parser::restore(const saved& s) {
  pos_ = s.pos;
  taken_ = s.taken;
  in_block_ = s.in_block;
  open_ = s.open;
  cache_.reset();
}

int parser::labels(int n) const {
  int c = nodes_[n].type == "labeled_statement" ? 1 : 0;
  for (int k : nodes_[n].kids) c += labels(k);
  return c;
}

int parser::object_statement() {
  std::vector<int> k{expression()};
  const node& e = nodes_[k[0]];  // `{a} = b` needs parentheses at the start of a statement
  if (e.type == "assignment_expression" && nodes_[e.kids[0]].type == "object") throw syntax_error{};
  end_statement(k);
  return make("expression_statement", k);
}

std::optional<parser::reading> parser::try_reading(int (parser::*parse)()) {
  try {
    int n = (this->*parse)();
    return reading{n, labels(n), save()};
  } catch (const syntax_error&) {
    return std::nullopt;
  }
}

int parser::brace_statement() {
  saved start = save();
  std::optional<reading> as_block = try_reading(&parser::block);
  restore(start);
  if (!as_block) return object_statement();
  std::optional<reading> as_object = try_reading(&parser::object_statement);
  if (!as_object) {
    restore(as_block->after);
    return as_block->node;
  }
  // Follow the block reading up to where the object reading ended.
  restore(as_block->after);
  int block_labels = as_block->labels;
  bool same_end = true;
  try {
    while (pos_ < as_object->after.pos) {
      if (at_eof() || (in_block_ && is("}"))) { same_end = false; break; }
      block_labels += labels(statement());
    }
    if (pos_ != as_object->after.pos) same_end = false;
  } catch (const syntax_error&) {
    same_end = false;
  }
  if (!same_end || as_object->labels < block_labels) {
    restore(as_object->after);
    return as_object->node;
  }
  restore(as_block->after);
  return as_block->node;
}

// Tokens from an opening bracket to its match, kept as a flat node (for headers and
// parameter lists whose inner structure BFCL never reads).
int parser::balanced(std::string_view open, std::string_view close) {
  depth_guard guard(depth_);
  std::vector<int> k{leaf()};
  int depth = 1;
  while (depth > 0) {
    if (at_eof()) throw syntax_error{};
    if (is("`")) { k.push_back(template_literal()); continue; }
    if (is("{") && open != "{") { k.push_back(balanced("{", "}")); continue; }
    if (is(open)) ++depth;
    if (is(close)) --depth;
    if (is("/") || is("/=")) {  // a regex is possible here; lex it as one
      if (nodes_.size() && k.size() > 0) {
        const node& prev = nodes_[k.back()];
        bool operand_pos = prev.type == "(" || prev.type == "," || prev.type == "=" || prev.type == ":";
        if (operand_pos) { k.push_back(regex()); continue; }
      }
    }
    k.push_back(leaf());
  }
  return make("group", k);
}

int parser::binding() {
  if (is("{")) return balanced("{", "}");
  if (is("[")) return balanced("[", "]");
  if (peek().kind != tk::word) throw syntax_error{};
  return leaf("identifier");
}

}  // namespace tooluse::eval::detail::js_cst
