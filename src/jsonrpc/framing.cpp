// line_framer and peek_id: bounded newline framing for stdio JSON-RPC.
#include "tooluse/jsonrpc/framing.hpp"

#include <algorithm>

namespace tooluse::jsonrpc {
namespace {

constexpr std::size_t head_bytes = 4096;

std::string_view strip_cr(std::string_view l) {
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

}  // namespace

void line_framer::feed(std::string_view bytes, const line_handler& on_line,
                       const overflow_handler& on_overflow) {
  while (!bytes.empty()) {
    const auto nl = bytes.find('\n');
    const std::string_view part = bytes.substr(0, nl);
    if (skipping_) {
      if (nl == std::string_view::npos) return;  // still inside the overlong line: drop it
      skipping_ = false;
      bytes.remove_prefix(nl + 1);
      continue;
    }
    if (buf_.size() + part.size() > max_) {
      // Report the line's head, then forget it; its newline (when it comes) ends the skip.
      std::string head = buf_.size() >= head_bytes ? buf_.substr(0, head_bytes)
                                                   : buf_ + std::string(part.substr(0, head_bytes - buf_.size()));
      buf_.clear();
      buf_.shrink_to_fit();
      on_overflow(head);
      if (nl == std::string_view::npos) {
        skipping_ = true;
        return;
      }
      bytes.remove_prefix(nl + 1);
      continue;
    }
    if (nl == std::string_view::npos) {
      buf_.append(part);
      return;
    }
    if (buf_.empty()) {
      on_line(strip_cr(part));
    } else {
      buf_.append(part);
      std::string line = std::move(buf_);
      buf_.clear();
      on_line(strip_cr(line));
    }
    bytes.remove_prefix(nl + 1);
  }
}

void line_framer::finish(const line_handler& on_line, const overflow_handler&) {
  skipping_ = false;
  if (buf_.empty()) return;
  std::string line = std::move(buf_);
  buf_.clear();
  on_line(strip_cr(line));
}

std::optional<json> peek_id(std::string_view head) { return peek_member(head, "id"); }

std::optional<json> peek_member(std::string_view head, std::string_view key) {
  // Walk the top level of an object: skip strings and nested containers, and read the value
  // after the top-level `key` if it is a number or a complete string.
  std::size_t i = head.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || head[i] != '{') return std::nullopt;
  int depth = 0;
  bool expect_key = false;
  std::string last_key;
  for (; i < head.size(); ++i) {
    const char c = head[i];
    if (c == '"') {
      std::size_t j = i + 1;
      std::string s;
      bool plain = true;
      for (; j < head.size() && head[j] != '"'; ++j) {
        if (head[j] == '\\') {
          plain = false;
          ++j;
          continue;
        }
        s += head[j];
      }
      if (j >= head.size()) return std::nullopt;  // cut inside a string
      if (depth == 1 && expect_key) last_key = plain ? s : std::string();
      expect_key = false;
      i = j;
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
      expect_key = depth == 1;
      if (depth > 1) last_key.clear();
      continue;
    }
    if (c == '}' || c == ']') {
      --depth;
      continue;
    }
    if (c == ',' && depth == 1) {
      expect_key = true;
      last_key.clear();
      continue;
    }
    if (c == ':' && depth == 1 && last_key == key) {
      std::size_t v = head.find_first_not_of(" \t\r\n", i + 1);
      if (v == std::string_view::npos) return std::nullopt;
      std::size_t end = v;
      if (head[v] == '"') {
        for (++end; end < head.size() && head[end] != '"'; ++end)
          if (head[end] == '\\') ++end;
        if (end >= head.size()) return std::nullopt;
        ++end;
      } else {
        end = head.find_first_of(",}", v);
      }
      if (end == std::string_view::npos) return std::nullopt;
      std::string_view text = head.substr(v, end - v);
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                               text.back() == '\n'))
        text.remove_suffix(1);
      auto value = parse_json(text, json_limits{.max_depth = 1, .max_bytes = 256});
      if (value && (value->is_number_integer() || value->is_string())) return *value;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace tooluse::jsonrpc
