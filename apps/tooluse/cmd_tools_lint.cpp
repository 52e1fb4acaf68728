// tooluse tools lint: checks tool definitions (built-in, mounted from --mcp servers, or a JSON
// file) for what makes models choose or fill them badly. Exit 1 when there are errors.
#include <iostream>

#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/json.hpp"
#include "tooluse/tools/lint.hpp"

namespace tooluse::cli {
namespace {

struct lint_options {
  registry_flags flags;
  std::string file;
  bool json_output = false;
  bool strict = false;
};

// tools_from_json reads [{name, description, inputSchema | input_schema | parameters}], the
// same inside {"tools": [...]}, or OpenAI's [{"type":"function","function":{...}}].
result<std::vector<tool>> tools_from_json(const json& doc) {
  const json& list = doc.is_object() && doc.contains("tools") ? doc["tools"] : doc;
  if (!list.is_array())
    return fail(errc::invalid_argument,
                "expected a JSON array of tool definitions (or {\"tools\": [...]})");
  std::vector<tool> out;
  for (const auto& raw : list) {
    const json& d = raw.is_object() && raw.contains("function") ? raw["function"] : raw;
    if (!d.is_object() || !d.contains("name") || !d["name"].is_string())
      return fail(errc::invalid_argument,
                  "a tool definition has no \"name\": " + dump_json(raw).substr(0, 200));
    tool t{.name = d["name"].get<std::string>(), .description = d.value("description", "")};
    for (const char* k : {"inputSchema", "input_schema", "parameters"})
      if (d.contains(k)) t.input_schema = d[k];
    out.push_back(std::move(t));
  }
  return out;
}

int lint(const lint_options& o) {
  std::vector<tool> defs;
  if (!o.file.empty()) {
    std::string text;
    if (!read_text_file(o.file, text))
      return usage_error("tools lint: cannot read \"" + o.file + "\"");
    auto doc = parse_user_json(text, "\"" + o.file + "\"");
    if (!doc) return usage_error(doc.error().message);
    auto tools = tools_from_json(*doc);
    if (!tools) return usage_error("tools lint: \"" + o.file + "\": " + tools.error().message);
    defs = std::move(*tools);
  } else {
    auto reg = make_registry(o.flags);
    if (!reg) return usage_error(reg.error().message);
    for (const auto& e : (*reg)->list()) defs.push_back(e->definition);
  }
  auto findings = lint_tools(defs);
  size_t errors = 0, warnings = 0;
  for (const auto& f : findings) (f.level == lint_finding::severity::error ? errors : warnings)++;
  if (o.json_output) {
    json list = json::array();
    for (const auto& f : findings) list.push_back(lint_finding_to_json(f));
    std::cout << dump_json({{"tools", defs.size()},
                            {"errors", errors},
                            {"warnings", warnings},
                            {"findings", list}},
                           2)
              << "\n";
  } else {
    for (const auto& f : findings)
      std::cout << to_string(f.level) << ": " << f.tool
                << (f.parameter.empty() ? "" : "." + f.parameter) << ": " << f.message << " ["
                << f.rule << "]\n";
    std::cerr << defs.size() << " tools: " << errors << " errors, " << warnings << " warnings\n";
  }
  return errors > 0 || (o.strict && warnings > 0) ? 1 : 0;
}

void setup_tools_lint(CLI::App& app, app_state& state) {
  auto* tools = app.get_subcommand("tools");
  auto o = std::make_shared<lint_options>();
  auto* cmd =
      tools->add_subcommand("lint", "Check tool definitions for what makes models use them badly");
  add_registry_flags(*cmd, o->flags);
  cmd->add_option(
      "--file", o->file,
      "Lint the definitions in this JSON file (or - for stdin) instead of the registry: "
      "[{name, description, inputSchema}], {\"tools\": [...]}, or OpenAI's format");
  cmd->add_flag("--json", o->json_output, "Print {tools, errors, warnings, findings: [...]}");
  cmd->add_flag("--strict", o->strict, "Exit 1 on warnings too");
  cmd->footer(
      "Checks: a description that does not say what the tool does, when to use it and what it\n"
      "returns; parameters without descriptions, units or formats; open strings listing a closed\n"
      "set of values (use enum); names or schema features OpenAI, Anthropic or Gemini reject or\n"
      "drop; tools whose descriptions overlap so a model cannot tell them apart.\n"
      "Examples:\n  tooluse tools lint --network\n  tooluse tools lint --mcp mcp.json --tools "
      "everything__echo\n"
      "  tooluse tools lint --file tools.json --json\n"
      "Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 bad usage.");
  cmd->callback([o, &state] { state.action = [o] { return lint(*o); }; });
}

const command_registrar tools_lint_registrar(12, &setup_tools_lint);

}  // namespace
}  // namespace tooluse::cli
