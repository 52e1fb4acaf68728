// Writing calls and results the way each model family writes them.
#include "textcall/render.hpp"
#include "tooluse/text.hpp"

namespace tooluse::textcall {
namespace detail {

std::string python_string(std::string_view s) { return python_quoted(s, '"'); }

std::string python_literal(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "None";
    case json::value_t::boolean: return v.get<bool>() ? "True" : "False";
    case json::value_t::string: return python_string(v.get_ref<const std::string&>());
    case json::value_t::array: {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + python_literal(v[i]);
      return out + "]";
    }
    case json::value_t::object: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, x] : v.items()) {
        out += (first ? "" : ", ") + python_string(k) + ": " + python_literal(x);
        first = false;
      }
      return out + "}";
    }
    default: return dump_json(v);
  }
}

std::string python_call(const tool_call& c) {
  std::string out = c.name + "(";
  bool first = true;
  if (c.arguments.is_object()) {
    for (const auto& [k, v] : c.arguments.items()) {
      out += (first ? "" : ", ") + k + "=" + python_literal(v);
      first = false;
    }
  }
  return out + ")";
}

json call_object(const tool_call& c, const char* args_key) {
  return json{{"name", c.name}, {args_key, c.arguments.is_null() ? json::object() : c.arguments}};
}

namespace {

std::string args_text(const tool_call& c) {
  return dump_json(c.arguments.is_null() ? json::object() : c.arguments);
}

std::string xml_value(const json& v) {
  return v.is_string() ? v.get<std::string>() : dump_json(v);
}

std::string qwen3_call(const tool_call& c) {
  std::string out = "<tool_call>\n<function=" + c.name + ">\n";
  if (c.arguments.is_object()) {
    for (const auto& [k, v] : c.arguments.items())
      out += "<parameter=" + k + ">\n" + xml_value(v) + "\n</parameter>\n";
  }
  return out + "</function>\n</tool_call>";
}

std::string json_list(const std::vector<tool_call>& calls, const char* args_key) {
  json list = json::array();
  for (const auto& c : calls) list.push_back(call_object(c, args_key));
  return dump_json(list);
}

std::string each(const std::vector<tool_call>& calls, std::string (*one)(const tool_call&),
                 std::string_view separator = "\n") {
  std::string out;
  for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? std::string(separator) : "") + one(calls[i]);
  return out;
}

}  // namespace
}  // namespace detail

using namespace detail;

std::string render_calls(format f, const std::vector<tool_call>& calls) {
  switch (f) {
    case format::pythonic: {
      std::string out = "[";
      for (std::size_t i = 0; i < calls.size(); ++i) out += (i ? ", " : "") + python_call(calls[i]);
      return out + "]";
    }
    case format::json:
      return calls.size() == 1 ? dump_json(call_object(calls[0], "arguments"))
                               : json_list(calls, "arguments");
    case format::fenced_json: return "```json\n" + json_list(calls, "arguments") + "\n```";
    case format::mistral: return "[TOOL_CALLS]" + json_list(calls, "arguments");
    case format::llama3:
      return each(calls, [](const tool_call& c) {
        return "<|python_tag|>" + dump_json(call_object(c, "parameters"));
      }, "<|eom_id|>");
    case format::granite:
      return each(calls, [](const tool_call& c) {
        return "<function_call> " + dump_json(call_object(c, "arguments"));
      });
    case format::functionary_v31:
      return each(calls, [](const tool_call& c) {
        return "<function=" + c.name + ">" + args_text(c) + "</function>";
      }, "");
    case format::functionary_v32:
      return each(calls, [](const tool_call& c) { return ">>>" + c.name + "\n" + args_text(c); }, "");
    case format::deepseek:
      return "<｜tool▁calls▁begin｜>" + each(calls, [](const tool_call& c) {
        return "<｜tool▁call▁begin｜>function<｜tool▁sep｜>" + c.name + "\n```json\n" +
               args_text(c) + "\n```<｜tool▁call▁end｜>";
      }, "") + "<｜tool▁calls▁end｜>";
    case format::qwen3_coder: return each(calls, qwen3_call);
    case format::harmony:
      return each(calls, [](const tool_call& c) {
        return "<|start|>assistant<|channel|>commentary to=functions." + c.name +
               " <|constrain|>json<|message|>" + args_text(c) + "<|call|>";
      }, "");
    case format::command_r7b: {
      json list = json::array();
      for (std::size_t i = 0; i < calls.size(); ++i) {
        list.push_back({{"tool_call_id", std::to_string(i)}, {"tool_name", calls[i].name},
                        {"parameters", calls[i].arguments.is_null() ? json::object() : calls[i].arguments}});
      }
      return "<|START_ACTION|>" + dump_json(list, 4) + "<|END_ACTION|>";
    }
    case format::hermes:
    case format::auto_detect:
      break;
  }
  return each(calls, [](const tool_call& c) {
    return "<tool_call>\n" + dump_json(call_object(c, "arguments")) + "\n</tool_call>";
  });
}

std::string render_result(format f, std::string_view name, std::string_view text) {
  std::string t(text);
  std::string n(name);
  switch (f) {
    case format::hermes:
    case format::qwen3_coder:
    case format::auto_detect: return "<tool_response>\n" + t + "\n</tool_response>";
    case format::harmony:
      return "<|start|>functions." + n + " to=assistant<|channel|>commentary<|message|>" + t + "<|end|>";
    case format::deepseek: return "<｜tool▁output▁begin｜>" + t + "<｜tool▁output▁end｜>";
    case format::mistral: return "[TOOL_RESULTS]" + dump_json(json{{"content", t}}) + "[/TOOL_RESULTS]";
    case format::command_r7b:
      return "<|START_TOOL_RESULT|>" + dump_json(json::array({{{"tool_call_id", "0"}, {"results", {{"0", t}}}}})) +
             "<|END_TOOL_RESULT|>";
    default: return "Result of " + n + ":\n" + t;
  }
}

}  // namespace tooluse::textcall
