// 2026-07-28 Streamable HTTP `x-mcp-header`: validating annotated tools and mirroring the
// annotated arguments into `Mcp-Param-{name}` headers (Base64 sentinel for unsafe values).

#include <algorithm>
#include <cctype>
#include <set>

#include "client_impl.hpp"
#include "tooluse/base64.hpp"
#include "tooluse/mcp/wire.hpp"

namespace tooluse::mcp {
namespace {

bool is_tchar(unsigned char c) {
  return std::isalnum(c) != 0 ||
         std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}


// check walks a schema; `reachable` says whether it is reached through `properties` only.
bool check(const json& schema, bool reachable, std::set<std::string>& names, std::string& why,
           int depth = 0) {
  if (depth > 64) return why = "inputSchema nested too deeply", false;
  if (schema.is_array()) {
    for (const auto& s : schema)
      if (!check(s, false, names, why, depth + 1)) return false;
    return true;
  }
  if (!schema.is_object()) return true;
  if (auto it = schema.find("x-mcp-header"); it != schema.end()) {
    if (!reachable) return why = "x-mcp-header outside a properties chain", false;
    if (!it->is_string() || it->get<std::string>().empty())
      return why = "x-mcp-header must be a non-empty string", false;
    std::string n = it->get<std::string>();
    if (!std::all_of(n.begin(), n.end(),
                     [](char c) { return is_tchar(static_cast<unsigned char>(c)); }))
      return why = "x-mcp-header \"" + n + "\" is not an HTTP token", false;
    std::string type = str_of(schema, "type");
    if (type != "string" && type != "integer" && type != "boolean")
      return why = "x-mcp-header \"" + n + "\" is on a non-primitive or number property", false;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!names.insert(n).second) return why = "x-mcp-header \"" + n + "\" is repeated", false;
  }
  for (const auto& [k, v] : schema.items()) {
    if (k == "x-mcp-header") continue;
    if (k == "properties" && v.is_object()) {
      for (const auto& [name, sub] : v.items())
        if (!check(sub, reachable, names, why, depth + 1)) return false;
    } else if (!check(v, false, names, why, depth + 1)) {
      return false;
    }
  }
  return true;
}

std::string render(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump();
}

void collect(const json& schema, const json& args, header_list& out) {
  if (!schema.is_object() || !args.is_object()) return;
  auto props = schema.find("properties");
  if (props == schema.end() || !props->is_object()) return;
  for (const auto& [name, sub] : props->items()) {
    auto a = args.find(name);
    if (a == args.end() || a->is_null() || !sub.is_object()) continue;
    if (auto h = sub.find("x-mcp-header"); h != sub.end() && h->is_string() && !a->is_object())
      out.emplace_back("Mcp-Param-" + h->get<std::string>(), encode_header_value(render(*a)));
    collect(sub, *a, out);
  }
}

}  // namespace

std::string encode_header_value(std::string_view value) {
  bool safe = !value.empty() && value.front() != ' ' && value.front() != '\t' &&
              value.back() != ' ' && value.back() != '\t';
  for (unsigned char c : value)
    if (c < 0x20 || c > 0x7e) safe = false;
  if (value.empty()) safe = true;
  if (value.starts_with("=?base64?") && value.ends_with("?=")) safe = false;
  return safe ? std::string(value) : "=?base64?" + base64_encode(value) + "?=";
}

std::vector<json> valid_header_tools(std::vector<json> tools, std::string* warnings) {
  std::vector<json> out;
  for (auto& t : tools) {
    std::set<std::string> names;
    std::string why;
    auto tool = decode<wire::tool_ref>(t, "tool");
    if (tool && !check(tool->input_schema.value_or(json::object()), true, names, why)) {
      if (warnings) *warnings += "tool \"" + tool->name + "\" dropped: " + why + "\n";
      continue;
    }
    out.push_back(std::move(t));
  }
  return out;
}

header_list client::impl::param_headers(std::string_view method, const json& params) const {
  header_list out;
  if (method != "tools/call" || !params.is_object() || !params.contains("name")) return out;
  auto it = tool_schemas.find(str_of(params, "name"));
  if (it == tool_schemas.end()) return out;
  collect(it->second, params.value("arguments", json::object()), out);
  return out;
}

}  // namespace tooluse::mcp
