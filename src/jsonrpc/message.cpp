#include "tooluse/jsonrpc/message.hpp"

#include <utility>

#include "tooluse/json_build.hpp"

namespace tooluse::jsonrpc {

json id_to_json(const message_id& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) return *n;
  return std::get<std::string>(id);
}

std::string id_to_string(const message_id& id) {
  if (const auto* n = std::get_if<std::int64_t>(&id)) return std::to_string(*n);
  return "\"" + std::get<std::string>(id) + "\"";
}

std::optional<message_id> id_from_json(const json& j) {
  if (j.is_string()) return message_id(j.get<std::string>());
  // Unsigned first: is_number_integer() is true for unsigned numbers too, and 2^63 and above
  // would wrap to a negative id.
  if (j.is_number_unsigned()) {
    auto u = j.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(INT64_MAX)) return message_id(static_cast<std::int64_t>(u));
    return std::nullopt;
  }
  if (j.is_number_integer()) return message_id(j.get<std::int64_t>());
  return std::nullopt;
}

response response::success(message_id id, json result) {
  return response{std::move(id), std::move(result), std::nullopt};
}

response response::failure(std::optional<message_id> id, int code, std::string message,
                           json data) {
  return response{std::move(id), nullptr, error_object{code, std::move(message), std::move(data)}};
}

namespace {

response invalid(std::optional<message_id> id, std::string why) {
  return response::failure(std::move(id), error_code::invalid_request, "Invalid Request: " + why);
}

// take moves `v` out of a document parse() owns, or copies it (`own` false: the caller's, only
// read).
json take(json& v, bool own) { return own ? json(std::move(v)) : json(v); }

// parse_one classifies one object; the result is a message or an error response. Params and
// results are moved out of `j` when `own`, copied otherwise.
std::variant<message, response> parse_one(json& j, bool own) {
  if (!j.is_object()) return invalid(std::nullopt, "a message must be a JSON object");
  std::optional<message_id> id;
  auto id_it = j.find("id");
  bool has_id = id_it != j.end() && !id_it->is_null();
  if (has_id) {
    id = id_from_json(*id_it);
    if (!id) return invalid(std::nullopt, "\"id\" must be a string or an integer");
  }
  auto v = j.find("jsonrpc");
  if (v == j.end() || !v->is_string() || v->get_ref<const std::string&>() != "2.0")
    return invalid(id, "\"jsonrpc\" must be \"2.0\"");
  auto m = j.find("method");
  if (m != j.end()) {
    if (!m->is_string()) return invalid(id, "\"method\" must be a string");
    json params = nullptr;
    if (auto p = j.find("params"); p != j.end()) {
      if (!p->is_object() && !p->is_array()) return invalid(id, "\"params\" must be an object or array");
      params = take(*p, own);
    }
    if (id_it != j.end() && id_it->is_null()) return invalid(std::nullopt, "\"id\" must not be null");
    if (has_id) return message(request{*id, m->get<std::string>(), std::move(params)});
    return message(notification{m->get<std::string>(), std::move(params)});
  }
  auto r = j.find("result");
  auto e = j.find("error");
  if ((r == j.end()) == (e == j.end()))
    return invalid(id, "a message needs \"method\", or exactly one of \"result\" and \"error\"");
  if (r != j.end()) {
    if (!has_id) return invalid(std::nullopt, "a result response needs an id");
    return message(response::success(*id, take(*r, own)));
  }
  if (!e->is_object() || !e->contains("code") || !(*e)["code"].is_number_integer() ||
      (*e)["code"].get<std::int64_t>() < INT32_MIN || (*e)["code"].get<std::int64_t>() > INT32_MAX)
    return invalid(id, "\"error\" must be an object with an integer \"code\"");
  // A message of another type is dropped rather than thrown on: parse never throws.
  auto msg = e->find("message");
  error_object err{static_cast<int>((*e)["code"].get<std::int64_t>()),
                   msg != e->end() && msg->is_string() ? msg->get<std::string>() : std::string(),
                   e->contains("data") ? (*e)["data"] : json(nullptr)};
  return message(response{id, nullptr, std::move(err)});
}

void add_one(parsed& out, json& j, bool own) {
  auto one = parse_one(j, own);
  if (auto* msg = std::get_if<message>(&one)) {
    out.messages.push_back(std::move(*msg));
  } else {
    out.errors.push_back(std::move(std::get<response>(one)));
  }
}

parsed parse_document(json& value, bool own, const parse_options& options) {
  parsed out;
  if (!value.is_array()) {
    add_one(out, value, own);
    return out;
  }
  out.batch = true;
  if (!options.allow_batch) {
    out.errors.push_back(invalid(std::nullopt, "batches are not supported by this protocol version"));
    return out;
  }
  if (value.empty()) {
    out.errors.push_back(invalid(std::nullopt, "an empty batch"));
    return out;
  }
  if (value.size() > options.max_batch) {
    out.errors.push_back(invalid(std::nullopt, limit_error("a batch of " + std::to_string(value.size()) +
                                                               " messages",
                                                           "jsonrpc::parse_options::max_batch",
                                                           options.max_batch)
                                                   .message));
    return out;
  }
  for (auto& item : value) add_one(out, item, own);
  return out;
}

}  // namespace

parsed parse_value(const json& value, const parse_options& options) {
  return parse_document(const_cast<json&>(value), /*own=*/false, options);  // only read
}

parsed parse(std::string_view text, const parse_options& options) {
  auto value = parse_json(text, options.limits ? *options.limits : default_json_limits());
  if (!value) {
    parsed out;
    if (value.error().code == errc::limit_exceeded)
      out.errors.push_back(response::failure(std::nullopt, error_code::invalid_request,
                                             "Invalid Request: " + value.error().message));
    else
      out.errors.push_back(response::failure(std::nullopt, error_code::parse_error, "Parse error"));
    return out;
  }
  parsed out = parse_document(*value, /*own=*/true, options);
  release_json(*value);  // what was not moved out (json_build.hpp: cheaper than its destructor)
  return out;
}

// Every message a client or server sends is built here: no initializer lists (json_build.hpp).
json to_json(const request& m) {
  json j = json_object(m.params.is_null() ? 3 : 4);
  add_member(j, "jsonrpc", "2.0");
  add_member(j, "id", id_to_json(m.id));
  add_member(j, "method", m.method);
  if (!m.params.is_null()) add_member(j, "params", m.params);
  return j;
}

json to_json(const notification& m) {
  json j = json_object(m.params.is_null() ? 2 : 3);
  add_member(j, "jsonrpc", "2.0");
  add_member(j, "method", m.method);
  if (!m.params.is_null()) add_member(j, "params", m.params);
  return j;
}

json to_json(const response& m) {
  json j = json_object(3);
  add_member(j, "jsonrpc", "2.0");
  add_member(j, "id", m.id ? id_to_json(*m.id) : json(nullptr));
  if (m.error) {
    json& e = add_member(j, "error", json_object(m.error->data.is_null() ? 2 : 3));
    add_member(e, "code", m.error->code);
    add_member(e, "message", m.error->message);
    if (!m.error->data.is_null()) add_member(e, "data", m.error->data);
  } else {
    add_member(j, "result", m.result.is_null() ? json(json::value_t::object) : m.result);
  }
  return j;
}

json to_json(const message& m) {
  return std::visit([](const auto& x) { return to_json(x); }, m);
}

std::string serialize(const message& m) { return dump_json(to_json(m)); }

}  // namespace tooluse::jsonrpc
