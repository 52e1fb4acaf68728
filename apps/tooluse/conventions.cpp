#include "conventions.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <iterator>

#include "errors.hpp"

namespace tooluse::cli {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> subcommand_names(CLI::App& app) {
  std::vector<std::string> out;
  for (auto* sub : app.get_subcommands([](CLI::App* s) { return !s->get_name().empty(); }))
    out.push_back(sub->get_name());
  return out;
}

CLI::App* find_subcommand(CLI::App& app, const std::string& name) {
  for (auto* sub : app.get_subcommands([](CLI::App* s) { return !s->get_name().empty(); }))
    if (sub->check_name(name)) return sub;
  return nullptr;
}

// find_option looks in `app` and, for a command that lets options fall through to its group
// (`index search x --index FILE`), in the groups above it.
const CLI::Option* find_option(CLI::App& app, const std::string& token) {
  for (CLI::App* a = &app; a; a = a->get_fallthrough() ? a->get_parent() : nullptr)
    for (const auto* opt : a->get_options())
      if (!opt->get_positional() && opt->check_name(token)) return opt;
  return nullptr;
}

}  // namespace

std::string closest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::string::npos;
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (word.size() >= 3 && (c.rfind(word, 0) == 0 || std::string_view(word).rfind(c, 0) == 0))
      d = std::min(d, size_t{1});
    if (d <= limit && d < best_d) best = c, best_d = d;
  }
  return best;
}

int check_spelling(CLI::App& app, int argc, const char* const* argv) {
  CLI::App* cur = &app;
  for (int i = 1; i < argc; ++i) {
    std::string tok = argv[i];
    if (tok == "--") break;
    if (tok.rfind("--", 0) == 0) {
      std::string name = tok.substr(0, tok.find('='));
      const auto* opt = find_option(*cur, name);
      if (!opt) {
        std::vector<std::string> names;
        for (const auto* o : cur->get_options())
          for (const auto& l : o->get_lnames()) names.push_back("--" + l);
        auto best = closest(name, names);
        return report_error(exit_status::usage,
                            "unknown flag " + name + " for \"" + command_path(*cur) + "\"" +
                                (best.empty() ? "" : "; did you mean " + best + "?"),
                            "Run '" + command_path(*cur) + " --help' for its flags.");
      }
      if (opt->get_items_expected_max() > 0 && tok.find('=') == std::string::npos) ++i;
      continue;
    }
    if (tok.size() == 2 && tok[0] == '-' && tok[1] != '-') {
      if (const auto* opt = find_option(*cur, tok); opt && opt->get_items_expected_max() > 0) ++i;
      continue;
    }
    if (tok.size() > 1 && tok[0] == '-') continue;
    if (auto* sub = find_subcommand(*cur, tok)) {
      cur = sub;
      continue;
    }
    auto subs = subcommand_names(*cur);
    bool has_positional = false;
    for (const auto* o : cur->get_options())
      if (o->get_positional()) has_positional = true;
    if (subs.empty() || has_positional) continue;
    auto best = closest(tok, subs);
    return report_error(exit_status::usage,
                        "unknown command \"" + tok + "\" for \"" + command_path(*cur) + "\"" +
                            (best.empty() ? "" : "; did you mean \"" + best + "\"?"),
                        "Run '" + command_path(*cur) + " --help' for its commands.");
  }
  return -1;
}

result<std::chrono::milliseconds> parse_duration(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return fail(errc::invalid_argument, "\"" + std::string(text) + "\" " + why +
                                            "; write a duration with a unit: 500ms, 2s, 1m, 1h");
  };
  if (text == "0") return std::chrono::milliseconds(0);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return bad("is not a duration");
  std::string_view unit(end, static_cast<size_t>(text.data() + text.size() - end));
  double ms = 0;
  if (unit == "ms")
    ms = value;
  else if (unit == "s")
    ms = value * 1000;
  else if (unit == "m")
    ms = value * 60'000;
  else if (unit == "h")
    ms = value * 3'600'000;
  else if (unit.empty())
    return bad("has no unit");
  else
    return bad("has an unknown unit \"" + std::string(unit) + "\"");
  if (value < 0 || !std::isfinite(ms)) return bad("is not a positive duration");
  return std::chrono::milliseconds(static_cast<long long>(std::llround(ms)));
}

std::string format_duration(std::chrono::milliseconds d) {
  auto n = d.count();
  if (n == 0) return "0";
  if (n % 3'600'000 == 0) return std::to_string(n / 3'600'000) + "h";
  if (n % 60'000 == 0) return std::to_string(n / 60'000) + "m";
  if (n % 1000 == 0) return std::to_string(n / 1000) + "s";
  return std::to_string(n) + "ms";
}

CLI::Option* add_duration_option(CLI::App& cmd, const std::string& name,
                                 std::chrono::milliseconds& out, const std::string& help) {
  auto* opt = cmd.add_option_function<std::string>(
      name,
      [&out, name](const std::string& text) {
        auto d = parse_duration(text);
        if (!d) throw CLI::ValidationError(name, d.error().message);
        out = *d;
      },
      help + " (default " + format_duration(out) + ")");
  opt->type_name("DURATION");
  return opt;
}

namespace {

std::string property_type(const json& schema, const std::string& key) {
  if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object() ||
      !schema["properties"].contains(key))
    return "";
  const json& prop = schema["properties"][key];
  const json type = prop.is_object() ? prop.value("type", json()) : json();
  if (type.is_string()) return type.get<std::string>();
  if (type.is_array())
    for (const auto& t : type)
      if (t.is_string() && t != "null") return t.get<std::string>();
  return "";
}

