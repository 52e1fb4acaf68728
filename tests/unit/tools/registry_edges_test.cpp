// tool_registry at its edges: each setup error names the tool and the problem, replacement keeps
// the registration position, listeners come and go, a call in flight survives its removal, and
// the error results of call() for an empty registry and non-standard exceptions.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tooluse/tools/registry.hpp"

namespace tooluse {
namespace {

tool_handler ok_handler(std::string text = "ok") {
  return [text](const json&, call_context&) { return tool_result::text(text); };
}

std::string setup_error(tool t) {
  tool_registry r;
  try {
    r.add(std::move(t), ok_handler());
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(r.size(), 0u);
    return e.what();
  }
  return "(added)";
}

TEST(registry_edges, each_setup_error_names_the_tool_and_the_problem) {
  EXPECT_EQ(setup_error({.name = "bad name"}), "tool name \"bad name\" is invalid: use 1 to 128 of A-Z a-z 0-9 _ . -");
  EXPECT_EQ(setup_error({.name = "t", .input_schema = json::parse(R"({"type": "array"})")}),
            "tool \"t\": input_schema must be a JSON object schema with \"type\": \"object\"");
  EXPECT_EQ(setup_error({.name = "t", .input_schema = json::parse(R"({"properties": {}})")}),
            "tool \"t\": input_schema must be a JSON object schema with \"type\": \"object\"");
  EXPECT_EQ(setup_error({.name = "t", .input_schema = json::parse(R"({"type": "object", "minProperties": -1})")}),
            "tool \"t\": input_schema does not compile: keyword \"minProperties\" at #: expected a "
            "non-negative integer, got integer -1");
  EXPECT_EQ(setup_error({.name = "t", .output_schema = json::parse(R"({"$ref": "#/nowhere"})")})
                .rfind("tool \"t\": output_schema does not compile: $ref \"#/nowhere\"", 0),
            0u);
  EXPECT_EQ(setup_error({.name = "t", .max_parallel = -1}),
            "tool \"t\": max_parallel, rate.calls and cost_per_call must be >= 0");
  EXPECT_EQ(setup_error({.name = "t", .rate = {.calls = -1}}),
            "tool \"t\": max_parallel, rate.calls and cost_per_call must be >= 0");
  EXPECT_EQ(setup_error({.name = "t", .cost_per_call = -0.5}),
            "tool \"t\": max_parallel, rate.calls and cost_per_call must be >= 0");
  EXPECT_EQ(setup_error({.name = "t", .output_schema = json::parse(R"({"type": "object"})")}), "(added)");
  tool_registry r;
  EXPECT_THROW(r.add(std::shared_ptr<tool_object>{}), std::invalid_argument);
}

TEST(registry_edges, replacing_keeps_the_position_and_tells_listeners) {
  tool_registry r;
  std::vector<std::string> events;
  r.on_change([&](const registry_event& e) {
    events.push_back(std::to_string(static_cast<int>(e.what)) + ":" + e.name);
  });
  r.add({.name = "a"}, ok_handler("a1"));
  r.add({.name = "b"}, ok_handler());
  r.add({.name = "a", .description = "new"}, ok_handler("a2"), {.replace = true});
  EXPECT_EQ(r.names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.find("a")->definition.description, "new");
  call_context ctx;
  EXPECT_EQ(r.call(tool_call::from_text("1", "a", "{}"), ctx).all_text(), "a2");
  EXPECT_EQ(events, (std::vector<std::string>{"0:a", "0:b", "1:a"}));
}

TEST(registry_edges, removed_listeners_hear_nothing_and_unknown_ids_are_ignored) {
  tool_registry r;
  int first = 0, second = 0;
  auto id1 = r.on_change([&](const registry_event&) { ++first; });
  auto id2 = r.on_change([&](const registry_event&) { ++second; });
  EXPECT_NE(id1, id2);
  r.add({.name = "x"}, ok_handler());
  r.remove_listener(id1);
  r.remove_listener(id1);
  r.remove_listener(9999);
  EXPECT_TRUE(r.remove("x"));
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 2);
}

TEST(registry_edges, a_listener_may_read_the_registry_it_listens_to) {
  tool_registry r;
  std::vector<std::size_t> sizes;
  r.on_change([&](const registry_event&) { sizes.push_back(r.size()); });
  r.add({.name = "x"}, ok_handler());
  r.add({.name = "y"}, ok_handler());
  r.remove("x");
  EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 2, 1}));
}

TEST(registry_edges, an_entry_found_before_removal_still_runs) {
  tool_registry r;
  r.add({.name = "x"}, ok_handler("still here"));
  auto entry = r.find("x");
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(r.remove("x"));
  EXPECT_EQ(r.find("x"), nullptr);
  call_context ctx;
  EXPECT_EQ(invoke_handler(*entry, json::object(), ctx).all_text(), "still here");
  EXPECT_TRUE(r.call(tool_call::from_text("1", "x", "{}"), ctx).is_error);
}

// find() keeps each thread's recent entries (thread_cache.hpp); a replacement or removal made
// on one thread holds on every other from the moment it returns, and a removed tool's handler
// is not kept alive by another thread's earlier find.
TEST(registry_edges, finds_on_other_threads_see_replacements_and_removals_at_once) {
  tool_registry r;
  auto token = std::make_shared<int>(1);
  std::weak_ptr<int> watch = token;
  r.add({.name = "t", .description = "first"}, [token](const json&, call_context&) { return tool_result::text("1"); });
  token.reset();
  std::promise<void> step1, step2, step3;
  std::promise<std::string> seen1, seen2;
  std::promise<bool> seen3;
  // What a find returns is let go before the main thread is told (only the cache may hold it).
  auto description = [&r] { return r.find("t")->definition.description; };
  std::thread other([&] {
    std::string first = description();  // cached here
    seen1.set_value(first);
    step1.get_future().wait();
    std::string second = description();
    seen2.set_value(second);
    step2.get_future().wait();
    seen3.set_value(r.find("t") == nullptr);
    step3.get_future().wait();
  });
  EXPECT_EQ(seen1.get_future().get(), "first");
  r.add({.name = "t", .description = "second"}, ok_handler(), {.replace = true});
  EXPECT_TRUE(watch.expired()) << "the replaced handler lives on in another thread's cache";
  step1.set_value();
  EXPECT_EQ(seen2.get_future().get(), "second");
  EXPECT_TRUE(r.remove("t"));
  step2.set_value();
  EXPECT_TRUE(seen3.get_future().get());
  step3.set_value();
  other.join();
  EXPECT_EQ(r.find("t"), nullptr);
}

TEST(registry_edges, a_registry_at_the_address_of_a_destroyed_one_finds_its_own_tools) {
  for (int i = 0; i < 4; ++i) {
    auto r = std::make_unique<tool_registry>();
    r->add({.name = "t", .description = "registry " + std::to_string(i)}, ok_handler());
    EXPECT_EQ(r->find("t")->definition.description, "registry " + std::to_string(i));
  }
}

TEST(registry_edges, call_errors_for_an_empty_registry_and_odd_exceptions) {
  tool_registry r;
  call_context ctx;
  EXPECT_EQ(r.call(tool_call::from_text("1", "x", "{}"), ctx).all_text(),
            "unknown tool \"x\"; available tools: (none)");
  r.add({.name = "int_thrower"}, [](const json&, call_context&) -> tool_result { throw 42; });
  r.add({.name = "logic"}, [](const json&, call_context&) -> tool_result {
    throw std::logic_error("invariant broken");
  });
  auto odd = r.call(tool_call::from_text("1", "int_thrower", "{}"), ctx);
  EXPECT_TRUE(odd.is_error);
  EXPECT_EQ(odd.all_text(), "tool \"int_thrower\" failed with an unknown exception");
  EXPECT_EQ(r.call(tool_call::from_text("2", "logic", "{}"), ctx).all_text(),
            "tool \"logic\" failed: invariant broken");
  EXPECT_EQ(r.call(tool_call::from_text("3", "missing", "{}"), ctx).all_text(),
            "unknown tool \"missing\"; available tools: int_thrower, logic");
  EXPECT_EQ(r.call(tool_call::from_text("4", "logic", "{oops"), ctx).all_text(),
            "tool \"logic\": the arguments are not valid JSON; send a JSON object matching the "
            "tool's input schema");
}

TEST(registry_edges, filters_combine_and_a_names_filter_keeps_its_own_order) {
  tool_registry r;
  r.add({.name = "a", .category = "x", .tags = {"t1"}, .cost_per_call = 1}, ok_handler());
  r.add({.name = "b", .category = "x", .tags = {"t2"}, .dangerous = true}, ok_handler());
  r.add({.name = "c", .category = "y", .tags = {"t1", "t2"}}, ok_handler());
  r.add({.name = "d"}, ok_handler());
  auto names_of = [](const std::vector<std::shared_ptr<const registered_tool>>& list) {
    std::vector<std::string> out;
    for (const auto& e : list) out.push_back(e->definition.name);
    return out;
  };
  EXPECT_EQ(names_of(r.list({.category = "x", .any_tags = {"t2"}})), std::vector<std::string>{"b"});
  EXPECT_EQ(names_of(r.list({.any_tags = {"t1"}, .max_cost = 0.5})), std::vector<std::string>{"c"});
  // The names' own order (as tool_registry.filters_by_category... expects), unknown names skipped.
  EXPECT_EQ(names_of(r.list({.names = {"d", "zz", "a"}})), (std::vector<std::string>{"d", "a"}));
  EXPECT_EQ(names_of(r.list({.names = {"b"}, .exclude_dangerous = true})), std::vector<std::string>{});
  EXPECT_EQ(names_of(r.list({.category = "none"})), std::vector<std::string>{});
  EXPECT_EQ(r.categories(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(names_of(r.list()), (std::vector<std::string>{"a", "b", "c", "d"}));
}

class counter_tool final : public tool_object {
 public:
  int built = 0;
  tool definition() const override { return {.name = "counter", .description = "counts"}; }
  tool_result call(const json&, call_context&) override { return tool_result::text(std::to_string(++calls_)); }

 private:
  int calls_ = 0;
};

TEST(registry_edges, a_tool_object_can_replace_another_and_keeps_its_own_state) {
  tool_registry r;
  auto first = std::make_shared<counter_tool>();
  auto second = std::make_shared<counter_tool>();
  r.add(first);
  call_context ctx;
  EXPECT_EQ(r.call(tool_call::from_text("1", "counter", "{}"), ctx).all_text(), "1");
  EXPECT_THROW(r.add(second), std::invalid_argument);
  r.add(second, {.replace = true});
  EXPECT_EQ(r.call(tool_call::from_text("2", "counter", "{}"), ctx).all_text(), "1");
  EXPECT_EQ(r.find("counter")->definition.description, "counts");
}

}  // namespace
}  // namespace tooluse
