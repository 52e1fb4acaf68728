// tooluse parse-calls | render-tools: debug a model's raw tool-call text (docs/raw-formats.md).
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "tooluse/textcall/text_format.hpp"

namespace tooluse::cli {
namespace {

struct parse_calls_options {
  std::string format = "auto";
  std::string schema_path;
  bool in_reasoning = false;
  std::size_t chunk = 0;
};

result<std::vector<tool>> load_tools(const std::string& path) {
  if (path.empty()) return std::vector<tool>{};
  std::string text;
  if (!read_text_file(path, text)) return fail(errc::io_error, "cannot read " + path);
  auto j = parse_json(text);
  if (!j) return fail(errc::invalid_argument, path + ": " + j.error().message);
  auto tools = textcall::tools_from_json(*j);
  if (!tools) return fail(errc::invalid_argument, path + ": " + tools.error().message);
  return tools;
}

json call_json(const tool_call& c) {
  json j = {{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}};
  if (c.arguments.is_null()) j["raw_arguments"] = c.raw_arguments;
  return j;
}

int parse_calls(const parse_calls_options& o) {
  auto f = textcall::parse_format(o.format);
  if (!f) return usage_error(f.error().message);
  auto tools = load_tools(o.schema_path);
  if (!tools) return usage_error(tools.error().message);
  std::string text;
  if (!read_text_file("-", text)) return 2;
  textcall::parse_options opts{.schemas = textcall::schemas_of(*tools), .in_reasoning = o.in_reasoning};
  textcall::parsed_text parsed;
  if (o.chunk == 0) {
    parsed = textcall::parse(*f, text, opts);
  } else {  // stream it, to check a streaming problem
    textcall::stream_parser p(*f, opts);
    auto take = [&parsed](textcall::stream_delta d) {
      parsed.content += d.content;
      parsed.reasoning += d.reasoning;
      for (auto& c : d.calls) parsed.calls.push_back(std::move(c));
      for (auto& m : d.diagnostics) parsed.diagnostics.push_back(std::move(m));
    };
    for (std::size_t i = 0; i < text.size(); i += o.chunk) take(p.feed(std::string_view(text).substr(i, o.chunk)));
    take(p.finish());
  }
  json calls = json::array();
  for (const auto& c : parsed.calls) calls.push_back(call_json(c));
  json out = {{"calls", calls}, {"content", parsed.content}, {"reasoning", parsed.reasoning}};
  if (!parsed.diagnostics.empty()) out["diagnostics"] = parsed.diagnostics;
  std::cout << dump_json(out, 2) << "\n";
  return 0;
}

int render_tools(const parse_calls_options& o) {
  auto f = textcall::parse_format(o.format);
  if (!f) return usage_error(f.error().message);
  auto tools = load_tools(o.schema_path);
  if (!tools) return usage_error(tools.error().message);
  std::cout << textcall::render_tools(*f, *tools) << "\n";
  return 0;
}

void setup_parse_calls(CLI::App& app, app_state& state) {
  auto opts = std::make_shared<parse_calls_options>();
  auto* parse = app.add_subcommand("parse-calls", "Find the tool calls in model text read from stdin");
  complete_with(parse->add_option("--format", opts->format, "hermes, pythonic, json, fenced-json, mistral, llama3, "
                    "granite, functionary-v3.1, functionary-v3.2, deepseek, qwen3-coder, harmony, "
                    "command-r7b or auto")->capture_default_str(), text_format_names());
  parse->add_option("--schema", opts->schema_path, "JSON file with the tool definitions (types "
                    "string-valued arguments)");
  parse->add_flag("--in-reasoning", opts->in_reasoning, "The text starts inside <think> (the prompt opened it)");
  parse->add_option("--chunk", opts->chunk, "Feed the text in chunks of this many bytes (streaming check)");
  parse->footer("Prints {\"calls\":[{\"id\",\"name\",\"arguments\"}],\"content\",\"reasoning\"} as JSON. "
                "A call whose arguments did not parse has \"arguments\": null and its raw text.");
  parse->callback([opts, &state] { state.action = [opts] { return parse_calls(*opts); }; });

  auto* render = app.add_subcommand("render-tools", "Print the system-prompt block announcing tools in a format");
  complete_with(render->add_option("--format", opts->format, "Format name, as for parse-calls")->capture_default_str(),
                text_format_names());
  render->add_option("--schema", opts->schema_path, "JSON file with the tool definitions")->required();
  render->callback([opts, &state] { state.action = [opts] { return render_tools(*opts); }; });
}

const command_registrar parse_calls_registrar(50, &setup_parse_calls);

}  // namespace
}  // namespace tooluse::cli
