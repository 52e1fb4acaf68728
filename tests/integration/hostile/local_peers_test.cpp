// Hostile input that is not a socket: a tool schema whose $refs expand exponentially for
// Gemini, "files" that are FIFOs or devices, a model asking for hundreds of tool calls in one
// turn or a tool returning megabytes. Each is refused or cut, naming the limit, promptly.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "hostile_support.hpp"
#include "support/test_support.hpp"
#include "tooluse/agent/agent.hpp"
#include "tooluse/builtin/files.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::hostile::local_peers_test {
namespace {

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

// d0 uses d1 twice, d1 uses d2 twice, ...: 2^40 schemas once every $ref is inlined.
json exponential_schema(int levels) {
  json defs = json::object();
  for (int i = 0; i < levels; ++i) {
    std::string next = "#/$defs/d" + std::to_string(i + 1);
    defs["d" + std::to_string(i)] = {
        {"type", "object"},
        {"properties", {{"a", {{"$ref", next}}}, {"b", {{"$ref", next}}}}}};
  }
  defs["d" + std::to_string(levels)] = {{"type", "string"}};
  return {{"type", "object"}, {"properties", {{"root", {{"$ref", "#/$defs/d0"}}}}}, {"$defs", defs}};
}

TEST(HostileSchema, ExponentialRefExpansionForGeminiIsRefusedNamingTheLimit) {
  const long before = peak_rss_kb();
  auto r = schema::make_gemini_schema(exponential_schema(40));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(r.error().message, "strict_options::max_schema_nodes")) << r.error().message;
  EXPECT_LT(peak_rss_kb() - before, 64 * 1024);
  // The same tool through export_tools, as a mounted MCP server's tool would go.
  auto all = schema::export_tools({{.name = "t", .input_schema = exponential_schema(40)}},
                                  schema::export_target::gemini);
  ASSERT_FALSE(all);
  EXPECT_EQ(all.error().code, errc::limit_exceeded);
  // A modest schema still translates.
  EXPECT_TRUE(schema::make_gemini_schema(exponential_schema(5)));
}

tool_result call(const tool_registry& r, const std::string& name, const json& args) {
  call_context ctx;
  return r.call(tool_call::from_text("1", name, dump_json(args)), ctx);
}

TEST(HostileFiles, FifosAndDevicesAreRefusedWithoutBlocking) {
  testing::temp_dir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "pipe").c_str(), 0600), 0);
  std::filesystem::create_symlink("/dev/zero", dir.path() / "zero");
  tool_registry reg;
  builtin::register_file_tools(reg, {.root = dir.path()});
  // A FIFO without a writer would block open() forever without O_NONBLOCK.
  auto fifo = call(reg, "file_read", {{"path", "pipe"}});
  EXPECT_TRUE(fifo.is_error);
  EXPECT_TRUE(contains(fifo.all_text(), "not a regular file")) << fifo.all_text();
  auto zero = call(reg, "file_read", {{"path", "zero"}});
  EXPECT_TRUE(zero.is_error) << zero.all_text();
  auto write = call(reg, "file_write", {{"path", "pipe"}, {"content", "x"}});
  EXPECT_TRUE(write.is_error) << write.all_text();
  // The registry carries on.
  std::ofstream(dir.path() / "ok.txt") << "fine\n";
  auto ok = call(reg, "file_read", {{"path", "ok.txt"}});
  EXPECT_FALSE(ok.is_error) << ok.all_text();
}

// A model that asks for `n` calls of "echo" on its first turn, then answers.
class flooding_model final : public llm::provider {
 public:
  explicit flooding_model(int n) : n_(n) {}
  result<llm::chat_response> complete(const llm::chat_request& req, const llm::stream_callbacks&,
                                      std::stop_token) override {
    llm::chat_response out;
    out.reply.role = llm::role::assistant;
    if (req.messages.size() == 1) {
      for (int i = 0; i < n_; ++i)
        out.reply.tool_calls.push_back(tool_call::from_text("c" + std::to_string(i), "echo", "{}"));
      out.finish = llm::finish_reason::tool_calls;
    } else {
      out.reply.content.push_back(llm::content_part::text_part("done"));
    }
    return out;
  }
  std::string name() const override { return "flood"; }

 private:
  int n_;
};

TEST(HostileModel, HundredsOfToolCallsInOneTurnRunOnlyUpToTheLimit) {
  tool_registry reg;
  std::atomic<int> ran{0};
  reg.add({.name = "echo", .description = "returns a lot of text"},
          [&](const json&, call_context&) {
            ++ran;
            return tool_result::text(std::string(1 << 20, 'x'));  // 1 MiB per result
          });
  flooding_model model(500);
  agent a(model, reg, {.max_tool_calls_per_turn = 32, .max_tool_result_bytes = 4096});
  auto r = a.run("go");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ran.load(), 32);
  ASSERT_EQ(r->tool_calls.size(), 500u);
  EXPECT_TRUE(contains(r->tool_calls[499].result.all_text(), "agent_options::max_tool_calls_per_turn"));
  const std::string kept = r->tool_calls[0].result.all_text();
  EXPECT_LT(kept.size(), 8192u);
  EXPECT_TRUE(contains(kept, "agent_options::max_tool_result_bytes")) << kept.substr(kept.size() - 300);
}

}  // namespace
}  // namespace tooluse::hostile
