#pragma once
/// \file lint.hpp
/// tooluse::lint_tools, a check of tool definitions for what makes models choose or fill them
/// badly: descriptions that do not say what a tool does, when to use it and what it returns;
/// parameters without descriptions, units or formats; open strings whose values are a closed
/// set; names and schema features a provider rejects or drops (naming the provider); tools
/// that overlap so a model cannot tell them apart. `tooluse tools lint` prints these.
///
/// Example:
///   for (const auto& f : tooluse::lint_tools(defs))
///     std::cerr << to_string(f.level) << " " << f.tool << ": " << f.message << "\n";

#include <string>
#include <vector>

#include "tooluse/tools/tool.hpp"

namespace tooluse {

/// lint_finding is one problem. `level` error: a provider rejects the tool or a model cannot use
/// it; warning: it works but models will choose or fill it worse.
struct lint_finding {
  enum class severity { error, warning };
  severity level = severity::warning;
  std::string tool;
  std::string parameter;  ///< "" when about the tool as a whole
  std::string rule;       ///< e.g. "description-when", "param-unit", "provider-name"
  std::string message;
};

std::string_view to_string(lint_finding::severity s) noexcept;

/// lint_tools checks `tools` one by one and pairwise (overlap), in order.
std::vector<lint_finding> lint_tools(const std::vector<tool>& tools);

/// lint_finding_to_json renders {"level","tool","parameter","rule","message"}.
json lint_finding_to_json(const lint_finding& f);

}  // namespace tooluse
