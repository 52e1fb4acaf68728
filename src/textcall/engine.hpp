#pragma once
// The streaming engine every format runs on. A format is a list of rules; each rule has a
// marker (literal text that may begin something special) and a scan function that looks at the
// text from the marker on and decides: not mine, plain content, calls, a marker to drop, or a
// switch into a reasoning/content section that lasts until an end marker. Scans are pure
// functions of the text seen so far and answer "incomplete" while more text could change their
// answer, so the whole text and any chunking of it give the same result.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tooluse/textcall/text_format.hpp"

namespace tooluse::textcall::detail {

enum class step_kind { incomplete, no_match, content, calls, skip, enter };
enum class channel { content, reasoning };

/// step is a scan function's answer. `length` counts bytes from the marker's first byte.
struct step {
  step_kind kind = step_kind::no_match;
  std::size_t length = 0;
  std::vector<tool_call> calls;
  std::string diagnostic;
  channel target = channel::content;    ///< for enter
  std::vector<std::string_view> ends;   ///< for enter: markers that end it, consumed
  std::vector<std::string_view> stops;  ///< for enter: markers that end it, left for rules
  std::vector<std::string_view> closes;  ///< for enter: markers that end it, kept as its text
  bool emit_header = false;  ///< for enter: the `length` bytes are content, not dropped
};

/// The two answers a scan gives most: wait for more text, or not this rule's text.
inline step incomplete() { return step{.kind = step_kind::incomplete}; }
inline step no_match() { return step{.kind = step_kind::no_match}; }

/// scan_env is what a scan may look at besides the text.
struct scan_env {
  const tool_schemas& schemas;
  bool eof;                 ///< no more text will come: decide now
  std::string_view marker;  ///< the rule's marker that matched
};

using scan_fn = step (*)(std::string_view text, const scan_env& env);

/// anchor restricts where a marker may match.
enum class anchor { anywhere, line_start, text_start };

struct rule {
  std::string marker;
  scan_fn scan = nullptr;
  anchor where = anchor::anywhere;
};

/// rules_for returns the rules of `f` (auto_detect: the union of all formats).
std::vector<rule> rules_for(format f, const parse_options& options);

/// engine runs rules over streamed text. `options` must outlive it. Not thread-safe.
class engine {
 public:
  engine(std::vector<rule> rules, const parse_options& options);

  stream_delta feed(std::string_view chunk);
  stream_delta finish();

 private:
  void run(stream_delta& out);
  bool base_step(stream_delta& out);
  bool section_step(stream_delta& out);
  bool apply_rules(std::size_t at, stream_delta& out);
  void emit(stream_delta& out, std::size_t end);
  void consume_to(std::size_t end);
  bool anchored(const rule& r, std::size_t at) const;
  void compact();
  bool hold_space_after_call();

  std::vector<rule> rules_;
  const parse_options& options_;
  bool first_byte_[256] = {};
  std::string buf_;
  std::size_t pos_ = 0;        // first unconsumed byte of buf_
  std::size_t base_ = 0;       // absolute offset of buf_[0]
  char before_buf_ = '\n';     // the byte before buf_[0] ('\n' at the start of the text)
  bool eof_ = false;
  bool finished_ = false;
  std::size_t next_id_ = 0;
  std::size_t waited_size_ = 0;
  // Whitespace right after a call is held: dropped if another call follows (it only
  // separated them) or the text ends, released before any other content.
  bool after_call_ = false;
  std::string held_space_;  // buffer size when a scan last answered incomplete
  // An open reasoning/content section (enter step).
  bool in_section_ = false;
  channel section_channel_ = channel::content;
  std::vector<std::string_view> ends_;
  std::vector<std::string_view> stops_;
  std::vector<std::string_view> closes_;
};

}  // namespace tooluse::textcall::detail
