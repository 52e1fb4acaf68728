#pragma once
/// \file tool_result.hpp
/// tooluse::tool_result, what a tool call produced: content blocks for the model, optional
/// structured content, the error flag, and accounting (time, cost, metadata).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse {

/// text_content is plain text for the model.
struct text_content {
  std::string text;
  bool operator==(const text_content&) const = default;
};

/// image_content is an image, base64-encoded, with its MIME type (e.g. "image/png").
struct image_content {
  std::string data;
  std::string mime_type;
  bool operator==(const image_content&) const = default;
};

/// audio_content is audio, base64-encoded, with its MIME type (e.g. "audio/wav").
struct audio_content {
  std::string data;
  std::string mime_type;
  bool operator==(const audio_content&) const = default;
};

/// resource_link points at a resource the client may fetch (MCP `resource_link`).
struct resource_link {
  std::string uri;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
  std::optional<std::int64_t> size;
  bool operator==(const resource_link&) const = default;
};

/// embedded_resource carries a resource's contents inline (MCP `resource`): text or a blob.
struct embedded_resource {
  std::string uri;
  std::string mime_type;
  std::optional<std::string> text;
  std::optional<std::string> blob;  ///< base64
  bool operator==(const embedded_resource&) const = default;
};

/// content_block is one piece of a result's content.
using content_block =
    std::variant<text_content, image_content, audio_content, resource_link, embedded_resource>;

/// tool_result is a call's outcome. A failure the model should see (bad arguments, upstream
/// error, timeout) is a tool_result with is_error set and a message saying what to do next.
struct tool_result {
  std::vector<content_block> content;
  std::optional<json> structured_content;
  bool is_error = false;
  std::chrono::microseconds duration{0};  ///< set by the engine
  double cost = 0;                        ///< set by the engine from the tool's cost_per_call
  json meta = json::object();             ///< e.g. {"coerced": [...], "truncated": {...}}

  /// text makes a successful result with one text block.
  static tool_result text(std::string s);
  /// error makes an error result with one text block written for the model.
  static tool_result error(std::string message);
  /// structured makes a result with structured content and its JSON text as a text block
  /// (so clients that ignore structured content still see it).
  static tool_result structured(json value);

  /// all_text concatenates the text blocks, separated by newlines.
  std::string all_text() const;
};

/// to_json/from_json use MCP's CallToolResult shape: content, structuredContent, isError, _meta.
json content_to_json(const content_block& block);
result<content_block> content_from_json(const json& j);
json result_to_json(const tool_result& r);
/// append_result_json appends what dump_json(result_to_json(r)) returns to `out`, without
/// building the JSON (a server's hot path writes results this way).
void append_result_json(std::string& out, const tool_result& r);
result<tool_result> result_from_json(const json& j);

}  // namespace tooluse
