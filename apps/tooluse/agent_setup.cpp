#include "agent_setup.hpp"

#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "conventions.hpp"
#include "tooluse/llm/record_replay.hpp"
#include "tooluse/schema/translate.hpp"
#include "tooluse/textcall/prompt_provider.hpp"

namespace tooluse::cli {
namespace {

// load_dotenv sets KEY=VALUE lines of ./.env that are not already in the environment
// (python-dotenv's default, as the seeds use it). Values are never printed.
void load_dotenv() {
  std::ifstream in(".env");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("export ", 0) == 0) line = line.substr(7);
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    while (!key.empty() && key.back() == ' ') key.pop_back();
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.pop_back();
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    ::setenv(key.c_str(), value.c_str(), 0);
  }
}

std::string env(const std::string& name) {
  const char* v = name.empty() ? nullptr : std::getenv(name.c_str());
  return v ? v : "";
}

std::string default_config_path() {
  if (auto xdg = env("XDG_CONFIG_HOME"); !xdg.empty()) return xdg + "/tooluse/config.toml";
  if (auto home = env("HOME"); !home.empty()) return home + "/.config/tooluse/config.toml";
  return "";
}

template <class T>
void fill(std::optional<T>& field, const toml::table& t, const char* key) {
  if (!field)
    if (auto v = t[key].value<T>()) field = *v;
}

void fill(std::string& field, const toml::table& t, const char* key) {
  if (field.empty())
    if (auto v = t[key].value<std::string>()) field = *v;
}

// The config's schema: each key and the TOML type it takes.
enum class kind { string, integer, number, boolean };
const std::map<std::string, kind>& top_level_keys() {
  static const std::map<std::string, kind> keys = {
      {"provider", kind::string},    {"base_url", kind::string},    {"model", kind::string},
      {"api_key_env", kind::string}, {"system", kind::string},      {"tool_choice", kind::string},
      {"tools", kind::string},       {"tool_format", kind::string}, {"max_turns", kind::integer},
      {"max_tokens", kind::integer}, {"max_cost", kind::number},    {"stream", kind::boolean}};
  return keys;
}
const std::map<std::string, kind>& provider_keys() {
  static const std::map<std::string, kind> keys = {
      {"base_url", kind::string}, {"model", kind::string}, {"api_key_env", kind::string}};
  return keys;
}
const std::vector<std::string>& provider_tables() {
  static const std::vector<std::string> names = {"openai", "anthropic", "gemini",
                                                 "openai-responses"};
  return names;
}

const char* kind_name(kind k) {
  switch (k) {
    case kind::string:
      return "a string";
    case kind::integer:
      return "an integer";
    case kind::number:
      return "a number";
    case kind::boolean:
      return "true or false";
  }
  return "?";
}

bool has_kind(const toml::node& n, kind k) {
  switch (k) {
    case kind::string:
      return n.is_string();
    case kind::integer:
      return n.is_integer();
    case kind::number:
      return n.is_integer() || n.is_floating_point();
    case kind::boolean:
      return n.is_boolean();
  }
  return false;
}

std::string where(const std::string& path, const toml::node& n) {
  return "config \"" + path + "\" line " + std::to_string(n.source().begin.line) + ": ";
}

std::vector<std::string> names_of(const std::map<std::string, kind>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}

