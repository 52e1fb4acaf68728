// tooluse eval run: sends BFCL's questions to a model (any provider, native tools or a raw-text
// format) in parallel and writes the answers as BFCL result files, resumably, so that
// `tooluse eval score` (or BFCL's own checker) scores them (docs/eval.md).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "agent_setup.hpp"
#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/eval/score.hpp"
#include "tooluse/json.hpp"
#include "tooluse/schema/import.hpp"

namespace tooluse::cli {
void add_eval_run(CLI::App& eval, app_state& state);

namespace {
namespace fs = std::filesystem;

struct run_options {
  std::string cases;
  model_flags model;
  registry_flags registry;  // resolve_model reads the config's tool settings through it
  std::string data_dir;
  std::string out_dir;
  std::vector<std::string> categories;
  std::size_t limit = 0;
  int concurrency = 4;
  double requests_per_minute = 0;  ///< 0: no limit
};

/// One category of the data: its questions and the result file that answers them.
struct category_file {
  std::string name;
  std::vector<json> questions;
  fs::path result_path;
  std::map<std::string, json> answered;  // id -> result line
};

bool scored_category(const std::string& c) {
  for (const char* skip : {"executable", "rest", "chatable", "sql", "multi_turn", "memory", "web_search", "format_sensitivity"})
    if (c.find(skip) != std::string::npos) return false;
  return true;
}

/// Reads a result file; a last line cut by a crash (kill -9 mid-write) is dropped.
std::map<std::string, json> read_answers(const fs::path& p) {
  std::map<std::string, json> out;
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line)) {
    auto j = parse_json(line);
    if (j && j->is_object() && j->contains("id") && (*j)["id"].is_string()) out[(*j)["id"].get<std::string>()] = *j;
  }
  return out;
}

/// The tools of one question, names made API-safe (dots become underscores, as BFCL's own
/// handlers send them) with the way back to BFCL's names.
result<std::vector<tooluse::tool>> tools_of(const json& functions, std::map<std::string, std::string>& back) {
  std::vector<tooluse::tool> out;
  if (functions.is_object() && functions.contains("json_schema_tools")) {  // own cases: already JSON Schema
    for (const auto& f : functions["json_schema_tools"]) {
      tooluse::tool t;
      std::string name = f.value("name", "");
      t.name = name;
      for (char& c : t.name)
        if (c == '.') c = '_';
      back[t.name] = name;
      t.description = f.value("description", "");
      t.input_schema = f.value("inputSchema", json::object());
      out.push_back(std::move(t));
    }
    return out;
  }
  json list = functions.is_array() ? functions : json::array({functions});
  for (const auto& f : list) {
    if (!f.is_object() || !f.contains("name")) return fail(errc::parse_error, "a function without a name");
    tooluse::tool t;
    std::string name = f["name"].get<std::string>();
    t.name = name;
    for (char& c : t.name)
      if (c == '.') c = '_';
    back[t.name] = name;
    t.description = f.value("description", "");
    auto schema = schema::bfcl_to_json_schema(f.value("parameters", json::object()));
    if (!schema) return fail(schema.error());
    t.input_schema = *schema;
    out.push_back(std::move(t));
  }
  return out;
}

/// The question's messages: a string (2024 data) or BFCL v3/v4's turns of {role, content}.
std::vector<llm::message> messages_of(const json& question) {
  std::vector<llm::message> out;
  if (question.is_string()) {
    out.push_back(llm::message::user(question.get<std::string>()));
    return out;
  }
  json turns = question.is_array() && !question.empty() && question[0].is_array() ? question[0] : question;
  for (const auto& m : turns) {
    if (!m.is_object()) continue;
    std::string role = m.value("role", "user"), content = m.value("content", "");
    out.push_back(role == "system" ? llm::message::system(content)
                  : role == "assistant" ? llm::message::assistant(content)
                                        : llm::message::user(content));
  }
  return out;
}

void write_sorted(category_file& c) {
  fs::path tmp = c.result_path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    for (const auto& q : c.questions) {
      auto it = c.answered.find(q.value("id", ""));
      if (it != c.answered.end()) out << dump_json(it->second) << "\n";
    }
  }
  fs::rename(tmp, c.result_path);
}

