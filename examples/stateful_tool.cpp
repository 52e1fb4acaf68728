// A stateful tool: an index built once (the expensive part), then called many times.
#include <iostream>
#include <memory>
#include <tooluse/describe.hpp>
#include <tooluse/tools/typed.hpp>
#include <tooluse/tooluse.hpp>
#include <vector>

struct search_args {
  std::string query;
  int top_k = 2;
};
TOOLUSE_DESCRIBE(search_args, (query, "Words to look for", tooluse::min_length(1)),
                 (top_k, "How many documents to return", tooluse::minimum(1)))

class doc_search {
 public:
  explicit doc_search(std::vector<std::string> docs) : docs_(std::move(docs)) {
    std::cout << "index built: " << docs_.size() << " documents\n";
  }
  // Non-const: add_tool serializes calls with a mutex, so the counter needs no locking.
  std::string search(const search_args& in) {
    ++calls_;
    std::string hits;
    int n = 0;
    for (const auto& d : docs_)
      if (d.find(in.query) != std::string::npos && n++ < in.top_k) hits += "- " + d + "\n";
    return hits.empty() ? "no match" : hits + "(call " + std::to_string(calls_) + ")";
  }

 private:
  std::vector<std::string> docs_;
  int calls_ = 0;
};

int main() {
  tooluse::tool_registry registry;
  auto index = std::make_shared<doc_search>(std::vector<std::string>{
      "tools are described by JSON Schema", "agents call tools in a loop", "MCP serves tools"});
  tooluse::add_tool(registry, {.name = "doc_search", .description = "Search the documentation"},
                    index, &doc_search::search);

  tooluse::call_context ctx;
  for (const char* args : {R"({"query":"tools"})", R"({"query":"loop","top_k":1})"}) {
    auto r = registry.call(tooluse::tool_call::from_text("1", "doc_search", args), ctx);
    std::cout << r.all_text() << "\n";
  }
}
