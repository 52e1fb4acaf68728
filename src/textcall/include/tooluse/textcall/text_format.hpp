#pragma once
/// \file text_format.hpp
/// tooluse::textcall: tool calls written as plain model text. A format knows how to ask (render
/// the tool definitions and calling instructions into a system prompt the way a model family was
/// trained) and how to read (find every call in the text, whole or streamed, take it out of the
/// visible answer, keep reasoning apart, and type string-valued arguments by the tool's schema).
///
/// Example:
///   auto out = tooluse::textcall::parse(tooluse::textcall::format::hermes,
///                                      R"(Sure.<tool_call>{"name":"f","arguments":{}}</tool_call>)");
///   // out.calls[0].name == "f", out.content == "Sure."

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/tools/tool.hpp"
#include "tooluse/tools/tool_call.hpp"

namespace tooluse::textcall {

/// format names a family of raw tool-call syntax (docs/raw-formats.md shows each one).
enum class format {
  hermes,           ///< <tool_call>{"name":..,"arguments":..}</tool_call> and its variants
  pythonic,         ///< [f(a=1), g(b="x")]
  json,             ///< bare JSON object or list: {"name","arguments"|"parameters"}, xLAM
  fenced_json,      ///< ```json [{"name":..,"arguments":..}] ```
  mistral,          ///< [TOOL_CALLS][{...}] and [TOOL_CALLS]name[ARGS]{...}
  llama3,           ///< <|python_tag|>{"name":..,"parameters":..} or name.call(k=v)
  granite,          ///< <function_call> {...} (and <|tool_call|>[...])
  functionary_v31,  ///< <function=name>{...}</function>
  functionary_v32,  ///< >>>name\n{...}
  deepseek,         ///< <｜tool▁calls▁begin｜>... with <think> reasoning (V3, R1, V3.1)
  qwen3_coder,      ///< <tool_call><function=name><parameter=p>v</parameter></function></tool_call>
  harmony,          ///< GPT-OSS: <|channel|>commentary to=functions.name<|message|>{...}<|call|>
  command_r7b,      ///< <|START_ACTION|>[{"tool_name":..,"parameters":..}]<|END_ACTION|>
  auto_detect,      ///< every syntax above, recognised from the text ("auto")
};

/// to_string returns the CLI name of `f`, e.g. "hermes", "functionary-v3.1", "auto".
std::string_view to_string(format f) noexcept;

/// parse_format reads a CLI name (also accepts underscores and a few aliases such as "qwen",
/// "llama3.1", "gpt-oss", "xlam").
/// Errors: errc::invalid_argument listing the known names.
result<format> parse_format(std::string_view name);

/// all_formats lists every concrete format (not auto_detect), in declaration order.
std::vector<format> all_formats();

/// tool_schemas maps a tool name to its input schema; used to type string-valued arguments.
using tool_schemas = std::map<std::string, json, std::less<>>;

/// schemas_of collects the input schemas of `tools`.
tool_schemas schemas_of(const std::vector<tool>& tools);

/// tools_from_json reads tool definitions as they are usually written down: a list of MCP
/// ({name, description, inputSchema}), OpenAI ({type: "function", function: {...}}) or plain /
/// BFCL ({name, description, parameters}) entries, or an object mapping names to schemas.
/// Errors: errc::invalid_argument naming the entry that has no usable name.
result<std::vector<tool>> tools_from_json(const json& j);

/// parse_options configures a parse. Defaults: no schemas, ids "call_0", "call_1", ...
struct parse_options {
  tool_schemas schemas;             ///< types XML and Python-literal arguments when present
  std::string id_prefix = "call_";  ///< ids are id_prefix + index of the call in the text
  bool in_reasoning = false;  ///< the prompt already opened <think>: text starts as reasoning
};

/// parsed_text is everything found in one model reply.
struct parsed_text {
  std::vector<tool_call> calls;          ///< in text order; arguments null = did not parse
  std::string content;                   ///< the visible answer with calls taken out
  std::string reasoning;                 ///< <think>/analysis text, kept apart
  std::vector<std::string> diagnostics;  ///< one line per malformed call or stray marker
};

/// stream_delta is what one feed() released: content and reasoning that can no longer be part
/// of a call, and the calls that completed.
struct stream_delta {
  std::string content;
  std::string reasoning;
  std::vector<tool_call> calls;
  std::vector<std::string> diagnostics;

  /// empty tells whether nothing was released.
  bool empty() const noexcept;
};

/// stream_parser parses a reply fed in chunks of any size. Text that might begin a marker is
/// held back only as long as it might; each call is released as soon as its text is complete.
/// Feeding the chunks of a text gives, concatenated, exactly parse() of the whole text.
/// Not thread-safe: one parser per stream.
class stream_parser {
 public:
  /// stream_parser prepares a parser for `f` (auto_detect accepts every format's syntax).
  explicit stream_parser(format f, parse_options options = {});
  ~stream_parser();
  stream_parser(stream_parser&&) noexcept;
  stream_parser& operator=(stream_parser&&) noexcept;

  /// feed adds the next chunk and returns what it released.
  stream_delta feed(std::string_view chunk);

  /// finish ends the text: held-back text becomes content, an unterminated call is parsed
  /// as far as it goes (arguments null if they do not parse). Further feeds are ignored.
  stream_delta finish();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// parse parses a whole reply (same as one feed() and finish()).
parsed_text parse(format f, std::string_view text, const parse_options& options = {});

/// render_options tunes the system-prompt block.
struct render_options {
  bool parallel = true;  ///< say that several calls may be made in one reply
};

/// render_tools writes the system-prompt block announcing `tools` and how to call them, in
/// the form `f`'s model family was trained on. auto_detect renders the hermes block.
std::string render_tools(format f, const std::vector<tool>& tools, const render_options& = {});

/// render_calls writes `calls` as a model of family `f` would (for replaying an assistant
/// turn in a prompt, tests and round trips). auto_detect renders hermes.
std::string render_calls(format f, const std::vector<tool_call>& calls);

/// render_result writes one tool result as the next prompt turn expects it for `f`, e.g.
/// <tool_response>...</tool_response> for hermes. `name` is the tool that produced it.
std::string render_result(format f, std::string_view name, std::string_view result_text);

}  // namespace tooluse::textcall
