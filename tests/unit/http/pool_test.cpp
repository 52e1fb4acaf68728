// The shared connection pool on real loopback HTTP: sequential and concurrent requests reuse
// kept-alive connections (counted where the server accepts them), the per-host bound queues
// the rest, every limit still holds per request on a reused connection, send_async completes
// on the pool's thread, and proxies come from the environment as the official SDKs read them.
#include "tooluse/http/pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "support/fake_llm_server.hpp"

namespace {
using namespace std::chrono_literals;
using tooluse::errc;
using tooluse::testing::fake_llm_server;
using tooluse::testing::recorded_request;
using tooluse::testing::scripted_response;
namespace http = tooluse::http;

bool contains(const std::string& s, std::string_view what) { return s.find(what) != std::string::npos; }

// Restores the pool's default bounds when a test that narrowed them ends.
struct pool_bounds {
  explicit pool_bounds(http::pool_options o) { EXPECT_TRUE(http::configure_pool(o)); }
  ~pool_bounds() { EXPECT_TRUE(http::configure_pool({})); }
};

TEST(http_pool, sequential_requests_share_one_kept_alive_connection) {
  fake_llm_server server;
  server.keep_alive(true);
  server.set_responder([](const recorded_request&) { return scripted_response{.body = "ok"}; });
  auto before = http::pool_statistics();
  for (int i = 0; i < 10; ++i) {
    auto r = http::send({.url = server.url("/n")});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->body, "ok");
  }
  EXPECT_EQ(server.connections(), 1);
  auto after = http::pool_statistics();
  EXPECT_GE(after.connections_reused - before.connections_reused, 9u);
  EXPECT_EQ(after.requests - before.requests, 10u);
}

TEST(http_pool, concurrent_requests_open_at_most_one_connection_each_and_reuse_them) {
  fake_llm_server server;
  server.keep_alive(true);
  server.set_responder([](const recorded_request& r) { return scripted_response{.body = r.body}; });
  constexpr int threads = 8, each = 6;
  std::vector<std::future<int>> runs;
  for (int k = 0; k < threads; ++k)
    runs.push_back(std::async(std::launch::async, [&, k] {
      int ok = 0;
      for (int i = 0; i < each; ++i) {
        std::string body = std::to_string(k * 100 + i);
        auto r = http::send({.method = "POST", .url = server.url("/c"), .body = body});
        ok += r && r->body == body;
      }
      return ok;
    }));
  int ok = 0;
  for (auto& f : runs) ok += f.get();
  EXPECT_EQ(ok, threads * each);
  EXPECT_GE(server.connections(), 1);
  EXPECT_LE(server.connections(), threads) << "48 requests, never more connections than requests "
                                              "in flight at once";
}

// A server that closes each connection after its answer: concurrent requests still run side by
// side. Each request is held until all of them are in (or 20 s pass): had the pool made them
// wait for one another (libcurl's PIPEWAIT over cleartext HTTP/1.1), fewer would arrive and the
// held ones would be answered 503.
TEST(http_pool, concurrent_requests_to_a_server_that_closes_connections_run_side_by_side) {
  constexpr int n = 8;
  std::mutex mu;
  std::condition_variable all_in;
  int arrived = 0;
  fake_llm_server server;
  server.keep_alive(false);
  server.record_requests(false);
  server.set_responder([&](const recorded_request&) {
    std::unique_lock lock(mu);
    ++arrived;
    all_in.notify_all();
    if (!all_in.wait_for(lock, 20s, [&] { return arrived >= n; }))
      return scripted_response{.status = 503, .body = "only " + std::to_string(arrived) + " in"};
    return scripted_response{.body = "ok"};
  });
  std::vector<std::future<std::string>> runs;
  for (int k = 0; k < n; ++k)
    runs.push_back(std::async(std::launch::async, [&] {
      auto r = http::send({.method = "POST", .url = server.url("/close"), .body = "x"});
      if (!r) return r.error().message;
      return std::to_string(r->status) + " " + r->body;
    }));
  for (auto& f : runs) EXPECT_EQ(f.get(), "200 ok");
  EXPECT_EQ(server.connections(), n);
}

TEST(http_pool, requests_past_the_per_host_bound_wait_in_a_queue) {
  pool_bounds bounds({.max_requests_per_host = 2, .max_connections_per_host = 2});
  fake_llm_server server;
  server.keep_alive(true);
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  server.set_responder([&](const recorded_request&) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return open; });  // hold the first two until the rest are queued
    return scripted_response{.body = "ok"};
  });
  auto before = http::pool_statistics();
  std::vector<std::future<bool>> runs;
  for (int i = 0; i < 6; ++i)
    runs.push_back(std::async(std::launch::async, [&] {
      auto r = http::send({.url = server.url("/q")});
      return r && r->body == "ok";
    }));
  while (http::pool_statistics().queued < 4) std::this_thread::yield();
  EXPECT_EQ(http::pool_statistics().in_flight, before.in_flight + 2);
  {
    std::lock_guard lock(mu);
    open = true;
  }
  cv.notify_all();
  for (auto& f : runs) EXPECT_TRUE(f.get());
  EXPECT_LE(server.connections(), 2);
  EXPECT_GE(http::pool_statistics().peak_queued, 4u);
}