// check_table reports the first unknown key or wrongly typed value of `t`.
status check_table(const toml::table& t, const std::map<std::string, kind>& keys,
                   const std::string& path, const std::string& prefix, bool allow_providers) {
  for (const auto& [key_view, node] : t) {
    std::string key(key_view.str());
    if (allow_providers && std::find(provider_tables().begin(), provider_tables().end(), key) !=
                               provider_tables().end()) {
      const auto* section = node.as_table();
      if (!section)
        return fail(
            errc::invalid_argument,
            where(path, node) + "[" + key + "] must be a table of base_url, model, api_key_env");
      if (auto ok = check_table(*section, provider_keys(), path, key + ".", false); !ok) return ok;
      continue;
    }
    auto it = keys.find(key);
    if (it == keys.end()) {
      auto candidates = names_of(keys);
      if (allow_providers)
        candidates.insert(candidates.end(), provider_tables().begin(), provider_tables().end());
      auto best = closest(key, candidates);
      return fail(errc::invalid_argument,
                  where(path, node) + "unknown key \"" + prefix + key + "\"" +
                      (best.empty() ? "" : "; did you mean \"" + prefix + best + "\"?") +
                      " (known keys: see docs/cli.md, \"Config file\")");
    }
    if (!has_kind(node, it->second)) {
      std::ostringstream got;
      if (auto str = node.value<std::string>())
        got << "the string \"" << *str << "\"";
      else if (node.is_table())
        got << "a table";
      else
        node.visit([&](auto&& v) { got << v; });
      return fail(errc::invalid_argument, where(path, node) + prefix + key + " must be " +
                                              kind_name(it->second) + ", got " + got.str());
    }
  }
  return {};
}

status apply_config(model_flags& f, registry_flags& r) {
  bool explicit_path = !f.config.empty();
  std::string path = explicit_path ? f.config : default_config_path();
  if (path.empty() || (!explicit_path && !std::filesystem::exists(path))) return {};
  if (explicit_path && !std::filesystem::exists(path))
    return fail(errc::invalid_argument, "--config \"" + path + "\": no such file");
  toml::table t;
  try {
    t = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    return fail(errc::parse_error, "config \"" + path + "\" line " +
                                       std::to_string(e.source().begin.line) + ": " +
                                       std::string(e.description()));
  }
  if (auto ok = check_table(t, top_level_keys(), path, "", true); !ok) return ok;
  fill(f.provider, t, "provider");
  if (const auto* section = t[f.provider.empty() ? "openai" : f.provider].as_table()) {
    fill(f.base_url, *section, "base_url");
    fill(f.model, *section, "model");
    fill(f.api_key_env, *section, "api_key_env");
  }
  fill(f.base_url, t, "base_url");
  fill(f.model, t, "model");
  fill(f.api_key_env, t, "api_key_env");
  fill(f.system, t, "system");
  fill(f.tool_choice, t, "tool_choice");
  fill(f.tool_format, t, "tool_format");
  fill(f.max_turns, t, "max_turns");
  fill(f.max_tokens, t, "max_tokens");
  if (!f.max_cost)
    if (auto v = t["max_cost"].value<double>()) f.max_cost = *v;
  if (!f.stream && !f.no_stream)
    if (auto s = t["stream"].value<bool>()) (*s ? f.stream : f.no_stream) = true;
  fill(r.tools, t, "tools");
  return {};
}

const char* how_to_configure =
    "no model provider is configured. Do one of:\n"
    "  export OPENAI_API_KEY=sk-...          # OpenAI (or put it in ./.env)\n"
    "  export ANTHROPIC_API_KEY=sk-ant-...   # Anthropic\n"
    "  export GEMINI_API_KEY=...             # Gemini\n"
    "  tooluse run --provider openai --base-url http://localhost:11434/v1 --model qwen3 ...\n"
    "                                        # any OpenAI-compatible server (Ollama, vLLM, ...)\n"
    "or write ~/.config/tooluse/config.toml, e.g.\n"
    "  provider = \"openai\"\n  model = \"gpt-4.1-mini\"\n  api_key_env = \"OPENAI_API_KEY\"\n"
    "(see docs/cli.md, \"tooluse run\")";

bool is_local(const std::string& url) {
  return url.find("://127.") != std::string::npos ||
         url.find("://localhost") != std::string::npos || url.find("://[::1]") != std::string::npos;
}

}  // namespace

