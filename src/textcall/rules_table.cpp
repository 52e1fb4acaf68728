// Which rules each format uses. Every format also understands <think> reasoning.
#include <set>
#include <span>
#include <string_view>
#include <utility>

#include "textcall/rules.hpp"

namespace tooluse::textcall::detail {
namespace {

using rule_list = std::vector<rule>;

void add(rule_list& out, std::string marker, scan_fn fn, anchor where = anchor::anywhere) {
  out.push_back(rule{std::move(marker), fn, where});
}

// A format's fixed markers, each starting its scan wherever it stands.
struct marker_scan {
  std::string_view marker;
  scan_fn scan;
};

constexpr marker_scan k_hermes[] = {
    {"<tool_call>", scan_tag_block},
    {"<function_call>", scan_tag_block},
    {"<tools>", scan_weak_tag_block},
    {"<response>", scan_weak_tag_block},
    {"<json>", scan_weak_tag_block},
    {"<function=", scan_function_tag},
    {"```", scan_fence},
    {"{", scan_bare_json},
    {"[", scan_bare_json},
};
constexpr marker_scan k_pythonic[] = {
    {"[", scan_python_list},
    {"```", scan_fence},
    {"<|python_start|>", scan_skip_marker},
    {"<|python_end|>", scan_skip_marker},
};
constexpr marker_scan k_json[] = {{"{", scan_bare_json}, {"[", scan_bare_json}};
constexpr marker_scan k_fenced_json[] = {{"```", scan_fence}};
constexpr marker_scan k_mistral[] = {{"[TOOL_CALLS]", scan_mistral}, {"</s>", scan_skip_marker}};
constexpr marker_scan k_llama3[] = {
    {"<|python_tag|>", scan_python_tag},
    {"<|eom_id|>", scan_skip_marker},
    {"<|eot_id|>", scan_skip_marker},
    // Llama 3.1 also answers with a bare {"name", "parameters"} object.
    {"{", scan_bare_json},
    {"[", scan_bare_json},
};
constexpr marker_scan k_granite[] = {{"<function_call>", scan_tag_block},
                                     {"<|tool_call|>", scan_tag_block}};
constexpr marker_scan k_functionary_v31[] = {{"<function=", scan_function_tag},
                                             {"<|python_tag|>", scan_python_tag}};
constexpr marker_scan k_functionary_v32[] = {{">>>", scan_functionary_v32}};
constexpr marker_scan k_deepseek[] = {
    {"<｜tool▁call▁begin｜>", scan_deepseek_call},
    {"<｜tool▁calls▁begin｜>", scan_skip_marker},
    {"<｜tool▁calls▁end｜>", scan_skip_marker},
    {"<｜end▁of▁sentence｜>", scan_skip_marker},
};
constexpr marker_scan k_qwen3_coder[] = {{"<tool_call>", scan_tag_block},
                                         {"<function=", scan_function_tag}};
constexpr marker_scan k_harmony[] = {
    {"<|start|>", scan_harmony},
    {"<|channel|>", scan_harmony},
    {"<|end|>", scan_skip_marker},
    {"<|return|>", scan_skip_marker},
    {"<|call|>", scan_skip_marker},
};
constexpr marker_scan k_command_r7b[] = {
    {"<|START_ACTION|>", scan_command_action},
    {"<|START_THINKING|>", scan_command_thinking},
    {"<|START_RESPONSE|>", scan_skip_marker},
    {"<|END_RESPONSE|>", scan_skip_marker},
};

std::span<const marker_scan> markers_of(format f) {
  switch (f) {
    case format::hermes: return k_hermes;
    case format::pythonic: return k_pythonic;
    case format::json: return k_json;
    case format::fenced_json: return k_fenced_json;
    case format::mistral: return k_mistral;
    case format::llama3: return k_llama3;
    case format::granite: return k_granite;
    case format::functionary_v31: return k_functionary_v31;
    case format::functionary_v32: return k_functionary_v32;
    case format::deepseek: return k_deepseek;
    case format::qwen3_coder: return k_qwen3_coder;
    case format::harmony: return k_harmony;
    case format::command_r7b: return k_command_r7b;
    case format::auto_detect: break;
  }
  return {};
}

void format_rules(rule_list& r, format f, const parse_options& o, bool alone) {
  for (const marker_scan& m : markers_of(f)) add(r, std::string(m.marker), m.scan);
  if (f == format::pythonic) {
    // A bare call of a known tool at the start of a line: get_weather(city="Paris")
    for (const auto& [name, _] : o.schemas)
      add(r, name + "(", scan_python_bare, anchor::line_start);
  }
  if (f == format::functionary_v32 && alone) {
    // The prompt ends with ">>>", so the reply starts with the recipient itself.
    add(r, "all\n", scan_functionary_v32, anchor::text_start);
    for (const auto& [name, _] : o.schemas)
      add(r, name + "\n", scan_functionary_v32, anchor::text_start);
  }
}

}  // namespace

std::vector<rule> rules_for(format f, const parse_options& options) {
  rule_list r;
  add(r, "<think>", scan_think);
  add(r, "</think>", scan_skip_marker);
  if (f != format::auto_detect) {
    format_rules(r, f, options, true);
    return r;
  }
  // Vendor tokens first, then tags, then the markerless shapes (Python list before JSON).
  for (format g : {format::deepseek, format::harmony, format::command_r7b, format::mistral,
                   format::llama3, format::qwen3_coder, format::hermes, format::granite,
                   format::functionary_v31, format::functionary_v32, format::pythonic,
                   format::fenced_json, format::json}) {
    format_rules(r, g, options, false);
  }
  // Drop duplicates (same marker and scan), keeping the first.
  std::set<std::pair<std::string, scan_fn>> seen;
  rule_list unique;
  for (auto& x : r) {
    if (seen.emplace(x.marker, x.scan).second) unique.push_back(std::move(x));
  }
  return unique;
}

}  // namespace tooluse::textcall::detail