TEST(http_pool, a_queued_request_ends_at_its_total_timeout_naming_the_pool_bound) {
  pool_bounds bounds({.max_requests_per_host = 1, .max_connections_per_host = 1});
  fake_llm_server server;
  server.keep_alive(true);
  std::promise<void> release;
  auto released = release.get_future().share();
  server.set_responder([released](const recorded_request&) {
    released.wait();
    return scripted_response{.body = "ok"};
  });
  auto first = std::async(std::launch::async, [&] { return http::send({.url = server.url("/")}); });
  while (http::pool_statistics().in_flight == 0) std::this_thread::yield();
  auto queued = http::send({.url = server.url("/"), .total_timeout = 300ms});
  release.set_value();
  ASSERT_FALSE(queued);
  EXPECT_EQ(queued.error().code, errc::timeout);
  EXPECT_TRUE(contains(queued.error().message, "http::request::total_timeout")) << queued.error().message;
  EXPECT_TRUE(contains(queued.error().message, "http::pool_options::max_requests_per_host"))
      << queued.error().message;
  auto r = first.get();
  ASSERT_TRUE(r) << r.error().message;
}

TEST(http_pool, limits_hold_per_request_on_a_reused_connection) {
  fake_llm_server server;
  server.keep_alive(true);
  server.push({.body = "small"});
  server.push({.body = std::string(4096, 'x')});
  server.push({.headers = {{"X-Big", std::string(2048, 'h')}}, .body = "ok"});
  server.push({.body = "after"});
  ASSERT_TRUE(http::send({.url = server.url("/1")}));
  auto big = http::send({.url = server.url("/2"), .max_response_bytes = 1000});
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(big.error().message, "http::request::max_response_bytes"));
  auto heads = http::send({.url = server.url("/3"), .max_header_bytes = 1024});
  ASSERT_FALSE(heads);
  EXPECT_EQ(heads.error().code, errc::limit_exceeded);
  EXPECT_TRUE(contains(heads.error().message, "http::request::max_header_bytes"));
  auto after = http::send({.url = server.url("/4")});
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(after->body, "after");
  // The first request's connection was reused by the second; a refused one is not kept.
  EXPECT_LT(server.connections(), 4);
}

TEST(http_pool, a_slow_reader_pauses_the_transfer_and_still_gets_every_byte_in_order) {
  fake_llm_server server;
  std::vector<std::string> chunks;
  std::string expected;
  for (int i = 0; i < 64; ++i) {
    chunks.push_back(std::string(64 << 10, static_cast<char>('a' + i % 26)));
    expected += chunks.back();
  }
  server.push({.chunks = chunks});
  std::string got;
  auto r = http::send({.url = server.url("/big"), .max_response_bytes = 0},
                      {.on_body = [&](std::string_view b) {
                        got.append(b);
                        std::this_thread::yield();  // a reader slower than loopback
                        return true;
                      }});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected);
}

TEST(http_pool, send_async_completes_on_the_pool_thread_with_sends_result) {
  fake_llm_server server;
  server.push({.status = 202, .body = "async"});
  std::promise<std::pair<bool, tooluse::result<http::response>>> done;
  http::send_async({.url = server.url("/a")}, {}, [&](tooluse::result<http::response> r) {
    done.set_value({http::on_pool_thread(), std::move(r)});
  });
  auto [on_pool, r] = done.get_future().get();
  EXPECT_TRUE(on_pool);
  EXPECT_FALSE(http::on_pool_thread());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->status, 202);
  EXPECT_EQ(r->body, "async");
  std::promise<tooluse::result<http::response>> bad;
  http::send_async({.url = "file:///etc/passwd"}, {},
                   [&](tooluse::result<http::response> r) { bad.set_value(std::move(r)); });
  auto b = bad.get_future().get();
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, errc::invalid_argument);
}

TEST(http_pool, a_blocking_send_from_the_pool_thread_is_refused_instead_of_deadlocking) {
  fake_llm_server server;
  server.push({.body = "outer"});
  std::promise<tooluse::result<http::response>> inner;
  http::send_async({.url = server.url("/")}, {}, [&](tooluse::result<http::response>) {
    inner.set_value(http::send({.url = server.url("/inner")}));
  });
  auto r = inner.get_future().get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::invalid_argument);
  EXPECT_TRUE(contains(r.error().message, "use http::send_async")) << r.error().message;
}

TEST(http_pool, post_runs_after_its_delay_or_at_once_on_a_stop_request) {
  std::promise<bool> ran;
  std::stop_source stop;
  http::post([&] { ran.set_value(http::on_pool_thread()); }, std::chrono::hours(1), stop.get_token());
  stop.request_stop();
  EXPECT_TRUE(ran.get_future().get());
}

TEST(http_pool, configure_pool_refuses_a_bound_below_one_and_names_it) {
  auto s = http::configure_pool({.max_requests_per_host = 0});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::invalid_argument);
  EXPECT_TRUE(contains(s.error().message, "http::pool_options::max_requests_per_host"));
}

// Sets an environment variable for one test and restores it.
struct env_var {
  env_var(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~env_var() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  const char* name_;
  std::optional<std::string> old_;
};

TEST(http_pool, http_proxy_from_the_environment_carries_the_request) {
  fake_llm_server proxy;
  proxy.push({.body = "via proxy"});
  env_var p("http_proxy", proxy.url());
  env_var n("no_proxy", "");
  auto r = http::send({.url = "http://model.test:8080/v1/models"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->body, "via proxy");
  auto seen = proxy.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].target, "http://model.test:8080/v1/models");  // absolute form: a proxy request
}

TEST(http_pool, no_proxy_sends_matching_hosts_directly) {
  fake_llm_server proxy;
  fake_llm_server direct;
  direct.push({.body = "direct"});
  env_var p("http_proxy", proxy.url());
  env_var n("no_proxy", "localhost,127.0.0.1");
  auto r = http::send({.url = direct.url("/x")});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->body, "direct");
  EXPECT_TRUE(proxy.requests().empty());
  EXPECT_EQ(direct.requests().size(), 1u);
}

}  // namespace
