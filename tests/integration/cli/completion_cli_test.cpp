// `tooluse completion bash|zsh|fish` loaded into the real shells (Debian's bash, zsh, fish; a
// missing shell fails under CI=true) completing subcommands and flags, and `tooluse man`
// generated from the same definitions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "support/cli_process.hpp"
#include "tooluse/json.hpp"

namespace tooluse::testing {
namespace {

class completion_cli : public ::testing::Test {
 protected:
  temp_dir dir;

  // script writes the completion script for `shell` and returns its path; skips (or fails under
  // CI=true) when the shell is not installed.
  std::string script(const std::string& shell) {
    auto r = run_tooluse({"completion", shell}, {}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto path = dir.path() / ("tooluse." + shell);
    std::ofstream(path) << r.out;
    return path.string();
  }
  bool have(const std::string& shell) {
    return std::filesystem::exists("/usr/bin/" + shell) || std::filesystem::exists("/bin/" + shell);
  }
  std::string sh(const std::string& command) {
    int status = 0;
    auto out = run_shell(
        "cd '" + dir.path().string() + "' && HOME='" + dir.path().string() + "' " + command,
        status);
    EXPECT_EQ(status, 0) << command << "\n" << out;
    return out;
  }
};

bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

#define REQUIRE_SHELL(name)                                                                   \
  do {                                                                                        \
    if (!have(name)) {                                                                        \
      if (under_ci()) FAIL() << name << " is not installed (apt-get install " << name << ")"; \
      GTEST_SKIP() << name << " is not installed";                                            \
    }                                                                                         \
  } while (0)

TEST_F(completion_cli, bash_completes_subcommands_and_flags) {
  REQUIRE_SHELL("bash");
  auto f = script("bash");
  auto complete = [&](const std::string& words, int cword) {
    return sh("bash -c 'source " + f + "; COMP_WORDS=(" + words +
              "); COMP_CWORD=" + std::to_string(cword) + "; _tooluse; echo \"${COMPREPLY[*]}\"'");
  };
  EXPECT_EQ(complete("tooluse to", 1), "tools\n");
  EXPECT_EQ(complete("tooluse tools ca", 2), "call\n");
  auto flags = complete("tooluse run --max-t", 2);
  EXPECT_NE(flags.find("--max-turns"), std::string::npos) << flags;
  EXPECT_NE(flags.find("--max-tokens"), std::string::npos) << flags;
  EXPECT_EQ(complete("tooluse mcp call --ti", 3), "--timeout\n");
  EXPECT_NE(sh("bash -c 'source " + f + "; complete -p tooluse'").find("-F _tooluse"),
            std::string::npos);
}

TEST_F(completion_cli, zsh_completes_subcommands_and_flags) {
  REQUIRE_SHELL("zsh");
  auto f = script("zsh");
  auto complete = [&](const std::string& words, int current) {
    return sh("zsh -f -c 'autoload -Uz compinit && compinit -u -D && source " + f +
              " && print -r -- $_comps[tooluse] && words=(" + words +
              ") && CURRENT=" + std::to_string(current) + " && _tooluse_candidates'");
  };
  EXPECT_EQ(complete("tooluse to", 2), "_tooluse\ntools\n");
  EXPECT_EQ(complete("tooluse tools ca", 3), "_tooluse\ncall\n");
  auto flags = complete("tooluse run --max-t", 3);
  EXPECT_NE(flags.find("--max-turns"), std::string::npos) << flags;
  EXPECT_NE(flags.find("--max-tokens"), std::string::npos) << flags;
}

TEST_F(completion_cli, fish_completes_subcommands_and_flags) {
  REQUIRE_SHELL("fish");
  auto f = script("fish");
  auto complete = [&](const std::string& line) {
    return sh("fish --no-config -c 'source " + f + "; complete -C \"" + line + "\"'");
  };
  EXPECT_EQ(complete("tooluse to"), "tools\n");
  EXPECT_EQ(complete("tooluse tools ca"), "call\n");
  auto flags = complete("tooluse run --max-t");
  EXPECT_NE(flags.find("--max-turns"), std::string::npos) << flags;
  EXPECT_NE(flags.find("--max-tokens"), std::string::npos) << flags;
}

TEST_F(completion_cli, man_page_documents_every_command_and_flag) {
  auto r = run_tooluse({"man"}, {}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind(".TH TOOLUSE 1", 0), 0u);
  for (const char* s :
       {".SS \"tooluse run\"", ".SS \"tooluse tools call\"", ".SS \"tooluse trace serve\"",
        ".SS \"tooluse completion\"", "\\-\\-max\\-turns", "OPENAI_BASE_URL"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  if (std::filesystem::exists("/usr/bin/man")) {
    std::ofstream(dir.path() / "tooluse.1") << r.out;
    auto text = sh("LC_ALL=C MANWIDTH=100 man -l tooluse.1 2>&1 | col -b");
    EXPECT_NE(text.find("--max-turns"), std::string::npos) << text.substr(0, 2000);
  }
}

}  // namespace
}  // namespace tooluse::testing
