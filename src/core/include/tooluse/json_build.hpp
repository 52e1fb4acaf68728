#pragma once
/// Building JSON objects where it is paid per request. An initializer list, `json{{"k", v}}`,
/// builds each member as a two-element array and then copies it into the object: about three
/// allocations a member, and the member vector grows as it goes. These reserve the member vector
/// once and put each member in it directly. design/json-parse.md ("Building objects").

#include <cstddef>
#include <string>

#include "tooluse/json.hpp"

namespace tooluse {

/// json_object returns an empty object with room for `members` members.
inline json json_object(std::size_t members) {
  json j(json::value_t::object);
  static_cast<json::object_t::Container&>(j.get_ref<json::object_t&>()).reserve(members);
  return j;
}

/// add_member appends `key` to `object` without looking it up (`object[key] = value` does), for
/// a key the caller knows is not in it yet; returns the value as stored. `object` must be an
/// object (a JSON type error otherwise).
inline json& add_member(json& object, std::string key, json value) {
  auto& items = static_cast<json::object_t::Container&>(object.get_ref<json::object_t&>());
  return items.emplace_back(std::move(key), std::move(value)).second;
}

/// release_json takes `j` apart children first, leaving it an empty container (or the scalar it
/// was). nlohmann's destructor first moves a container's whole subtree onto a stack it allocates
/// (so that no depth can overflow the call stack), and for a small document that is most of the
/// cost of freeing it. This recurses instead, `depth` levels at most; what nests deeper is left
/// to the destructor. For a document freed per request (a message read, a response written).
inline void release_json(json& j, int depth = 32) noexcept {
  if (j.is_object()) {
    auto& items = static_cast<json::object_t::Container&>(j.get_ref<json::object_t&>());
    if (depth > 0)
      for (auto& kv : items)
        if (kv.second.is_structured()) release_json(kv.second, depth - 1);
    items.clear();
  } else if (j.is_array()) {
    auto& items = j.get_ref<json::array_t&>();
    if (depth > 0)
      for (auto& v : items)
        if (v.is_structured()) release_json(v, depth - 1);
    items.clear();
  }
}

}  // namespace tooluse
