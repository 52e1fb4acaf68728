#include "tooluse/tools/registry.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

namespace registry_test {
using namespace tooluse;

namespace {
tool_handler echo_handler() {
  return [](const json& args, call_context&) { return tool_result::text(args.dump()); };
}
tool simple_tool(std::string name) {
  return {.name = std::move(name), .description = "test tool"};
}
}  // namespace

TEST(tool_registry, adds_and_finds_a_tool) {
  tool_registry r;
  r.add(simple_tool("echo"), echo_handler());
  ASSERT_NE(r.find("echo"), nullptr);
  EXPECT_EQ(r.find("echo")->definition.description, "test tool");
  EXPECT_EQ(r.find("missing"), nullptr);
  EXPECT_EQ(r.size(), 1u);
}

TEST(tool_registry, rejects_duplicate_name_unless_replacing) {
  tool_registry r;
  r.add(simple_tool("echo"), echo_handler());
  try {
    r.add(simple_tool("echo"), echo_handler());
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "tool \"echo\" is already registered: remove it first or pass {.replace = true}");
  }
  tool replacement = simple_tool("echo");
  replacement.description = "second";
  r.add(replacement, echo_handler(), {.replace = true});
  EXPECT_EQ(r.find("echo")->definition.description, "second");
  EXPECT_EQ(r.size(), 1u);
}

TEST(tool_registry, validates_names) {
  tool_registry r;
  EXPECT_THROW(r.add(simple_tool(""), echo_handler()), std::invalid_argument);
  EXPECT_THROW(r.add(simple_tool("has space"), echo_handler()), std::invalid_argument);
  EXPECT_THROW(r.add(simple_tool(std::string(129, 'a')), echo_handler()), std::invalid_argument);
  EXPECT_NO_THROW(r.add(simple_tool(std::string(128, 'a')), echo_handler()));
  EXPECT_NO_THROW(r.add(simple_tool("math.factorial-v2_x"), echo_handler()));
}

TEST(tool_registry, rejects_non_object_input_schema_and_empty_handler) {
  tool_registry r;
  tool t = simple_tool("bad");
  t.input_schema = json{{"type", "string"}};
  EXPECT_THROW(r.add(t, echo_handler()), std::invalid_argument);
  EXPECT_THROW(r.add(simple_tool("nohandler"), tool_handler{}), std::invalid_argument);
  EXPECT_EQ(r.size(), 0u);
}

TEST(tool_registry, removes_and_notifies) {
  tool_registry r;
  std::vector<std::string> log;
  auto id = r.on_change([&](const registry_event& e) {
    log.push_back(std::to_string(static_cast<int>(e.what)) + ":" + e.name);
  });
  r.add(simple_tool("a"), echo_handler());
  r.add(simple_tool("a"), echo_handler(), {.replace = true});
  EXPECT_TRUE(r.remove("a"));
  EXPECT_FALSE(r.remove("a"));
  r.remove_listener(id);
  r.add(simple_tool("b"), echo_handler());
  EXPECT_EQ(log, (std::vector<std::string>{"0:a", "1:a", "2:a"}));
}

TEST(tool_registry, filters_by_category_tags_danger_and_cost) {
  tool_registry r;
  r.add({.name = "calc", .category = "math", .tags = {"offline"}}, echo_handler());
  r.add({.name = "web", .category = "web", .tags = {"network"}, .cost_per_call = 0.01},
        echo_handler());
  r.add({.name = "rm", .category = "files", .dangerous = true}, echo_handler());
  auto names = [](const auto& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries) out.push_back(e->definition.name);
    return out;
  };
  EXPECT_EQ(names(r.list({.category = "math"})), std::vector<std::string>{"calc"});
  EXPECT_EQ(names(r.list({.any_tags = {"network"}})), std::vector<std::string>{"web"});
  EXPECT_EQ(names(r.list({.exclude_dangerous = true})), (std::vector<std::string>{"calc", "web"}));
  EXPECT_EQ(names(r.list({.max_cost = 0.0})), (std::vector<std::string>{"calc", "rm"}));
  EXPECT_EQ(names(r.list({.names = {"rm", "calc"}})), (std::vector<std::string>{"rm", "calc"}));
  EXPECT_EQ(r.categories(), (std::vector<std::string>{"files", "math", "web"}));
}

TEST(tool_registry, call_turns_exceptions_and_unknown_tools_into_error_results) {
  tool_registry r;
  r.add(simple_tool("boom"), [](const json&, call_context&) -> tool_result {
    throw std::runtime_error("disk on fire");
  });
  call_context ctx;
  auto res = r.call(tool_call::from_text("1", "boom", "{}"), ctx);
  EXPECT_TRUE(res.is_error);
  EXPECT_EQ(res.all_text(), "tool \"boom\" failed: disk on fire");
  auto unknown = r.call(tool_call::from_text("2", "nope", "{}"), ctx);
  EXPECT_TRUE(unknown.is_error);
  EXPECT_EQ(unknown.all_text(), "unknown tool \"nope\"; available tools: boom");
  auto bad_json = r.call(tool_call::from_text("3", "boom", "{not json"), ctx);
  EXPECT_TRUE(bad_json.is_error);
  EXPECT_NE(bad_json.all_text().find("not valid JSON"), std::string::npos);
}

class counter_tool : public tool_object {
 public:
  tool definition() const override { return {.name = "counter", .description = "counts"}; }
  tool_result call(const json&, call_context&) override {
    return tool_result::text(std::to_string(++count_));
  }

 private:
  std::atomic<int> count_{0};
};

TEST(tool_registry, stateful_tool_object_keeps_state_across_calls) {
  tool_registry r;
  r.add(std::make_shared<counter_tool>());
  call_context ctx;
  r.call(tool_call::from_text("1", "counter", ""), ctx);
  EXPECT_EQ(r.call(tool_call::from_text("2", "counter", ""), ctx).all_text(), "2");
}

TEST(tool_registry, concurrent_registration_lookup_and_call) {
  tool_registry r;
  constexpr int kThreads = 8, kPerThread = 200;
  std::atomic<int> calls{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::string name = "t" + std::to_string(t) + "_" + std::to_string(i);
        r.add(simple_tool(name), [&](const json&, call_context&) {
          calls.fetch_add(1);
          return tool_result::text("ok");
        });
        call_context ctx;
        EXPECT_FALSE(r.call(tool_call::from_text("x", name, "{}"), ctx).is_error);
        EXPECT_NE(r.find(name), nullptr);
        (void)r.list();
        if (i % 2 == 0) {
          EXPECT_TRUE(r.remove(name));
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(calls.load(), kThreads * kPerThread);
  EXPECT_EQ(r.size(), static_cast<std::size_t>(kThreads * kPerThread / 2));
}
}  // namespace registry_test
