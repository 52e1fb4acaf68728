// What a sandboxed C++ tool's worker sees: no secrets of the host (files, environment, other
// processes), nothing writable outside its paths, no network; Landlock applied where the
// kernel has it (docs/sandbox.md, "C++ tools").
#include <gtest/gtest.h>

#include <fstream>
#include <future>

#include "unit/tools/workers_test_util.hpp"
#include "tooluse/sandbox/check.hpp"

namespace tooluse::testing {
namespace {

struct worker_view : workers_fixture {
  temp_dir out;
  void SetUp() override {
    ::setenv("OPENAI_API_KEY", "sk-planted-secret", 1);
    add_tools();
    tool w = sandboxed_tool("write");
    w.sandbox_policy.write_paths = {out.path()};
    reg.add(w, [](const json& a, call_context&) {
      std::ofstream f(a.value("path", ""));
      f << "written";
      f.close();
      return f ? tool_result::text("ok") : tool_result::error(std::strerror(errno));
    });
    reg.add(sandboxed_tool("connect"), [](const json&, call_context&) {
      std::ifstream routes("/proc/net/route");
      std::string all((std::istreambuf_iterator<char>(routes)), {});
      return tool_result::text(all.find('\n') == all.rfind('\n') ? "no routes" : all);
    });
    reg.add(sandboxed_tool("fds"), [](const json&, call_context&) {
      json open = json::array();
      for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd"))
        open.push_back(std::stoi(e.path().filename().string()));
      return tool_result::structured({{"fds", open}});
    });
    bind();
  }
};

TEST_F(worker_view, no_descriptor_of_the_host_or_of_other_calls_is_inherited) {
  auto busy = std::async(std::launch::async, [&] { return call("spin", json::object()); });
  auto r = call("fds", json::object());  // while another call's sockets are open in the zygote
  ASSERT_FALSE(r.is_error) << text_of(r);
  std::vector<int> fds = r.structured_content->at("fds").get<std::vector<int>>();
  // stdin (/dev/null), stdout and stderr (the err pipe), the call's socket, and the listing's own.
  EXPECT_LE(fds.size(), 5u) << r.structured_content->dump();
  for (int fd : fds) EXPECT_LE(fd, 4) << r.structured_content->dump();
  busy.get();
}

TEST_F(worker_view, the_host_environment_is_absent) {
  EXPECT_EQ(text_of(call("env", {{"name", "OPENAI_API_KEY"}})), "(unset)");
  EXPECT_EQ(text_of(call("env", {{"name", "HOME"}})), "/tmp");
}

TEST_F(worker_view, home_root_and_etc_secrets_are_unreadable) {
  for (const char* p : {"/root/.bashrc", "/etc/shadow", "/proc/1/environ", "/run/secrets"}) {
    auto r = call("read", {{"path", p}});
    EXPECT_TRUE(r.is_error || text_of(r).empty()) << p << ": " << text_of(r);
  }
  auto r = call("read", {{"path", "/usr/include/stdio.h"}});  // the system stays readable
  EXPECT_FALSE(r.is_error) << text_of(r);
}

TEST_F(worker_view, only_the_write_paths_are_writable) {
  EXPECT_FALSE(call("write", {{"path", (out.path() / "a.txt").string()}}).is_error);
  EXPECT_EQ(read_file(out.path() / "a.txt"), "written");
  const std::string outside = std::string(TOOLUSE_SOURCE_DIR) + "/escape-probe.txt";
  EXPECT_TRUE(call("write", {{"path", outside}}).is_error);
  EXPECT_FALSE(std::filesystem::exists(outside));
  EXPECT_TRUE(call("write", {{"path", "/etc/escape-probe"}}).is_error);
}

TEST_F(worker_view, has_no_network_routes) {
  EXPECT_EQ(text_of(call("connect", json::object())), "no routes");
}

TEST_F(worker_view, landlock_applies_where_the_kernel_has_it) {
  // The source tree is not hidden by a mount (only /home, /root, /run, /var... are); reading it
  // is refused only by Landlock's allowlist.
  auto r = call("read", {{"path", std::string(TOOLUSE_SOURCE_DIR) + "/README.md"}});
  if (sandbox::landlock_abi() == 0) {
    EXPECT_FALSE(r.is_error) << "without Landlock the mount view is the only boundary";
    GTEST_SKIP() << "this kernel has no Landlock";
  }
  ASSERT_TRUE(r.is_error) << text_of(r);
  EXPECT_NE(text_of(r).find("Permission denied"), std::string::npos)
      << text_of(r) << " (\"No such file\": the source tree lies where the mount view puts a "
      << "tmpfs or hides it, e.g. /tmp; build from a tree outside /tmp, /home, /root, /run, /var)";
}

}  // namespace
}  // namespace tooluse::testing