void add_model_flags(CLI::App& cmd, model_flags& f) {
  cmd.add_option("--provider", f.provider,
                 "Model API: openai (Chat Completions, and compatible servers), openai-responses, "
                 "anthropic or gemini")
      ->check(CLI::IsMember(provider_names()));
  cmd.add_option("--base-url", f.base_url,
                 "API base URL as the provider's SDK takes it (https://api.openai.com/v1, "
                 "https://api.anthropic.com)");
  cmd.add_option("--model", f.model, "Model name");
  cmd.add_option("--api-key-env", f.api_key_env,
                 "Environment variable holding the API key (default OPENAI_API_KEY, "
                 "ANTHROPIC_API_KEY, or GEMINI_API_KEY then GOOGLE_API_KEY; ./.env is read too)");
  cmd.add_option("--config", f.config, "TOML config file (default ~/.config/tooluse/config.toml)");
  cmd.add_option("--system", f.system, "System prompt");
  auto* choice = cmd.add_option("--tool-choice", f.tool_choice,
                                "auto, none, required, or a tool name (applies to the first "
                                "request)");
  complete_with(choice, {"auto", "none", "required"});
  complete_with(choice, value_source::tool_names);
  cmd.add_option("--max-turns", f.max_turns, "Model requests per run (default 10)");
  cmd.add_option("--max-tokens", f.max_tokens, "Output token limit per request");
  cmd.add_option("--max-cost", f.max_cost,
                 "Cost budget per run (USD): stop before a request whose estimated cost would "
                 "pass it (needs the model's price, see --prices)");
  cmd.add_flag("--stream", f.stream, "Stream the answer (default)");
  cmd.add_flag("--no-stream", f.no_stream, "Ask for the whole answer at once");
  cmd.add_flag("--no-parallel", f.no_parallel, "Ask the model for one tool call at a time");
  cmd.add_flag("--strict", f.strict,
               "OpenAI strict mode for tool schemas; keywords strict mode rejects are left out "
               "of what the model sees (calls are still checked against the full schema)");
  add_yes_flag(cmd, f.yes);
  cmd.add_option("--record", f.record, "Record the HTTP exchanges to FILE (JSON Lines)");
  cmd.add_option("--replay", f.replay, "Replay HTTP exchanges from FILE instead of the network");
  add_provider_flags(cmd, f.extras);
  complete_with(
      cmd.add_option("--tool-format", f.tool_format,
                     "Prompt-based tool calling for models without native tools: hermes, "
                     "pythonic, json, mistral, llama3, granite, qwen3-coder, deepseek, harmony, "
                     "..., or auto (tools are described in the system prompt, calls parsed from "
                     "the text)"),
      text_format_names());
}

