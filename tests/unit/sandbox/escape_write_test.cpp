// Escape tests, writing: nothing outside the work folder (and /tmp, which is private) may be
// changed, whatever path the process takes: absolute, "..", a symlink, a hard link,
// /proc/self/root, a device node.
#include <gtest/gtest.h>

#include <fstream>

#include "sandbox_test_util.hpp"

namespace {
namespace fs = std::filesystem;
namespace sb = tooluse::sandbox;
using tooluse::testing::read_file;
using tooluse::testing::sandbox_fixture;

struct escape_write : sandbox_fixture {
  fs::path outside;
  void SetUp() override {
    sandbox_fixture::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    outside = base.path() / "outside";
    fs::create_directories(outside);
    std::ofstream(outside / "keep.txt") << "original";
  }
  void expect_outside_unchanged() {
    EXPECT_EQ(read_file(outside / "keep.txt"), "original");
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(outside)) names.push_back(e.path().filename());
    EXPECT_EQ(names, std::vector<std::string>{"keep.txt"});
  }
};

TEST_F(escape_write, absolute_path_outside) {
  auto r = sh("echo x > '" + (outside / "new.txt").string() + "'; echo x > '" +
              (outside / "keep.txt").string() + "'");
  EXPECT_NE(r.exit_code, 0);
  expect_outside_unchanged();
}

TEST_F(escape_write, dot_dot) {
  // ".." from the work folder is the sandbox's private /tmp, not the host's folders.
  auto r = sh("echo x > ../outside/new.txt; echo x > ../../escape.txt; mkdir ../made");
  expect_outside_unchanged();
  EXPECT_FALSE(fs::exists(base.path().parent_path() / "escape.txt"));
  EXPECT_FALSE(fs::exists(base.path() / "made"));
}

TEST_F(escape_write, symlink_planted_in_the_work_folder) {
  // A link made on the host points outside; inside, its target does not exist.
  fs::create_symlink(outside, work / "link");
  fs::create_symlink(outside / "keep.txt", work / "file_link");
  auto r = sh("echo x > link/new.txt; echo x > file_link; echo x >> file_link");
  EXPECT_NE(r.exit_code, 0);
  expect_outside_unchanged();
}

TEST_F(escape_write, symlink_made_inside) {
  auto r = sh("ln -s '" + outside.string() + "' l && echo x > l/new.txt; ln -s /etc/passwd p && echo x >> p");
  EXPECT_NE(r.exit_code, 0);
  expect_outside_unchanged();
}

TEST_F(escape_write, hard_link_to_a_file_outside) {
  auto r = sh("ln '" + (outside / "keep.txt").string() + "' hl 2>&1; ln /etc/passwd pw 2>&1; "
              "ln /usr/bin/env e 2>&1; echo x >> hl; echo x >> pw");
  // The links fail (the file outside is not in the view; /etc and /usr are other mounts), so
  // the appends made new files in the work folder, not changes to the targets.
  EXPECT_NE(r.out.find("Invalid cross-device link"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(work / "e")) << r.out;
  EXPECT_EQ(read_file(work / "pw"), "x\n");
  EXPECT_EQ(fs::hard_link_count(work / "pw"), 1u);
  expect_outside_unchanged();
}

TEST_F(escape_write, through_proc_self_root) {
  auto r = sh("echo x > /proc/self/root" + (outside / "new.txt").string() + "; echo x > /proc/1/root" +
              (outside / "new2.txt").string() + "; echo x > /proc/self/cwd/../outside/new3.txt");
  EXPECT_NE(r.exit_code, 0);
  expect_outside_unchanged();
}

TEST_F(escape_write, system_folders_are_read_only) {
  const std::string tag = "tooluse-escape-" + std::to_string(::getpid());
  auto r = sh("touch /etc/" + tag + " /usr/" + tag + " /usr/bin/" + tag + " /" + tag + " 2>&1; "
              "chmod 777 /usr/bin 2>&1; echo x >> /etc/passwd");
  EXPECT_NE(r.exit_code, 0);
  for (const char* d : {"/etc/", "/usr/", "/usr/bin/", "/"}) EXPECT_FALSE(fs::exists(d + tag)) << d;
}

TEST_F(escape_write, the_root_and_dev_are_read_only_and_shm_is_capped) {
  // bwrap's own root and /dev are tmpfs as large as half the RAM: writing there would be memory
  // the limits do not count.
  auto r = sh("echo x > /new; echo x > /dev/new; mkdir /home; "
              "head -c 100000000 /dev/zero > /dev/shm/fill");
  EXPECT_NE(r.err.find("/new: Read-only file system"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/dev/new: Read-only file system"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/home"), std::string::npos) << r.err;
  EXPECT_EQ(r.killed_by, sb::limit::tmp_size) << r.describe() << r.err;
}

TEST_F(escape_write, device_nodes_and_raw_disks) {
  auto r = sh("mknod dev b 8 0 2>&1; ls /dev; cat /dev/sda /dev/nvme0n1 /dev/mem 2>&1 | head -c 10");
  EXPECT_FALSE(fs::exists(work / "dev"));
  EXPECT_EQ(r.out.find("sda\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("mem\n"), std::string::npos) << r.out;
}

TEST_F(escape_write, the_private_tmp_is_gone_after_the_run) {
  const std::string name = "tooluse-escape-tmp-" + std::to_string(::getpid());
  auto r = sh("echo x > /tmp/" + name + " && echo written");
  EXPECT_EQ(r.out, "written\n");
  EXPECT_FALSE(fs::exists(fs::temp_directory_path() / name));
  auto again = sh("cat /tmp/" + name + " 2>&1");
  EXPECT_NE(again.out.find("No such file"), std::string::npos) << again.out;  // not carried over
}

TEST_F(escape_write, extra_write_paths_are_writable_and_read_paths_are_not) {
  fs::create_directories(base.path() / "ro");
  fs::create_directories(base.path() / "rw");
  policy.read_paths = {base.path() / "ro"};
  policy.write_paths = {base.path() / "rw"};
  auto r = sh("echo a > " + (base.path() / "rw/a").string() + " && echo b > " +
              (base.path() / "ro/b").string());
  EXPECT_EQ(read_file(base.path() / "rw/a"), "a\n");
  EXPECT_FALSE(fs::exists(base.path() / "ro/b"));
  expect_outside_unchanged();
}

}  // namespace
