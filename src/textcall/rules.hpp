#pragma once
// The scan functions of the formats (engine.hpp explains the contract). rules_tags.cpp holds
// the generic ones (think, tag blocks, <function=...>, fences, bare JSON, Python lists),
// rules_vendor.cpp the vendor-token ones, rules_table.cpp which format uses which.

#include "textcall/engine.hpp"
#include "textcall/lenient.hpp"

namespace tooluse::textcall::detail {

step scan_think(std::string_view text, const scan_env& env);
step scan_skip_marker(std::string_view text, const scan_env& env);
step scan_tag_block(std::string_view text, const scan_env& env);       // <tool_call>, ...
step scan_weak_tag_block(std::string_view text, const scan_env& env);  // <tools>, <json>, ...
step scan_function_tag(std::string_view text, const scan_env& env);    // <function=name>
step scan_fence(std::string_view text, const scan_env& env);           // ```json
step scan_bare_json(std::string_view text, const scan_env& env);       // { or [
step scan_python_list(std::string_view text, const scan_env& env);     // [f(a=1)]
step scan_python_bare(std::string_view text, const scan_env& env);     // f(a=1) at line start

step scan_mistral(std::string_view text, const scan_env& env);
step scan_python_tag(std::string_view text, const scan_env& env);
step scan_functionary_v32(std::string_view text, const scan_env& env);
step scan_deepseek_call(std::string_view text, const scan_env& env);
step scan_harmony(std::string_view text, const scan_env& env);
step scan_command_action(std::string_view text, const scan_env& env);
step scan_command_thinking(std::string_view text, const scan_env& env);

/// values_after parses one or more call-shaped JSON values starting at `pos` (separated by
/// spaces, commas or newlines). Shared by the tag and vendor rules.
struct values_result {
  scan_state state = scan_state::invalid;
  std::vector<tool_call> calls;
  std::size_t end = 0;
  bool call_shaped = true;  ///< false: the values parsed but are not calls
};
values_result values_after(std::string_view text, std::size_t pos, bool eof);

/// xml_function parses "<function=name>...</function>" at `pos`: JSON body or <parameter=>
/// elements typed by the schema.
struct function_result {
  scan_state state = scan_state::invalid;
  tool_call call;
  std::size_t end = 0;
};
function_result xml_function(std::string_view text, std::size_t pos, const scan_env& env);

/// calls_step makes a calls step; malformed_step one malformed call with a diagnostic.
step calls_step(std::vector<tool_call> calls, std::size_t length);
step malformed_step(std::string name, std::string raw, std::size_t length, std::string_view why);

/// starts_with_at tells whether `text` has `what` at `pos`.
bool starts_with_at(std::string_view text, std::size_t pos, std::string_view what);

/// prefix_pending tells whether text[pos..] is a proper prefix of `what` (more text could
/// complete it).
bool prefix_pending(std::string_view text, std::size_t pos, std::string_view what);

}  // namespace tooluse::textcall::detail