int eval_run(run_options& o) {
  if (o.concurrency < 1) return usage_error("--concurrency must be at least 1");
  auto rm = resolve_model(o.model, o.registry);
  if (!rm) return usage_error(rm.error().message);
  if (o.model.max_cost && !rm->price)
    return usage_error("--max-cost needs the price of \"" + o.model.model +
                       "\", which the price catalog does not have; add it with --prices FILE (docs/providers.md)");
  std::error_code ec;
  if (o.cases.empty() == o.data_dir.empty())
    return usage_error("eval run needs --data (BFCL's data folder) or --cases (your own cases file), one of them");
  if (!o.cases.empty()) {
  } else if (!fs::is_directory(o.data_dir, ec)) {
    return usage_error("the data folder " + o.data_dir + " does not exist or is not a folder; give BFCL's data/ folder");
  }

  std::string folder = o.model.model;
  for (char& c : folder)
    if (c == '/') c = '_';
  fs::path out_dir = fs::path(o.out_dir) / folder;
  fs::create_directories(out_dir, ec);
  if (ec) return usage_error("cannot create " + out_dir.string() + ": " + ec.message());

  std::vector<category_file> cats;
  std::vector<fs::path> files;
  std::unique_ptr<tool_registry> registry;
  if (!o.cases.empty()) {
    auto reg = make_registry(o.registry);
    if (!reg) return usage_error(reg.error().message);
    registry = std::move(*reg);
    std::vector<json> tools;
    for (const auto& t : registry->list())
      tools.push_back({{"name", t->definition.name}, {"description", t->definition.description},
                       {"inputSchema", t->definition.input_schema}});
    auto cases = eval::load_cases(o.cases, tools);
    if (!cases) return usage_error(cases.error().message);
    category_file c;
    c.name = "cases";
    for (const auto& tc : *cases)
      c.questions.push_back({{"id", tc.id}, {"question", tc.question}, {"function", {{"json_schema_tools", tc.tools}}}});
    c.result_path = out_dir / eval::cases_result_name(o.cases);
    c.answered = read_answers(c.result_path);
    cats.push_back(std::move(c));
  }
  for (const auto& e : fs::directory_iterator(o.cases.empty() ? fs::path(o.data_dir) : fs::path(), ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    std::string file = p.filename().string();
    std::string name;
    if (auto at = file.find("_test_"); at != std::string::npos) name = file.substr(at + 6);
    else if (file.rfind("BFCL_v", 0) == 0) name = file.substr(file.find('_', 6) + 1);
    else continue;
    name = name.substr(0, name.size() - 5);
    if (!scored_category(name)) continue;
    if (!o.categories.empty() && std::find(o.categories.begin(), o.categories.end(), name) == o.categories.end()) continue;
    category_file c;
    c.name = name;
    std::ifstream in(p);
    std::string line;
    while (std::getline(in, line)) {
      auto j = parse_json(line);
      if (!j) return usage_error(p.string() + " is not BFCL data (one JSON object a line): " + j.error().message);
      c.questions.push_back(std::move(*j));
    }
    c.result_path = out_dir / (file.substr(0, file.size() - 5) + "_result.json");
    c.answered = read_answers(c.result_path);
    cats.push_back(std::move(c));
  }
  if (cats.empty()) return usage_error("no question files in " + o.data_dir + (o.categories.empty() ? "" : " for --categories"));

  struct job {
    category_file* cat;
    const json* question;
  };
  std::vector<job> jobs;
  std::size_t already = 0;
  for (auto& c : cats) {
    std::size_t taken = 0;
    for (const auto& q : c.questions) {
      if (o.limit && taken >= o.limit) break;
      ++taken;
      if (c.answered.count(q.value("id", ""))) {
        ++already;
        continue;
      }
      jobs.push_back({&c, &q});
    }
  }

  std::mutex mu;
  std::atomic<std::size_t> next{0}, done{0}, failed{0};
  std::atomic<bool> stop{false};
  double spent = 0;
  std::string first_error;
  std::chrono::steady_clock::time_point next_slot{};
  const bool progress = stderr_is_terminal();
  auto show = [&] {
    if (!progress) return;
    std::size_t d = done, total = jobs.size();
    int width = 30, filled = total ? static_cast<int>(width * d / total) : width;
    std::fprintf(stderr, "\r[%s%s] %zu/%zu answered  $%.4f", std::string(filled, '#').c_str(),
                 std::string(width - filled, ' ').c_str(), d, total, spent);
    std::fflush(stderr);
  };
  auto worker = [&] {
    while (!stop) {
      std::size_t i = next++;
      if (i >= jobs.size()) return;
      const job& j = jobs[i];
      {
        std::lock_guard lock(mu);
        // Stop before a question whose cost, estimated as the average so far, would pass the
        // budget (questions already in flight may still add to it).
        double estimate = done ? spent / static_cast<double>(done) : 0.0;
        if (o.model.max_cost && (spent >= *o.model.max_cost || spent + estimate > *o.model.max_cost)) {
          stop = true;
          return;
        }
      }
      std::map<std::string, std::string> back;
      auto tools = tools_of((*j.question)["function"], back);
      if (!tools) {
        std::lock_guard lock(mu);
        ++failed;
        if (first_error.empty()) first_error = j.question->value("id", "") + ": " + tools.error().message;
        continue;
      }
      if (o.requests_per_minute > 0) {
        // A shared schedule: each request takes the next slot, 60/N seconds after the last.
        std::chrono::steady_clock::time_point at;
        {
          std::lock_guard lock(mu);
          auto now = std::chrono::steady_clock::now();
          at = std::max(now, next_slot);
          next_slot = at + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(60.0 / o.requests_per_minute));
        }
        std::this_thread::sleep_until(at);
      }
      llm::chat_request req;
      if (!rm->options.system.empty()) req.messages.push_back(llm::message::system(rm->options.system));
      for (auto& m : messages_of((*j.question)["question"])) req.messages.push_back(std::move(m));
      req.tools = std::move(*tools);
      req.max_tokens = o.model.max_tokens;
      auto start = std::chrono::steady_clock::now();
      auto answer = rm->provider->complete(req);
      double latency = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard lock(mu);
      if (!answer) {
        ++failed;
        if (first_error.empty()) first_error = j.question->value("id", "") + ": " + answer.error().message;
        continue;
      }
      json result;
      if (answer->reply.tool_calls.empty()) {
        result = answer->reply.text();
      } else {
        result = json::array();
        for (const auto& call : answer->reply.tool_calls) {
          auto it = back.find(call.name);
          result.push_back({{it == back.end() ? call.name : it->second, call.raw_arguments.empty() ? "{}" : call.raw_arguments}});
        }
      }
      json line = {{"id", j.question->value("id", "")}, {"result", result},
                   {"input_token_count", answer->usage.input_tokens}, {"output_token_count", answer->usage.output_tokens},
                   {"latency", latency}};
      spent += answer->usage.cost;
      // One line, appended and flushed at once: a crash loses at most the calls in flight.
      std::ofstream(j.cat->result_path, std::ios::app) << dump_json(line) << "\n" << std::flush;
      j.cat->answered[line["id"].get<std::string>()] = line;
      ++done;
      show();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min<int>(o.concurrency, static_cast<int>(std::max<std::size_t>(jobs.size(), 1))); ++t)
    threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (progress) std::fprintf(stderr, "\n");
  for (auto& c : cats) write_sorted(c);

  std::size_t left = jobs.size() - done - failed;
  std::printf("answered %zu %s (%zu already there), %zu failed, cost $%.4f; results in %s\n", done.load(),
              done == 1 ? "question" : "questions", already, failed.load(), spent, out_dir.string().c_str());
  std::printf("score them: tooluse eval score %s %s --results %s --model %s --format native\n",
              o.cases.empty() ? "--data" : "--cases", (o.cases.empty() ? o.data_dir : o.cases).c_str(),
              out_dir.string().c_str(), folder.c_str());
  if (stop) {
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "stopped with $%.4f spent: the next question (about $%.4f, the average so far) would pass "
                  "--max-cost $%.4f; %zu %s not asked",
                  spent, done ? spent / static_cast<double>(done) : 0.0, *o.model.max_cost, left,
                  left == 1 ? "question" : "questions");
    return report_error(exit_status::failed, msg, "run the same command with a higher --max-cost to resume");
  }
  if (failed)
    return report_error(exit_status::failed,
                        std::to_string(failed.load()) + (failed == 1 ? " question" : " questions") +
                            " failed (first: " + first_error + ")",
                        "run the same command again to retry them");
  return 0;
}

}  // namespace

