#include "tooluse/exec/approval.hpp"

namespace tooluse::exec {

approval_decision approval_decision::approve() { return {approval_kind::approve, {}, json::object()}; }

approval_decision approval_decision::reject(std::string message) {
  return {approval_kind::reject, std::move(message), json::object()};
}

approval_decision approval_decision::edit(json arguments) {
  return {approval_kind::edit, {}, std::move(arguments)};
}

approval_decision approval_decision::defer(std::string reason) {
  return {approval_kind::defer, std::move(reason), json::object()};
}

json pending_approval::to_json() const {
  return {{"id", id},
          {"call", {{"id", call.id}, {"name", call.name}, {"arguments", call.arguments}}},
          {"session", session},
          {"reason", reason},
          {"created_unix_ms", created_unix_ms}};
}

namespace {
result<std::string> string_field(const json& j, const char* key, const char* where) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string())
    return fail(errc::invalid_argument,
                std::string("pending approval: ") + where + "\"" + key + "\" must be a string");
  return it->get<std::string>();
}
}  // namespace

result<pending_approval> pending_approval::from_json(const json& j) {
  if (!j.is_object()) return fail(errc::invalid_argument, "pending approval must be a JSON object");
  pending_approval p;
  auto id = string_field(j, "id", "");
  if (!id) return fail(id.error());
  p.id = *id;
  auto call = j.find("call");
  if (call == j.end() || !call->is_object())
    return fail(errc::invalid_argument, "pending approval: \"call\" must be an object");
  auto call_id = string_field(*call, "id", "call.");
  auto name = string_field(*call, "name", "call.");
  if (!call_id) return fail(call_id.error());
  if (!name) return fail(name.error());
  auto args = call->find("arguments");
  if (args == call->end() || !args->is_object())
    return fail(errc::invalid_argument, "pending approval: \"call.arguments\" must be an object");
  p.call.id = *call_id;
  p.call.name = *name;
  p.call.arguments = *args;
  p.call.raw_arguments = dump_json(*args);
  p.session = j.value("session", "");
  p.reason = j.value("reason", "");
  if (auto it = j.find("created_unix_ms"); it != j.end() && it->is_number_integer())
    p.created_unix_ms = it->get<std::int64_t>();
  return p;
}

std::optional<pending_approval> pending_from_result(const tool_result& r) {
  auto it = r.meta.find("pending_approval");
  if (it == r.meta.end()) return std::nullopt;
  auto p = pending_approval::from_json(*it);
  if (!p) return std::nullopt;
  return std::move(*p);
}

}  // namespace tooluse::exec
