// Which rules each format uses. Every format also understands <think> reasoning.
#include <set>
#include <utility>

#include "textcall/rules.hpp"

namespace tooluse::textcall::detail {
namespace {

using rule_list = std::vector<rule>;

void add(rule_list& out, std::string marker, scan_fn fn, anchor where = anchor::anywhere) {
  out.push_back(rule{std::move(marker), fn, where});
}

void hermes_rules(rule_list& r) {
  add(r, "<tool_call>", scan_tag_block);
  add(r, "<function_call>", scan_tag_block);
  add(r, "<tools>", scan_weak_tag_block);
  add(r, "<response>", scan_weak_tag_block);
  add(r, "<json>", scan_weak_tag_block);
  add(r, "<function=", scan_function_tag);
  add(r, "```", scan_fence);
  add(r, "{", scan_bare_json);
  add(r, "[", scan_bare_json);
}

void pythonic_rules(rule_list& r, const parse_options& o) {
  add(r, "[", scan_python_list);
  add(r, "```", scan_fence);
  add(r, "<|python_start|>", scan_skip_marker);
  add(r, "<|python_end|>", scan_skip_marker);
  // A bare call of a known tool at the start of a line: get_weather(city="Paris")
  for (const auto& [name, _] : o.schemas) add(r, name + "(", scan_python_bare, anchor::line_start);
}

void json_rules(rule_list& r) {
  add(r, "{", scan_bare_json);
  add(r, "[", scan_bare_json);
}

void mistral_rules(rule_list& r) {
  add(r, "[TOOL_CALLS]", scan_mistral);
  add(r, "</s>", scan_skip_marker);
}

void llama3_rules(rule_list& r) {
  add(r, "<|python_tag|>", scan_python_tag);
  add(r, "<|eom_id|>", scan_skip_marker);
  add(r, "<|eot_id|>", scan_skip_marker);
  json_rules(r);  // Llama 3.1 also answers with a bare {"name", "parameters"} object
}

void granite_rules(rule_list& r) {
  add(r, "<function_call>", scan_tag_block);
  add(r, "<|tool_call|>", scan_tag_block);
}

void functionary_v32_rules(rule_list& r, const parse_options& o, bool at_start) {
  add(r, ">>>", scan_functionary_v32);
  if (!at_start) return;
  // The prompt ends with ">>>", so the reply starts with the recipient itself.
  add(r, "all\n", scan_functionary_v32, anchor::text_start);
  for (const auto& [name, _] : o.schemas) add(r, name + "\n", scan_functionary_v32, anchor::text_start);
}

void deepseek_rules(rule_list& r) {
  add(r, "<｜tool▁call▁begin｜>", scan_deepseek_call);
  add(r, "<｜tool▁calls▁begin｜>", scan_skip_marker);
  add(r, "<｜tool▁calls▁end｜>", scan_skip_marker);
  add(r, "<｜end▁of▁sentence｜>", scan_skip_marker);
}

void harmony_rules(rule_list& r) {
  add(r, "<|start|>", scan_harmony);
  add(r, "<|channel|>", scan_harmony);
  add(r, "<|end|>", scan_skip_marker);
  add(r, "<|return|>", scan_skip_marker);
  add(r, "<|call|>", scan_skip_marker);
}

void command_r7b_rules(rule_list& r) {
  add(r, "<|START_ACTION|>", scan_command_action);
  add(r, "<|START_THINKING|>", scan_command_thinking);
  add(r, "<|START_RESPONSE|>", scan_skip_marker);
  add(r, "<|END_RESPONSE|>", scan_skip_marker);
}

void format_rules(rule_list& r, format f, const parse_options& o, bool alone) {
  switch (f) {
    case format::hermes: hermes_rules(r); break;
    case format::pythonic: pythonic_rules(r, o); break;
    case format::json: json_rules(r); break;
    case format::fenced_json: add(r, "```", scan_fence); break;
    case format::mistral: mistral_rules(r); break;
    case format::llama3: llama3_rules(r); break;
    case format::granite: granite_rules(r); break;
    case format::functionary_v31:
      add(r, "<function=", scan_function_tag);
      add(r, "<|python_tag|>", scan_python_tag);
      break;
    case format::functionary_v32: functionary_v32_rules(r, o, alone); break;
    case format::deepseek: deepseek_rules(r); break;
    case format::qwen3_coder:
      add(r, "<tool_call>", scan_tag_block);
      add(r, "<function=", scan_function_tag);
      break;
    case format::harmony: harmony_rules(r); break;
    case format::command_r7b: command_r7b_rules(r); break;
    case format::auto_detect: break;
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
