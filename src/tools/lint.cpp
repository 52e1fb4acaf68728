#include "tooluse/tools/lint.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <set>

#include "tooluse/text.hpp"

namespace tooluse {
namespace {

using sev = lint_finding::severity;

bool has_any(const std::string& text, std::initializer_list<const char*> words) {
  std::string t = ascii_lower(text);
  return std::any_of(words.begin(), words.end(),
                     [&](const char* w) { return t.find(w) != std::string::npos; });
}

bool has_word(const std::string& text, const std::vector<std::string>& words) {
  static const std::regex word_re("[a-z0-9]+");
  std::string t = ascii_lower(text);
  for (auto it = std::sregex_iterator(t.begin(), t.end(), word_re); it != std::sregex_iterator();
       ++it)
    if (std::find(words.begin(), words.end(), it->str()) != words.end()) return true;
  return false;
}

// string_field reads j[key] when it is a string; "" otherwise (lint reads any definition,
// including ones with mistyped fields, and must report rather than throw).
std::string string_field(const json& j, const char* key) {
  if (!j.is_object()) return {};
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::set<std::string> content_words(const std::string& text) {
  static const std::set<std::string> stop = {
      "the",  "a",     "an", "and",  "or",   "of",  "to",   "in",      "for",    "on",
      "with", "is",    "it", "this", "that", "use", "when", "returns", "return", "as",
      "by",   "from",  "be", "are",  "its",  "if",  "you",  "your",    "can",    "will",
      "tool", "given", "e",  "g",    "not",  "no",  "at",   "into",    "one"};
  static const std::regex word_re("[a-z0-9]+");
  std::set<std::string> out;
  std::string t = ascii_lower(text);
  for (auto it = std::sregex_iterator(t.begin(), t.end(), word_re); it != std::sregex_iterator();
       ++it)
    if (it->str().size() > 2 && !stop.count(it->str())) out.insert(it->str());
  return out;
}

void check_description(const tool& t, std::vector<lint_finding>& out) {
  const std::string& d = t.description;
  if (d.find_first_not_of(" \t\n") == std::string::npos) {
    out.push_back({sev::error, t.name, "", "description-missing",
                   "has no description; say what it does, when to use it and what it returns"});
    return;
  }
  if (d.size() < 40)
    out.push_back({sev::warning, t.name, "", "description-what",
                   "description is too short to say what the tool does (" +
                       std::to_string(d.size()) + " characters)"});
  if (!has_any(d, {"use ", "use it", "when ", "for ", "instead of", "prefer", "only if", "if you",
                   "whenever"}))
    out.push_back({sev::warning, t.name, "", "description-when",
                   "description does not say when to use it (e.g. \"Use when ...\")"});
  if (!has_any(d, {"return", "gives", "outputs", "result", "reports", "prints", "answers with",
                   "responds"}))
    out.push_back({sev::warning, t.name, "", "description-returns",
                   "description does not say what it returns (e.g. \"Returns ...\")"});
}

const std::vector<std::string>& unit_names() {
  static const std::vector<std::string> v = {
      "timeout",     "duration", "delay",          "interval", "wait",     "age",         "ttl",
      "size",        "length",   "width",          "height",   "distance", "radius",      "weight",
      "temperature", "price",    "amount",         "cost",     "budget",   "limit_bytes", "bytes",
      "elapsed",     "period",   "offset_seconds", "speed",    "memory"};
  return v;
}

const std::vector<std::string>& unit_words() {
  static const std::vector<std::string> v = {
      "ms",      "milliseconds", "millisecond", "s",     "sec",     "seconds",    "second",
      "minutes", "minute",       "hours",       "hour",  "days",    "day",        "bytes",
      "byte",    "kb",           "mb",          "gb",    "kib",     "mib",        "km",
      "m",       "meters",       "metres",      "miles", "cm",      "mm",         "kg",
      "g",       "grams",        "pounds",      "lb",    "celsius", "fahrenheit", "kelvin",
      "usd",     "eur",          "dollars",     "cents", "percent", "characters", "chars",
      "tokens",  "pixels",       "px",          "lines", "items",   "results",    "count"};
  return v;
}

void check_parameter(const tool& t, const std::string& name, const json& p,
                     std::vector<lint_finding>& out) {
  if (!p.is_object()) return;
  std::string desc = string_field(p, "description");
  std::string type =
      p.contains("type") && p["type"].is_string() ? p["type"].get<std::string>() : "";
  if (desc.empty() && !p.contains("enum") && !p.contains("$ref"))
    out.push_back({sev::warning, t.name, name, "param-description",
                   "has no description; say what it is and its format"});
  std::vector<std::string> name_parts;
  {
    static const std::regex part("[a-z]+");
    std::string n = ascii_lower(name);
    for (auto it = std::sregex_iterator(n.begin(), n.end(), part); it != std::sregex_iterator();
         ++it)
      name_parts.push_back(it->str());
  }
  auto named = [&](const std::vector<std::string>& words) {
    return std::any_of(name_parts.begin(), name_parts.end(), [&](const std::string& w) {
      return std::find(words.begin(), words.end(), w) != words.end();
    });
  };
  if ((type == "number" || type == "integer") && named(unit_names()) &&
      !has_word(desc + " " + name, unit_words()))
    out.push_back({sev::warning, t.name, name, "param-unit",
                   "is a quantity without a unit; say it in the description (e.g. \"in seconds\") "
                   "or the name"});
  if (type == "string" && !p.contains("format") && !p.contains("pattern") && !p.contains("enum") &&
      named({"date", "time", "datetime", "timestamp", "url", "uri", "email", "uuid", "ip"}) &&
      !has_any(desc, {"iso", "rfc", "yyyy", "format", "http", "e.g.", "example", "like "}))
    out.push_back({sev::warning, t.name, name, "param-format",
                   "is a " + name_parts.back() +
                       " string without a format; add \"format\" or say it (e.g. ISO 8601)"});
  if (type == "string" && !p.contains("enum") && !p.contains("const")) {
    // A closed set named as such ("one of ...", "possible values"), or quoted values joined by
    // "or" ('a', 'b' or 'c'), unless they are only examples.
    static const std::regex phrase(
        R"(\bone of\b|possible values|allowed values|valid values|must be either)");
    static const std::regex alternatives(
        R"(('[^']+'|"[^"]+"|`[^`]+`)(\s*,\s*('[^']+'|"[^"]+"|`[^`]+`))*,?\s+or\s+('[^']+'|"[^"]+"|`[^`]+`))");
    const std::string d = ascii_lower(desc);
    const bool examples = has_any(d, {"e.g", "for example", "such as", "example", "like "});
    if (std::regex_search(d, phrase) || (!examples && std::regex_search(d, alternatives)))
      out.push_back(
          {sev::warning, t.name, name, "param-closed-set",
           "lists its values in prose; make it an \"enum\" so models cannot send anything else"});
  }
}

void check_provider_limits(const tool& t, std::vector<lint_finding>& out) {
  static const std::regex openai_name("^[a-zA-Z0-9_-]{1,64}$");
  if (!std::regex_match(t.name, openai_name))
    out.push_back({sev::error, t.name, "", "provider-name",
                   "name \"" + t.name +
                       "\" is rejected by OpenAI and Anthropic (allowed: letters, digits, _ and -, "
                       "at most 64); rename it"});
  const json& s = t.input_schema;
  if (string_field(s, "type") != "object")
    out.push_back({sev::error, t.name, "", "provider-schema-root",
                   "input schema's root is not {\"type\": \"object\"}; OpenAI, Anthropic and "
                   "Gemini reject it"});
  for (const char* k : {"oneOf", "anyOf", "allOf", "not", "enum"})
    if (s.contains(k))
      out.push_back(
          {sev::error, t.name, "", "provider-schema-root",
           std::string("input schema has \"") + k + "\" at the top level; OpenAI rejects it"});
  // Features Gemini's function declarations drop (an OpenAPI subset).
  std::set<std::string> dropped;
  std::function<void(const json&)> walk = [&](const json& n) {
    if (n.is_object()) {
      for (const char* k : {"$ref", "$defs", "definitions", "patternProperties", "if", "then",
                            "else", "dependentSchemas", "unevaluatedProperties", "prefixItems"})
        if (n.contains(k)) dropped.insert(k);
      for (const auto& [k, v] : n.items()) walk(v);
    } else if (n.is_array()) {
      for (const auto& v : n) walk(v);
    }
  };
  walk(s);
  for (const auto& k : dropped)
    out.push_back({sev::warning, t.name, "", "provider-schema-feature",
                   "input schema uses \"" + k +
                       "\", which Gemini does not support (dropped or rejected); "
                       "inline it or simplify"});
}

}  // namespace

std::string_view to_string(lint_finding::severity s) noexcept {
  return s == lint_finding::severity::error ? "error" : "warning";
}

std::vector<lint_finding> lint_tools(const std::vector<tool>& tools) {
  std::vector<lint_finding> out;
  std::set<std::string> names;
  for (const auto& t : tools) {
    if (!names.insert(t.name).second)
      out.push_back({sev::error, t.name, "", "duplicate-name",
                     "is defined twice; providers reject duplicate names"});
    check_description(t, out);
    check_provider_limits(t, out);
    auto props = t.input_schema.is_object() ? t.input_schema.find("properties")
                                            : t.input_schema.end();
    if (props != t.input_schema.end() && props->is_object())
      for (const auto& [k, v] : props->items()) check_parameter(t, k, v, out);
  }
  // Overlap: descriptions sharing most of their content words.
  for (size_t i = 0; i < tools.size(); ++i)
    for (size_t j = i + 1; j < tools.size(); ++j) {
      auto a = content_words(tools[i].description), b = content_words(tools[j].description);
      if (a.size() < 3 || b.size() < 3) continue;
      size_t common = 0;
      for (const auto& w : a) common += b.count(w);
      double jaccard =
          static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
      if (jaccard >= 0.6)
        out.push_back({sev::warning, tools[i].name, "", "overlap",
                       "overlaps with \"" + tools[j].name + "\" (" +
                           std::to_string(static_cast<int>(jaccard * 100)) +
                           "% of their description words are shared); a model cannot tell them "
                           "apart: say when "
                           "to use each"});
    }
  return out;
}

json lint_finding_to_json(const lint_finding& f) {
  return {{"level", to_string(f.level)},
          {"tool", f.tool},
          {"parameter", f.parameter},
          {"rule", f.rule},
          {"message", f.message}};
}

}  // namespace tooluse
