#include "tooluse/json.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "core/json_dump.hpp"

// The one instantiation of tooluse::json's members (tooluse/json.hpp declares it extern).
template class nlohmann::basic_json<nlohmann::ordered_map>;

namespace tooluse {

namespace {

void write_canonical(const json& v, std::string& out) {
  if (v.is_object()) {
    std::vector<const json::object_t::value_type*> items;
    items.reserve(v.size());
    for (const auto& kv : v.get_ref<const json::object_t&>()) items.push_back(&kv);
    std::sort(items.begin(), items.end(), [](auto* a, auto* b) { return a->first < b->first; });
    out += '{';
    bool first = true;
    for (auto* kv : items) {
      if (!first) out += ',';
      first = false;
      out += json(kv->first).dump(-1, ' ', false, json::error_handler_t::replace);
      out += ':';
      write_canonical(kv->second, out);
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& e : v) {
      if (!first) out += ',';
      first = false;
      write_canonical(e, out);
    }
    out += ']';
  } else {
    out += v.dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

}  // namespace

std::string dump_json(const json& value, int indent) {
  if (indent < 0) {
    std::string out;
    out.reserve(256);  // a small message in one allocation
    if (detail::write_compact(value, out)) return out;
  }
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

void append_json(std::string& out, const json& value) {
  const std::size_t at = out.size();
  if (detail::write_compact(value, out)) return;
  out.resize(at);  // what it left to nlohmann: a float, invalid UTF-8, binary
  out += value.dump(-1, ' ', false, json::error_handler_t::replace);
}

void append_json_string(std::string& out, std::string_view text) {
  const std::size_t at = out.size();
  if (detail::write_compact_string(text, out)) return;
  out.resize(at);  // not valid UTF-8: nlohmann replaces what is not
  out += json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string_view type_name(const json& value) noexcept {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return "number";
    case json::value_t::string: return "string";
    case json::value_t::array: return "array";
    case json::value_t::object: return "object";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "discarded";
  }
  return "unknown";
}

std::string canonical_json(const json& value) {
  std::string out;
  write_canonical(value, out);
  return out;
}

}  // namespace tooluse