result<resolved_model> resolve_model(model_flags& f, registry_flags& r) {
  load_dotenv();
  const bool base_url_flag = !f.base_url.empty();
  if (auto s = apply_config(f, r); !s) return fail(s.error());
  if (f.provider.empty()) {
    if (!env("OPENAI_API_KEY").empty() || !f.base_url.empty() || !env("OPENAI_BASE_URL").empty())
      f.provider = "openai";
    else if (!env("ANTHROPIC_API_KEY").empty() || !env("ANTHROPIC_BASE_URL").empty())
      f.provider = "anthropic";
    else if (!env("GEMINI_API_KEY").empty() || !env("GOOGLE_API_KEY").empty())
      f.provider = "gemini";
    else if (f.replay.empty())
      return fail(errc::invalid_argument, how_to_configure);
    else
      f.provider = "openai";
  }
  auto defaults = defaults_for(f.provider);
  // As the official SDKs: OPENAI_BASE_URL / ANTHROPIC_BASE_URL unless --base-url says otherwise
  // (flags > environment > config file > defaults).
  std::string base_url_source = base_url_flag ? "--base-url" : "the config's base_url";
  if (!base_url_flag) {
    const char* var = f.provider == "anthropic"          ? "ANTHROPIC_BASE_URL"
                      : f.provider.rfind("openai", 0) == 0 ? "OPENAI_BASE_URL"
                                                          : "";
    if (auto v = env(var); !v.empty()) f.base_url = v, base_url_source = var;
  }
  if (f.base_url.empty()) f.base_url = defaults.base_url;
  if (f.base_url.find("://") == std::string::npos)
    return fail(errc::invalid_argument,
                base_url_source + " \"" + f.base_url +
                    "\" has no scheme; add http:// or https://, e.g. " +
                    (is_local("http://" + f.base_url) ? "http://" : "https://") + f.base_url);
  if (f.model.empty()) f.model = defaults.model;
  if (f.api_key_env.empty()) {
    f.api_key_env = defaults.key_envs.front();
    for (const auto& name : defaults.key_envs)
      if (!env(name).empty()) {
        f.api_key_env = name;
        break;
      }
  }
  llm::provider_options po{.base_url = f.base_url, .api_key = env(f.api_key_env), .model = f.model};
  auto prices = load_prices(f.extras.prices);
  if (!prices) return fail(prices.error());
  po.price = prices->find(f.model);
  if (po.api_key.empty() && f.replay.empty() && !is_local(f.base_url))
    return fail(errc::invalid_argument, "the API key variable " + f.api_key_env +
                                            " is not set; export it, add it to ./.env, "
                                            "or name another variable with --api-key-env");
  if (!f.replay.empty()) {
    auto t = llm::replay_transport(f.replay);
    if (!t) return fail(t.error());
    po.transport = *t;
  } else if (!f.record.empty()) {
    auto t = llm::record_transport(f.record, {});
    if (!t) return fail(t.error());
    po.transport = *t;
  }
  resolved_model out;
  out.price = po.price;
  out.provider = make_provider(f.provider, po);
  if (!f.tool_format.empty()) {
    auto fmt = textcall::parse_format(f.tool_format);
    if (!fmt) return fail(errc::invalid_argument, "--tool-format: " + fmt.error().message);
    // "auto" announces tools in the Hermes syntax (the most widely trained) and reads any.
    auto announce = *fmt == textcall::format::auto_detect ? textcall::format::hermes : *fmt;
    out.provider = std::make_unique<textcall::prompt_provider>(
        std::shared_ptr<llm::provider>(std::move(out.provider)),
        textcall::prompt_provider_options{.text_format = announce});
  }
  out.options = {.system = f.system,
                 .max_turns = f.max_turns.value_or(10),
                 .choice = llm::tool_choice::parse(f.tool_choice),
                 .strict = f.strict,
                 .stream = !f.no_stream,
                 .max_tokens = f.max_tokens,
                 .max_cost = f.max_cost.value_or(0)};
  if (f.no_parallel) out.options.parallel_tool_calls = false;
  if (auto ok = apply_extras(f.extras, out.price, f.model, out.options); !ok)
    return fail(ok.error());
  if (out.options.max_turns < 1) return fail(errc::invalid_argument, "--max-turns must be >= 1");
  return out;
}

status check_tool_choice(const model_flags& f, const tool_registry& registry) {
  const auto& c = f.tool_choice;
  if (c.empty() || c == "auto" || c == "none" || c == "required" || c == "any" || registry.find(c))
    return {};
  auto names = registry.names();
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  auto best = closest(c, names);
  return fail(errc::invalid_argument, "--tool-choice \"" + c +
                                          "\" is not auto, none, required or an offered tool" +
                                          (best.empty() ? "" : "; did you mean \"" + best + "\"?") +
                                          "\noffered tools: " + list);
}

void note_strict_drops(const model_flags& f, const tool_registry& registry) {
  if (!f.strict) return;
  for (const auto& e : registry.list()) {
    const tool& t = e->definition;
    auto strict = schema::export_tool({.name = t.name, .description = t.description,
                                       .input_schema = t.input_schema},
                                      schema::export_target::openai_strict, "",
                                      {.drop_unsupported = false});
    if (!strict)
      std::cerr << "tooluse: note: --strict: the model sees tool \"" << t.name
                << "\" without what strict mode cannot express (" << strict.error().message
                << "); its calls are still checked against the full schema\n";
  }
}

