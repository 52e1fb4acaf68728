#include "tooluse/tools/tool_result.hpp"

#include <utility>

#include "tooluse/json_build.hpp"

namespace tooluse {

tool_result tool_result::text(std::string s) {
  tool_result r;
  r.content.emplace_back(text_content{std::move(s)});
  return r;
}

tool_result tool_result::error(std::string message) {
  tool_result r = text(std::move(message));
  r.is_error = true;
  return r;
}

tool_result tool_result::structured(json value) {
  tool_result r = text(dump_json(value));
  r.structured_content = std::move(value);
  return r;
}

std::string tool_result::all_text() const {
  std::string out;
  for (const auto& block : content) {
    if (const auto* t = std::get_if<text_content>(&block)) {
      if (!out.empty()) out += '\n';
      out += t->text;
    }
  }
  return out;
}

namespace {
struct to_json_visitor {
  // Every tool result of every call goes through these: no initializer lists (json_build.hpp).
  json operator()(const text_content& c) const {
    json j = json_object(2);
    add_member(j, "type", "text");
    add_member(j, "text", c.text);
    return j;
  }
  json operator()(const image_content& c) const { return media("image", c.data, c.mime_type); }
  json operator()(const audio_content& c) const { return media("audio", c.data, c.mime_type); }
  static json media(const char* type, const std::string& data, const std::string& mime_type) {
    json j = json_object(3);
    add_member(j, "type", type);
    add_member(j, "data", data);
    add_member(j, "mimeType", mime_type);
    return j;
  }
  json operator()(const resource_link& c) const {
    json j = {{"type", "resource_link"}, {"uri", c.uri}, {"name", c.name}};
    if (!c.title.empty()) j["title"] = c.title;
    if (!c.description.empty()) j["description"] = c.description;
    if (!c.mime_type.empty()) j["mimeType"] = c.mime_type;
    if (c.size) j["size"] = *c.size;
    return j;
  }
  json operator()(const embedded_resource& c) const {
    json r = {{"uri", c.uri}};
    if (!c.mime_type.empty()) r["mimeType"] = c.mime_type;
    if (c.text) r["text"] = *c.text;
    if (c.blob) r["blob"] = *c.blob;
    return {{"type", "resource"}, {"resource", r}};
  }
};

std::string str_field(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

json content_to_json(const content_block& block) { return std::visit(to_json_visitor{}, block); }

result<content_block> content_from_json(const json& j) {
  if (!j.is_object()) return fail(errc::protocol_error, "content block must be an object");
  std::string type = str_field(j, "type");
  if (type == "text") {
    if (!j.contains("text") || !j["text"].is_string())
      return fail(errc::protocol_error, "text content block needs a string \"text\"");
    return text_content{j["text"].get<std::string>()};
  }
  if (type == "image") return image_content{str_field(j, "data"), str_field(j, "mimeType")};
  if (type == "audio") return audio_content{str_field(j, "data"), str_field(j, "mimeType")};
  if (type == "resource_link") {
    resource_link l{str_field(j, "uri"), str_field(j, "name"), str_field(j, "title"),
                    str_field(j, "description"), str_field(j, "mimeType"), std::nullopt};
    if (auto it = j.find("size"); it != j.end() && it->is_number_integer())
      l.size = it->get<std::int64_t>();
    return l;
  }
  if (type == "resource") {
    auto it = j.find("resource");
    if (it == j.end() || !it->is_object())
      return fail(errc::protocol_error, "resource content block needs a \"resource\" object");
    embedded_resource r{str_field(*it, "uri"), str_field(*it, "mimeType"), std::nullopt,
                        std::nullopt};
    if (it->contains("text")) r.text = str_field(*it, "text");
    if (it->contains("blob")) r.blob = str_field(*it, "blob");
    return r;
  }
  return fail(errc::protocol_error, "unknown content block type \"" + type + "\"");
}

json result_to_json(const tool_result& r) {
  // One member more than it has: an MCP server adds "resultType", and growing an object copies
  // every member (ordered_json's pairs cannot be moved), the whole content with them.
  json j = json_object(2 + (r.structured_content ? 1 : 0) + (r.is_error ? 1 : 0) + (r.meta.empty() ? 0 : 1));
  auto& content = add_member(j, "content", json(json::value_t::array)).get_ref<json::array_t&>();
  content.reserve(r.content.size());
  for (const auto& b : r.content) content.push_back(content_to_json(b));
  if (r.structured_content) add_member(j, "structuredContent", *r.structured_content);
  if (r.is_error) add_member(j, "isError", true);
  if (!r.meta.empty()) add_member(j, "_meta", r.meta);
  return j;
}

void append_result_json(std::string& out, const tool_result& r) {
  out += "{\"content\":[";
  bool first = true;
  for (const auto& b : r.content) {
    if (!std::exchange(first, false)) out += ',';
    if (const auto* t = std::get_if<text_content>(&b)) {  // the common block, as to_json_visitor writes it
      out += "{\"type\":\"text\",\"text\":";
      append_json_string(out, t->text);
      out += '}';
    } else {
      append_json(out, content_to_json(b));
    }
  }
  out += ']';
  if (r.structured_content) {
    out += ",\"structuredContent\":";
    append_json(out, *r.structured_content);
  }
  if (r.is_error) out += ",\"isError\":true";
  if (!r.meta.empty()) {
    out += ",\"_meta\":";
    append_json(out, r.meta);
  }
  out += '}';
}

result<tool_result> result_from_json(const json& j) {
  if (!j.is_object()) return fail(errc::protocol_error, "tool result must be an object");
  tool_result r;
  if (auto it = j.find("content"); it != j.end()) {
    if (!it->is_array()) return fail(errc::protocol_error, "tool result \"content\" must be an array");
    for (const auto& b : *it) {
      auto block = content_from_json(b);
      if (!block) return fail(block.error());
      r.content.push_back(std::move(*block));
    }
  }
  if (auto it = j.find("structuredContent"); it != j.end()) r.structured_content = *it;
  if (auto it = j.find("isError"); it != j.end() && it->is_boolean()) r.is_error = it->get<bool>();
  if (auto it = j.find("_meta"); it != j.end() && it->is_object()) r.meta = *it;
  return r;
}

}  // namespace tooluse