result<json> typed_value(const std::string& type, const std::string& key, const std::string& text) {
  if (type == "string") return json(text);
  auto parsed = parse_json(text);
  if (type.empty()) return parsed && !parsed->is_string() ? *parsed : json(text);
  const bool ok =
      parsed &&
      ((type == "integer" && parsed->is_number_integer()) ||
       (type == "number" && parsed->is_number()) || (type == "boolean" && parsed->is_boolean()) ||
       (type == "object" && parsed->is_object()) || (type == "array" && parsed->is_array()) ||
       (type == "null" && parsed->is_null()));
  if (!ok)
    return fail(errc::invalid_argument, "argument " + key + "=" + text + ": expected " + type);
  return *parsed;
}

result<json> object_from(const std::string& text, const std::string& where) {
  auto j = parse_user_json(text, where);
  if (!j)
    return fail(errc::invalid_argument,
                j.error().message +
                    "\nWrite a JSON object with quoted keys and strings ('{\"name\": \"Ada\", "
                    "\"n\": 2}'), or key=value pairs (name=Ada n=2).");
  if (!j->is_object()) return fail(errc::invalid_argument, where + " is not a JSON object");
  return *j;
}

// json_problem says in words what the parser found wrong, from nlohmann's message (which never
// reaches the user).
std::string json_problem(const std::string& what, bool at_end) {
  auto has = [&](const char* s) { return what.find(s) != std::string::npos; };
  if (at_end || has("unexpected end of input"))
    return "the text ends before the JSON does (a missing }, ] or \")";
  if (has("expected end of input")) return "unexpected text after the end of the JSON";
  if (has("invalid string"))
    return "a string is broken (not closed, a raw line break or a bad \\ escape)";
  if (has("invalid number")) return "a number is malformed";
  if (has("while parsing object key")) return "a key must be a \"quoted string\"";
  if (has("while parsing object separator")) return "expected ':' after the key";
  if (has("while parsing object")) return "expected ',' or '}' after a value";
  if (has("while parsing array")) return "expected ',' or ']' after a value";
  if (has("invalid literal"))
    return "expected a value: a number, a \"quoted string\", true, false, null, {...} or [...]";
  return "unexpected character";
}

// excerpt is the line holding byte `at` (0-based), cut to about 60 characters around it, and
// a caret under that byte, each line indented by two spaces.
std::string excerpt(std::string_view text, size_t at, size_t& line_no, size_t& column) {
  size_t begin = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  size_t end = text.find('\n', at);
  if (end == std::string_view::npos) end = text.size();
  line_no = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + begin, '\n'));
  column = at - begin + 1;
  size_t from = at - begin > 40 ? at - 40 : begin;
  size_t to = std::min(end, from + 60);
  std::string line(text.substr(from, to - from));
  for (auto& c : line)
    if (c == '\t' || c == '\r') c = ' ';
  return "  " + (from > begin ? "..." + line : line) + (to < end ? "..." : "") + "\n  " +
         std::string(at - from + (from > begin ? 3 : 0), ' ') + "^";
}

}  // namespace

result<json> parse_user_json(std::string_view text, const std::string& what) {
  auto j = parse_json(text);
  if (j) return j;
  if (j.error().code != errc::parse_error)
    return fail(errc::invalid_argument, what + ": " + j.error().message);
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return fail(errc::invalid_argument, what + " is empty; expected JSON");
  // Only the position and the kind of mistake are taken from the parser.
  size_t byte = 0;
  std::string detail;
  try {
    [[maybe_unused]] json parsed = json::parse(text);
  } catch (const json::parse_error& e) {
    byte = e.byte;
    detail = e.what();
  } catch (const std::exception& e) {
    detail = e.what();
  }
  size_t at = byte > 0 ? byte - 1 : 0;
  const bool at_end = at >= text.size();
  // At the end, point just after the last character rather than at a trailing line break.
  if (at_end) at = text.find_last_not_of(" \t\r\n") + 1;
  size_t line = 1, column = 1;
  std::string shown = excerpt(text, at, line, column);
  return fail(errc::invalid_argument, what + " is not valid JSON: " + json_problem(detail, at_end) +
                                          " (line " + std::to_string(line) + ", column " +
                                          std::to_string(column) + ")\n" + shown);
}

const char* const tool_arguments_help =
    "Tool arguments: a JSON object ('{\"a\": 1}'), key=value pairs typed by the tool's input\n"
    "schema (a=2 name=Ada tags='[\"x\"]'), or - to read a JSON object from stdin.";

result<json> parse_tool_arguments(const std::vector<std::string>& words, const json& schema) {
  if (words.empty()) return json::object();
  if (words.size() == 1 && words[0] == "-") {
    std::string text(std::istreambuf_iterator<char>(std::cin), {});
    return object_from(text, "stdin");
  }
  if (words.size() == 1 && !words[0].empty() &&
      words[0].find_first_not_of(" \t\n") != std::string::npos &&
      words[0][words[0].find_first_not_of(" \t\n")] == '{')
    return object_from(words[0], "the argument");
  json out = json::object();
  for (const auto& a : words) {
    auto eq = a.find('=');
    if (a == "-" || eq == std::string::npos || eq == 0)
      return fail(errc::invalid_argument,
                  "expected a JSON object, key=value pairs or - (stdin), got \"" + a + "\"");
    auto key = a.substr(0, eq);
    auto value = typed_value(property_type(schema, key), key, a.substr(eq + 1));
    if (!value) return fail(value.error());
    out[key] = *value;
  }
  return out;
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace tooluse::cli
