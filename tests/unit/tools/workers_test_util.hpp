#pragma once
// Shared by the worker tests: a registry of sandboxed C++ tools that misbehave on request, bound
// to workers once per test (each test is its own process under ctest; the zygote must be
// forked before any thread, and this fixture starts none).
//
// The outer fence: every attack is finite by construction (allocations stop at 4 GB, a loop at
// 60 s of CPU), each tool has a tight policy, and the test's call has a stop token a watchdog
// could use; when a limit regresses the test fails and the machine carries on.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "support/test_support.hpp"
#include "tooluse/tools/registry.hpp"

// TOOLUSE_SKIP_UNDER_TSAN(): sandboxed workers cannot run under ThreadSanitizer. Its runtime
// keeps a thread of its own once any other was started (so start_tool_workers refuses to fork)
// and restarts it in every forked child, and the kernel refuses unshare(CLONE_NEWUSER) to a
// threaded process (EINVAL). The asan run covers the workers; under tsan these tests skip.
#if defined(__SANITIZE_THREAD__)
#define TOOLUSE_SKIP_UNDER_TSAN() \
  GTEST_SKIP() << "sandboxed workers cannot run under ThreadSanitizer (its runtime thread)"
#else
#define TOOLUSE_SKIP_UNDER_TSAN() static_cast<void>(0)
#endif
#include "tooluse/tools/workers.hpp"

namespace tooluse::testing {

inline tool sandboxed_tool(std::string name, std::size_t memory_mb = 64) {
  tool t{.name = std::move(name), .description = "a test tool"};
  t.sandboxed = true;
  t.memory_limit_mb = memory_mb;
  t.sandbox_policy.cpu_seconds = 1;
  t.sandbox_policy.max_processes = 16;
  return t;
}

/// text_of is the first text block of a result.
inline std::string text_of(const tool_result& r) {
  for (const auto& c : r.content)
    if (auto* t = std::get_if<text_content>(&c)) return t->text;
  return "";
}

/// read_path: the worker opens args.path and returns its first bytes, or the errno text.
inline tool_result read_path(const json& args, call_context&) {
  const std::string path = args.value("path", "");
  std::ifstream in(path);
  if (!in) return tool_result::error(std::string("cannot open ") + path + ": " + std::strerror(errno));
  std::string s(64, '\0');
  in.read(s.data(), 64);
  s.resize(static_cast<std::size_t>(in.gcount()));
  return tool_result::text(s);
}

struct workers_fixture : ::testing::Test {
  tool_registry reg;
  std::size_t bound = 0;
  worker_options options;

  /// add_tools registers the misbehaving tools; a test may add its own before bind().
  void add_tools() {
    reg.add(sandboxed_tool("ok"), [](const json& a, call_context& ctx) {
      static int calls = 0;  // a copy per worker: 1 in every call
      return tool_result::structured({{"uid", ::getuid()}, {"pid", ::getpid()}, {"calls", ++calls},
                                      {"echo", a.value("x", 0)}, {"call_id", ctx.call_id}});
    });
    reg.add(sandboxed_tool("segv"), [](const json&, call_context&) -> tool_result {
      std::raise(SIGSEGV);
      return tool_result::text("survived");
    });
    reg.add(sandboxed_tool("abort"), [](const json&, call_context&) -> tool_result {
      std::abort();
    });
    reg.add(sandboxed_tool("hog"), [](const json&, call_context&) {
      std::vector<std::vector<char>> blocks;
      for (int i = 0; i < 256; ++i) blocks.emplace_back(16 << 20, 'x');  // stops at 4 GB
      return tool_result::text("allocated " + std::to_string(blocks.size()) + " blocks");
    });
    reg.add(sandboxed_tool("spin"), [](const json&, call_context&) {
      volatile unsigned long n = 0;
      const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (std::chrono::steady_clock::now() < end) n = n + 1;
      return tool_result::text("spun " + std::to_string(n));
    });
    reg.add(sandboxed_tool("read"), read_path);
    reg.add(sandboxed_tool("env"), [](const json& a, call_context&) {
      const char* v = std::getenv(a.value("name", "").c_str());
      return tool_result::text(v ? v : "(unset)");
    });
    reg.add({.name = "in_process", .description = "runs in the host"},
            [](const json&, call_context&) { return tool_result::text(std::to_string(::getpid())); });
  }

  void bind() {
    TOOLUSE_SKIP_UNDER_TSAN();
    auto n = start_tool_workers(reg, options);
    ASSERT_TRUE(n) << n.error().message;
    bound = *n;
    // A machine without user namespaces cannot build the sandbox: a missing peer.
    auto probe = call("ok", json::object());
    if (probe.is_error && text_of(probe).find("could not be sandboxed") != std::string::npos)
      TOOLUSE_PEER_MISSING(text_of(probe));
  }

  tool_result call(const std::string& name, json args, std::stop_token stop = {}) {
    call_context ctx;
    ctx.stop = stop;
    ctx.call_id = "c1";
    return reg.call({.id = "c1", .name = name, .arguments = std::move(args)}, ctx);
  }

  /// host_still_serves: the next call of the same worker pool succeeds.
  void expect_host_serves() {
    auto r = call("ok", {{"x", 7}});
    ASSERT_FALSE(r.is_error) << text_of(r);
    EXPECT_EQ(r.structured_content->at("echo"), 7);
  }
};

}  // namespace tooluse::testing
