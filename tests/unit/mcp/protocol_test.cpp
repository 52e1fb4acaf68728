// Protocol helpers (protocol.hpp, tasks.hpp): revisions, log levels, the JSON forms of the
// protocol structs, level-1 URI templates, routing names, task statuses and records, the
// in-memory task store.
#include <gtest/gtest.h>

#include <thread>

#include "tooluse/mcp/protocol.hpp"
#include "tooluse/mcp/tasks.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;

TEST(mcp_protocol, revisions_are_classified) {
  for (auto v : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    EXPECT_TRUE(mcp::is_session_version(v)) << v;
    EXPECT_FALSE(mcp::is_stateless_version(v)) << v;
  }
  EXPECT_TRUE(mcp::is_stateless_version("2026-07-28"));
  EXPECT_FALSE(mcp::is_session_version("2026-07-28"));
  for (auto v : {"", "2025-11-24", "latest", "2025-11-25 "}) {
    EXPECT_FALSE(mcp::is_session_version(v)) << v;
    EXPECT_FALSE(mcp::is_stateless_version(v)) << v;
  }
}

TEST(mcp_protocol, log_levels_round_trip_in_severity_order) {
  const char* names[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
  for (int i = 0; i < 8; ++i) {
    auto l = mcp::parse_log_level(names[i]);
    ASSERT_TRUE(l) << names[i];
    EXPECT_EQ(static_cast<int>(*l), i);
    EXPECT_EQ(mcp::to_string(*l), names[i]);
  }
  EXPECT_FALSE(mcp::parse_log_level("Warning"));
  EXPECT_FALSE(mcp::parse_log_level("warn"));
  EXPECT_FALSE(mcp::parse_log_level(""));
}

TEST(mcp_protocol, implementation_json_leaves_out_empty_fields) {
  EXPECT_EQ(mcp::to_json(mcp::implementation{.name = "n", .version = "1"}), (json{{"name", "n"}, {"version", "1"}}));
  json full = mcp::to_json(mcp::implementation{.name = "n", .version = "1", .title = "T", .description = "D"});
  EXPECT_EQ(full["title"], "T");
  EXPECT_EQ(full["description"], "D");
}

TEST(mcp_protocol, resource_and_template_json) {
  json r = mcp::to_json(mcp::resource{.uri = "u", .name = "n"});
  EXPECT_EQ(r, (json{{"uri", "u"}, {"name", "n"}}));
  json t = mcp::to_json(mcp::resource_template{.uri_template = "a/{b}", .name = "n", .description = "d"});
  EXPECT_EQ(t, (json{{"uriTemplate", "a/{b}"}, {"name", "n"}, {"description", "d"}}));
  json c = mcp::to_json(mcp::resource_contents{.uri = "u", .mime_type = "m", .text = "t", .blob = "Yg=="});
  EXPECT_EQ(c["text"], "t");
  EXPECT_EQ(c["blob"], "Yg==");
  EXPECT_EQ(c["mimeType"], "m");
}

TEST(mcp_protocol, uri_templates_match_level_one_variables) {
  auto m = mcp::match_uri_template("test://template/{id}/data", "test://template/7/data");
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, (json{{"id", "7"}}));
  auto two = mcp::match_uri_template("db://{table}.{column}", "db://users.email");
  ASSERT_TRUE(two);
  EXPECT_EQ(*two, (json{{"table", "users"}, {"column", "email"}}));
  auto tail = mcp::match_uri_template("file:///{name}", "file:///readme");
  ASSERT_TRUE(tail);
  EXPECT_EQ((*tail)["name"], "readme");
  auto literal = mcp::match_uri_template("mem://fixed", "mem://fixed");
  ASSERT_TRUE(literal);
  EXPECT_EQ(*literal, json::object());
}

