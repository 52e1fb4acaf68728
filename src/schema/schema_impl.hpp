#pragma once
// The compiled form of a JSON Schema (draft 2020-12): a tree (a graph, with $ref) of `node`s
// whose keywords are parsed into native fields once, so validation never looks a keyword up
// in JSON. Private to the schema module.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tooluse/schema/validator.hpp"

namespace re2 {
class RE2;
}

namespace tooluse::schema::detail {

/// type_bit: one bit per JSON Schema type in node::types.
enum type_bit : std::uint8_t {
  t_null = 1,
  t_boolean = 2,
  t_integer = 4,
  t_number = 8,  ///< "number" also accepts integers
  t_string = 16,
  t_array = 32,
  t_object = 64,
};

/// compiled_regex is an ECMA-262 pattern translated to RE2 and compiled.
struct compiled_regex {
  std::string source;  ///< the pattern as written in the schema
  std::shared_ptr<const re2::RE2> re;
  bool search(std::string_view text) const;
};

/// translate_regex translates an ECMA-262 pattern into RE2 syntax.
/// Errors: errc::schema_error for constructs RE2 cannot run in linear time (lookaround,
/// backreferences) or malformed escapes.
result<std::string> translate_regex(std::string_view ecma);

/// is_ecma_regex tells whether `ecma` is a well-formed ECMA-262 pattern (format "regex"),
/// including constructs RE2 cannot run.
bool is_ecma_regex(std::string_view ecma);

/// compile_regex translates and compiles `ecma`.
/// Errors: errc::schema_error naming the pattern and what is wrong.
result<compiled_regex> compile_regex(std::string_view ecma);

/// format_kind: the formats checked when format assertion is on.
enum class format_kind : std::uint8_t {
  none, date_time, date, time, duration, email, idn_email, hostname, idn_hostname, ipv4, ipv6,
  uri, uri_reference, iri, iri_reference, uri_template, uuid, json_pointer,
  relative_json_pointer, regex, unknown,
};

/// parse_format maps a format name to its kind (unknown names give format_kind::unknown).
format_kind parse_format(std::string_view name);

/// check_format tells whether `text` is a valid instance of `kind` (unknown kinds pass).
bool check_format(format_kind kind, std::string_view text);

/// format_description names a format for messages, e.g. "date-time (RFC 3339)".
std::string_view format_description(format_kind kind);

struct node;

/// vocab bits: which vocabularies a node's resource enables (all, unless its metaschema's
/// $vocabulary says otherwise).
enum vocab_bit : std::uint8_t {
  v_applicator = 1,
  v_validation = 2,
  v_unevaluated = 4,
  v_format_assertion = 8,
  v_all_standard = v_applicator | v_validation | v_unevaluated,
};

/// resource is a schema resource (a document root or a subschema with $id); it holds the
/// $dynamicAnchor targets that $dynamicRef looks up through the dynamic scope.
struct resource {
  std::string uri;
  std::uint8_t vocab = v_all_standard;
  std::vector<std::pair<std::string, const json*>> dynamic_anchor_sources;
  std::vector<std::pair<std::string, const node*>> dynamic_anchors;
  const node* find_dynamic(std::string_view name) const;
};

/// node is one compiled subschema. Pointers point into the same compiled_schema.
struct node {
  const json* source = nullptr;
  const resource* res = nullptr;
  std::string location;  ///< JSON pointer of this schema in its document, e.g. "#/properties/a"
  bool always_false = false;
  bool trivially_true = false;  ///< `true` or `{}`: nothing to check
  bool has_unevaluated = false;
  std::uint8_t types = 0;  ///< bitwise or of type_bit; 0: any type

  bool has_enum = false;
  bool enum_all_strings = false;
  std::vector<json> enum_values;
  std::optional<json> const_value;

  const node* ref = nullptr;
  const node* dynamic_ref = nullptr;  ///< static target of $dynamicRef
  std::string dynamic_anchor;         ///< non-empty: look this anchor up in the dynamic scope
  std::vector<const node*> all_of, any_of, one_of;
  const node* not_schema = nullptr;
  const node* if_schema = nullptr;
  const node* then_schema = nullptr;
  const node* else_schema = nullptr;

  std::optional<long double> minimum, maximum, exclusive_minimum, exclusive_maximum;
  std::optional<long double> multiple_of;

  std::optional<std::uint64_t> min_length, max_length;
  std::optional<compiled_regex> pattern;
  format_kind format = format_kind::none;  ///< set only when the format is asserted
  std::string format_name;

  std::vector<const node*> prefix_items;
  const node* items = nullptr;
  const node* contains = nullptr;
  std::optional<std::uint64_t> min_items, max_items, min_contains, max_contains;
  bool unique_items = false;
  const node* unevaluated_items = nullptr;

  std::vector<std::pair<std::string, const node*>> properties;  ///< sorted by name
  std::vector<std::string> property_order;                      ///< names as written
  std::vector<std::pair<compiled_regex, const node*>> pattern_properties;
  const node* additional_properties = nullptr;
  std::vector<std::string> required;
  const node* property_names = nullptr;
  std::optional<std::uint64_t> min_properties, max_properties;
  std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;
  std::vector<std::pair<std::string, const node*>> dependent_schemas;
  const node* unevaluated_properties = nullptr;

  const node* find_property(std::string_view name) const;
};

/// compiled_schema owns the nodes, the documents they were compiled from, and the resources.
struct compiled_schema {
  json schema;                  ///< the root document as given
  std::deque<json> documents;   ///< remote documents loaded while compiling
  std::deque<node> nodes;
  std::deque<resource> resources;
  const node* root = nullptr;
  std::size_t max_depth = 128;
};

/// compile_into compiles `out.schema` (already set) into `out`.
/// Errors: errc::schema_error naming the keyword and its location.
status compile_into(compiled_schema& out, const compile_options& options);

// --- URIs (schema_impl_uri.cpp) -------------------------------------------------------------

/// resolve_uri resolves `ref` against the absolute `base` (RFC 3986, section 5.2).
std::string resolve_uri(std::string_view base, std::string_view ref);

/// split_fragment splits "a#b" into {"a", "b"}; has_fragment tells whether '#' was present.
std::pair<std::string, std::string> split_fragment(std::string_view uri);

/// percent_decode decodes %XX escapes (invalid escapes are kept as written).
std::string percent_decode(std::string_view text);

/// resolve_pointer follows a JSON pointer ("/a/0/b", already percent-decoded) from `root`.
const json* resolve_pointer(const json& root, std::string_view pointer);

// --- values (schema_impl_values.cpp) --------------------------------------------------------

/// json_equal is JSON Schema equality: numbers by value (1 == 1.0), objects unordered.
bool json_equal(const json& a, const json& b);

/// is_integer_value tells whether a JSON value is an integer (1 and 1.0 are).
bool is_integer_value(const json& value);
/// type_matches tells whether `value` is one of `types` (type_bit flags): "number" takes
/// integers, and "integer" takes a float with no fraction (1.0).
bool type_matches(std::uint8_t types, const json& value);

/// to_long_double converts a number for comparisons.
long double to_long_double(const json& value);

/// utf8_length counts code points.
std::uint64_t utf8_length(std::string_view text);

/// describe_value renders a value for a message: `string "3"`, `integer 5`, `an object`.
std::string describe_value(const json& value);

/// short_json is `value` as JSON, truncated for messages.
std::string short_json(const json& value, std::size_t limit = 60);

/// format_number renders a bound for a message ("5", "0.5").
std::string format_number(long double value);

}  // namespace tooluse::schema::detail
