// sandbox::policy: defaults, JSON form (an mcpServers entry's "sandbox"), limit names.
#include <gtest/gtest.h>

#include "tooluse/sandbox/policy.hpp"
#include "tooluse/sandbox/sandbox.hpp"

namespace {
using tooluse::json;
namespace sb = tooluse::sandbox;

TEST(sandbox_policy, defaults_are_those_of_a_code_tool) {
  sb::policy p;
  EXPECT_EQ(p.memory_limit_mb, 512u);
  EXPECT_GT(p.cpu_seconds, 0u);
  EXPECT_GT(p.max_processes, 0u);
  EXPECT_TRUE(p.allowed_hosts.empty());
  EXPECT_FALSE(p.host_network);
}

TEST(sandbox_policy, true_means_the_defaults) {
  sb::policy d{.memory_limit_mb = 100};
  auto p = sb::parse_policy(json(true), d);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->memory_limit_mb, 100u);
}

TEST(sandbox_policy, reads_every_field) {
  auto p = sb::parse_policy(json::parse(R"({"memory_limit_mb": 64, "cpu_seconds": 2,
      "max_processes": 8, "max_file_size_mb": 1, "max_open_files": 32, "tmp_size_mb": 4,
      "network": false, "read": ["/srv/data"], "write": ["/srv/out"]})"));
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->memory_limit_mb, 64u);
  EXPECT_EQ(p->cpu_seconds, 2u);
  EXPECT_EQ(p->max_processes, 8u);
  EXPECT_EQ(p->max_file_size_mb, 1u);
  EXPECT_EQ(p->max_open_files, 32u);
  EXPECT_EQ(p->tmp_size_mb, 4u);
  ASSERT_EQ(p->read_paths.size(), 1u);
  EXPECT_EQ(p->read_paths[0], "/srv/data");
  ASSERT_EQ(p->write_paths.size(), 1u);
  EXPECT_EQ(sb::to_json(*p)["network"], false);
  EXPECT_EQ(sb::to_json(*p)["write"][0], "/srv/out");
}

TEST(sandbox_policy, errors_name_the_field) {
  auto neg = sb::parse_policy(json::parse(R"({"cpu_seconds": -1})"));
  ASSERT_FALSE(neg);
  EXPECT_EQ(neg.error().message, "sandbox.cpu_seconds: expected a non-negative integer");
  auto rel = sb::parse_policy(json::parse(R"({"write": ["relative/path"]})"));
  ASSERT_FALSE(rel);
  EXPECT_EQ(rel.error().message, "sandbox.write: expected a list of absolute paths");
  auto unknown = sb::parse_policy(json::parse(R"({"memory": 5})"));
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown field \"memory\""), std::string::npos);
  EXPECT_FALSE(sb::parse_policy(json(false)));
  EXPECT_FALSE(sb::parse_policy(json("yes")));
}

TEST(sandbox_policy, a_network_allowlist_goes_through_the_egress_proxy_not_the_hosts_network) {
  auto p = sb::parse_policy(json::parse(R"({"network": ["api.example.com"]})"));
  ASSERT_TRUE(p);
  EXPECT_FALSE(p->host_network);
  auto r = sb::prepare(*p, {.argv = {"true"}, .work_dir = "."});
  ASSERT_TRUE(r) << r.error().message;
  bool shares_net = false;
  for (const auto& a : r->argv) shares_net = shares_net || a == "--share-net";
  EXPECT_FALSE(shares_net);
  EXPECT_TRUE(r->resources);  // the proxy
}

TEST(sandbox_policy, limits_have_names_and_descriptions) {
  EXPECT_EQ(sb::to_string(sb::limit::cpu_time), "cpu_time");
  EXPECT_EQ(sb::to_string(sb::limit::output_size), "output_size");
  sb::policy p{.memory_limit_mb = 256, .cpu_seconds = 5};
  EXPECT_EQ(sb::limit_description(sb::limit::memory, p), "the memory limit (256 MB)");
  EXPECT_EQ(sb::limit_description(sb::limit::cpu_time, p), "the cpu time limit (5 s)");
  EXPECT_EQ(sb::exit_limit(128 + 24), sb::limit::cpu_time);  // SIGXCPU
  EXPECT_EQ(sb::exit_limit(128 + 25), sb::limit::file_size);  // SIGXFSZ
  EXPECT_EQ(sb::exit_limit(1), sb::limit::none);
}

}  // namespace
