// tooluse schema check SCHEMA.json INSTANCE.json [--coerce]: validate a JSON instance against a
// JSON Schema (draft 2020-12). Exit 0 valid, 1 invalid (errors on stdout), 2 the schema or
// instance is unreadable or the schema is invalid. Other files add subcommands to "schema"
// through app.get_subcommand("schema") (e.g. cmd_schema_export.cpp).
#include <iostream>

#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/json.hpp"
#include "tooluse/schema/coerce.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::cli {
namespace {

struct check_options {
  std::string schema_path;
  std::string instance_path;
  bool coerce = false;
  bool clamp = false;
  bool format_assertion = false;
  bool json_output = false;
  std::string root_name = "arguments";
  std::size_t max_errors = 20;
};

result<json> read_json(const std::string& path, std::string_view what) {
  std::string text;
  if (!read_text_file(path, text))
    return fail(errc::io_error, std::string(what) + " \"" + path + "\" cannot be read");
  return parse_user_json(text, std::string(what) + " \"" + path + "\"");
}

json errors_to_json(const std::vector<schema::validation_error>& errors) {
  json out = json::array();
  for (const auto& e : errors)
    out.push_back({{"path", e.path}, {"keyword", e.keyword}, {"message", e.message}});
  return out;
}

int check(const check_options& o) {
  auto schema_json = read_json(o.schema_path, "schema");
  if (!schema_json) return usage_error(schema_json.error().message);
  auto instance = read_json(o.instance_path, "instance");
  if (!instance) return usage_error(instance.error().message);
  auto v = schema::validator::compile(*schema_json, {.format_assertion = o.format_assertion});
  if (!v) return usage_error("schema \"" + o.schema_path + "\" is invalid: " + v.error().message);

  std::vector<schema::validation_error> errors;
  std::vector<schema::coercion> coercions;
  json value = *instance;
  if (o.coerce) {
    auto out = schema::coerce(*v, std::move(value),
                              {.root_path = o.root_name, .max_errors = o.max_errors, .clamp = o.clamp});
    errors = std::move(out.errors);
    coercions = std::move(out.coercions);
    value = std::move(out.value);
  } else {
    errors = v->validate(value, {.root_path = o.root_name, .max_errors = o.max_errors});
  }

  if (o.json_output) {
    json report = {{"valid", errors.empty()}, {"errors", errors_to_json(errors)}};
    if (o.coerce) {
      report["coercions"] = schema::coercions_to_json(coercions);
      report["value"] = value;
    }
    std::cout << dump_json(report, 2) << "\n";
    return errors.empty() ? 0 : 1;
  }
  for (const auto& c : coercions)
    std::cerr << "coerced " << c.path << ": " << dump_json(c.from) << " -> " << dump_json(c.to)
              << " (" << c.rule << ")\n";
  if (!errors.empty()) {
    std::cout << schema::format_errors(errors) << "\n";
    return 1;
  }
  if (o.coerce) std::cout << dump_json(value, 2) << "\n";
  return 0;
}

void setup_schema(CLI::App& app, app_state& state) {
  auto* schema = app.add_subcommand("schema", "Validate instances and translate tool schemas");
  schema->require_subcommand(1);

  auto opts = std::make_shared<check_options>();
  auto* cmd = schema->add_subcommand("check", "Validate a JSON instance against a JSON Schema (2020-12)");
  cmd->add_option("schema", opts->schema_path, "Schema file (JSON; - for stdin)")->required();
  cmd->add_option("instance", opts->instance_path, "Instance file (JSON; - for stdin)")->required();
  cmd->add_flag("--coerce", opts->coerce,
                "Repair numeric strings, 3.0, \"yes\", JSON-encoded strings and single values "
                "first; print the coerced instance (changes on stderr)");
  cmd->add_flag("--clamp", opts->clamp, "With --coerce: clamp numbers to minimum/maximum");
  cmd->add_flag("--format-assertion", opts->format_assertion,
                "Check \"format\" (date-time, email, uuid, ...) instead of ignoring it");
  cmd->add_flag("--json", opts->json_output, "Print {valid, errors[, coercions, value]} as JSON");
  cmd->add_option("--root-name", opts->root_name, "Name of the root in error paths")
      ->capture_default_str();
  cmd->add_option("--max-errors", opts->max_errors, "Report at most this many errors (0: all)")
      ->capture_default_str();
  cmd->footer("Exit status: 0 valid, 1 invalid (errors on stdout), 2 unreadable input or invalid schema.");
  cmd->callback([opts, &state] { state.action = [opts] { return check(*opts); }; });
}

const command_registrar schema_registrar(20, &setup_schema);

}  // namespace
}  // namespace tooluse::cli
