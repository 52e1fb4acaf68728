// tooluse schema export --to TARGET TOOL.json: translate tool definitions (MCP, OpenAI Chat or
// Responses, Anthropic, Gemini or BFCL; detected) into the dialect of one provider. Registers
// under the "schema" command that cmd_schema.cpp creates. Exit 0 ok, 2 bad usage or input.
#include <iostream>

#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/json.hpp"
#include "tooluse/schema/import.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::cli {
namespace {

struct export_options {
  std::string to;
  std::string input = "-";
  bool drop_unsupported = false;
  bool strict = false;
};

// One definition (not a list or a wrapper): the output is then one object, not an array.
bool is_single(const json& d) {
  if (!d.is_object()) return false;
  for (const char* key : {"tools", "functionDeclarations", "function_declarations"})
    if (d.contains(key) && d[key].is_array()) return false;
  return !(d.contains("function") && d["function"].is_array());
}

int export_tools(const export_options& o) {
  auto target = schema::parse_export_target(o.to);
  if (!target) return usage_error(target.error().message);
  std::string text;
  if (!read_text_file(o.input, text)) return usage_error("cannot read \"" + o.input + "\"");
  auto input = parse_user_json(text, "\"" + o.input + "\"");
  if (!input) return usage_error(input.error().message);
  auto specs = schema::import_tools(*input);
  if (!specs) return usage_error(o.input + ": " + specs.error().message);
  if (specs->empty()) return usage_error(o.input + ": no tool definitions found");
  for (auto& s : *specs) s.strict = s.strict || o.strict;
  auto out = schema::export_tools(*specs, *target, {.drop_unsupported = o.drop_unsupported});
  if (!out)
    return report_error(
        exit_status::usage, "cannot export to " + o.to + ": " + out.error().message,
        (*target == schema::export_target::openai_strict || o.strict) && !o.drop_unsupported
            ? "Add --drop-unsupported to leave out what strict mode cannot express (tooluse "
              "still validates calls against the original schema)."
            : "");
  for (const auto& s : *specs) {
    std::string provider = *out->names.provider_name(s.name);
    if (provider != s.name)
      std::cerr << "tooluse: tool \"" << s.name << "\" is named \"" << provider << "\" for "
                << o.to << "\n";
  }
  json result = out->tools;
  if (is_single(*input) && specs->size() == 1)
    result = *target == schema::export_target::gemini ? result[0]["functionDeclarations"][0]
                                                       : result[0];
  std::cout << dump_json(result, 2) << "\n";
  return 0;
}

CLI::App* schema_command(CLI::App& app) {
  try {
    return app.get_subcommand("schema");
  } catch (const CLI::OptionNotFound&) {
    auto* schema = app.add_subcommand("schema", "Validate instances and translate tool schemas");
    schema->require_subcommand(1);
    return schema;
  }
}

void setup_schema_export(CLI::App& app, app_state& state) {
  auto opts = std::make_shared<export_options>();
  auto* cmd = schema_command(app)->add_subcommand(
      "export", "Translate tool definitions for a provider (OpenAI, Anthropic, Gemini, MCP)");
  complete_with(cmd->add_option("--to", opts->to,
                                "Target: openai, openai-strict, responses, anthropic, gemini or mcp")
                    ->required(),
                {"openai", "openai-strict", "responses", "anthropic", "gemini", "mcp"});
  cmd->add_option("tool", opts->input,
                  "Tool definition(s): MCP, OpenAI, Anthropic, Gemini or BFCL JSON, one or an "
                  "array (- for stdin)")
      ->capture_default_str();
  cmd->add_flag("--drop-unsupported", opts->drop_unsupported,
                "openai-strict: drop keywords strict mode rejects (minLength, not, ...) instead "
                "of failing; tooluse still validates calls against the original schema");
  cmd->add_flag("--strict", opts->strict, "responses: send the strict schema with strict:true");
  cmd->footer(
      "The input form is detected. Names a provider forbids (math.factorial for OpenAI) are "
      "mapped (math_factorial) and reported on stderr.\n"
      "Exit status: 0 success, 2 unreadable input, unknown form, or a schema the target "
      "cannot express (the message names the keyword and its path).");
  cmd->callback([opts, &state] { state.action = [opts] { return export_tools(*opts); }; });
}

const command_registrar schema_export_registrar(21, &setup_schema_export);

}  // namespace
}  // namespace tooluse::cli
