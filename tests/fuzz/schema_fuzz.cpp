// Fuzz target for the schema engine: compile arbitrary schemas and validate (and coerce)
// arbitrary instances. Input: SCHEMA '\0' INSTANCE (without '\0' the text is both). Finds
// crashes, sanitizer reports, hangs, and disagreements between is_valid() and validate().
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tooluse/json.hpp"
#include "tooluse/schema/coerce.hpp"
#include "tooluse/schema/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto split = text.find('\0');
  std::string_view schema_text = split == std::string_view::npos ? text : text.substr(0, split);
  std::string_view instance_text =
      split == std::string_view::npos ? text : text.substr(split + 1);
  auto schema = tooluse::parse_json(schema_text);
  if (!schema) return 0;
  auto instance = tooluse::parse_json(instance_text);
  if (!instance) return 0;
  bool formats = size % 2 == 1;
  // Remote references resolve to a fixed document, so $ref to URIs is exercised too.
  auto resolver = [](const std::string& uri) -> std::optional<tooluse::json> {
    if (uri.find("remote") == std::string::npos) return std::nullopt;
    return tooluse::json::parse(R"({"$defs": {"a": {"type": "integer"}}, "$dynamicAnchor": "m",
                                    "items": {"$dynamicRef": "#m"}})");
  };
  auto v = tooluse::schema::validator::compile(*schema,
                                               {.format_assertion = formats, .resolve = resolver});
  if (!v) return 0;
  bool valid = v->is_valid(*instance);
  auto errors = v->validate(*instance, {.max_errors = 0});
  if (valid != errors.empty()) std::abort();  // the two entry points must agree
  (void)tooluse::schema::format_errors(errors);
  auto coerced = tooluse::schema::coerce(*v, *instance);
  if (coerced.coercions.empty() && coerced.valid() != valid) std::abort();
  return 0;
}
