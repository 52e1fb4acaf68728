#include "textcall/calls.hpp"

#include <cmath>

namespace tooluse::textcall::detail {
namespace {

const json* find_field(const json& obj, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = obj.find(k);
    if (it != obj.end()) return &*it;
  }
  return nullptr;
}

// arguments_value turns what a shape holds as its arguments into a call: an object, a JSON
// string holding an object (the OpenAI wire form), or nothing (no arguments).
tool_call call_with(std::string name, const json* args) {
  if (args == nullptr || args->is_null()) return make_call(std::move(name), json::object());
  if (args->is_object()) return make_call(std::move(name), *args);
  if (args->is_string()) {
    const auto& text = args->get_ref<const std::string&>();
    auto scan = scan_value(text, 0, false);
    std::size_t rest = skip_space(text, scan.end);
    if (skip_space(text, 0) == text.size()) return make_call(std::move(name), json::object());
    if (scan.state == scan_state::done && scan.value.is_object() && rest == text.size())
      return make_call(std::move(name), scan.value);
    return malformed_call(std::move(name), text);
  }
  return malformed_call(std::move(name), dump_json(*args));
}

std::optional<tool_call> call_from_object(const json& v) {
  if (!v.is_object()) return std::nullopt;
  if (const json* fn = find_field(v, {"function"}); fn && fn->is_object()) {
    return call_from_object(*fn);
  }
  const json* name = find_field(v, {"name", "tool_name", "function_name"});
  if (name == nullptr || !name->is_string() || name->get_ref<const std::string&>().empty())
    return std::nullopt;
  const json* args = find_field(v, {"arguments", "parameters", "args", "input", "tool_input"});
  // An object with a name and other unknown keys is ordinary data, not a call.
  for (const auto& [k, _] : v.items()) {
    if (k != "name" && k != "tool_name" && k != "function_name" && k != "arguments" &&
        k != "parameters" && k != "args" && k != "input" && k != "tool_input" && k != "id" &&
        k != "tool_call_id" && k != "type")
      return std::nullopt;
  }
  return call_with(name->get<std::string>(), args);
}

json convert_string(const std::string& text, const std::string& type) {
  if (type == "string" || type.empty()) return text;
  // A trailing space lets a number at the very end count as finished.
  std::string padded = text + " ";
  auto scan = scan_value(padded, 0, true);
  bool whole = scan.state == scan_state::done && skip_space(padded, scan.end) == padded.size();
  if (type == "integer" || type == "number") {
    if (whole && scan.value.is_number()) {
      if (type == "integer" && scan.value.is_number_float()) {
        // Only a double within long long's range may be converted (beyond it the cast is UB).
        double d = scan.value.get<double>();
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::trunc(d))
          return static_cast<long long>(d);
      }
      return scan.value;
    }
    return text;
  }
  if (type == "boolean") {
    if (text == "true" || text == "True") return true;
    if (text == "false" || text == "False") return false;
    return text;
  }
  if (type == "null") return (text == "null" || text == "None") ? json(nullptr) : json(text);
  if (type == "object" && whole && scan.value.is_object()) return scan.value;
  if (type == "array" && whole && scan.value.is_array()) return scan.value;
  return text;
}

}  // namespace

tool_call make_call(std::string name, json arguments) {
  tool_call c;
  c.name = std::move(name);
  c.raw_arguments = dump_json(arguments);
  c.arguments = std::move(arguments);
  return c;
}

tool_call malformed_call(std::string name, std::string raw) {
  tool_call c;
  c.name = std::move(name);
  c.raw_arguments = std::move(raw);
  c.arguments = nullptr;
  return c;
}

std::optional<std::vector<tool_call>> calls_from_json(const json& v) {
  std::vector<tool_call> out;
  if (v.is_object()) {
    if (const json* list = find_field(v, {"tool_calls"}); list && list->is_array()) {
      if (v.size() != 1) return std::nullopt;
      for (const auto& item : *list) {
        auto c = call_from_object(item);
        if (!c) return std::nullopt;
        out.push_back(std::move(*c));
      }
      return out;
    }
    auto c = call_from_object(v);
    if (!c) return std::nullopt;
    out.push_back(std::move(*c));
    return out;
  }
  if (!v.is_array() || v.empty()) return std::nullopt;
  for (const auto& item : v) {
    auto c = call_from_object(item);
    if (!c) return std::nullopt;
    out.push_back(std::move(*c));
  }
  return out;
}

std::string schema_type(const json& s) {
  if (!s.is_object()) return {};
  auto it = s.find("type");
  if (it == s.end()) {
    if (s.contains("properties")) return "object";
    if (s.contains("items")) return "array";
    return {};
  }
  std::string t;
  if (it->is_string()) {
    t = it->get<std::string>();
  } else if (it->is_array()) {
    // ["integer", "null"]: the one non-null type decides; several make it ambiguous.
    for (const auto& e : *it) {
      if (!e.is_string() || e == "null") continue;
      if (!t.empty()) return {};
      t = e.get<std::string>();
    }
  }
  if (t == "dict") return "object";
  if (t == "float" || t == "double") return "number";
  if (t == "int") return "integer";
  if (t == "tuple" || t == "list") return "array";
  if (t == "bool") return "boolean";
  if (t == "str") return "string";
  if (t == "any") return {};
  return t;
}

const json* property_schema(const tool_schemas& schemas, std::string_view tool,
                            std::string_view name) {
  auto it = schemas.find(tool);
  if (it == schemas.end() || !it->second.is_object()) return nullptr;
  auto props = it->second.find("properties");
  if (props == it->second.end() || !props->is_object()) return nullptr;
  auto p = props->find(std::string(name));
  return p == props->end() ? nullptr : &*p;
}

void type_arguments(tool_call& call, const tool_schemas& schemas) {
  if (!call.arguments.is_object()) return;
  bool changed = false;
  for (auto& [k, v] : call.arguments.items()) {
    if (!v.is_string()) continue;
    const json* ps = property_schema(schemas, call.name, k);
    if (ps == nullptr) continue;
    json typed = convert_string(v.get<std::string>(), schema_type(*ps));
    if (typed != v) {
      v = std::move(typed);
      changed = true;
    }
  }
  (void)changed;
}

tool_call from_py_call(py_call call, const tool_schemas& schemas) {
  if (call.arguments.is_null()) return malformed_call(std::move(call.name), std::move(call.raw));
  if (!call.positional.empty()) {
    auto it = schemas.find(call.name);
    const json* props = nullptr;
    if (it != schemas.end() && it->second.contains("properties"))
      props = &it->second["properties"];
    if (props == nullptr || !props->is_object() || props->size() < call.positional.size())
      return malformed_call(std::move(call.name), std::move(call.raw));
    std::size_t i = 0;
    for (const auto& [k, _] : props->items()) {
      if (i >= call.positional.size()) break;
      if (!call.arguments.contains(k)) call.arguments[k] = call.positional[i];
      ++i;
    }
  }
  tool_call c = make_call(std::move(call.name), std::move(call.arguments));
  c.raw_arguments = std::move(call.raw);
  type_arguments(c, schemas);
  return c;
}

}  // namespace tooluse::textcall::detail
