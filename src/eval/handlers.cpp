// The decode_ast of each BFCL handler (model_handler/*.py at de8307b4), one function each.
// They differ in small ways that change scores (which brackets are added, what is stripped,
// whether JSON values become str for Java), so each is kept apart, named after its handler.
#include "eval/handlers.hpp"

#include <array>

#include "eval/decode_error.hpp"
#include "eval/java.hpp"
#include "eval/js.hpp"
#include "eval/python.hpp"

namespace tooluse::eval::detail {
namespace {

using pk = py_value::kind;

struct model_entry {
  std::string_view name;
  decoder family;
};

// handler_map.py at de8307b4 (the 2024-08-11 leaderboard).
constexpr std::array<model_entry, 77> models = {{
    {"gorilla-openfunctions-v0", decoder::gorilla}, {"gorilla-openfunctions-v2", decoder::gorilla},
    {"gpt-4o-2024-08-06", decoder::openai}, {"gpt-4o-2024-08-06-FC", decoder::openai},
    {"gpt-4o-2024-05-13", decoder::openai}, {"gpt-4o-2024-05-13-FC", decoder::openai},
    {"gpt-4o-mini-2024-07-18", decoder::openai}, {"gpt-4o-mini-2024-07-18-FC", decoder::openai},
    {"gpt-4-turbo-2024-04-09-FC", decoder::openai}, {"gpt-4-turbo-2024-04-09", decoder::openai},
    {"gpt-4-1106-preview-FC", decoder::openai}, {"gpt-4-1106-preview", decoder::openai},
    {"gpt-4-0125-preview-FC", decoder::openai}, {"gpt-4-0125-preview", decoder::openai},
    {"gpt-4-0613-FC", decoder::openai}, {"gpt-4-0613", decoder::openai},
    {"gpt-3.5-turbo-0125-FC", decoder::openai}, {"gpt-3.5-turbo-0125", decoder::openai},
    {"claude-2.1", decoder::claude_prompt}, {"claude-instant-1.2", decoder::claude_prompt},
    {"claude-3-opus-20240229", decoder::claude_prompt}, {"claude-3-opus-20240229-FC", decoder::claude_fc},
    {"claude-3-sonnet-20240229", decoder::claude_prompt}, {"claude-3-sonnet-20240229-FC", decoder::claude_fc},
    {"claude-3-haiku-20240307", decoder::claude_prompt}, {"claude-3-haiku-20240307-FC", decoder::claude_fc},
    {"claude-3-5-sonnet-20240620", decoder::claude_prompt}, {"claude-3-5-sonnet-20240620-FC", decoder::claude_fc},
    {"open-mistral-nemo-2407", decoder::mistral}, {"open-mistral-nemo-2407-FC-Any", decoder::mistral},
    {"open-mistral-nemo-2407-FC-Auto", decoder::mistral}, {"open-mixtral-8x22b", decoder::mistral},
    {"open-mixtral-8x22b-FC-Any", decoder::mistral}, {"open-mixtral-8x22b-FC-Auto", decoder::mistral},
    {"open-mixtral-8x7b", decoder::mistral}, {"mistral-large-2407", decoder::mistral},
    {"mistral-large-2407-FC-Any", decoder::mistral}, {"mistral-large-2407-FC-Auto", decoder::mistral},
    {"mistral-medium-2312", decoder::mistral}, {"mistral-small-2402", decoder::mistral},
    {"mistral-small-2402-FC-Any", decoder::mistral}, {"mistral-small-2402-FC-Auto", decoder::mistral},
    {"mistral-tiny-2312", decoder::mistral}, {"firefunction-v1-FC", decoder::openai},
    {"firefunction-v2-FC", decoder::openai}, {"Nexusflow-Raven-v2", decoder::nexus},
    {"gemini-1.0-pro", decoder::gemini}, {"gemini-1.5-pro-preview-0409", decoder::gemini},
    {"gemini-1.5-pro-preview-0514", decoder::gemini}, {"gemini-1.5-flash-preview-0514", decoder::gemini},
    {"google/gemma-7b-it", decoder::gemma}, {"glaiveai/glaive-function-calling-v1", decoder::glaive},
    {"deepseek-ai/deepseek-coder-6.7b-instruct", decoder::deepseek},
    {"meetkai/functionary-small-v3.1-FC", decoder::openai}, {"meetkai/functionary-small-v3.2-FC", decoder::openai},
    {"meetkai/functionary-medium-v3.1-FC", decoder::openai}, {"databricks-dbrx-instruct", decoder::databricks},
    {"NousResearch/Hermes-2-Pro-Llama-3-8B", decoder::hermes}, {"NousResearch/Hermes-2-Pro-Llama-3-70B", decoder::hermes},
    {"NousResearch/Hermes-2-Pro-Mistral-7B", decoder::hermes}, {"NousResearch/Hermes-2-Theta-Llama-3-8B", decoder::hermes},
    {"NousResearch/Hermes-2-Theta-Llama-3-70B", decoder::hermes},
    {"meta-llama/Meta-Llama-3-8B-Instruct", decoder::llama}, {"meta-llama/Meta-Llama-3-70B-Instruct", decoder::llama},
    {"command-r-plus-FC", decoder::cohere}, {"command-r-plus", decoder::cohere},
    {"command-r-plus-FC-optimized", decoder::cohere}, {"command-r-plus-optimized", decoder::cohere},
    {"snowflake/arctic", decoder::arctic}, {"ibm-granite/granite-20b-functioncalling", decoder::granite},
    {"nvidia/nemotron-4-340b-instruct", decoder::nvidia}, {"THUDM/glm-4-9b-chat", decoder::glm},
    {"yi-large-fc", decoder::yi}, {"Salesforce/xLAM-1b-fc-r", decoder::xlam}, {"Salesforce/xLAM-7b-fc-r", decoder::xlam},
}};

// constant.py's UNDERSCORE_TO_DOT at de8307b4.
constexpr std::array<std::string_view, 39> underscore_models = {
    "gpt-4o-2024-08-06-FC", "gpt-4o-2024-05-13-FC", "gpt-4o-mini-2024-07-18-FC", "gpt-4-turbo-2024-04-09-FC",
    "gpt-4-1106-preview-FC", "gpt-4-0125-preview-FC", "gpt-4-0613-FC", "gpt-3.5-turbo-0125-FC",
    "claude-3-opus-20240229-FC", "claude-3-sonnet-20240229-FC", "claude-3-haiku-20240307-FC",
    "claude-3-5-sonnet-20240620-FC", "open-mistral-nemo-2407-FC-Any", "open-mistral-nemo-2407-FC-Auto",
    "open-mixtral-8x22b-FC-Any", "open-mixtral-8x22b-FC-Auto", "mistral-large-2407-FC", "mistral-large-2407-FC-Any",
    "mistral-large-2407-FC-Auto", "mistral-small-2402-FC-Any", "mistral-small-2402-FC-Auto", "mistral-small-2402-FC",
    "gemini-1.0-pro", "gemini-1.5-pro-preview-0409", "gemini-1.5-pro-preview-0514", "gemini-1.5-flash-preview-0514",
    "meetkai/functionary-small-v3.1-FC", "meetkai/functionary-small-v3.2-FC", "meetkai/functionary-medium-v3.1-FC",
    "NousResearch/Hermes-2-Pro-Llama-3-8B", "NousResearch/Hermes-2-Pro-Llama-3-70B",
    "NousResearch/Hermes-2-Pro-Mistral-7B", "NousResearch/Hermes-2-Theta-Llama-3-8B",
    "NousResearch/Hermes-2-Theta-Llama-3-70B", "command-r-plus-FC", "command-r-plus-FC-optimized",
    "THUDM/glm-4-9b-chat", "ibm-granite/granite-20b-functioncalling", "yi-large-fc"};

struct family_name {
  std::string_view name;
  decoder family;
};
constexpr std::array<family_name, 23> families = {{
    {"gorilla", decoder::gorilla}, {"openai", decoder::openai}, {"claude_fc", decoder::claude_fc},
    {"claude_prompt", decoder::claude_prompt}, {"mistral", decoder::mistral}, {"nexus", decoder::nexus},
    {"gemini", decoder::gemini}, {"gemma", decoder::gemma}, {"glaive", decoder::glaive},
    {"deepseek", decoder::deepseek}, {"databricks", decoder::databricks}, {"hermes", decoder::hermes},
    {"llama", decoder::llama}, {"cohere", decoder::cohere}, {"arctic", decoder::arctic},
    {"granite", decoder::granite}, {"nvidia", decoder::nvidia}, {"glm", decoder::glm}, {"yi", decoder::yi},
    {"xlam", decoder::xlam}, {"oss", decoder::oss}, {"native", decoder::native}, {"pythonic", decoder::pythonic},
}};

std::string escaped(std::string_view folder) {
  std::string out(folder);
  for (char& c : out)
    if (c == '_') c = '/';
  return out;
}

bool underscore_to_dot(const std::string& model) {
  for (auto m : underscore_models)
    if (m == model) return true;
  return false;
}

const std::string& text_of(const py_value& v) {
  if (!v.is_str()) throw decode_error("expected a str result, got " + std::string(v.type_name()));
  return v.as_str();
}

bool starts_with(const std::string& s, std::string_view p) { return s.rfind(p, 0) == 0; }
bool ends_with(const std::string& s, std::string_view p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  std::size_t pos = 0;
  while ((pos = s.find(from, pos)) != std::string::npos) {
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
  return s;
}

std::vector<std::string> split(const std::string& s, std::string_view sep) {
  std::vector<std::string> out;
  std::size_t start = 0, pos;
  while ((pos = s.find(sep, start)) != std::string::npos) {
    out.push_back(s.substr(start, pos - start));
    start = pos + sep.size();
  }
  out.push_back(s.substr(start));
  return out;
}

std::string bracketed(std::string s) {
  if (!starts_with(s, "[")) s = "[" + s;
  if (!ends_with(s, "]")) s += "]";
  return s;
}

/// utils.py's ast_parse(input, language).
py_value ast_parse(const std::string& text, language lang) {
  switch (lang) {
    case language::python: return ast_parse_python(text);
    case language::java: return parse_java_function_call(python_trim1(text));
    case language::javascript: return parse_javascript_function_call(python_trim1(text));
  }
  return {};
}

py_value single(py_value name, py_value params) {
  py_value::entries_t e;
  e.emplace_back(std::move(name), std::move(params));
  return py_value::dict(std::move(e));
}

/// for invoked in result: name = list(invoked.keys())[0]; params = json.loads(invoked[name])
/// (OpenAI, Claude FC, Mistral FC, Gemini, Yi); `loads` false for Cohere FC.
py_value decode_fc(const py_value& result, bool loads) {
  py_value::items_t out;
  py_value::items_t seq;
  if (result.is_str()) {
    for (char c : result.as_str()) {
      (void)c;
      throw decode_error("'str' object has no attribute 'keys'");
    }
  } else if (result.is(pk::list) || result.is(pk::tuple)) {
    seq = result.items();
  } else if (result.is_dict()) {
    if (!result.entries().empty()) throw decode_error("'str' object has no attribute 'keys'");
  } else {
    throw decode_error("'" + std::string(result.type_name()) + "' object is not iterable");
  }
  for (const auto& invoked : seq) {
    if (!invoked.is_dict()) throw decode_error("'" + std::string(invoked.type_name()) + "' object has no attribute 'keys'");
    if (invoked.entries().empty()) throw decode_error("list index out of range");
    const auto& [name, args] = invoked.entries().front();
    out.push_back(single(name, loads ? json_loads(args) : args));
  }
  return py_value::list(std::move(out));
}

/// Java and JavaScript values become str(value) in the JSON-reading handlers.
void stringify_arguments(py_value& arguments) {
  if (!arguments.is_dict()) throw decode_error("'" + std::string(arguments.type_name()) + "' object is not iterable");
  for (auto& [_, v] : arguments.entries()) v = py_value::string(v.str());
}

py_value decode_hermes(const std::string& result, language lang) {
  py_value::items_t calls;
  bool flag = false;
  for (const auto& line : split(result, "\n")) {
    if (line == "<tool_call>") {
      flag = true;
    } else if (line == "</tool_call>") {
      flag = false;
    } else {
      if (flag) {
        py_value tool = json_loads(py_value::string(replace_all(line, "'", "\"")));
        py_value* arguments = tool.find("arguments");
        const py_value* name = tool.find("name");
        if (!tool.is_dict()) throw decode_error("list indices must be integers or slices, not str");
        if (lang != language::python) {
          if (!arguments) throw decode_error("'arguments'");
          stringify_arguments(*arguments);
        }
        if (!name) throw decode_error("'name'");
        if (!arguments) throw decode_error("'arguments'");
        calls.push_back(single(*name, *arguments));
      }
      flag = false;
    }
  }
  return py_value::list(std::move(calls));
}

py_value decode_arctic(std::string r, language lang) {  // also nvidia_handler.py
  r = replace_all(r, "\n", "");
  if (!starts_with(r, "[")) r = "[ " + r;
  if (!ends_with(r, "]")) r += " ]";
  if (starts_with(r, "['")) {
    r = replace_all(r, "['", "[");
    r = replace_all(r, "', '", ", ");
    r = replace_all(r, "','", ", ");
  }
  if (ends_with(r, "']")) r = replace_all(r, "']", "]");
  return ast_parse(r, lang);
}

py_value decode_databricks(const std::string& result, language lang) {
  // re.sub(r"'([^']*)'", r"\1", result): quote pairs removed, left to right.
  std::string func;
  for (std::size_t i = 0; i < result.size(); ++i) {
    if (result[i] == '\'') {
      auto close = result.find('\'', i + 1);
      if (close != std::string::npos) {
        func += result.substr(i + 1, close - i - 1);
        i = close;
        continue;
      }
    }
    func += result[i];
  }
  func = bracketed(replace_all(func, "\n    ", ""));
  if (starts_with(func, "['")) func = replace_all(func, "['", "[");
  try {
    return ast_parse(func, lang);
  } catch (const decode_error&) {
    return ast_parse(result, lang);
  }
}

py_value decode_granite(const std::string& result) {
  py_value::items_t out;
  for (const auto& part : split(result, "<function_call>")) {
    std::string call(python_strip(part));
    if (call.empty()) continue;
    py_value parsed;
    try {
      parsed = json_loads(py_value::string(call));
    } catch (const decode_error&) {
      out.push_back(py_value::string(call));
      continue;
    }
    if (!parsed.is_dict()) throw decode_error("'" + std::string(parsed.type_name()) + "' object has no attribute 'get'");
    const py_value* name = parsed.find("name");
    std::string fn = name ? std::string(python_strip(text_of(*name))) : "";
    const py_value* args = parsed.find("arguments");
    if (fn == "no_function") {
      out.push_back(py_value::string("No function is called"));
      continue;
    }
    out.push_back(single(py_value::string(fn), args ? *args : py_value::dict()));
  }
  return py_value::list(std::move(out));
}

py_value decode_xlam(const std::string& result) {
  py_value data;
  try {
    data = json_loads(py_value::string(result));
  } catch (const decode_error&) {
    return py_value::string(result);
  }
  py_value::items_t calls;
  if (data.is_list()) {
    calls = data.items();
  } else if (data.is_dict()) {
    const py_value* tc = data.find("tool_calls");
    if (tc) {
      if (tc->is_list() || tc->is(pk::tuple) || tc->is(pk::set)) calls = tc->items();
      else if (tc->is_dict()) for (const auto& [k, _] : tc->entries()) calls.push_back(k);
      else if (!tc->is_str()) throw decode_error("'" + std::string(tc->type_name()) + "' object is not iterable");
    }
  } else {
    throw decode_error("'" + std::string(data.type_name()) + "' object has no attribute 'get'");
  }
  py_value::items_t out;
  for (const auto& call : calls) {
    if (!call.is_dict()) continue;
    const py_value* name = call.find("name");
    const py_value* args = call.find("arguments");
    out.push_back(single(name ? *name : py_value::string(""), args ? *args : py_value::dict()));
  }
  return py_value::list(std::move(out));
}

}  // namespace

py_value json_loads(const py_value& text) {
  if (!text.is_str())
    throw decode_error("the JSON object must be str, bytes or bytearray, not " + std::string(text.type_name()));
  auto parsed = parse_json(text.as_str());
  if (!parsed) throw decode_error("Expecting value: " + parsed.error().message);
  return py_value::from_json(*parsed);
}

std::optional<handler> handler_for_model(std::string_view folder_name) {
  std::string model = escaped(folder_name);
  for (const auto& m : models)
    if (m.name == model) return handler{m.family, model, underscore_to_dot(model)};
  return std::nullopt;
}

std::optional<handler> handler_for_format(std::string_view family, std::string_view model) {
  for (const auto& f : families)
    if (f.name == family) {
      std::string m = escaped(model);
      return handler{f.family, m, underscore_to_dot(m)};
    }
  return std::nullopt;
}

std::vector<std::string> known_models() {
  std::vector<std::string> out;
  for (const auto& m : models) out.emplace_back(m.name);
  return out;
}

std::vector<std::string> known_formats() {
  std::vector<std::string> out;
  for (const auto& f : families) out.emplace_back(f.name);
  return out;
}

py_value decode_ast(const handler& h, const py_value& result, language lang) {
  bool fc = h.model.find("FC") != std::string::npos;
  switch (h.family) {
    case decoder::gorilla: return ast_parse("[" + text_of(result) + "]", lang);
    case decoder::openai:
    case decoder::claude_fc:
    case decoder::yi:
      if (h.family != decoder::yi && !fc) return ast_parse(text_of(result), lang);
      return decode_fc(result, true);
    case decoder::native: return decode_fc(result, true);
    case decoder::claude_prompt:
    case decoder::oss:
    case decoder::pythonic: {
      std::string func = text_of(result);
      if (func.empty()) throw decode_error("string index out of range");
      if (func[0] == ' ') func.erase(0, 1);
      return ast_parse(bracketed(func), lang);
    }
    case decoder::mistral:
      if (fc) return decode_fc(result, true);
      return ast_parse(bracketed(replace_all(text_of(result), "\\_", "_")), lang);
    case decoder::nexus: {
      std::string r = text_of(result);
      if (ends_with(r, ";")) r.pop_back();
      r = replace_all(r, ";", ",");
      py_value decoded = ast_parse("[" + r + "]", lang);
      if (r.find("out_of_domain") != std::string::npos) return py_value::string("irrelevant");
      return decoded;
    }
    case decoder::gemini:
      return decode_fc(result.is_list() ? result : py_value::list({result}), true);
    case decoder::gemma: {
      const std::string& r = text_of(result);
      auto open = r.find('[');
      auto close = r.rfind(']');
      if (open == std::string::npos || close == std::string::npos || close < open)
        throw decode_error("'NoneType' object has no attribute 'group'");
      return ast_parse("[" + r.substr(open + 1, close - open - 1) + "]", lang);
    }
    case decoder::glaive: {
      auto parts = split(text_of(result), "<functioncall>");
      py_value decoded = json_loads(py_value::string(replace_all(parts.back(), "'", "")));
      py_value* arguments = decoded.find("arguments");
      if (!arguments) throw decode_error("'arguments'");
      if (lang != language::python) stringify_arguments(*arguments);
      const py_value* name = decoded.find("name");
      if (!name) throw decode_error("'name'");
      return py_value::list({single(*name, *arguments)});
    }
    case decoder::deepseek: {
      auto parts = split(text_of(result), "```");
      if (parts.size() < 2) throw decode_error("list index out of range");
      auto open = parts[1].find('[');
      auto close = open == std::string::npos ? open : parts[1].find(']', open);
      if (close == std::string::npos) throw decode_error("list index out of range");
      return ast_parse(parts[1].substr(open, close - open + 1), lang);
    }
    case decoder::databricks: return decode_databricks(text_of(result), lang);
    case decoder::hermes: return decode_hermes(text_of(result), lang);
    case decoder::llama: return ast_parse(bracketed(replace_all(text_of(result), "\n", "")), lang);
    case decoder::cohere:
      if (!fc) return ast_parse(bracketed(text_of(result)), lang);
      return decode_fc(result, false);
    case decoder::arctic:
    case decoder::nvidia: return decode_arctic(text_of(result), lang);
    case decoder::granite: return decode_granite(text_of(result));
    case decoder::glm: {
      auto lines = split(text_of(result), "\n");
      if (lines.size() == 1) return py_value::list({py_value::string(lines[0])});
      return py_value::list({single(py_value::string(lines[0]), json_loads(py_value::string(lines[1])))});
    }
    case decoder::xlam: return decode_xlam(text_of(result));
  }
  return {};
}

}  // namespace tooluse::eval::detail
