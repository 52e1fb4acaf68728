// tooluse chat: an interactive session with history, /tools, /reset, /exit, streamed answers,
// a spinner while tools run, approval prompts for dangerous tools. On a terminal, lines are read
// with GNU readline (editing, the session's history on the arrow keys, kept in
// $XDG_STATE_HOME/tooluse/chat_history or ~/.local/state/tooluse/chat_history); otherwise
// (stdin piped from a file or a program) plain std::getline, one line per message.
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <stop_token>
#include <thread>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "agent_setup.hpp"
#include "conventions.hpp"
#include "tooluse/exec/executor.hpp"
#include "tooluse/telemetry/trace.hpp"

#ifdef TOOLUSE_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace tooluse::cli {
namespace {

struct chat_options {
  registry_flags tools;
  model_flags model;
  bool no_history_file = false;
  std::chrono::milliseconds timeout{0};  ///< deadline for each answer (0: none)
};

// answer_deadline stops one answer (its model requests and tool calls) when --timeout passes.
class answer_deadline {
 public:
  explicit answer_deadline(std::chrono::milliseconds timeout) {
    if (timeout.count() <= 0) return;
    timer_ = std::jthread([this, timeout](std::stop_token ended) {
      std::mutex m;
      std::condition_variable_any cv;
      std::unique_lock lock(m);
      cv.wait_for(lock, ended, timeout, [] { return false; });
      if (!ended.stop_requested()) source_.request_stop();
    });
  }
  answer_deadline(const answer_deadline&) = delete;  // the timer holds `this`
  answer_deadline& operator=(const answer_deadline&) = delete;
  std::stop_token token() const { return source_.get_token(); }
  bool passed() const { return source_.stop_requested(); }

 private:
  std::stop_source source_;
  std::jthread timer_;  // last: joined before the source it uses goes
};

std::filesystem::path history_path() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state)
    return std::filesystem::path(state) / "tooluse" / "chat_history";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".local" / "state" / "tooluse" / "chat_history";
  return {};
}

// line_reader reads the user's lines: readline on a terminal, std::getline otherwise.
class line_reader {
 public:
  line_reader(bool terminal, bool keep_history) {
#ifdef TOOLUSE_HAVE_READLINE
    readline_ = terminal;
    if (!readline_) return;
    rl_readline_name = "tooluse";  // for $if tooluse in ~/.inputrc
    rl_instream = stdin;
    rl_outstream = stderr;  // prompt and echo on stderr: stdout carries only answers
    using_history();
    stifle_history(1000);
    if (keep_history) file_ = history_path();
    if (!file_.empty()) read_history(file_.c_str());
#else
    (void)keep_history;
    terminal_ = terminal;
#endif
  }