TEST(mcp_protocol, uri_templates_refuse_what_does_not_fit) {
  EXPECT_FALSE(mcp::match_uri_template("a://{x}/b", "a:///b"));        // empty variable
  EXPECT_FALSE(mcp::match_uri_template("a://{x}", "a://p/q"));         // a variable spans no '/'
  EXPECT_FALSE(mcp::match_uri_template("a://{x}/b", "a://p/c"));       // literal differs
  EXPECT_FALSE(mcp::match_uri_template("a://{x}/b", "a://p"));         // the URI ends early
  EXPECT_FALSE(mcp::match_uri_template("a://x", "a://xy"));            // trailing text
  EXPECT_FALSE(mcp::match_uri_template("a://{x", "a://p"));            // unclosed brace
  EXPECT_FALSE(mcp::match_uri_template("a://{x}.{y}", "a://nodot"));   // separator missing
  EXPECT_FALSE(mcp::match_uri_template("", "a"));
  EXPECT_TRUE(mcp::match_uri_template("", ""));
}

TEST(mcp_protocol, prompt_json_lists_arguments_with_required_flags) {
  json bare = mcp::to_json(mcp::prompt{.name = "p"});
  EXPECT_EQ(bare, (json{{"name", "p"}}));
  json p = mcp::to_json(mcp::prompt{.name = "p", .title = "P", .arguments = {{"a", "", true}}});
  EXPECT_EQ(p["arguments"], json::parse(R"([{"name":"a","required":true}])"));
  EXPECT_EQ(p["title"], "P");
}

TEST(mcp_protocol, prompt_result_json_always_has_messages) {
  json empty = mcp::to_json(mcp::prompt_result{});
  EXPECT_EQ(empty, (json{{"messages", json::array()}}));
  json one = mcp::to_json(mcp::prompt_result{.messages = {{"assistant", tooluse::text_content{"hi"}}}});
  EXPECT_EQ(one["messages"][0]["role"], "assistant");
  EXPECT_EQ(one["messages"][0]["content"]["text"], "hi");
}

TEST(mcp_protocol, completion_json_reports_total_and_has_more) {
  json c = mcp::to_json(mcp::completion_result{.values = {"a", "b"}});
  EXPECT_EQ(c, json::parse(R"({"completion":{"values":["a","b"],"hasMore":false}})"));
  json t = mcp::to_json(mcp::completion_result{.values = {}, .total = 0, .has_more = true});
  EXPECT_EQ(t["completion"]["total"], 0);
  EXPECT_EQ(t["completion"]["hasMore"], true);
}

TEST(mcp_protocol, tool_json_has_description_and_no_empty_annotations) {
  json t = mcp::tool_to_mcp_json(tooluse::tool{.name = "t"});
  EXPECT_EQ(t["description"], "");
  EXPECT_FALSE(t.contains("annotations"));
  EXPECT_FALSE(t.contains("outputSchema"));
  EXPECT_FALSE(t.contains("_meta"));
  EXPECT_FALSE(t.contains("title"));
  // Local policy never reaches the wire.
  tooluse::tool policy{.name = "p"};
  policy.category = "math";
  policy.dangerous = true;
  policy.tags = {"x"};
  json pj = mcp::tool_to_mcp_json(policy);
  EXPECT_FALSE(pj.contains("category"));
  EXPECT_FALSE(pj.contains("dangerous"));
  EXPECT_FALSE(pj.contains("tags"));
}

TEST(mcp_protocol, routing_names_follow_the_method) {
  EXPECT_EQ(mcp::routing_name_field("tools/call"), "name");
  EXPECT_EQ(mcp::routing_name_field("prompts/get"), "name");
  EXPECT_EQ(mcp::routing_name_field("resources/read"), "uri");
  EXPECT_EQ(mcp::routing_name_field("tasks/get"), "taskId");
  EXPECT_EQ(mcp::routing_name_field("tasks/update"), "taskId");
  EXPECT_EQ(mcp::routing_name_field("tasks/cancel"), "taskId");
  EXPECT_EQ(mcp::routing_name_field("tools/list"), "");
  EXPECT_EQ(mcp::routing_name_field("tasks/result"), "");
}

