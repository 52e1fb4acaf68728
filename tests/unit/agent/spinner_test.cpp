// tool_spinner: the frames it draws, the clearing sequence, lines printed above it, nothing at
// all when the output is not a terminal. The animation test waits for frames on a condition
// variable signalled by the stream (with a generous deadline), never sleeps.
#include "tooluse/agent/spinner.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <sstream>

namespace tooluse {
namespace {

using namespace std::chrono_literals;

// watched_buffer collects what is written and wakes waiters on every write.
class watched_buffer : public std::streambuf {
 public:
  std::string text() {
    std::lock_guard lock(mutex_);
    return text_;
  }
  bool wait_for_text(std::string_view needle) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 20s, [&] { return text_.find(needle) != std::string::npos; });
  }

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    char ch = static_cast<char>(c);
    xsputn(&ch, 1);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard lock(mutex_);
    text_.append(s, static_cast<size_t>(n));
    changed_.notify_all();
    return n;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string text_;
};

const std::string clear = "\r\x1b[K";
std::string frame(std::string_view f, std::string_view tools) {
  return "\r" + std::string(f) + " running " + std::string(tools) + "\x1b[K";
}

TEST(tool_spinner, draws_nothing_when_not_a_terminal) {
  std::ostringstream out;
  {
    tool_spinner s({.out = &out, .terminal = false, .frame_interval = 1ms});
    s.begin("calculator");
    s.print("[tool] calculator -> 42\n");
    s.end("calculator");
    EXPECT_EQ(s.frames_drawn(), 0u);
  }
  EXPECT_EQ(out.str(), "[tool] calculator -> 42\n");
}

TEST(tool_spinner, draws_the_first_frame_at_once_and_clears_at_the_end) {
  std::ostringstream out;
  tool_spinner s({.out = &out, .terminal = true, .frame_interval = 1h});
  s.begin("calculator");
  EXPECT_EQ(out.str(), frame("|", "calculator"));
  s.end("calculator");
  EXPECT_EQ(out.str(), frame("|", "calculator") + clear);
  s.print("[tool] calculator -> 42\n");
  EXPECT_EQ(out.str(), frame("|", "calculator") + clear + "[tool] calculator -> 42\n");
}

TEST(tool_spinner, prints_lines_above_the_animation) {
  std::ostringstream out;
  tool_spinner s({.out = &out, .terminal = true, .frame_interval = 1h});
  s.begin("a");
  s.print("[tool] b {}\n");
  s.begin("b");
  EXPECT_EQ(out.str(), frame("|", "a") + clear + "[tool] b {}\n" + frame("|", "a") +
                           frame("|", "a, b"));
  s.end("a");
  EXPECT_EQ(out.str().substr(out.str().size() - frame("|", "b").size()), frame("|", "b"));
  s.end("b");
  EXPECT_TRUE(out.str().ends_with(clear));
}

TEST(tool_spinner, animates_on_its_own_thread_until_the_tools_end) {
  watched_buffer buffer;
  std::ostream out(&buffer);
  tool_spinner s({.out = &out, .terminal = true, .frame_interval = 1ms});
  s.begin("search_web");
  ASSERT_TRUE(buffer.wait_for_text(frame("\\", "search_web")));  // the fourth frame
  EXPECT_NE(buffer.text().find(frame("/", "search_web")), std::string::npos);
  EXPECT_NE(buffer.text().find(frame("-", "search_web")), std::string::npos);
  s.end("search_web");
  std::string after_end = buffer.text();
  EXPECT_TRUE(after_end.ends_with(clear));
  EXPECT_GE(s.frames_drawn(), 4u);
  s.print("done\n");
  EXPECT_EQ(buffer.text(), after_end + "done\n");  // nothing drawn while no tool runs
}

TEST(tool_spinner, suspend_clears_and_resume_redraws) {
  std::ostringstream out;
  tool_spinner s({.out = &out, .terminal = true, .frame_interval = 1h});
  s.begin("shell");
  s.suspend();
  EXPECT_TRUE(out.str().ends_with(clear));
  s.print("allow shell? [y/N] ");
  EXPECT_TRUE(out.str().ends_with(clear + "allow shell? [y/N] "));
  s.resume();
  EXPECT_TRUE(out.str().ends_with(frame("|", "shell")));
}

TEST(tool_spinner, follows_agent_events_and_clears_when_destroyed) {
  std::ostringstream out;
  {
    tool_spinner s({.out = &out, .terminal = true, .frame_interval = 1h});
    s.on_event({.what = agent_event::kind::tool_call, .call = tool_call{.name = "calculator"}});
    EXPECT_EQ(out.str(), frame("|", "calculator"));
  }
  EXPECT_EQ(out.str(), frame("|", "calculator") + clear);
}

TEST(tool_spinner, rejects_a_null_stream) {
  EXPECT_THROW(tool_spinner({.out = nullptr}), std::invalid_argument);
}

}  // namespace
}  // namespace tooluse
