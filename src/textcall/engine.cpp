#include "textcall/engine.hpp"

#include <algorithm>

namespace tooluse::textcall::detail {
namespace {

// Scanning a block again on every chunk is quadratic in the block's size. Small blocks are
// rescanned on every feed (latency matters); past this size only when the block has grown by
// an eighth, which bounds the total work to O(n log n) while adding little delay.
constexpr std::size_t rescan_every_feed_below = 4096;

enum class match { none, partial, full };

match match_at(std::string_view buf, std::size_t at, std::string_view marker) {
  std::size_t avail = buf.size() - at;
  if (avail >= marker.size()) {
    return buf.compare(at, marker.size(), marker) == 0 ? match::full : match::none;
  }
  return marker.compare(0, avail, buf.substr(at)) == 0 ? match::partial : match::none;
}

}  // namespace

engine::engine(std::vector<rule> rules, const parse_options& options)
    : rules_(std::move(rules)), options_(options) {
  // Longer markers first, so "[TOOL_CALLS]" is tried before "[".
  std::stable_sort(rules_.begin(), rules_.end(), [](const rule& a, const rule& b) {
    return a.marker.size() > b.marker.size();
  });
  for (const auto& r : rules_) {
    if (!r.marker.empty()) first_byte_[static_cast<unsigned char>(r.marker[0])] = true;
  }
  if (options_.in_reasoning) {
    in_section_ = true;
    section_channel_ = channel::reasoning;
    ends_ = {"</think>"};
  }
}

stream_delta engine::feed(std::string_view chunk) {
  stream_delta out;
  if (finished_) return out;
  buf_.append(chunk);
  run(out);
  return out;
}

stream_delta engine::finish() {
  stream_delta out;
  if (finished_) return out;
  eof_ = true;
  run(out);
  if (after_call_) held_space_.clear();  // trailing separator after the last call
  emit(out, buf_.size());
  finished_ = true;
  return out;
}

void engine::run(stream_delta& out) {
  while (pos_ < buf_.size()) {
    bool progressed = in_section_ ? section_step(out) : base_step(out);
    if (!progressed) break;
  }
  compact();
}

void engine::emit(stream_delta& out, std::size_t end) {
  if (end <= pos_) return;
  std::string_view text(buf_.data() + pos_, end - pos_);
  if (in_section_ && section_channel_ == channel::reasoning) {
    out.reasoning.append(text);
  } else {
    out.content.append(held_space_);
    out.content.append(text);
  }
  held_space_.clear();
  after_call_ = false;
  pos_ = end;
}

bool engine::hold_space_after_call() {
  std::size_t j = pos_;
  while (j < buf_.size() && (buf_[j] == ' ' || buf_[j] == '\n' || buf_[j] == '\t' || buf_[j] == '\r'))
    ++j;
  held_space_.append(buf_, pos_, j - pos_);
  pos_ = j;
  return j < buf_.size();
}

void engine::consume_to(std::size_t end) { pos_ = std::min(end, buf_.size()); }

void engine::compact() {
  if (pos_ == 0 || pos_ < buf_.size() / 2) return;
  before_buf_ = buf_[pos_ - 1];
  base_ += pos_;
  buf_.erase(0, pos_);
  waited_size_ = waited_size_ > pos_ ? waited_size_ - pos_ : 0;
  pos_ = 0;
}

bool engine::anchored(const rule& r, std::size_t at) const {
  switch (r.where) {
    case anchor::anywhere: return true;
    case anchor::text_start: return base_ + at == 0;
    case anchor::line_start: return (at == 0 ? before_buf_ : buf_[at - 1]) == '\n';
  }
  return true;
}

bool engine::base_step(stream_delta& out) {
  if (after_call_ && !hold_space_after_call()) return false;
  std::string_view buf(buf_);
  for (std::size_t i = pos_; i < buf.size(); ++i) {
    if (!first_byte_[static_cast<unsigned char>(buf[i])]) continue;
    bool partial = false;
    bool full = false;
    for (const auto& r : rules_) {
      if (r.marker[0] != buf[i] || !anchored(r, i)) continue;
      match m = match_at(buf, i, r.marker);
      partial = partial || m == match::partial;
      full = full || m == match::full;
    }
    if (partial && !eof_) {
      emit(out, i);  // text before a possible marker can be released now
      return false;
    }
    if (full) {
      emit(out, i);
      return apply_rules(i, out);
    }
  }
  emit(out, buf.size());
  return false;
}

bool engine::apply_rules(std::size_t at, stream_delta& out) {
  std::string_view text = std::string_view(buf_).substr(at);
  if (!eof_ && waited_size_ > at && text.size() >= rescan_every_feed_below &&
      buf_.size() - waited_size_ < text.size() / 8)
    return false;
  for (const auto& r : rules_) {
    if (r.marker[0] != buf_[at] || !anchored(r, at) || match_at(buf_, at, r.marker) != match::full)
      continue;
    step s = r.scan(text, scan_env{options_.schemas, eof_, r.marker});
    if (s.kind == step_kind::no_match) continue;
    if (s.kind == step_kind::incomplete) {
      if (eof_) continue;  // a scan must decide at the end; treat as not its text
      waited_size_ = buf_.size();
      return false;
    }
    waited_size_ = 0;
    if (!s.diagnostic.empty()) out.diagnostics.push_back(std::move(s.diagnostic));
    std::size_t length = std::max<std::size_t>(s.length, 1);
    switch (s.kind) {
      case step_kind::content: emit(out, at + length); break;
      case step_kind::calls:
        held_space_.clear();
        after_call_ = true;
        for (auto& c : s.calls) {
          c.id = options_.id_prefix + std::to_string(next_id_++);
          out.calls.push_back(std::move(c));
        }
        consume_to(at + length);
        break;
      case step_kind::skip: consume_to(at + length); break;
      case step_kind::enter:
        if (s.emit_header) emit(out, at + length);
        consume_to(at + length);
        in_section_ = true;
        section_channel_ = s.target;
        ends_ = std::move(s.ends);
        stops_ = std::move(s.stops);
        closes_ = std::move(s.closes);
        break;
      default: break;
    }
    return true;
  }
  emit(out, at + 1);  // no rule wanted it: the marker's first byte is content
  return true;
}

bool engine::section_step(stream_delta& out) {
  std::string_view buf(buf_);
  for (std::size_t i = pos_; i < buf.size(); ++i) {
    bool partial = false;
    for (int pass = 0; pass < 3; ++pass) {
      for (auto m : pass == 0 ? ends_ : pass == 1 ? stops_ : closes_) {
        if (m[0] != buf[i]) continue;
        match r = match_at(buf, i, m);
        if (r == match::partial) partial = true;
        if (r != match::full) continue;
        emit(out, pass == 2 ? i + m.size() : i);
        if (pass == 0) consume_to(i + m.size());
        in_section_ = false;
        return true;
      }
    }
    if (partial && !eof_) {
      emit(out, i);
      return false;
    }
  }
  emit(out, buf.size());
  return false;
}

}  // namespace tooluse::textcall::detail
