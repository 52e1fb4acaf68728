#include "tooluse/textcall/text_format.hpp"

#include <utility>

#include "textcall/engine.hpp"
#include "tooluse/enum_names.hpp"

namespace tooluse::textcall {

TOOLUSE_ENUM_NAMES(format, (hermes), (pythonic), (json), (fenced_json, "fenced-json"), (mistral),
                   (llama3), (granite), (functionary_v31, "functionary-v3.1"),
                   (functionary_v32, "functionary-v3.2"), (deepseek), (qwen3_coder, "qwen3-coder"),
                   (harmony), (command_r7b, "command-r7b"), (auto_detect, "auto"))

namespace {

constexpr std::pair<std::string_view, format> aliases[] = {
    {"qwen", format::hermes},          {"qwen2.5", format::hermes},
    {"python", format::pythonic},      {"bfcl", format::pythonic},
    {"xlam", format::json},            {"fenced", format::fenced_json},
    {"llama3.1", format::llama3},      {"llama-3.1", format::llama3},
    {"functionary", format::functionary_v32}, {"deepseek-r1", format::deepseek},
    {"deepseek-v3", format::deepseek}, {"qwen3", format::qwen3_coder},
    {"gpt-oss", format::harmony},      {"command-r", format::command_r7b},
    {"auto-detect", format::auto_detect},
};

std::string normalise(std::string_view name) {
  std::string out;
  for (char c : name) out += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string_view to_string(format f) noexcept { return enum_name(f, "unknown"); }

result<format> parse_format(std::string_view name) {
  std::string n = normalise(name);
  if (auto f = enum_from_name<format>(n)) return *f;
  for (const auto& [alias, f] : aliases)
    if (alias == n) return f;
  return fail(errc::invalid_argument, "unknown tool-call format \"" + std::string(name) +
                                          "\"; use one of: " + enum_name_list<format>());
}

std::vector<format> all_formats() {
  std::vector<format> out;
  for (const auto& [f, name] : tooluse_enum_names(enum_tag<format>{}).values)
    if (f != format::auto_detect) out.push_back(f);
  return out;
}

tool_schemas schemas_of(const std::vector<tool>& tools) {
  tool_schemas out;
  for (const auto& t : tools) out[t.name] = t.input_schema;
  return out;
}

namespace {

result<tool> tool_from_entry(const json& e, std::size_t index) {
  const json& fn = e.contains("function") && e["function"].is_object() ? e["function"] : e;
  if (!fn.is_object() || !fn.contains("name") || !fn["name"].is_string())
    return fail(errc::invalid_argument, "tool definition #" + std::to_string(index) +
                                            " has no \"name\" string; give each tool a name");
  tool t{.name = fn["name"].get<std::string>()};
  if (fn.contains("description") && fn["description"].is_string())
    t.description = fn["description"].get<std::string>();
  for (const char* key : {"inputSchema", "input_schema", "parameters"}) {
    if (fn.contains(key) && fn[key].is_object()) {
      t.input_schema = fn[key];
      break;
    }
  }
  return t;
}

}  // namespace

result<std::vector<tool>> tools_from_json(const json& j) {
  std::vector<tool> out;
  if (j.is_object() && !j.contains("name") && !j.contains("function")) {
    for (const auto& [name, schema] : j.items()) out.push_back(tool{.name = name, .input_schema = schema});
    return out;
  }
  if (j.is_object()) {
    auto t = tool_from_entry(j, 0);
    if (!t) return fail(t.error());
    out.push_back(std::move(*t));
    return out;
  }
  if (!j.is_array())
    return fail(errc::invalid_argument, "tool definitions must be a JSON list or object, got " +
                                            std::string(type_name(j)));
  for (std::size_t i = 0; i < j.size(); ++i) {
    auto t = tool_from_entry(j[i], i);
    if (!t) return fail(t.error());
    out.push_back(std::move(*t));
  }
  return out;
}

bool stream_delta::empty() const noexcept {
  return content.empty() && reasoning.empty() && calls.empty() && diagnostics.empty();
}

struct stream_parser::impl {
  impl(format f, parse_options o) : options(std::move(o)), engine(detail::rules_for(f, options), options) {}
  parse_options options;  // the engine refers to it; impl never moves (heap, unique_ptr)
  detail::engine engine;
};

stream_parser::stream_parser(format f, parse_options options)
    : impl_(std::make_unique<impl>(f, std::move(options))) {}
stream_parser::~stream_parser() = default;
stream_parser::stream_parser(stream_parser&&) noexcept = default;
stream_parser& stream_parser::operator=(stream_parser&&) noexcept = default;

stream_delta stream_parser::feed(std::string_view chunk) { return impl_->engine.feed(chunk); }
stream_delta stream_parser::finish() { return impl_->engine.finish(); }

parsed_text parse(format f, std::string_view text, const parse_options& options) {
  detail::engine p(detail::rules_for(f, options), options);  // no copy of the schemas
  parsed_text out;
  auto absorb = [&out](stream_delta d) {
    if (out.content.empty()) out.content = std::move(d.content);
    else out.content += d.content;
    out.reasoning += d.reasoning;
    for (auto& c : d.calls) out.calls.push_back(std::move(c));
    for (auto& m : d.diagnostics) out.diagnostics.push_back(std::move(m));
  };
  absorb(p.feed(text));
  absorb(p.finish());
  return out;
}

}  // namespace tooluse::textcall
