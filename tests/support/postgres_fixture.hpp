#pragma once
// postgres_cluster: a throwaway PostgreSQL server for tests and benchmarks: initdb in a fresh
// temporary folder, pg_ctl on a free loopback port, stopped and removed on destruction. Run as
// the unprivileged `nobody` user when the test runs as root (PostgreSQL refuses root), as CI
// does. Needs the Debian postgresql package (/usr/lib/postgresql/<version>/bin).
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/test_support.hpp"

namespace tooluse::testing {

class postgres_cluster {
 public:
  postgres_cluster() {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& v : fs::directory_iterator("/usr/lib/postgresql", ec))
      if (fs::exists(v.path() / "bin" / "initdb")) bin_ = (v.path() / "bin").string();
    if (bin_.empty()) {
      why_ = "no PostgreSQL server (/usr/lib/postgresql/*/bin/initdb); apt-get install postgresql";
      return;
    }
    char tmpl[] = "/tmp/tooluse-pg-XXXXXX";
    if (!::mkdtemp(tmpl)) {
      why_ = "mkdtemp failed";
      return;
    }
    dir_ = tmpl;
    std::string as_user;
    if (::geteuid() == 0) {
      int st = 0;
      run_shell("chown nobody:nogroup " + dir_ + " 2>&1", st);
      as_user = "runuser -u nobody -- ";
    }
    port_ = free_port();
    int st = 0;
    std::string out =
        run_shell(as_user + bin_ + "/initdb -D " + dir_ + "/data -A trust -U postgres " +
                      "-E UTF8 --no-sync --no-instructions 2>&1",
                  st);
    if (st != 0) {
      why_ = "initdb failed: " + out;
      return;
    }
    out = run_shell(as_user + bin_ + "/pg_ctl -D " + dir_ + "/data -l " + dir_ +
                        "/log -w -o \"-p " + std::to_string(port_) + " -k " + dir_ +
                        " -c listen_addresses=127.0.0.1\" start 2>&1",
                    st);
    if (st != 0) {
      why_ = "pg_ctl start failed: " + out + read_file(dir_ + "/log");
      return;
    }
    started_ = true;
  }

  ~postgres_cluster() {
    int st = 0;
    if (started_)
      run_shell(std::string(::geteuid() == 0 ? "runuser -u nobody -- " : "") + bin_ +
                    "/pg_ctl -D " + dir_ + "/data -m immediate -w stop >/dev/null 2>&1",
                st);
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }

  bool ok() const { return started_; }
  const std::string& why() const { return why_; }
  /// url is a libpq URL for a new database named `db` (created on first use).
  std::string url(const std::string& db = "postgres") {
    if (db != "postgres") {
      int st = 0;
      run_shell(bin_ + "/psql -h 127.0.0.1 -p " + std::to_string(port_) +
                    " -U postgres -q -c 'CREATE DATABASE " + db + "' postgres >/dev/null 2>&1",
                st);
    }
    return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/" + db;
  }

  /// required tells whether a missing server must fail the test (CI=true) or skip it.
  static bool required() {
    const char* ci = std::getenv("CI");
    return ci && std::string(ci) == "true";
  }

 private:
  static int free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t n = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
    int port = ntohs(a.sin_port);
    ::close(fd);
    return port;
  }

  std::string bin_, dir_, why_;
  int port_ = 0;
  bool started_ = false;
};

/// postgres_or_skip: in a test body, `auto& pg = ...` then this macro skips (or fails in CI).
#define TOOLUSE_REQUIRE_POSTGRES(cluster)                                              \
  do {                                                                                 \
    if (!(cluster).ok()) {                                                             \
      if (::tooluse::testing::postgres_cluster::required()) FAIL() << (cluster).why(); \
      GTEST_SKIP() << (cluster).why();                                                 \
    }                                                                                  \
  } while (0)

}  // namespace tooluse::testing
