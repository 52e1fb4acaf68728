// Stateful typed tools: an object built once, called through a member function or operator().
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tooluse/tools/typed.hpp"

namespace typed_stateful {

struct search_args {
  std::string query;
  int top_k = 3;
};
TOOLUSE_DESCRIBE(search_args, (query, "What to look for", tooluse::min_length(1)),
                 (top_k, "How many hits", tooluse::minimum(1)))

class doc_search {
 public:
  explicit doc_search(std::vector<std::string> docs) : docs_(std::move(docs)) { ++builds; }
  std::string search(const search_args& in) {  // non-const: serialized by add_tool
    ++calls_;
    std::string hits;
    int n = 0;
    for (const auto& d : docs_)
      if (d.find(in.query) != std::string::npos && n++ < in.top_k) hits += d + ";";
    return hits;
  }
  int calls() const { return calls_; }
  static inline int builds = 0;

 private:
  std::vector<std::string> docs_;
  int calls_ = 0;  // deliberately unsynchronized: add_tool's mutex must protect it
};

struct counter {
  std::string operator()(const search_args& in, tooluse::call_context& ctx) const {
    return in.query + "@" + ctx.call_id;
  }
};

tooluse::tool_result call(const tooluse::tool_registry& r, const std::string& name,
                          const std::string& args) {
  tooluse::call_context ctx;
  ctx.call_id = "c1";
  return r.call(tooluse::tool_call::from_text("c1", name, args), ctx);
}

TEST(typed_stateful, object_is_built_once_and_called_many_times) {
  doc_search::builds = 0;
  tooluse::tool_registry r;
  auto index = std::make_shared<doc_search>(std::vector<std::string>{"red apple", "green apple", "pear"});
  tooluse::add_tool(r, {.name = "doc_search", .description = "Search documents"}, index,
                    &doc_search::search);
  EXPECT_EQ(call(r, "doc_search", R"({"query":"apple"})").all_text(), "red apple;green apple;");
  EXPECT_EQ(call(r, "doc_search", R"({"query":"apple","top_k":1})").all_text(), "red apple;");
  EXPECT_EQ(doc_search::builds, 1);
  EXPECT_EQ(index->calls(), 2);
  EXPECT_EQ(r.find("doc_search")->definition.input_schema, tooluse::schema_for<search_args>());
}

TEST(typed_stateful, non_const_method_calls_are_serialized) {
  tooluse::tool_registry r;
  auto index = std::make_shared<doc_search>(std::vector<std::string>{"a"});
  tooluse::add_tool(r, {.name = "doc_search", .description = "Search"}, index, &doc_search::search);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 250; ++i) call(r, "doc_search", R"({"query":"a"})");
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(index->calls(), 1000);
}

TEST(typed_stateful, call_operator_object_with_context) {
  tooluse::tool_registry r;
  tooluse::add_tool(r, {.name = "echo", .description = "Echo"}, std::make_shared<counter>());
  EXPECT_EQ(call(r, "echo", R"({"query":"q"})").all_text(), "q@c1");
}

TEST(typed_stateful, null_object_is_a_setup_error) {
  tooluse::tool_registry r;
  std::shared_ptr<doc_search> none;
  EXPECT_THROW(tooluse::add_tool(r, {.name = "x"}, none, &doc_search::search), std::invalid_argument);
}

TEST(typed_stateful, registry_keeps_the_object_alive) {
  tooluse::tool_registry r;
  std::weak_ptr<doc_search> weak;
  {
    auto index = std::make_shared<doc_search>(std::vector<std::string>{"kept"});
    weak = index;
    tooluse::add_tool(r, {.name = "doc_search", .description = "Search"}, index, &doc_search::search);
  }
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(call(r, "doc_search", R"({"query":"kept"})").all_text(), "kept;");
  r.remove("doc_search");
  EXPECT_TRUE(weak.expired());
}

}  // namespace typed_stateful
