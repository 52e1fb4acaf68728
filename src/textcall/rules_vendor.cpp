// Rules for vendor special tokens: Mistral, Llama 3.1, Functionary v3.2, DeepSeek, GPT-OSS
// harmony, Command R7B.
#include <optional>

#include "textcall/calls.hpp"
#include "textcall/rules.hpp"

namespace tooluse::textcall::detail {
namespace {

// earliest finds the first of `markers` at or after `from` (npos if none); `which` gets its size.
// One pass that stops at the first match: searching for each marker over the whole rest of the
// text made parsing quadratic when a rarely used marker (e.g. <|return|>) never occurs.
std::size_t earliest(std::string_view text, std::size_t from,
                     std::initializer_list<std::string_view> markers, std::size_t* which = nullptr) {
  std::string firsts;
  for (auto m : markers)
    if (!m.empty() && firsts.find(m[0]) == std::string::npos) firsts += m[0];
  for (std::size_t at = text.find_first_of(firsts, from); at != std::string_view::npos;
       at = text.find_first_of(firsts, at + 1)) {
    for (auto m : markers) {
      if (!m.empty() && text.substr(at).starts_with(m)) {
        if (which) *which = m.size();
        return at;
      }
    }
  }
  return std::string_view::npos;
}

// stop_at_end settles a `stop` not found (npos) at the end of the text, once that is final;
// false before: more may come.
bool stop_at_end(std::size_t& stop, std::string_view text, const scan_env& env) {
  if (stop != std::string_view::npos) return true;
  if (!env.eof) return false;
  stop = text.size();
  return true;
}

// enclosed_text is what stands between a rule's marker and its `end`, and the length of it all
// (marker and end included).
struct enclosed_text {
  std::string_view body;
  std::size_t length;
};

// until_end is the text after the marker up to `end`; without an end it runs to the end of the
// text once that is final (nullopt before: more may come).
std::optional<enclosed_text> until_end(std::string_view text, const scan_env& env,
                                       std::string_view end) {
  std::size_t close = text.find(end, env.marker.size());
  const bool ended = close != std::string_view::npos;
  if (!stop_at_end(close, text, env)) return std::nullopt;
  return enclosed_text{text.substr(env.marker.size(), close - env.marker.size()),
                       ended ? close + end.size() : close};
}

// malformed_until makes a malformed call of text[from..] up to the first of `stops` (kept for
// the next rule) or the end of the text.
step malformed_until(std::string_view text, std::size_t from, std::string name,
                     std::initializer_list<std::string_view> stops, const scan_env& env) {
  std::size_t stop = earliest(text, from, stops);
  if (!stop_at_end(stop, text, env)) return incomplete();
  std::string raw(text.substr(from, stop - from));
  if (name.empty()) name = find_name_field(raw);
  return malformed_step(std::move(name), std::move(raw), stop, "the arguments did not parse");
}

// object_call parses a JSON object of arguments at `pos` for `name`.
step object_call(std::string_view text, std::size_t pos, std::string name, const scan_env& env,
                 std::initializer_list<std::string_view> stops) {
  auto v = scan_value(text, pos, true);
  if (v.state == scan_state::incomplete && !env.eof) return incomplete();
  if (v.state == scan_state::done && v.value.is_object()) {
    std::vector<tool_call> calls;
    calls.push_back(make_call(std::move(name), std::move(v.value)));
    calls.back().raw_arguments = std::string(text.substr(skip_space(text, pos), v.end - skip_space(text, pos)));
    return calls_step(std::move(calls), v.end);
  }
  return malformed_until(text, pos, std::move(name), stops, env);
}

std::string_view name_at(std::string_view text, std::size_t pos) {
  std::size_t n = pos;
  while (n < text.size() && is_name_char(text[n])) ++n;
  return text.substr(pos, n - pos);
}

}  // namespace

step scan_mistral(std::string_view text, const scan_env& env) {
  constexpr std::string_view args_tag = "[ARGS]";
  constexpr std::string_view id_tag = "[CALL_ID]";
  std::size_t p = skip_space(text, env.marker.size());
  if (p >= text.size()) return env.eof ? scan_skip_marker(text, env) : incomplete();
  if (text[p] == '[' || text[p] == '{') {  // first generation: a JSON list of calls
    auto vr = values_after(text, p, env.eof);
    if (vr.state == scan_state::incomplete && !env.eof) return incomplete();
    if (vr.state == scan_state::done && vr.call_shaped) return calls_step(std::move(vr.calls), vr.end);
    return malformed_until(text, p, "", {"[TOOL_CALLS]"}, env);
  }
  std::string_view name = name_at(text, p);  // second generation: name[ARGS]{...}
  std::size_t q = p + name.size();
  if (q >= text.size()) return env.eof ? no_match() : incomplete();
  if (name.empty()) return no_match();
  if (starts_with_at(text, q, id_tag)) {
    q = text.find(args_tag, q);
    if (q == std::string_view::npos) return env.eof ? no_match() : incomplete();
  }
  if (prefix_pending(text, q, args_tag) || prefix_pending(text, q, id_tag))
    return env.eof ? no_match() : incomplete();
  if (!starts_with_at(text, q, args_tag)) return no_match();
  return object_call(text, q + args_tag.size(), std::string(name), env, {"[TOOL_CALLS]"});
}

step scan_python_tag(std::string_view text, const scan_env& env) {
  std::size_t p = skip_space(text, env.marker.size());
  if (p >= text.size()) return env.eof ? scan_skip_marker(text, env) : incomplete();
  if (text[p] == '{' || text[p] == '[') {
    auto vr = values_after(text, p, env.eof);
    if (vr.state == scan_state::incomplete && !env.eof) return incomplete();
    if (vr.state == scan_state::done && vr.call_shaped) return calls_step(std::move(vr.calls), vr.end);
    return malformed_until(text, p, "", {"<|eom_id|>", "<|eot_id|>"}, env);
  }
  // Built-in tools: brave_search.call(query="..."); several may be separated by ';'.
  std::vector<tool_call> calls;
  std::size_t end = p;
  while (true) {
    auto r = scan_call_list(text, p, false);
    if (r.state == scan_state::incomplete && !env.eof) return incomplete();
    if (r.state != scan_state::done) break;
    // print(1+1) is code, not a call: calls need parsed arguments or the built-in ".call" form.
    if (r.calls[0].arguments.is_null() && !r.calls[0].name.ends_with(".call")) break;
    for (auto& c : r.calls) {
      if (c.name.ends_with(".call")) c.name.resize(c.name.size() - 5);
      calls.push_back(from_py_call(std::move(c), env.schemas));
    }
    end = r.end;
    p = skip_space(text, r.end);
    // Another call may follow after a ';' that has not arrived yet: wait, so that streamed
    // text parses as the whole text does.
    if (p >= text.size() && !env.eof) return incomplete();
    if (p < text.size() && text[p] == ';') p = skip_space(text, p + 1);
    else break;
  }
  if (!calls.empty()) return calls_step(std::move(calls), end);
  // Anything else after the tag is code for the code interpreter.
  std::size_t stop = earliest(text, p, {"<|eom_id|>", "<|eot_id|>"});
  if (!stop_at_end(stop, text, env)) return incomplete();
  std::vector<tool_call> code;
  code.push_back(make_call("code_interpreter", json{{"code", std::string(text.substr(p, stop - p))}}));
  return calls_step(std::move(code), stop);
}

step scan_functionary_v32(std::string_view text, const scan_env& env) {
  std::size_t p = env.marker == ">>>" ? env.marker.size() : 0;
  std::string_view name = name_at(text, p);
  std::size_t nl = p + name.size();
  if (nl >= text.size()) return env.eof ? no_match() : incomplete();
  if (name.empty() || text[nl] != '\n') return no_match();
  if (name == "all") return step{.kind = step_kind::skip, .length = nl + 1};
  std::size_t body = skip_space(text, nl + 1);
  if (body >= text.size()) return env.eof ? no_match() : incomplete();
  if (name == "python" && text[body] != '{') {
    std::size_t stop = text.find(">>>", body);
    if (!stop_at_end(stop, text, env)) return incomplete();
    std::vector<tool_call> code;
    code.push_back(make_call("python", json{{"code", std::string(text.substr(body, stop - body))}}));
    return calls_step(std::move(code), stop);
  }
  return object_call(text, body, std::string(name), env, {">>>"});
}

step scan_deepseek_call(std::string_view text, const scan_env& env) {
  constexpr std::string_view call_end = "<｜tool▁call▁end｜>";
  constexpr std::string_view sep = "<｜tool▁sep｜>";
  auto enclosed = until_end(text, env, call_end);
  if (!enclosed) return incomplete();
  std::string_view inner = enclosed->body;
  std::size_t length = enclosed->length;
  std::size_t s = inner.find(sep);
  if (s == std::string_view::npos)
    return malformed_step(find_name_field(inner), std::string(inner), length, "no tool separator");
  std::string_view left = inner.substr(0, s);
  std::string_view right = inner.substr(s + sep.size());
  std::string name;
  if (left == "function") {  // V3 / R1: function<sep>name\n```json\n{...}\n```
    std::size_t nl = right.find('\n');
    name = std::string(right.substr(0, nl));
    right = nl == std::string_view::npos ? std::string_view() : right.substr(nl + 1);
    std::size_t f = skip_space(right, 0);
    if (starts_with_at(right, f, "```")) {
      std::size_t fnl = right.find('\n', f);
      right = fnl == std::string_view::npos ? std::string_view() : right.substr(fnl + 1);
      std::size_t fe = right.rfind("```");
      if (fe != std::string_view::npos) right = right.substr(0, fe);
    }
  } else {  // V3.1: name<sep>{...}
    name = std::string(left);
  }
  while (!name.empty() && (name.back() == ' ' || name.back() == '\r')) name.pop_back();
  auto v = scan_value(right, 0, true);
  std::vector<tool_call> calls;
  if (v.state == scan_state::done && v.value.is_object() && skip_space(right, v.end) == right.size()) {
    calls.push_back(make_call(std::move(name), std::move(v.value)));
  } else if (skip_space(right, 0) == right.size()) {
    calls.push_back(make_call(std::move(name), json::object()));
  } else {
    return malformed_step(std::move(name), std::string(right), length, "the arguments did not parse");
  }
  return calls_step(std::move(calls), length);
}

namespace {

std::string header_token(std::string_view header, std::string_view key) {
  std::size_t at = header.find(key);
  if (at == std::string_view::npos) return {};
  std::size_t b = at + key.size();
  std::size_t e = b;
  while (e < header.size() && header[e] != ' ' && header[e] != '<' && header[e] != '\n') ++e;
  return std::string(header.substr(b, e - b));
}

}  // namespace

step scan_harmony(std::string_view text, const scan_env& env) {
  constexpr std::string_view message = "<|message|>";
  std::size_t m = text.find(message, env.marker.size());
  if (m == std::string_view::npos) return env.eof ? no_match() : incomplete();
  std::string_view header = text.substr(0, m);
  std::string recipient = header_token(header, "to=");
  std::string channel_name = header_token(header, "<|channel|>");
  std::size_t body = m + message.size();
  if (!recipient.empty() && recipient != "all" && recipient != "user") {
    if (recipient.starts_with("functions.")) recipient.erase(0, 10);
    std::size_t marker_size = 0;
    std::size_t stop =
        earliest(text, body, {"<|call|>", "<|end|>", "<|return|>", "<|start|>"}, &marker_size);
    if (stop != std::string_view::npos && text.substr(stop).starts_with("<|start|>"))
      marker_size = 0;  // the next message begins: this one ends here, the marker is kept
    if (stop == std::string_view::npos) {
      if (!env.eof) return incomplete();
      stop = text.size();
      marker_size = 0;
    }
    std::string_view args = text.substr(body, stop - body);
    auto v = scan_value(args, 0, true);
    if (v.state == scan_state::done && v.value.is_object() && skip_space(args, v.end) == args.size()) {
      std::vector<tool_call> calls;
      calls.push_back(make_call(std::move(recipient), std::move(v.value)));
      return calls_step(std::move(calls), stop + marker_size);
    }
    return malformed_step(std::move(recipient), std::string(args), stop + marker_size,
                          "the arguments did not parse");
  }
  return step{.kind = step_kind::enter,
              .length = body,
              .target = channel_name == "analysis" ? channel::reasoning : channel::content,
              .ends = {"<|end|>", "<|return|>", "<|call|>"},
              .stops = {"<|start|>", "<|channel|>"}};
}

step scan_command_action(std::string_view text, const scan_env& env) {
  constexpr std::string_view end = "<|END_ACTION|>";
  auto enclosed = until_end(text, env, end);
  if (!enclosed) return incomplete();
  std::string_view body = enclosed->body;
  std::size_t length = enclosed->length;
  auto vr = values_after(body, 0, true);
  if (vr.state == scan_state::done && vr.call_shaped && skip_space(body, vr.end) == body.size())
    return calls_step(std::move(vr.calls), length);
  return malformed_step(find_name_field(body), std::string(body), length, "the action did not parse");
}

step scan_command_thinking(std::string_view, const scan_env& env) {
  return step{.kind = step_kind::enter,
              .length = env.marker.size(),
              .target = channel::reasoning,
              .ends = {"<|END_THINKING|>"}};
}

}  // namespace tooluse::textcall::detail
