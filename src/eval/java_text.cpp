// parse_java_function_call: BFCL's java_parser.py traversal (the first method_invocation and
// its arguments, with BFCL's text reconstruction of values) over the tree java_cst builds.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "eval/java.hpp"
#include "eval/java_cst.hpp"

namespace tooluse::eval::detail {
namespace java_extract {

using java_cst::node;
using java_cst::parser;

// ---- BFCL's traversal ------------------------------------------------------------------------

class extractor {
 public:
  extractor(const parser& p, std::string_view src) : p_(p), src_(src) {
    // get_text() slices the Python str with tree-sitter's *byte* offsets; index code points.
    for (std::size_t i = 0; i < src.size(); ++i)
      if ((static_cast<unsigned char>(src[i]) & 0xC0) != 0x80) cp_.push_back(i);
    cp_.push_back(src.size());
  }

  // get_text(node): source_code[start_byte:end_byte] on a str (code point indices).
  std::string get_text(int n) const {
    const node& nd = p_.at(n);
    std::size_t count = cp_.size() - 1;
    std::size_t a = std::min(nd.start, count), b = std::min(nd.end, count);
    if (b <= a) return {};
    return std::string(src_.substr(cp_[a], cp_[b] - cp_[a]));
  }

  // traverse_node(node, nested)
  std::string traverse(int n, bool nested) const {
    if (n < 0) throw decode_error("'NoneType' object has no attribute 'type'");
    const node& nd = p_.at(n);
    if (nd.type == "string_literal" || nd.type == "character_literal")
      return nested ? get_text(n) : python_trim1(get_text(n));
    if (nd.type == "identifier" || nd.type == "class_literal" || nd.type == "type_identifier" ||
        nd.type == "method_invocation")
      return get_text(n);
    if (nd.type == "array_creation_expression")  // always "[]", whatever the dimensions
      return "new " + traverse(field(n, "type"), true) + "[]" + traverse(field(n, "value"), true);
    if (nd.type == "object_creation_expression") {  // the class body is dropped
      std::string out = "new " + traverse(field(n, "type"), true) + "(";
      bool firstarg = true;
      for (int c : p_.at(field(n, "arguments")).kids) {
        const std::string& t = p_.at(c).type;
        if (t == "," || t == "(" || t == ")") continue;
        if (!firstarg) out += ", ";
        out += traverse(c, true);
        firstarg = false;
      }
      return out + ")";
    }
    if (!nd.kids.empty()) {
      std::string out;
      for (int c : nd.kids) out += traverse(c, true);
      return out;
    }
    return get_text(n);
  }

  int field(int n, std::string_view name) const {
    for (auto& [f, k] : p_.at(n).fields) if (f == name) return k;
    return -1;
  }

  // traverse(node): the first method_invocation in pre-order.
  std::optional<py_value> find_call(int n) const {
    const node& nd = p_.at(n);
    if (nd.type == "method_invocation") {
      std::string name = get_text(field(n, "name"));
      if (int obj = field(n, "object"); obj >= 0) name = get_text(obj) + "." + name;
      return py_value::list({py_value::dict({{py_value::string(name), arguments(field(n, "arguments"))}})});
    }
    for (int c : nd.kids)
      if (auto r = find_call(c)) return r;
    return std::nullopt;
  }

  // extract_arguments: `name=value` pairs and bare identifiers / class literals (key None);
  // every other argument is skipped. A repeated key is an error.
  py_value arguments(int args) const {
    py_value::entries_t all;
    for (int c : p_.at(args).kids) {
      const node& nd = p_.at(c);
      py_value key, value;
      if (nd.type == "assignment_expression") {
        key = py_value::string(get_text(nd.kids[0]));
        value = py_value::string(traverse(nd.kids[2], false));
      } else if (nd.type == "identifier" || nd.type == "class_literal") {
        value = py_value::string(traverse(c, false));
      } else {
        continue;
      }
      all.emplace_back(std::move(key), std::move(value));
    }
    // Checked after every value is built, as BFCL does (a traversal error comes first).
    py_value out = py_value::dict();
    for (auto& [key, value] : all) {
      if (out.find(key))
        throw decode_error("Error: Multiple arguments with the same name are not supported.");
      out.set_item(key, value);
    }
    return out;
  }

 private:
  const parser& p_;
  std::string_view src_;
  std::vector<std::size_t> cp_;
};

}  // namespace java_extract

py_value parse_java_function_call(std::string_view source) {
  std::optional<java_cst::parser> p;
  int root;
  try {
    p.emplace(source);
    root = p->program();
  } catch (const java_cst::syntax_error&) {
    throw decode_error("Error parsing java the source code.");
  } catch (const java_cst::too_deep&) {
    throw decode_error("Error parsing java the source code.");
  }
  java_extract::extractor x(*p, source);
  if (auto r = x.find_call(root)) return *r;
  return py_value::dict();  // BFCL: `result if result else {}`
}

}  // namespace tooluse::eval::detail
