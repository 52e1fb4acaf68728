#include "errors.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>
#include <vector>

namespace tooluse::cli {

int report_error(int status, std::string_view message, std::string_view next) {
  std::cerr << "tooluse: " << message << "\n";
  if (!next.empty()) std::cerr << next << (next.back() == '\n' ? "" : "\n");
  std::cerr << std::flush;
  return status;
}

int usage_error(const std::string& message) { return report_error(exit_status::usage, message); }

int status_for(const error& e) {
  switch (e.code) {
    case errc::invalid_argument:
    case errc::parse_error:
    case errc::validation_failed:
    case errc::schema_error:
    case errc::not_found:
      return exit_status::usage;
    default:
      return exit_status::failed;
  }
}

int report(const error& e) { return report_error(status_for(e), e.message); }

std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const auto* p = app.get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

namespace {

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* s) {
    return !s->get_name().empty() && !s->get_disabled() && !s->get_group().empty();
  });
}

std::string usage_line(const CLI::App& app) {
  auto f = std::dynamic_pointer_cast<CLI::Formatter>(app.get_formatter());
  std::string line = f ? f->make_usage(&app, command_path(app)) : "Usage: " + command_path(app);
  // CLI11 calls the subcommand of a group SUBCOMMAND; the help of every command says COMMAND.
  if (auto pos = line.find("SUBCOMMAND"); pos != std::string::npos)
    line.replace(pos, 10, "COMMAND");
  while (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

std::string help_hint(const CLI::App& app) {
  return "Run '" + command_path(app) + " --help' for its usage.";
}

// deepest is the last command the parser entered: where the error happened.
CLI::App* deepest(CLI::App& app) {
  CLI::App* cur = &app;
  while (!cur->get_subcommands().empty()) cur = cur->get_subcommands().back();
  return cur;
}

// owner finds, from the deepest command up, the command with the option or argument `name`.
const CLI::App* owner(CLI::App& app, const std::string& name, const CLI::Option** opt) {
  for (const CLI::App* a = deepest(app); a; a = a->get_parent())
    if (const auto* o = a->get_option_no_throw(name)) {
      *opt = o;
      return a;
    }
  *opt = nullptr;
  return deepest(app);
}

std::string after(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : std::string();
}

// kind_of says in words what an option of CLI11 type `type` takes.
std::string kind_of(const std::string& type) {
  if (type == "INT") return "a whole number";
  if (type == "UINT") return "a whole number of 0 or more";
  if (type == "FLOAT") return "a number";
  if (type == "DURATION") return "a duration (500ms, 2s, 1m, 1h)";
  if (type.empty() || type == "TEXT") return "a value";
  return "a value of the form " + type;
}

std::string display(const CLI::Option* opt, const std::string& name) {
  if (opt && opt->get_positional() && opt->get_lnames().empty()) return "the argument " + name;
  return name;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string quoted_list(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + ("\"" + words[i] + "\"");
  return out;
}

int unexpected_arguments(CLI::App& app, const std::string& what) {
  const CLI::App* cmd = deepest(app);
  // The words the parser left, in the order given (its message may list them last first).
  auto words = app.remaining(true);
  if (words.empty()) words = split_words(what);
  if (words.size() == 1 && words[0].size() > 1 && words[0][0] == '-')
    return report_error(exit_status::usage,
                        "unknown flag " + words[0] + " for \"" + command_path(*cmd) + "\"",
                        "Run '" + command_path(*cmd) + " --help' for its flags.");
  bool takes_positionals = false;
  for (const auto* o : cmd->get_options())
    if (o->get_positional()) takes_positionals = true;
  std::string message =
      std::string(words.size() == 1 ? "unexpected argument " : "unexpected arguments ") +
      quoted_list(words) + " for \"" + command_path(*cmd) + "\"";
  if (!takes_positionals) message += ", which takes none";
  return report_error(exit_status::usage, message, usage_line(*cmd) + "\n" + help_hint(*cmd));
}

int missing(CLI::App& app, const std::string& name) {
  const CLI::Option* opt = nullptr;
  const CLI::App* cmd = owner(app, name, &opt);
  std::string what = display(opt, name);
  return report_error(exit_status::usage, what + " is required for \"" + command_path(*cmd) + "\"",
                      usage_line(*cmd) + "\n" + help_hint(*cmd));
}

int not_converted(CLI::App& app, const std::string& what) {
  // "NAME = VALUE"
  auto eq = what.find(" = ");
  std::string name = what.substr(0, eq);
  std::string value = eq == std::string::npos ? "" : what.substr(eq + 3);
  const CLI::Option* opt = nullptr;
  const CLI::App* cmd = owner(app, name, &opt);
  std::string type = opt ? opt->get_type_name() : "";
  return report_error(exit_status::usage,
                      display(opt, name) + " takes " + kind_of(type) + ", got \"" + value + "\"",
                      help_hint(*cmd));
}

int no_value(CLI::App& app, const std::string& name) {
  const CLI::Option* opt = nullptr;
  const CLI::App* cmd = owner(app, name, &opt);
  std::string type = opt ? opt->get_type_name() : "";
  return report_error(exit_status::usage, display(opt, name) + " needs " + kind_of(type),
                      help_hint(*cmd));
}

// is tells the kind of a CLI11 error by its type (its name field is sometimes the app's name).
template <typename T>
bool is(const CLI::ParseError& e) {
  return dynamic_cast<const T*>(&e) != nullptr;
}

}  // namespace

void print_subcommands(const CLI::App& group, std::ostream& out) {
  out << usage_line(group) << "\n\nCommands:\n";
  auto subs = visible_subcommands(group);
  size_t width = 0;
  for (const auto* s : subs) width = std::max(width, s->get_name().size());
  for (const auto* s : subs) {
    std::string d = s->get_description();
    out << "  " << s->get_name() << std::string(width - s->get_name().size() + 3, ' ')
        << d.substr(0, d.find('\n')) << "\n";
  }
  out << "\nRun '" << command_path(group) << " COMMAND --help' for a command's options.\n";
}

int report_parse_error(CLI::App& app, const CLI::ParseError& e) {
  const std::string what = e.what();
  CLI::App* cmd = deepest(app);
  if (is<CLI::RequiredError>(e) && what == "A subcommand is required") {
    std::ostringstream usage;
    print_subcommands(*cmd, usage);
    return report_error(exit_status::usage, "\"" + command_path(*cmd) + "\" needs a subcommand",
                        "\n" + usage.str());
  }
  if (is<CLI::ExtrasError>(e)) {
    for (const char* p : {"The following arguments were not expected: ",
                          "The following argument was not expected: "})
      if (auto rest = after(what, p); !rest.empty()) return unexpected_arguments(app, rest);
  }
  if (is<CLI::RequiredError>(e) && what.size() > 12 &&
      what.compare(what.size() - 12, 12, " is required") == 0 && what.find(' ') == what.size() - 12)
    return missing(app, what.substr(0, what.size() - 12));
  if (is<CLI::ConversionError>(e))
    if (auto rest = after(what, "Could not convert: "); !rest.empty())
      return not_converted(app, rest);
  if (is<CLI::ArgumentMismatch>(e)) {
    // "--limit: 1 required INT missing"
    auto colon = what.find(": ");
    if (colon != std::string::npos && what.find(" required ") != std::string::npos &&
        what.size() > 8 && what.compare(what.size() - 8, 8, " missing") == 0)
      return no_value(app, what.substr(0, colon));
  }
  if (is<CLI::ExcludesError>(e)) {
    auto pos = what.find(" excludes ");
    if (pos != std::string::npos)
      return report_error(exit_status::usage,
                          what.substr(0, pos) + " cannot be used with " + what.substr(pos + 10),
                          help_hint(*cmd));
  }
  if (is<CLI::RequiresError>(e)) {
    auto pos = what.find(" requires ");
    if (pos != std::string::npos)
      return report_error(exit_status::usage,
                          what.substr(0, pos) + " needs " + what.substr(pos + 10) + " too",
                          help_hint(*cmd));
  }
  // Our own option callbacks (durations) throw ValidationError with a message already written
  // for people; anything else CLI11 says is lowercased to read as ours.
  std::string message = what;
  if (!message.empty() && !is<CLI::ValidationError>(e))
    message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  return report_error(exit_status::usage, message, help_hint(*cmd));
}

}  // namespace tooluse::cli
