// Arguments to and from the strict form: omitted optional properties <-> explicit nulls.
#include <set>

#include "schema/translate_util.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::schema {
namespace {

enum class direction { to_strict, from_strict };

// Recursion into $ref cycles is bounded by the depth of the arguments, which is finite.
json convert(const json& schema, const json& root, const json& value, direction dir) {
  const json& s = detail::resolve_if_ref(schema, root);
  if (!s.is_object()) return value;
  if (value.is_array() && s.contains("items")) {
    json out = json::array();
    for (const auto& v : value) out.push_back(convert(s["items"], root, v, dir));
    return out;
  }
  if (!value.is_object() || !s.contains("properties") || !s["properties"].is_object())
    return value;
  std::set<std::string> required;
  if (s.contains("required") && s["required"].is_array())
    for (const auto& r : s["required"])
      if (r.is_string()) required.insert(r.get<std::string>());
  const json& props = s["properties"];
  json out = json::object();
  for (const auto& [k, v] : value.items()) {
    auto p = props.find(k);
    if (p == props.end()) {
      out[k] = v;
      continue;
    }
    bool drop = dir == direction::from_strict && v.is_null() && !required.contains(k) &&
                !detail::accepts_null(*p, root);
    if (!drop) out[k] = convert(*p, root, v, dir);
  }
  if (dir == direction::to_strict)
    for (const auto& [k, p] : props.items())
      if (!value.contains(k) && !required.contains(k)) out[k] = nullptr;
  return out;
}

}  // namespace

json to_strict_arguments(const json& schema, const json& arguments) {
  return convert(schema, schema, arguments, direction::to_strict);
}

json from_strict_arguments(const json& schema, const json& arguments) {
  return convert(schema, schema, arguments, direction::from_strict);
}

}  // namespace tooluse::schema