void add_eval_run(CLI::App& eval, app_state& state) {
  auto o = std::make_shared<run_options>();
  auto* run = eval.add_subcommand("run", "Ask a model BFCL's questions and write BFCL result files (resumable)");
  run->add_option("--data", o->data_dir, "BFCL's data/ folder (questions)");
  run->add_option("--cases", o->cases, "Your own cases (JSONL) over the tools the registry flags give, instead of --data");
  add_registry_flags(*run, o->registry);
  run->add_option("--out", o->out_dir, "Folder for the results; answers go to OUT/MODEL/*_result.json")->required();
  run->add_option("--categories", o->categories, "Only these categories (e.g. simple,relevance)")->delimiter(',');
  run->add_option("--limit", o->limit, "At most N questions of each category");
  run->add_option("--concurrency", o->concurrency, "Questions in flight at once (default 4)");
  run->add_option("--requests-per-minute", o->requests_per_minute,
                  "At most N requests a minute, spread evenly (the provider's rate limit)");
  add_model_flags(*run, o->model);
  run->footer("Questions already answered in OUT are skipped, so a stopped run resumes. Raw-text models: "
              "--tool-format FORMAT; their calls are recorded as native calls (score with --format native).");
  run->callback([o, &state] { state.action = [o] { return eval_run(*o); }; });
}

}  // namespace tooluse::cli