exec::event_callback progress_lines(tool_spinner* spinner) {
  if (!stderr_is_terminal()) return {};
  return [spinner](const exec::call_event& e) {
    if (e.kind != exec::event_kind::progress || !e.progress || !e.call) return;
    auto number = [](double v) {
      std::string s = std::to_string(v);
      s.erase(s.find_last_not_of('0') + 1);
      if (!s.empty() && s.back() == '.') s.pop_back();
      return s;
    };
    std::string line = "[progress] " + e.call->name + " " + number(e.progress->progress);
    if (e.progress->total) line += "/" + number(*e.progress->total);
    if (!e.progress->message.empty()) line += " " + one_line(e.progress->message, 120);
    spinner->print(line + "\n");
  };
}

json trace_header(const std::string& question, const model_flags& f,
                  const tool_registry& registry) {
  json tools = json::array();
  for (const auto& n : registry.names()) tools.push_back(n);
  return {{"event", "run"},
          {"question", question},
          {"provider", f.provider},
          {"model", f.model},
          {"tools", tools}};
}

void write_trace_line(std::ostream& out, json j) {
  j["ts"] = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count() /
            1000.0;
  out << dump_json(j) << "\n" << std::flush;
}

exec::approval_policy approval_prompt(bool yes, tool_spinner* spinner) {
  return [yes, spinner](const exec::approval_request& req) {
    if (yes) return exec::approval_decision::approve();
    if (!::isatty(STDIN_FILENO))
      return exec::approval_decision::reject("the user did not approve \"" + req.definition.name +
                                             "\" (no terminal to ask on; the user can pass --yes)");
    // Parallel calls may ask at the same time: one question on the terminal at a time. The
    // terminal is in its normal (cooked) mode here: readline only changes it inside readline().
    static std::mutex asking;
    std::lock_guard lock(asking);
    if (spinner) spinner->suspend();
    std::cerr << "\nallow " << req.definition.name << " " << dump_json(req.call.arguments)
              << "? [y/N] " << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    if (spinner) spinner->resume();
    if (!answer.empty() && (answer[0] == 'y' || answer[0] == 'Y'))
      return exec::approval_decision::approve();
    return exec::approval_decision::reject("the user refused to run \"" + req.definition.name +
                                           "\"");
  };
}

std::unique_ptr<tool_spinner> make_stderr_spinner() {
  return std::make_unique<tool_spinner>(
      tool_spinner_options{.out = &std::cerr, .terminal = ::isatty(STDERR_FILENO) == 1});
}

std::string one_line(std::string s, size_t n) {
  for (auto& c : s)
    if (c == '\n') c = ' ';
  return s.size() > n ? s.substr(0, n) + "..." : s;
}

std::string tool_call_line(const agent_event& e) {
  const auto& c = *e.call;
  return "[tool] " + c.name + " " +
         one_line(c.arguments.is_null() ? c.raw_arguments : dump_json(c.arguments)) + "\n";
}

std::string tool_result_line(const agent_event& e) {
  return "[tool] " + e.call->name + (e.result->is_error ? " failed: " : " -> ") +
         one_line(e.result->all_text()) + " (" + std::to_string(e.duration.count()) + " ms)\n";
}

std::string usage_summary(const llm::usage& u, bool priced) {
  auto count = [](long long n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  std::string line =
      "[usage] " + count(u.requests, "request") + ", " + count(u.input_tokens, "input token");
  if (u.cache_read_tokens) line += " (" + std::to_string(u.cache_read_tokens) + " cached)";
  line += ", " + count(u.output_tokens, "output token") + ", cost ";
  if (!priced) return line + "unknown (the model is not in the price catalog; see --prices)\n";
  char buf[32];
  std::snprintf(buf, sizeof buf, "$%.6f", u.cost);
  return line + buf + "\n";
}

}  // namespace tooluse::cli
