// Event-stream interpretation per the WHATWG HTML standard, section "Server-sent events".
#include "tooluse/http/sse.hpp"

#include <algorithm>
#include <limits>

namespace tooluse::http {
namespace {

constexpr std::string_view bom = "\xEF\xBB\xBF";

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

status sse_parser::check_size() {
  if (line_.size() + data_.size() <= limits_.max_event_bytes) return {};
  failure_ = limit_error("a server-sent event", "http::sse_limits::max_event_bytes",
                         limits_.max_event_bytes, "bytes");
  line_.clear();
  line_.shrink_to_fit();
  data_.clear();
  data_.shrink_to_fit();
  return fail(*failure_);
}

status sse_parser::feed(std::string_view bytes, const event_handler& on_event) {
  if (failure_) return fail(*failure_);
  if (bom_checked_) return feed_lines(bytes, on_event);
  // The BOM may itself be split across chunks, so hold bytes until it is decided.
  head_.append(bytes);
  if (head_.size() < bom.size() && bom.substr(0, head_.size()) == head_) return {};
  bom_checked_ = true;
  std::string head = std::move(head_);
  head_.clear();
  std::string_view rest = head;
  if (rest.substr(0, bom.size()) == bom) rest.remove_prefix(bom.size());
  return feed_lines(rest, on_event);
}

status sse_parser::feed_lines(std::string_view bytes, const event_handler& on_event) {
  while (!bytes.empty()) {
    if (after_cr_) {
      after_cr_ = false;
      if (bytes.front() == '\n') {  // the LF of a CRLF split across chunks
        bytes.remove_prefix(1);
        continue;
      }
    }
    auto end = bytes.find_first_of("\r\n");
    // Append at most what the limit allows, so one huge chunk cannot grow the buffer past it.
    const std::size_t room = limits_.max_event_bytes + 1 - std::min(limits_.max_event_bytes + 1,
                                                                    line_.size() + data_.size());
    if (end == std::string_view::npos) {
      line_.append(bytes.substr(0, room));
      return check_size();
    }
    line_.append(bytes.substr(0, std::min(end, room)));
    if (auto st = check_size(); !st) return st;
    if (bytes[end] == '\r') {
      if (end + 1 < bytes.size()) {
        if (bytes[end + 1] == '\n') ++end;
      } else {
        after_cr_ = true;
      }
    }
    bytes.remove_prefix(end + 1);
    std::string line = std::move(line_);
    line_.clear();
    process_line(line, on_event);
    if (auto st = check_size(); !st) return st;
  }
  return {};
}

void sse_parser::process_line(std::string_view line, const event_handler& on_event) {
  if (line.empty()) {
    if (data_.empty()) {
      event_type_.clear();
      block_retry_.reset();
      return;
    }
    sse_event ev;
    ev.data = std::move(data_);
    ev.data.pop_back();  // the spec removes the last LF
    if (!event_type_.empty()) ev.event = std::move(event_type_);
    ev.id = last_id_;
    ev.retry = block_retry_;
    data_.clear();
    event_type_.clear();
    block_retry_.reset();
    on_event(ev);
    return;
  }
  if (line.front() == ':') return;  // comment
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return process_field(line, {});
  std::string_view value = line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  process_field(line.substr(0, colon), value);
}

void sse_parser::process_field(std::string_view name, std::string_view value) {
  if (name == "event") {
    event_type_.assign(value);
  } else if (name == "data") {
    data_.append(value);
    data_.push_back('\n');
  } else if (name == "id") {
    if (value.find('\0') == std::string_view::npos) last_id_.assign(value);
  } else if (name == "retry") {
    if (!all_digits(value)) return;
    std::uint64_t ms = 0;
    constexpr auto max = std::numeric_limits<std::uint64_t>::max();
    for (char c : value) {
      auto digit = static_cast<std::uint64_t>(c - '0');
      ms = ms > (max - digit) / 10 ? max : ms * 10 + digit;
    }
    retry_ = ms;
    block_retry_ = ms;
  }
  // Other field names are ignored, as the spec says.
}

void sse_parser::finish() {
  head_.clear();
  line_.clear();
  data_.clear();
  event_type_.clear();
  block_retry_.reset();
  after_cr_ = false;
  bom_checked_ = false;
}

void sse_parser::reset() {
  finish();
  failure_.reset();
  last_id_.clear();
  retry_.reset();
}

}  // namespace tooluse::http
