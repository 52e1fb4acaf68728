// tooluse __complete WORD... : the words that complete the last WORD of a command line, one a
// line. The scripts of `tooluse completion bash|zsh|fish` call it for everything that is not a
// flag, so the values that change with the user's setup come from the real registry and store:
// tool names (with the --shell, --network, --mcp ... flags already typed), run ids of the
// --store (or TOOLUSE_STORE), the calls a run waits on, and the values a flag accepts.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "cli.hpp"
#include "durable.hpp"
#include "tooluse/textcall/text_format.hpp"

namespace tooluse::cli {
namespace {

struct completion_spec {
  std::vector<std::string> values;
  std::vector<value_source> sources;
};

std::map<const CLI::Option*, completion_spec>& specs() {
  static std::map<const CLI::Option*, completion_spec> m;
  return m;
}

// The values a CLI11 IsMember check accepts, read from the option's type name ("TEXT:{a,b}").
std::vector<std::string> member_values(const CLI::Option& opt) {
  std::string type = opt.get_type_name();
  auto open = type.find('{'), close = type.rfind('}');
  std::vector<std::string> out;
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string list = type.substr(open + 1, close - open - 1);
  for (size_t at = 0; at <= list.size();) {
    auto comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    if (comma > at) out.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

bool hidden(const CLI::Option& o) { return o.get_group().empty() && !o.get_positional(); }

// find_option looks up "--name" or "-n" in `app` and the commands above it.
const CLI::Option* find_option(const CLI::App* app, const std::string& name) {
  for (; app; app = app->get_parent())
    if (const auto* o = app->get_option_no_throw(name); o && !o->get_positional()) return o;
  return nullptr;
}

std::string key_of(const CLI::Option& o) {
  return o.get_lnames().empty() ? o.get_name() : "--" + o.get_lnames().front();
}

// What the words typed so far say: the command, the flags given, the positionals filled.
struct line_state {
  const CLI::App* app = nullptr;
  std::map<std::string, std::string> given;  ///< "--store" -> its value; flags -> ""
  std::vector<std::string> positionals;
  const CLI::Option* pending = nullptr;  ///< an option whose value is the word completed
};

line_state read_line(const CLI::App& root, const std::vector<std::string>& words) {
  line_state s{.app = &root};
  bool only_positionals = false;
  for (const auto& w : words) {
    if (s.pending) {
      s.given[key_of(*s.pending)] = w;
      s.pending = nullptr;
      continue;
    }
    if (!only_positionals && w == "--") {
      only_positionals = true;
      continue;
    }
    if (!only_positionals && w.size() > 1 && w[0] == '-') {
      auto eq = w.find('=');
      const auto* o = find_option(s.app, w.substr(0, eq));
      if (!o) continue;
      if (eq != std::string::npos)
        s.given[key_of(*o)] = w.substr(eq + 1);
      else if (o->get_items_expected_max() > 0)
        s.pending = o;
      else
        s.given[key_of(*o)] = "";
      continue;
    }
    if (s.positionals.empty()) {
      try {
        const auto* sub = s.app->get_subcommand(w);
        if (sub && !sub->get_name().empty()) {
          s.app = sub;
          continue;
        }
      } catch (const CLI::OptionNotFound&) {
      }
    }
    s.positionals.push_back(w);
  }
  return s;
}

// positional_at returns the positional option that takes the n-th positional word.
const CLI::Option* positional_at(const CLI::App& app, size_t n) {
  size_t first = 0;
  for (const auto* o : app.get_options()) {
    if (!o->get_positional()) continue;
    const size_t takes = static_cast<size_t>(std::max(o->get_items_expected_max(), 1));
    if (n < first + takes || takes >= 1000) return o;  // a vector takes every word after

    first += takes;
  }
  return nullptr;
}

std::string given(const line_state& s, const std::string& key) {
  auto it = s.given.find(key);
  return it == s.given.end() ? "" : it->second;
}

std::vector<std::string> tool_names(const line_state& s) {
  registry_flags f;
  if (s.given.count("--root")) f.root = given(s, "--root");
  f.network = s.given.count("--network") > 0;
  f.shell = s.given.count("--shell") > 0;
  f.python = s.given.count("--python") > 0;
  f.tools = given(s, "--tools");
  f.mcp = given(s, "--mcp");
  auto reg = make_registry(f);
  return reg ? (*reg)->names() : std::vector<std::string>{};
}

// open_existing opens the store the line names, never creating one.
std::unique_ptr<store::run_store> open_existing(const line_state& s) {
  std::string location = store_location(given(s, "--store"));
  if (location.empty()) return nullptr;
  if (!store::is_postgres(location) && !std::filesystem::is_regular_file(location)) return nullptr;
  auto st = store::open_store(location);
  return st ? std::move(*st) : nullptr;
}

std::vector<std::string> run_ids(const line_state& s) {
  std::vector<std::string> out;
  if (auto st = open_existing(s))
    if (auto runs = st->runs(100))
      for (const auto& r : *runs) out.push_back(r.id);
  return out;
}

// waiting_calls are the calls of the run named before (runs approve RUN CALL) that wait.
std::vector<std::string> waiting_calls(const line_state& s) {
  std::vector<std::string> out;
  if (s.positionals.empty()) return out;
  auto st = open_existing(s);
  if (!st) return out;
  auto steps = st->steps(s.positionals.front());
  if (!steps) return out;
  std::set<std::string> done;
  for (auto it = steps->rbegin(); it != steps->rend(); ++it) {
    std::string id = it->data.value("call", json::object()).value("id", "");
    if (it->kind == "tool_finished" || it->kind == "tool_started") done.insert(id);
    if (it->kind == "approval_waiting" && !done.count(id) &&
        std::find(out.begin(), out.end(), id) == out.end())
      out.push_back(id);
  }
  return out;
}

std::vector<std::string> values_of(const CLI::Option& opt, const line_state& s) {
  std::vector<std::string> out = member_values(opt);
  auto it = specs().find(&opt);
  if (it == specs().end()) return out;
  out.insert(out.end(), it->second.values.begin(), it->second.values.end());
  for (auto source : it->second.sources) {
    auto more = source == value_source::tool_names ? tool_names(s)
                : source == value_source::run_ids  ? run_ids(s)
                                                   : waiting_calls(s);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

}  // namespace

void complete_with(CLI::Option* opt, std::vector<std::string> values) {
  auto& v = specs()[opt].values;
  v.insert(v.end(), values.begin(), values.end());
}

void complete_with(CLI::Option* opt, value_source source) { specs()[opt].sources.push_back(source); }

std::vector<std::string> text_format_names() {
  std::vector<std::string> out;
  for (int f = 0; f <= static_cast<int>(textcall::format::auto_detect); ++f)
    out.emplace_back(textcall::to_string(static_cast<textcall::format>(f)));
  return out;
}

int complete_line(const CLI::App& root, std::vector<std::string> words) {
  const std::string cur = words.empty() ? "" : words.back();
  if (!words.empty()) words.pop_back();
  line_state s = read_line(root, words);
  std::vector<std::string> candidates;
  if (s.pending) {
    candidates = values_of(*s.pending, s);
  } else if (cur.size() > 0 && cur[0] == '-') {
    for (const auto* o : s.app->get_options()) {
      if (o->get_positional() || hidden(*o)) continue;
      for (const auto& l : o->get_lnames()) candidates.push_back("--" + l);
    }
  } else {
    if (s.positionals.empty())
      for (const auto* sub : s.app->get_subcommands([](const CLI::App* a) {
             return !a->get_name().empty() && !a->get_group().empty();
           }))
        candidates.push_back(sub->get_name());
    if (const auto* p = positional_at(*s.app, s.positionals.size())) {
      auto more = values_of(*p, s);
      candidates.insert(candidates.end(), more.begin(), more.end());
    }
  }
  std::set<std::string> seen;
  for (const auto& c : candidates)
    if (c.rfind(cur, 0) == 0 && seen.insert(c).second) std::cout << c << "\n";
  return exit_status::ok;
}

}  // namespace tooluse::cli