TEST(mcp_tasks_records, statuses_and_support_round_trip) {
  for (auto s : {mcp::task_status::working, mcp::task_status::input_required, mcp::task_status::completed,
                 mcp::task_status::failed, mcp::task_status::cancelled})
    EXPECT_EQ(mcp::parse_task_status(mcp::to_string(s)), s);
  EXPECT_FALSE(mcp::parse_task_status("done"));
  EXPECT_TRUE(mcp::is_terminal(mcp::task_status::failed));
  EXPECT_TRUE(mcp::is_terminal(mcp::task_status::cancelled));
  EXPECT_FALSE(mcp::is_terminal(mcp::task_status::input_required));
  for (auto s : {mcp::task_support::forbidden, mcp::task_support::optional, mcp::task_support::required})
    EXPECT_EQ(mcp::parse_task_support(mcp::to_string(s)), s);
  EXPECT_FALSE(mcp::parse_task_support("Optional"));
}

TEST(mcp_tasks_records, format_time_is_iso_8601_utc_with_milliseconds) {
  using namespace std::chrono;
  system_clock::time_point t{milliseconds(1700000000123)};
  EXPECT_EQ(mcp::format_time(t), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(mcp::format_time(system_clock::time_point{}), "1970-01-01T00:00:00.000Z");
}

TEST(mcp_tasks_records, task_json_uses_the_revisions_field_names) {
  mcp::task_record r;
  r.id = "abc";
  r.status = mcp::task_status::input_required;
  r.status_message = "waiting";
  r.ttl_ms = 5000;
  r.poll_interval_ms = 100;
  json v1 = mcp::task_to_json(r, "2025-11-25");
  EXPECT_EQ(v1["taskId"], "abc");
  EXPECT_EQ(v1["status"], "input_required");
  EXPECT_EQ(v1["statusMessage"], "waiting");
  EXPECT_EQ(v1["ttl"], 5000);
  EXPECT_EQ(v1["pollInterval"], 100);
  EXPECT_FALSE(v1.contains("ttlMs"));
  json v2 = mcp::task_to_json(r, "2026-07-28");
  EXPECT_EQ(v2["ttlMs"], 5000);
  EXPECT_EQ(v2["pollIntervalMs"], 100);
  EXPECT_FALSE(v2.contains("ttl"));
  r.ttl_ms.reset();
  r.poll_interval_ms = 0;
  r.status_message.clear();
  json unlimited = mcp::task_to_json(r, "2026-07-28");
  EXPECT_TRUE(unlimited["ttlMs"].is_null());  // unlimited: present and null
  EXPECT_FALSE(unlimited.contains("pollIntervalMs"));
  EXPECT_FALSE(unlimited.contains("statusMessage"));
}

TEST(mcp_tasks_records, memory_store_keeps_lists_and_erases) {
  auto store = mcp::make_memory_task_store();
  using namespace std::chrono;
  auto t0 = system_clock::now();
  auto rec = [&](std::string id, std::string owner, milliseconds age) {
    mcp::task_record r;
    r.id = std::move(id);
    r.owner = std::move(owner);
    r.created_at = r.updated_at = t0 - age;
    return r;
  };
  store->put(rec("b", "me", 1s));
  store->put(rec("a", "me", 2s));
  store->put(rec("c", "me", 1s));
  store->put(rec("z", "you", 0s));
  auto mine = store->list("me");
  ASSERT_EQ(mine.size(), 3u);
  EXPECT_EQ(mine[0].id, "a");  // oldest first
  EXPECT_EQ(mine[1].id, "b");  // same time: by id
  EXPECT_EQ(mine[2].id, "c");
  EXPECT_EQ(store->list("nobody").size(), 0u);
  auto r = rec("b", "me", 1s);
  r.status = mcp::task_status::completed;
  r.result = {{"content", json::array()}};
  store->put(r);
  auto got = store->get("b");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, mcp::task_status::completed);
  EXPECT_EQ(got->result, r.result);
  EXPECT_TRUE(store->erase("b"));
  EXPECT_FALSE(store->erase("b"));
  EXPECT_FALSE(store->get("b"));
}

TEST(mcp_tasks_records, memory_store_is_safe_across_threads) {
  auto store = mcp::make_memory_task_store();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        mcp::task_record r;
        r.id = std::to_string(t) + "-" + std::to_string(i);
        r.owner = std::to_string(t);
        store->put(r);
        if (i % 10 == 0) (void)store->list(r.owner);
        if (i % 2) store->erase(r.id);
      }
    });
  for (auto& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(store->list(std::to_string(t)).size(), 50u);
}
