// `tooluse completion bash|zsh|fish` loaded into the real shells (Debian's bash, zsh, fish; a
// missing shell fails under CI=true) completing subcommands and flags, and the values that
// change with the user's setup through the binary's `__complete` callback: tool names of the
// registry the typed flags give, run ids of the store, the calls a run waits on, the values a
// flag accepts. `tooluse man` is generated from the same definitions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "support/cli_process.hpp"
#include "support/fake_llm_server.hpp"
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
  // sh runs `command` with the binary first on PATH, as a user who installed it has it.
  std::string sh(const std::string& command) {
    int status = 0;
    const std::string bin = std::filesystem::path(TOOLUSE_CLI_PATH).parent_path().string();
    auto out = run_shell("cd '" + dir.path().string() + "' && HOME='" + dir.path().string() +
                             "' PATH='" + bin + "':\"$PATH\" " + command,
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

// A store with two runs: run-done answered, run-wait waits for an approval of call_w.
class completion_store : public completion_cli {
 protected:
  std::filesystem::path store;
  void SetUp() override {
    fake_llm_server server;
    store = dir.path() / "runs.db";
    auto run = [&](const std::string& id, std::vector<std::string> extra) {
      std::vector<std::string> args = {"run",       "What is 6*7?",      "--base-url",
                                        server.url("/v1"), "--model",  "m",
                                        "--tools",  "calculator",        "--no-stream",
                                        "--store",  store.string(),      "--run-id",
                                        id};
      args.insert(args.end(), extra.begin(), extra.end());
      return run_tooluse(args, {{"OPENAI_API_KEY", "sk-test"}}, dir.path());
    };
    server.push(openai_response({.text = "42"}, false));
    ASSERT_EQ(run("run-done", {}).exit_code, 0);
    server.push(
        openai_response({.calls = {{"call_w", "calculator", R"({"expression":"6*7"})"}}}, false));
    ASSERT_EQ(run("run-wait", {"--confirm", "calculator"}).exit_code, 3);
  }
  std::string complete(std::vector<std::string> words,
                       const std::map<std::string, std::string>& env = {}) {
    words.insert(words.begin(), "__complete");
    auto r = run_tooluse(words, env, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.out;
  }
};

TEST_F(completion_store, binary_completes_tool_names_from_the_registry_the_flags_give) {
  EXPECT_EQ(complete({"tools", "call", "calc"}), "calculator\n");
  EXPECT_EQ(complete({"tools", "call", "sh"}), "") << "shell is off without --shell";
  EXPECT_EQ(complete({"tools", "call", "--shell", "sh"}), "shell\n");
  EXPECT_EQ(complete({"tools", "call", "--tools", "calculator,datetime", ""}),
            "calculator\ndatetime\n");
  // Only the first positional is a tool name.
  EXPECT_EQ(complete({"tools", "call", "calculator", "calc"}), "");
  EXPECT_EQ(complete({"run", "x", "--tool-choice", "re"}), "required\n");
  EXPECT_NE(complete({"run", "x", "--tool-choice", ""}).find("calculator\n"), std::string::npos);
}

TEST_F(completion_store, binary_completes_run_ids_and_waiting_calls_of_the_store) {
  for (const char* cmd : {"show", "resume", "approve", "deny"})
    EXPECT_EQ(complete({"runs", cmd, "--store", store.string(), "run-"}), "run-wait\nrun-done\n")
        << cmd;
  EXPECT_EQ(complete({"runs", "show", "run-d"}, {{"TOOLUSE_STORE", store.string()}}),
            "run-done\n");
  EXPECT_EQ(complete({"trace", "serve", "--store", store.string(), "run-w"}), "run-wait\n");
  EXPECT_EQ(complete({"runs", "approve", "--store", store.string(), "run-wait", ""}), "call_w\n");
  EXPECT_EQ(complete({"runs", "approve", "--store", store.string(), "run-done", ""}), "");
  // A store that is not there is not created by completing.
  auto typo = dir.path() / "runz.db";
  EXPECT_EQ(complete({"runs", "show", "--store", typo.string(), ""}), "");
  EXPECT_FALSE(std::filesystem::exists(typo));
}

TEST_F(completion_store, binary_completes_flag_values_and_subcommands) {
  auto providers = complete({"run", "x", "--provider", ""});
  for (const char* p : {"openai\n", "openai-responses\n", "anthropic\n", "gemini\n"})
    EXPECT_NE(providers.find(p), std::string::npos) << providers;
  EXPECT_EQ(complete({"chat", "--provider", "anth"}), "anthropic\n");
  EXPECT_EQ(complete({"run", "x", "--tool-format", "herm"}), "hermes\n");
  EXPECT_EQ(complete({"parse-calls", "--format", "qwen"}), "qwen3-coder\n");
  EXPECT_EQ(complete({"schema", "export", "--to", "openai"}), "openai\nopenai-strict\n");
  EXPECT_EQ(complete({"completion", "f"}), "fish\n");
  EXPECT_EQ(complete({"run", "x", "--tool-search", "n"}), "native\n");
  EXPECT_EQ(complete({"tools", "c"}), "call\n");
  EXPECT_EQ(complete({"r"}), "run\nruns\nrender-tools\n");
  // A flag whose value is a file or free text offers nothing: the shell completes files.
  EXPECT_EQ(complete({"run", "x", "--trace", ""}), "");
  EXPECT_EQ(complete({"__"}), "") << "the callback is not a command to offer";
}

TEST_F(completion_store, shells_complete_tool_names_run_ids_and_flag_values) {
  REQUIRE_SHELL("bash");
  REQUIRE_SHELL("zsh");
  REQUIRE_SHELL("fish");
  const std::string db = store.string();
  auto b = script("bash");
  auto bash = [&](const std::string& words, int cword) {
    return sh("bash -c 'source " + b + "; COMP_WORDS=(" + words +
              "); COMP_CWORD=" + std::to_string(cword) + "; _tooluse; echo \"${COMPREPLY[*]}\"'");
  };
  EXPECT_EQ(bash("tooluse tools call calc", 3), "calculator\n");
  EXPECT_EQ(bash("tooluse runs show --store " + db + " run-w", 5), "run-wait\n");
  EXPECT_EQ(bash("tooluse runs approve --store " + db + " run-wait c", 6), "call_w\n");
  EXPECT_EQ(bash("tooluse run x --provider anth", 4), "anthropic\n");
  auto z = script("zsh");
  auto zsh = [&](const std::string& words, int current) {
    return sh("zsh -f -c 'autoload -Uz compinit && compinit -u -D && source " + z +
              " && words=(" + words + ") && CURRENT=" + std::to_string(current) +
              " && _tooluse_candidates'");
  };
  EXPECT_EQ(zsh("tooluse tools call calc", 4), "calculator\n");
  EXPECT_EQ(zsh("tooluse runs show --store " + db + " run-w", 6), "run-wait\n");
  EXPECT_EQ(zsh("tooluse run x --tool-format herm", 5), "hermes\n");
  auto f = script("fish");
  auto fish = [&](const std::string& line) {
    return sh("fish --no-config -c 'source " + f + "; complete -C \"" + line + "\"'");
  };
  EXPECT_EQ(fish("tooluse tools call calc"), "calculator\n");
  EXPECT_EQ(fish("tooluse runs show --store " + db + " run-w"), "run-wait\n");
  EXPECT_EQ(fish("tooluse run x --provider anth"), "anthropic\n");
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