  ~line_reader() {
#ifdef TOOLUSE_HAVE_READLINE
    if (file_.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    if (write_history(file_.c_str()) == 0) history_truncate_file(file_.c_str(), 1000);
#endif
  }
  line_reader(const line_reader&) = delete;
  line_reader& operator=(const line_reader&) = delete;

  /// read returns the next line, or nothing at the end of input.
  std::optional<std::string> read(const char* prompt) {
#ifdef TOOLUSE_HAVE_READLINE
    if (readline_) {
      char* raw = ::readline(prompt);
      if (!raw) return std::nullopt;
      std::string line(raw);
      std::free(raw);
      const HIST_ENTRY* last =
          history_length > 0 ? history_get(history_base + history_length - 1) : nullptr;
      if (!line.empty() && !(last && line == last->line)) add_history(line.c_str());
      return line;
    }
#else
    if (terminal_) std::cerr << prompt << std::flush;
#endif
    std::string line;
    if (!std::getline(std::cin, line)) return std::nullopt;
    return line;
  }

 private:
#ifdef TOOLUSE_HAVE_READLINE
  bool readline_ = false;
  std::filesystem::path file_;
#else
  bool terminal_ = false;
#endif
};

const char* const chat_help =
    "Commands:\n"
    "  /help    this list\n"
    "  /tools   the tools the model can call\n"
    "  /cost    requests, tokens and cost of the session so far\n"
    "  /reset   forget the conversation so far\n"
    "  /exit    quit (also /quit, or end of input: Ctrl-D)\n"
    "Anything else is sent to the model.\n";

int chat(chat_options& o) {
  auto resolved = resolve_model(o.model, o.tools);
  if (!resolved) return usage_error(resolved.error().message);
  auto root = telemetry::start_span("tooluse chat");
  auto registry = make_registry(o.tools);
  if (!registry) return usage_error(registry.error().message);
  if (auto ok = check_tool_choice(o.model, **registry); !ok) return usage_error(ok.error().message);
  note_strict_drops(o.model, **registry);
  auto spinner = make_stderr_spinner();
  exec::executor executor(**registry, {.max_threads = 8,
                                       .approval = approval_prompt(o.model.yes, spinner.get()),
                                       .on_event = progress_lines(spinner.get())});
  agent_options options = resolved->options;
  options.executor = &executor;
  options.on_event = [&spinner](const agent_event& e) {
    switch (e.what) {
      case agent_event::kind::model_request:
        spinner->waiting(true);
        break;
      case agent_event::kind::model_response:
      case agent_event::kind::answer:
      case agent_event::kind::error:
        spinner->waiting(false);
        break;
      case agent_event::kind::text_delta:
        spinner->waiting(false);
        std::cout << e.text << std::flush;
        break;
      case agent_event::kind::tool_call:
        spinner->waiting(false);
        spinner->print(tool_call_line(e));
        spinner->begin(e.call->name);
        break;
      case agent_event::kind::tool_result:
        spinner->end(e.call->name);
        spinner->print(tool_result_line(e));
        break;
      default:
        break;
    }
  };
  agent a(*resolved->provider, **registry, options);
  const bool priced = resolved->price.has_value();
  llm::usage session;  // every answer of the session, for /cost
  bool tty = ::isatty(STDIN_FILENO);
  if (tty) std::cerr << "tooluse chat: /help for commands, /exit quits\n";
  line_reader reader(tty, !o.no_history_file);
  while (auto line = reader.read("> ")) {
    if (line->empty()) continue;
    if (*line == "/exit" || *line == "/quit") break;
    if (*line == "/help" || *line == "/?") {
      std::cout << chat_help << std::flush;
      continue;
    }
    if (*line == "/reset") {
      a.reset();
      std::cerr << "(conversation cleared)\n";
      continue;
    }
    if (*line == "/cost") {
      std::cout << usage_summary(session, priced) << std::flush;
      continue;
    }
    if (*line == "/tools") {
      for (const auto& e : (*registry)->list())
        std::cout << e->definition.name << (e->definition.dangerous ? " [dangerous]" : "") << "\n";
      std::cout << std::flush;
      continue;
    }
    if ((*line)[0] == '/' && line->size() > 1 &&
        line->find_first_not_of("abcdefghijklmnopqrstuvwxyz?", 1) == std::string::npos) {
      std::vector<std::string> commands = {"/help", "/tools", "/cost", "/reset", "/exit", "/quit"};
      auto best = closest(*line, commands);
      std::cerr << "unknown command " << *line
                << (best.empty() ? "" : "; did you mean " + best + "?") << " (/help lists them)\n";
      continue;
    }
    answer_deadline deadline(o.timeout);
    auto r = a.run(*line, deadline.token());
    session += a.last_run().usage;
    if (!r) {
      std::cerr << "\nerror: "
                << (deadline.passed()
                        ? "the answer was stopped at its --timeout of " + format_duration(o.timeout)
                        : r.error().message)
                << "\n";
      continue;
    }
    if (!options.stream) std::cout << r->answer;
    std::cout << "\n" << std::flush;
  }
  return 0;
}

void setup_chat(CLI::App& app, app_state& state) {
  auto o = std::make_shared<chat_options>();
  auto* cmd = app.add_subcommand("chat", "Talk with a model that can call tools (interactive)");
  add_registry_flags(*cmd, o->tools);
  add_model_flags(*cmd, o->model);
  add_duration_option(*cmd, "--timeout", o->timeout,
                      "Deadline for each answer (90s, 5m): when it passes, the model request and "
                      "tool calls in flight are cancelled and the session goes on");
  cmd->add_flag("--no-history-file", o->no_history_file,
                "Keep the line history for this session only (do not read or write "
                "~/.local/state/tooluse/chat_history)");
  cmd->footer(
      "Commands: /help, /tools, /cost, /reset, /exit. On a terminal, lines are edited with "
      "readline (arrow keys recall earlier lines);\npiped stdin is read line by line. EOF ends "
      "the session.");
  cmd->callback([o, &state] { state.action = [o] { return chat(*o); }; });
}

const command_registrar chat_registrar(31, &setup_chat);

}  // namespace
}  // namespace tooluse::cli
