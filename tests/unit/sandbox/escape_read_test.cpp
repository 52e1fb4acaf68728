// Escape tests, reading: secrets planted on the host (home, /root, the host's environment,
// /proc) and system secrets must not reach a sandboxed process. Each is a real process in the
// real sandbox.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "sandbox_test_util.hpp"

namespace {
namespace fs = std::filesystem;
namespace sb = tooluse::sandbox;
using tooluse::testing::sandbox_fixture;

const std::string secret = "tooluse-planted-secret-" + std::to_string(::getpid());

// plant writes `secret` to `path` (creating folders) and removes it at the end of the test.
struct planted {
  fs::path path;
  bool ok = false;
  explicit planted(fs::path p) : path(std::move(p)) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream(path) << secret;
    ok = tooluse::testing::read_file(path) == secret;
  }
  ~planted() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

TEST_F(sandbox_fixture, escape_read_secret_in_the_users_home) {
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  planted p(fs::path(home) / ".tooluse-escape-test" / "token");
  ASSERT_TRUE(p.ok) << "cannot plant " << p.path;
  auto r = sh("cat '" + p.path.string() + "'; ls -a '" + home + "'; grep -rs " + secret + " /etc /tmp /usr/local /dev 2>/dev/null | head -3");
  EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
  EXPECT_EQ(tooluse::testing::read_file(p.path), secret);  // and it is unchanged
  fs::remove_all(fs::path(home) / ".tooluse-escape-test");
}

TEST_F(sandbox_fixture, escape_read_root_and_home_folders) {
  std::error_code ec;
  std::unique_ptr<planted> p;
  if (::access("/root", W_OK) == 0) p = std::make_unique<planted>("/root/.tooluse-escape-" + std::to_string(::getpid()));
  auto r = sh("ls -a /root /home 2>&1; cat /root/.tooluse-escape-* 2>&1");
  EXPECT_NE(r.out.find("/root': No such file or directory"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/home': No such file or directory"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, escape_read_the_hosts_environment) {
  ::setenv("TOOLUSE_ESCAPE_SECRET", secret.c_str(), 1);
  ::setenv("OPENAI_API_KEY", secret.c_str(), 1);
  auto r = sh("env; cat /proc/1/environ /proc/self/environ /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'");
  ::unsetenv("TOOLUSE_ESCAPE_SECRET");
  ::unsetenv("OPENAI_API_KEY");
  EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("OPENAI_API_KEY"), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, escape_read_host_processes_through_proc) {
  // A fresh /proc in a fresh pid namespace: the test process is not there, nor is its
  // command line or memory.
  auto r = sh("ls /proc | grep -c '^[0-9]'; cat /proc/" + std::to_string(::getpid()) +
              "/cmdline 2>&1; ls /proc/1/root/ 2>&1 | head -3");
  EXPECT_LE(std::stoi(r.out), 6) << r.out;
  EXPECT_EQ(r.out.find("tooluse_sandbox_tests"), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, escape_read_system_secrets) {
  auto r = sh("cat /etc/shadow /etc/gshadow 2>&1; ls /etc/ssh 2>&1; cat /etc/ssh/ssh_host_*_key 2>&1; "
              "find /etc -perm -o-r -type f 2>/dev/null | xargs cat 2>/dev/null | head -c 200");
  EXPECT_EQ(r.out.find("root:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("PRIVATE KEY"), std::string::npos) << r.out;
  if (fs::exists("/etc/shadow")) {
    auto masked = sh("cat /etc/shadow 2>/dev/null | wc -c");  // masked: empty or unopenable
    EXPECT_EQ(masked.out, "0\n") << masked.out << masked.err;
  }
}

TEST_F(sandbox_fixture, escape_read_a_sibling_of_the_work_folder) {
  planted p(base.path() / "sibling" / "secret.txt");
  ASSERT_TRUE(p.ok);
  auto r = sh("cat ../sibling/secret.txt '" + p.path.string() + "' 2>&1");
  EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
  auto listing = sh("ls ..");
  EXPECT_EQ(listing.out, "work\n");  // the work folder's parent holds only the work folder
}

TEST_F(sandbox_fixture, escape_read_the_hosts_tmp) {
  planted p(fs::temp_directory_path() / ("tooluse-escape-" + std::to_string(::getpid())));
  auto r = sh("cat '" + p.path.string() + "' 2>&1; ls /tmp");
  EXPECT_EQ(r.out.find(secret), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, escape_no_capabilities_and_no_new_privileges) {
  auto r = sh("grep -E '^(Uid|CapEff|CapPrm|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status");
  EXPECT_NE(r.out.find("Uid:\t1000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CapEff:\t0000000000000000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CapPrm:\t0000000000000000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NoNewPrivs:\t1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Seccomp:\t2"), std::string::npos) << r.out;
}

TEST_F(sandbox_fixture, escape_setuid_programs_do_not_raise_privileges) {
  // su and mount are setuid root on Debian; with no_new_privs their bit is ignored.
  auto r = sh("for p in /usr/bin/su /usr/bin/mount /usr/bin/passwd /usr/bin/newgrp; do "
              "[ -u $p ] && echo setuid $p; done; su -c id root </dev/null 2>&1; "
              "mount -t tmpfs none /tmp 2>&1; id -u");
  EXPECT_EQ(r.out.find("uid=0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n1000\n"), std::string::npos) << r.out;
}

}  // namespace
