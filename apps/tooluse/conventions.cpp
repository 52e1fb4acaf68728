#include "conventions.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <iterator>

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

const CLI::Option* find_option(CLI::App& app, const std::string& token) {
  for (const auto* opt : app.get_options())
    if (!opt->get_positional() && opt->check_name(token)) return opt;
  return nullptr;
}

std::string path_of(const CLI::App& app) {
  std::string path = app.get_name();
  for (const auto* p = app.get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
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
        std::cerr << "tooluse: unknown flag " << name << " for \"" << path_of(*cur) << "\""
                  << (best.empty() ? "" : "; did you mean " + best + "?") << "\nRun '"
                  << path_of(*cur) << " --help' for its flags.\n";
        return 2;
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
    std::cerr << "tooluse: unknown command \"" << tok << "\" for \"" << path_of(*cur) << "\""
              << (best.empty() ? "" : "; did you mean \"" + best + "\"?") << "\nRun '"
              << path_of(*cur) << " --help' for its commands.\n";
    return 2;
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
  auto j = parse_json(text);
  if (!j) return fail(errc::invalid_argument, where + " is not valid JSON: " + j.error().message);
  if (!j->is_object()) return fail(errc::invalid_argument, where + " is not a JSON object");
  return *j;
}

}  // namespace

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
    return object_from(words[0], "the arguments");
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
