// trace_writer and redact_secrets (src/exec/events.cpp) beyond the executor round trip: a trace
// file opened twice appends, a missing folder is an error naming the file, only end events are
// written, a line's fields for cached, retried and call-less events, and the secret key names
// matched by their last one or two parts.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "exec_fixtures.hpp"
#include "support/test_support.hpp"

namespace tooluse::exec {
namespace {
using namespace testing;

std::vector<json> lines_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

TEST(trace_writer_file, open_appends_to_an_existing_trace) {
  tooluse::testing::temp_dir dir;
  const std::string path = (dir.path() / "calls.jsonl").string();
  tool_call c = make_call("echo", {{"i", 1}}, "c1");
  tool_result r = tool_result::text("1");
  call_event end{.kind = event_kind::end, .call = &c, .result = &r};
  for (int round = 0; round < 2; ++round) {
    auto w = trace_writer::open(path);
    ASSERT_TRUE(w) << w.error().message;
    (*w)->write(end);
  }
  auto lines = lines_of(tooluse::testing::read_file(path));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["call_id"], "c1");
  EXPECT_EQ(lines[1]["call_id"], "c1");
}

TEST(trace_writer_file, a_missing_folder_is_an_io_error_naming_the_file) {
  tooluse::testing::temp_dir dir;
  const std::string path = (dir.path() / "no" / "such" / "t.jsonl").string();
  auto w = trace_writer::open(path);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, errc::io_error);
  EXPECT_EQ(w.error().message,
            "cannot open trace file \"" + path + "\": check the folder exists");
}

TEST(trace_writer_lines, only_end_events_are_written) {
  std::ostringstream out;
  trace_writer w(out);
  tool_call c = make_call("echo", {{"i", 1}});
  progress_update p{.progress = 1};
  w.write({.kind = event_kind::start, .call = &c});
  w.write({.kind = event_kind::progress, .call = &c, .progress = &p});
  EXPECT_EQ(out.str(), "");
  tool_result r = tool_result::error("boom");
  w.write({.kind = event_kind::end, .call = &c, .result = &r, .outcome = call_outcome::error});
  auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["outcome"], "error");
  EXPECT_EQ(lines[0]["is_error"], true);
}

TEST(trace_writer_lines, a_line_carries_duration_attempts_and_the_cache_flag) {
  tool_call c = make_call("lookup", {{"q", "x"}, {"api_key", "k"}}, "c7");
  tool_result r = tool_result::text("hit");
  json j = trace_writer::line({.kind = event_kind::end,
                               .call = &c,
                               .session = "alice",
                               .result = &r,
                               .outcome = call_outcome::ok,
                               .duration = std::chrono::microseconds(2500),
                               .attempts = 3,
                               .cached = true});
  EXPECT_EQ(j["tool"], "lookup");
  EXPECT_EQ(j["call_id"], "c7");
  EXPECT_EQ(j["session"], "alice");
  EXPECT_EQ(j["arguments"], json({{"q", "x"}, {"api_key", "[redacted]"}}));
  EXPECT_DOUBLE_EQ(j["ms"].get<double>(), 2.5);
  EXPECT_EQ(j["attempts"], 3);
  EXPECT_EQ(j["cached"], true);
  EXPECT_EQ(j["is_error"], false);
  EXPECT_TRUE(j["ts"].is_number_integer());
}

TEST(trace_writer_lines, an_event_without_a_call_or_result_still_makes_a_line) {
  json j = trace_writer::line({.kind = event_kind::end, .outcome = call_outcome::cancelled});
  EXPECT_EQ(j["tool"], "");
  EXPECT_EQ(j["call_id"], "");
  EXPECT_TRUE(j["arguments"].is_null());
  EXPECT_EQ(j["is_error"], true);  // no result: nothing succeeded
  EXPECT_EQ(j["outcome"], "cancelled");
}

TEST(redact_secrets_names, the_last_one_or_two_parts_of_a_key_name_the_secret) {
  json in = {{"x_api_key", "1"},       {"My-Private-Key", "2"}, {"SESSION_KEY", "3"},
             {"github_token", "4"},    {"Cookie", "5"},         {"db_passwd", "6"},
             {"auth", "7"},            {"bearer", "8"},         {"credentials", "9"},
             {"tokenizer", "keep"},    {"author", "keep"},      {"secretary", "keep"},
             {"key", "keep"},          {"private", "keep"},     {"api", "keep"}};
  json out = redact_secrets(in);
  for (const auto& [k, v] : in.items()) {
    if (v == "keep")
      EXPECT_EQ(out[k], "keep") << k;
    else
      EXPECT_EQ(out[k], "[redacted]") << k;
  }
  // Scalars and arrays of scalars pass through; nested objects in arrays are redacted.
  EXPECT_EQ(redact_secrets(json(5)), json(5));
  EXPECT_EQ(redact_secrets(json::array({1, "token"})), json::array({1, "token"}));
  EXPECT_EQ(redact_secrets(json::parse(R"([[{"password": "p", "n": [{"token": 1}]}]])")),
            json::parse(R"([[{"password": "[redacted]", "n": [{"token": "[redacted]"}]}]])"));
  // A secret-named key is redacted whole, whatever its value.
  EXPECT_EQ(redact_secrets(json{{"auth", {{"user", "u"}, {"pass", "p"}}}}),
            json({{"auth", "[redacted]"}}));
}

}  // namespace
}  // namespace tooluse::exec
