// document_search: the stateful tool object over document_index (seed 000's DocumentSearchTool).
#include "tooluse/builtin/document_search.hpp"

#include <mutex>

#include "builtin/path_guard.hpp"
#include "builtin/tool_util.hpp"
#include "tooluse/tools/typed.hpp"

namespace tooluse::builtin {
namespace {
using namespace detail;

struct document_search_args {
  std::string action = "search";
  std::optional<std::string> query;
  std::optional<std::int64_t> limit;
  std::optional<std::string> id;
  std::optional<std::string> text;
  std::optional<std::string> title;
  std::optional<std::string> path;
};
TOOLUSE_DESCRIBE(
    document_search_args,
    (action, "What to do. Default \"search\"",
     tooluse::one_of({"search", "add_text", "add_file", "remove", "list"})),
    (query,
     "For search: plain words describing what you look for, e.g. \"database connection pool "
     "timeout\""),
    (limit, "For search: number of results. Default 5", tooluse::minimum(1), tooluse::maximum(50)),
    (id, "For add_text and remove: the document's id (add_file uses the file's absolute path)"),
    (text, "For add_text: the document's text"),
    (title, "For add_text: a title (weighs more in ranking). Default: the id"),
    (path, "For add_file: file or folder relative to the project root"))

// document_search_tool holds the index, opened at the first call; calls run concurrently.
class document_search_tool {
 public:
  explicit document_search_tool(document_search_options o)
      : options_(std::move(o)), guard_(options_.root) {
    if (options_.index_path.empty()) options_.index_path = default_index_path();
  }

  tool definition() const;

  tool_result call(const document_search_args& args) {
    auto index = open();
    if (!index) return error_result(index.error());
    const std::string& action = args.action;
    if (action == "search") return search(**index, args);
    if (action == "list") return list(**index, args);
    if (!options_.allow_changes)
      return tool_result::error("action \"" + action +
                                "\" is disabled: this index is read-only; use search or list");
    if (action == "add_text") return add_text(**index, args);
    if (action == "add_file") return add_file(**index, args);
    if (action == "remove") return remove(**index, args);
    return tool_result::error("unknown action \"" + action +
                              "\"; use search, add_text, add_file, remove or list");
  }

 private:
  // open builds the index once, at the first call (state built once, many calls).
  result<document_index*> open() {
    std::lock_guard lock(mutex_);
    if (!index_) {
      auto opened = document_index::open(options_.index_path);
      if (!opened) return fail(opened.error());
      index_ = std::move(*opened);
    }
    return index_.get();
  }

  tool_result search(document_index& index, const document_search_args& args) {
    std::string query = args.query.value_or("");
    auto limit = static_cast<std::size_t>(std::clamp<std::int64_t>(args.limit.value_or(5), 1, 50));
    auto hits = index.search(query, limit);
    if (!hits) return error_result(hits.error());
    json items = json::array();
    std::string text;
    int rank = 0;
    for (const auto& h : *hits) {
      items.push_back({{"id", h.id},
                       {"title", h.title},
                       {"source", h.source},
                       {"score", h.score},
                       {"snippet", h.snippet}});
      text += std::to_string(++rank) + ". " + h.title + " (" + h.id + ")\n   " + h.snippet + "\n";
    }
    if (hits->empty())
      text = "no documents match \"" + query + "\"; try other words, or add documents first\n";
    return text_and_data(std::move(text), {{"query", query}, {"results", items}});
  }

  tool_result list(document_index& index, const document_search_args& args) {
    auto docs = index.list(
        static_cast<std::size_t>(std::clamp<std::int64_t>(args.limit.value_or(100), 1, 1000)));
    auto total = index.size();
    if (!docs) return error_result(docs.error());
    json items = json::array();
    std::string text = std::to_string(total ? *total : docs->size()) + " documents\n";
    for (const auto& d : *docs) {
      items.push_back({{"id", d.id}, {"title", d.title}, {"bytes", d.bytes}});
      text += "- " + d.id + " (" + human_size(d.bytes) + ")\n";
    }
    return text_and_data(std::move(text), {{"total", total ? *total : 0}, {"documents", items}});
  }

  tool_result add_text(document_index& index, const document_search_args& args) {
    std::string id = args.id.value_or(""), text = args.text.value_or("");
    if (text.empty())
      return tool_result::error("add_text needs \"text\" (and an \"id\" to find it again)");
    auto s = index.add_text(id, text, args.title.value_or(id), "text");
    if (!s) return error_result(s.error());
    return text_and_data("added \"" + id + "\"", {{"added", {id}}});
  }

  tool_result add_file(document_index& index, const document_search_args& args) {
    auto resolved = guard_.resolve(args.path.value_or(""));
    if (!resolved) return error_result(resolved.error());
    auto ids = add_files(index, *resolved, 2000);
    if (!ids) return error_result(ids.error());
    return text_and_data("added " + std::to_string(ids->size()) + " file(s)", {{"added", *ids}});
  }

  tool_result remove(document_index& index, const document_search_args& args) {
    std::string id = args.id.value_or("");
    auto removed = index.remove(id);
    if (!removed) return error_result(removed.error());
    if (!*removed)
      return tool_result::error("no document with id \"" + id +
                                "\"; use action list to see the ids");
    return text_and_data("removed \"" + id + "\"", {{"removed", id}});
  }

  document_search_options options_;
  path_guard guard_;
  std::mutex mutex_;
  std::unique_ptr<document_index> index_;
};

tool document_search_tool::definition() const {
  return builtin_tool(
      "document_search", "Search indexed documents",
      "Full-text search over a persistent index of documents (notes, docs, source files), "
      "ranked by relevance (BM25) with a snippet showing the matching words in [brackets].\n"
      "Use it to find which documents talk about something before reading them; prefer it "
      "to file_search for questions in natural language over many documents. Actions: "
      "\"search\" (query, limit), \"add_text\" (id, text, title), \"add_file\" (path of a "
      "file or folder inside the project, indexed recursively), \"remove\" (id), \"list\". "
      "The index survives restarts; the user can also fill it with `tooluse index add`. "
      "Returns the matching documents best first, each with its id, score and snippet, or "
      "what was added, removed or listed.\n"
      "Examples: {\"action\": \"search\", \"query\": \"retry policy for HTTP errors\"}; "
      "{\"action\": \"add_text\", \"id\": \"meeting-2024-05-02\", \"text\": \"...\"}",
      {.annotations =
           {.read_only = false, .destructive = false, .idempotent = true, .open_world = false},
       .category = "search",
       .tags = {"search", "documents", "stateful"},
       .timeout = std::chrono::seconds(60)});
}

}  // namespace

void register_document_search(tool_registry& registry, const document_search_options& options) {
  auto object = std::make_shared<document_search_tool>(options);
  add_tool(registry, object->definition(),
           [object](const document_search_args& args) { return object->call(args); });
}

}  // namespace tooluse::builtin
