// System-prompt blocks announcing the tools, worded after each family's chat template.
#include <algorithm>

#include "textcall/calls.hpp"
#include "textcall/render.hpp"

namespace tooluse::textcall {
namespace {

json function_json(const tool& t) {
  return json{{"name", t.name}, {"description", t.description}, {"parameters", t.input_schema}};
}

json openai_json(const tool& t) { return json{{"type", "function"}, {"function", function_json(t)}}; }

std::string lines_of(const std::vector<tool>& tools, json (*one)(const tool&)) {
  std::string out;
  for (const auto& t : tools) out += dump_json(one(t)) + "\n";
  return out;
}

std::string list_of(const std::vector<tool>& tools, json (*one)(const tool&), int indent = 2) {
  json list = json::array();
  for (const auto& t : tools) list.push_back(one(t));
  return dump_json(list, indent);
}

std::string parallel_note(const render_options& o) {
  return o.parallel ? "You may call several functions in one reply.\n"
                    : "Call at most one function per reply.\n";
}

std::string ts_type(const json& s) {
  if (s.is_object() && s.contains("enum") && s["enum"].is_array()) {
    std::string out;
    for (const auto& e : s["enum"]) out += (out.empty() ? "" : " | ") + dump_json(e);
    if (!out.empty()) return out;
  }
  std::string t = detail::schema_type(s);
  if (t == "string") return "string";
  if (t == "integer" || t == "number") return "number";
  if (t == "boolean") return "boolean";
  if (t == "null") return "null";
  if (t == "array") return (s.contains("items") ? ts_type(s["items"]) : "any") + "[]";
  if (t == "object") return "object";
  return "any";
}

// typescript_namespace is the form harmony and Functionary v3.2 were trained on.
std::string typescript_namespace(const std::vector<tool>& tools) {
  std::string out = "namespace functions {\n\n";
  for (const auto& t : tools) {
    if (!t.description.empty()) out += "// " + t.description + "\n";
    out += "type " + t.name + " = (_: {\n";
    const json& props = t.input_schema.contains("properties") ? t.input_schema["properties"] : json::object();
    json required = t.input_schema.value("required", json::array());
    for (const auto& [k, p] : props.items()) {
      if (p.is_object() && p.contains("description")) out += "// " + p["description"].get<std::string>() + "\n";
      bool req = std::find(required.begin(), required.end(), json(k)) != required.end();
      out += k + (req ? "" : "?") + ": " + ts_type(p) + ",\n";
    }
    out += "}) => any;\n\n";
  }
  return out + "} // namespace functions";
}

std::string qwen3_coder_tools(const std::vector<tool>& tools) {
  std::string out = "# Tools\n\nYou have access to the following functions:\n\n<tools>";
  for (const auto& t : tools) {
    out += "\n<function>\n<name>" + t.name + "</name>\n<description>" + t.description +
           "</description>\n<parameters>";
    const json& props = t.input_schema.contains("properties") ? t.input_schema["properties"] : json::object();
    for (const auto& [k, p] : props.items()) {
      out += "\n<parameter>\n<name>" + k + "</name>";
      std::string type = detail::schema_type(p);
      if (!type.empty()) out += "\n<type>" + type + "</type>";
      if (p.is_object() && p.contains("description")) out += "\n<description>" + p["description"].get<std::string>() + "</description>";
      out += "\n</parameter>";
    }
    if (t.input_schema.contains("required")) out += "\n<required>" + dump_json(t.input_schema["required"]) + "</required>";
    out += "\n</parameters>\n</function>";
  }
  return out +
         "\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with NO "
         "suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\n"
         "value_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second "
         "parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n"
         "<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner "
         "<function=...></function> block must be nested within <tool_call></tool_call> XML tags\n"
         "- Required parameters MUST be specified\n- You may provide optional reasoning for your "
         "function call in natural language BEFORE the function call, but NOT after\n- If there is "
         "no function call available, answer the question like normal with your current knowledge "
         "and do not tell the user about function calls\n</IMPORTANT>";
}

std::string hermes_tools(const std::vector<tool>& tools, const render_options& o) {
  return "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are "
         "provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
         lines_of(tools, openai_json) +
         "</tools>\n\nFor each function call, return a json object with function name and "
         "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": "
         "<function-name>, \"arguments\": <args-json-object>}\n</tool_call>\n" + parallel_note(o);
}

std::string pythonic_tools(const std::vector<tool>& tools, const render_options&) {
  return "You are an expert in composing functions. You are given a question and a set of "
         "possible functions. Based on the question, you will need to make one or more "
         "function/tool calls to achieve the purpose. If none of the functions can be used, point "
         "it out. If the given question lacks the parameters required by the function, also point "
         "it out.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format "
         "of [func_name1(params_name1=params_value1, params_name2=params_value2...), "
         "func_name2(params)]\nYou SHOULD NOT include any other text in the response.\n\nHere is a "
         "list of functions in JSON format that you can invoke.\n" + list_of(tools, function_json);
}

std::string json_tools(const std::vector<tool>& tools, const render_options& o, bool ipython) {
  return std::string(ipython ? "Environment: ipython\n\n" : "") +
         "Given the following functions, please respond with a JSON for a function call with its "
         "proper arguments that best answers the given prompt.\n\nRespond in the format {\"name\": "
         "function name, \"parameters\": dictionary of argument name and its value}. Do not use "
         "variables.\n" + parallel_note(o) + "\n" + lines_of(tools, openai_json);
}

std::string functionary_v31_tools(const std::vector<tool>& tools) {
  std::string out = "You have access to the following functions:\n\n";
  for (const auto& t : tools) {
    out += "Use the function '" + t.name + "' to '" + t.description + "'\n" +
           dump_json(function_json(t)) + "\n\n";
  }
  return out +
         "Think very carefully before calling functions.\nIf you choose to call a function ONLY "
         "reply in the following format:\n<{start_tag}={function_name}>{parameters}{end_tag}\n"
         "where\n\nstart_tag => `<function`\nparameters => a JSON dict with the function argument "
         "name as key and function argument value as value.\nend_tag => `</function>`\n\nHere is "
         "an example,\n<function=example_function_name>{\"example_name\": \"example_value\"}"
         "</function>\n\nReminder:\n- Function calls MUST follow the specified format, start with "
         "<function= and end with </function>\n- Required parameters MUST be specified\n- Put the "
         "entire function call reply on one line\n";
}

std::string deepseek_tools(const std::vector<tool>& tools) {
  std::string out = "## Tools\n\n### Function\n\nYou have the following functions available:\n\n";
  for (const auto& t : tools) out += "- `" + t.name + "`:\n```json\n" + dump_json(openai_json(t), 2) + "\n```\n";
  return out +
         "\nTo call functions, reply with:\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function"
         "<｜tool▁sep｜>FUNCTION_NAME\n```json\n{\"argument\": \"value\"}\n```<｜tool▁call▁end｜>"
         "<｜tool▁calls▁end｜>\n";
}

std::string command_r7b_tools(const std::vector<tool>& tools) {
  return "## Available Tools\nHere is a list of tools that you have available to you.\nYou can "
         "ONLY use the tools listed here. When a tool is not listed below, it is NOT available "
         "to you.\n\n```json\n" + list_of(tools, function_json) +
         "\n```\n\nTo use tools, write <|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": "
         "\"...\", \"parameters\": {...}}]<|END_ACTION|>.\n";
}

}  // namespace

std::string render_tools(format f, const std::vector<tool>& tools, const render_options& o) {
  switch (f) {
    case format::pythonic: return pythonic_tools(tools, o);
    case format::json: return json_tools(tools, o, false);
    case format::llama3: return json_tools(tools, o, true);
    case format::fenced_json:
      return "You can call these functions:\n" + list_of(tools, function_json) +
             "\n\nTo call functions, reply with a fenced JSON block:\n```json\n[{\"name\": "
             "\"function_name\", \"arguments\": {\"argument\": \"value\"}}]\n```\n" + parallel_note(o);
    case format::mistral: return "[AVAILABLE_TOOLS]" + list_of(tools, openai_json, -1) + "[/AVAILABLE_TOOLS]";
    case format::granite:
      return "You are a helpful assistant with access to the following function calls. Your task "
             "is to produce a list of function calls necessary to generate response to the user "
             "utterance. Use the following function calls as required.\n" +
             list_of(tools, function_json) +
             "\n\nWrite each call as <function_call> {\"name\": ..., \"arguments\": {...}}\n";
    case format::functionary_v31: return functionary_v31_tools(tools);
    case format::functionary_v32:
      return "// Supported function definitions that should be called when necessary.\n" +
             typescript_namespace(tools);
    case format::deepseek: return deepseek_tools(tools);
    case format::qwen3_coder: return qwen3_coder_tools(tools);
    case format::harmony: return "# Tools\n\n## functions\n\n" + typescript_namespace(tools);
    case format::command_r7b: return command_r7b_tools(tools);
    case format::hermes:
    case format::auto_detect: break;
  }
  return hermes_tools(tools, o);
}

}  // namespace tooluse::textcall
