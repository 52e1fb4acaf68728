// Generic rules: <think>, tag blocks (<tool_call> and its variants), <function=name>, code
// fences, bare JSON and Python call lists.
#include "textcall/calls.hpp"
#include "textcall/rules.hpp"

namespace tooluse::textcall::detail {
namespace {

constexpr std::string_view function_open = "<function=";
constexpr std::string_view function_close = "</function>";
constexpr std::string_view parameter_open = "<parameter=";
constexpr std::string_view parameter_close = "</parameter>";

std::string_view trim(std::string_view s) {
  std::size_t b = skip_space(s, 0);
  std::size_t e = s.size();
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\n' || s[e - 1] == '\t' || s[e - 1] == '\r'))
    --e;
  return s.substr(b, e - b);
}

// xml_parameters reads <parameter=p>value</parameter> elements; false when the body holds
// anything else.
bool xml_parameters(std::string_view body, json& args) {
  args = json::object();
  std::size_t p = skip_space(body, 0);
  while (p < body.size()) {
    if (!starts_with_at(body, p, parameter_open)) return false;
    std::size_t gt = body.find('>', p);
    if (gt == std::string_view::npos) return false;
    std::string name(trim(body.substr(p + parameter_open.size(), gt - p - parameter_open.size())));
    std::size_t vbeg = gt + 1;
    std::size_t close = body.find(parameter_close, vbeg);
    std::size_t next = body.find(parameter_open, vbeg);
    std::size_t vend = std::min(close, std::min(next, body.size()));
    std::string_view value = body.substr(vbeg, vend - vbeg);
    // The model writes one newline after the tag and one before the closing tag.
    if (!value.empty() && value.front() == '\n') value.remove_prefix(1);
    if (!value.empty() && value.back() == '\n') value.remove_suffix(1);
    args[name] = std::string(value);
    p = vend == close ? close + parameter_close.size() : vend;
    p = skip_space(body, p);
  }
  return true;
}

}  // namespace

bool starts_with_at(std::string_view text, std::size_t pos, std::string_view what) {
  return pos <= text.size() && text.substr(pos).starts_with(what);
}

bool prefix_pending(std::string_view text, std::size_t pos, std::string_view what) {
  if (pos > text.size()) return false;
  std::string_view rest = text.substr(pos);
  return rest.size() < what.size() && what.starts_with(rest);
}

step calls_step(std::vector<tool_call> calls, std::size_t length) {
  step s{.kind = step_kind::calls, .length = length};
  for (const auto& c : calls) {
    if (c.arguments.is_null() && s.diagnostic.empty())
      s.diagnostic = "malformed call to \"" + c.name + "\": its arguments did not parse";
  }
  s.calls = std::move(calls);
  return s;
}

step malformed_step(std::string name, std::string raw, std::size_t length, std::string_view why) {
  step s{.kind = step_kind::calls, .length = length};
  s.diagnostic = "malformed call";
  if (!name.empty()) s.diagnostic += " to \"" + name + "\"";
  s.diagnostic += ": ";
  s.diagnostic += why;
  s.calls.push_back(malformed_call(std::move(name), std::move(raw)));
  return s;
}

values_result values_after(std::string_view text, std::size_t pos, bool eof) {
  values_result r;
  std::size_t p = pos;
  while (true) {
    p = skip_space(text, p);
    auto v = scan_value(text, p, true);
    if (v.state != scan_state::done) {
      // A later value still arriving may be another call: wait for it, so that streamed text
      // parses as the whole text does.
      if (v.state == scan_state::incomplete && !eof) r.state = scan_state::incomplete;
      else r.state = r.calls.empty() ? v.state : scan_state::done;
      return r;
    }
    auto calls = calls_from_json(v.value);
    if (!calls) {
      r.state = scan_state::done;
      if (r.calls.empty()) {
        r.call_shaped = false;
        r.end = v.end;
      }
      return r;
    }
    for (auto& c : *calls) r.calls.push_back(std::move(c));
    r.end = v.end;
    std::size_t q = skip_space(text, v.end);
    if (q < text.size() && (text[q] == ',' || text[q] == ';')) q = skip_space(text, q + 1);
    if (q >= text.size() && !eof) {  // another value may follow
      r.state = scan_state::incomplete;
      return r;
    }
    if (q >= text.size() || (text[q] != '{' && text[q] != '[')) {
      r.state = scan_state::done;
      return r;
    }
    p = q;
  }
}

function_result xml_function(std::string_view text, std::size_t pos, const scan_env& env) {
  function_result r;
  std::size_t p = pos + function_open.size();
  std::size_t n = p;
  while (n < text.size() && is_name_char(text[n])) ++n;
  if (n >= text.size()) {
    r.state = env.eof ? scan_state::invalid : scan_state::incomplete;
    return r;
  }
  if (text[n] != '>' || n == p) return r;
  std::string name(text.substr(p, n - p));
  std::size_t body_begin = n + 1;
  std::size_t close = text.find(function_close, body_begin);
  if (close == std::string_view::npos) {
    if (!env.eof) {
      r.state = scan_state::incomplete;
      return r;
    }
    close = text.size();
  }
  std::string_view body = text.substr(body_begin, close - body_begin);
  r.end = std::min(close + function_close.size(), text.size());
  r.state = scan_state::done;
  json args;
  if (trim(body).empty()) {
    r.call = make_call(std::move(name), json::object());
  } else if (starts_with_at(body, skip_space(body, 0), parameter_open)) {
    if (xml_parameters(body, args)) {
      r.call = make_call(std::move(name), std::move(args));
      r.call.raw_arguments = std::string(body);
      type_arguments(r.call, env.schemas);
    } else {
      r.call = malformed_call(std::move(name), std::string(body));
    }
  } else {
    auto v = scan_value(body, 0, true);
    if (v.state == scan_state::done && v.value.is_object() &&
        skip_space(body, v.end) == body.size()) {
      r.call = make_call(std::move(name), std::move(v.value));
      r.call.raw_arguments = std::string(trim(body));
    } else {
      r.call = malformed_call(std::move(name), std::string(body));
    }
  }
  return r;
}

step scan_think(std::string_view, const scan_env& env) {
  return step{.kind = step_kind::enter,
              .length = env.marker.size(),
              .target = channel::reasoning,
              .ends = {"</think>"}};
}

step scan_skip_marker(std::string_view, const scan_env& env) {
  return step{.kind = step_kind::skip, .length = env.marker.size()};
}

namespace {

step tag_block(std::string_view text, const scan_env& env, bool strong) {
  std::string closing = "</" + std::string(env.marker.substr(1));
  std::size_t p = skip_space(text, env.marker.size());
  if (p >= text.size()) {
    if (!env.eof) return incomplete();
    return strong ? step{.kind = step_kind::skip, .length = text.size(),
                         .diagnostic = "empty " + std::string(env.marker) + " at the end"}
                  : no_match();
  }
  std::vector<tool_call> calls;
  std::size_t end = 0;
  bool fenced = false;
  if (starts_with_at(text, p, function_open) || prefix_pending(text, p, function_open)) {
    auto fr = xml_function(text, p, env);
    if (fr.state == scan_state::incomplete) return incomplete();
    if (fr.state == scan_state::done) {
      calls.push_back(std::move(fr.call));
      end = fr.end;
    }
  } else {
    if (starts_with_at(text, p, "```")) {
      std::size_t nl = text.find('\n', p);
      if (nl == std::string_view::npos) return env.eof ? no_match() : incomplete();
      p = nl + 1;
      fenced = true;
    }
    auto vr = values_after(text, p, env.eof);
    if (vr.state == scan_state::incomplete && !env.eof) return incomplete();
    if (vr.state == scan_state::done && vr.call_shaped) {
      calls = std::move(vr.calls);
      end = vr.end;
    }
  }
  if (calls.empty()) {  // the block does not hold a parsable call
    if (!strong) return no_match();
    std::size_t close = text.find(closing, p);
    if (close == std::string_view::npos && !env.eof) return incomplete();
    std::size_t stop = close == std::string_view::npos ? text.size() : close;
    std::string body(trim(text.substr(p, stop - p)));
    std::size_t length = close == std::string_view::npos ? text.size() : close + closing.size();
    return malformed_step(find_name_field(body), body, length, "the call did not parse");
  }
  std::size_t q = skip_space(text, end);
  if (fenced && starts_with_at(text, q, "```")) q = skip_space(text, q + 3);
  else if (fenced && prefix_pending(text, q, "```") && !env.eof) return incomplete();
  if (starts_with_at(text, q, closing)) end = q + closing.size();
  else if (prefix_pending(text, q, closing) && !env.eof) return incomplete();
  return calls_step(std::move(calls), end);
}

}  // namespace

step scan_tag_block(std::string_view text, const scan_env& env) {
  return tag_block(text, env, true);
}

step scan_weak_tag_block(std::string_view text, const scan_env& env) {
  return tag_block(text, env, false);
}

step scan_function_tag(std::string_view text, const scan_env& env) {
  auto fr = xml_function(text, 0, env);
  if (fr.state == scan_state::incomplete) return incomplete();
  if (fr.state != scan_state::done) return no_match();
  std::vector<tool_call> calls;
  calls.push_back(std::move(fr.call));
  return calls_step(std::move(calls), fr.end);
}

namespace {

// fence_body parses the body of a call-language fence: JSON calls or a Python call list.
std::optional<std::vector<tool_call>> fence_calls(std::string_view body, const scan_env& env) {
  std::size_t p = skip_space(body, 0);
  auto vr = values_after(body, p, true);
  if (vr.state == scan_state::done && vr.call_shaped && skip_space(body, vr.end) == body.size())
    return std::move(vr.calls);
  auto cl = scan_call_list(body, p, body[p] == '[');
  if (cl.state == scan_state::done && skip_space(body, cl.end) == body.size()) {
    std::vector<tool_call> calls;
    for (auto& c : cl.calls) calls.push_back(from_py_call(std::move(c), env.schemas));
    return calls;
  }
  return std::nullopt;
}

}  // namespace

step scan_fence(std::string_view text, const scan_env& env) {
  std::size_t nl = text.find('\n', env.marker.size());
  std::size_t lang_end = nl == std::string_view::npos ? text.size() : nl;
  std::string_view lang = text.substr(env.marker.size(), lang_end - env.marker.size());
  for (char c : lang) {
    if (!is_name_char(c) && c != '+' && c != ' ') return no_match();
  }
  if (nl == std::string_view::npos) return env.eof ? no_match() : incomplete();
  lang = trim(lang);
  bool callable = lang.empty() || lang == "json" || lang == "tool_call" || lang == "tool_calls" ||
                  lang == "python" || lang == "py" || lang == "json5";
  std::size_t first = skip_space(text, nl + 1);
  if (callable && first >= text.size() && !env.eof) return incomplete();
  if (!callable || first >= text.size() || (text[first] != '{' && text[first] != '[')) {
    // An ordinary code block: stream it as content up to and including its closing fence.
    return step{.kind = step_kind::enter, .length = nl + 1, .closes = {"```"},
                .emit_header = true};
  }
  std::size_t close = text.find("```", first);
  if (close == std::string_view::npos && !env.eof) return incomplete();
  std::size_t stop = close == std::string_view::npos ? text.size() : close;
  std::size_t length = close == std::string_view::npos ? text.size() : close + 3;
  auto calls = fence_calls(text.substr(first, stop - first), env);
  if (!calls) return step{.kind = step_kind::content, .length = length};
  return calls_step(std::move(*calls), length);
}

step scan_bare_json(std::string_view text, const scan_env& env) {
  auto v = scan_value(text, 0, true);
  if (v.state == scan_state::incomplete) return env.eof ? no_match() : incomplete();
  if (v.state == scan_state::invalid) return no_match();
  auto calls = calls_from_json(v.value);
  if (!calls) return step{.kind = step_kind::content, .length = v.end};
  return calls_step(std::move(*calls), v.end);
}

namespace {

step python_calls(std::string_view text, const scan_env& env, bool bracketed) {
  auto r = scan_call_list(text, 0, bracketed);
  if (r.state == scan_state::incomplete) return env.eof ? no_match() : incomplete();
  if (r.state == scan_state::invalid) return no_match();
  std::vector<tool_call> calls;
  for (auto& c : r.calls) calls.push_back(from_py_call(std::move(c), env.schemas));
  return calls_step(std::move(calls), r.end);
}

}  // namespace

step scan_python_list(std::string_view text, const scan_env& env) {
  return python_calls(text, env, true);
}

step scan_python_bare(std::string_view text, const scan_env& env) {
  return python_calls(text, env, false);
}

}  // namespace tooluse::textcall::detail
