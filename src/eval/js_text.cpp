// parse_javascript_function_call: BFCL's js_parser.py traversal (the first top-level
// expression statement holding a call, and its arguments) over the tree js_cst builds.

#include <string>

#include "eval/java.hpp"  // python_trim1
#include "eval/js.hpp"
#include "eval/js_cst.hpp"

namespace tooluse::eval::detail {

py_value parse_javascript_function_call(std::string_view source) {
  using js_cst::node;
  using js_cst::parser;
  parser p(source);
  int root;
  try {
    root = p.program();
  } catch (const js_cst::syntax_error&) {
    throw decode_error("Error js parsing the source code.");
  } catch (const js_cst::too_deep&) {
    throw decode_error("Error js parsing the source code.");
  }
  auto text = [&](int n) {
    const node& nd = p.at(n);
    return std::string(source.substr(nd.start, nd.end - nd.start));
  };
  for (int st : p.at(root).kids) {
    const node& s = p.at(st);
    if (s.type != "expression_statement") continue;
    for (int c : s.kids) {
      const node& call = p.at(c);
      if (call.type != "call_expression") continue;
      std::string name = text(call.kids[0]);
      py_value::entries_t args;
      const node& an = p.at(call.kids[1]);  // `f?.(...)`: the optional chain, no children
      for (int a : an.kids) {
        const node& arg = p.at(a);
        if (arg.type == "assignment_expression") {
          std::string v = text(arg.kids[2]);
          // One pair of matching quotes is trimmed from the raw text of any value.
          if (v.size() >= 1 && ((v.front() == '"' && v.back() == '"') || (v.front() == '\'' && v.back() == '\'')))
            v = python_trim1(v);
          args.emplace_back(py_value::string(text(arg.kids[0])), py_value::string(v));
        } else if (arg.type == "identifier" || arg.type == "true") {  // not `false`, as in BFCL
          args.emplace_back(py_value(), py_value::string(text(a)));
        }
      }
      py_value out = py_value::dict();
      for (auto& [k, v] : args) {
        if (out.find(k))
          throw decode_error("Error: Multiple arguments with the same name are not supported.");
        out.set_item(k, v);
      }
      return py_value::list({py_value::dict({{py_value::string(name), out}})});
    }
  }
  return py_value();  // None
}

}  // namespace tooluse::eval::detail
