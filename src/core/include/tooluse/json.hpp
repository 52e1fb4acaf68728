#pragma once
/// \file json.hpp
/// tooluse::json is nlohmann::ordered_json: key order is kept, so schemas sent to models and
/// golden files are stable. JSON appears only at the edges (wire formats, schemas, arguments).

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "tooluse/result.hpp"

// basic_json's members are compiled once, in core (src/core/json.cpp), not again in every file
// that uses JSON: about a sixth of a file's compile time (design/build.md).
extern template class nlohmann::basic_json<nlohmann::ordered_map>;

namespace tooluse {

using json = nlohmann::ordered_json;

/// json_limits bound what parsing one JSON document may cost. Every parse of text from a peer
/// (model endpoints, MCP servers and clients, fetched pages, tool arguments) goes through
/// parse_json with these limits, so a document nested 100 000 levels deep or holding millions
/// of tiny values is refused before it is built. Nesting is checked while parsing (nlohmann's
/// SAX parser is iterative), so refusing never recurses.
struct json_limits {
  std::size_t max_depth = 128;             ///< arrays/objects nested inside each other
  std::size_t max_bytes = 64u << 20;       ///< size of the text
  std::size_t max_values = 2'000'000;      ///< values of any kind (memory ~ 60 bytes each)
};

/// default_json_limits returns the limits parse_json uses when none are given. Starts as
/// json_limits{}; set_default_json_limits changes it for the whole process (thread-safe).
json_limits default_json_limits() noexcept;
void set_default_json_limits(const json_limits& limits) noexcept;

/// parse_json parses `text` as one JSON value without throwing, within `limits`.
/// Errors: errc::parse_error with the byte offset and what was expected;
/// errc::limit_exceeded naming the json_limits field that was exceeded.
result<json> parse_json(std::string_view text);
result<json> parse_json(std::string_view text, const json_limits& limits);

namespace detail {
/// parse_json_nlohmann is parse_json with nlohmann's parser alone. parse_json tokenizes small
/// documents with simdjson and must give exactly this result, value types and error messages
/// included; the json_parse fuzzer and tests/unit/core/json_simd_test.cpp hold it to that.
result<json> parse_json_nlohmann(std::string_view text, const json_limits& limits);
}  // namespace detail

/// dump_json serializes compactly; invalid UTF-8 is replaced rather than thrown on.
std::string dump_json(const json& value, int indent = -1);
/// append_json appends what dump_json(value) returns to `out`, without a string of its own.
void append_json(std::string& out, const json& value);
/// append_json_string appends `text` as a JSON string: what dump_json(json(text)) returns.
void append_json_string(std::string& out, std::string_view text);

/// type_name returns the JSON Schema name of a value's type: "null", "boolean", "integer",
/// "number", "string", "array" or "object" (a float with an integral value is "number").
std::string_view type_name(const json& value) noexcept;

/// canonical_json serializes with object keys sorted, for cache keys and comparisons.
std::string canonical_json(const json& value);

}  // namespace tooluse
