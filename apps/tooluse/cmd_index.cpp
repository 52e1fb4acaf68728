// tooluse index add PATH... | search QUERY | remove ID | list: the document_search index.
#include <iostream>

#include "cli.hpp"
#include "tooluse/builtin/document_search.hpp"
#include "tooluse/json.hpp"

namespace tooluse::cli {
namespace {

struct index_options {
  std::string index_path;
  std::vector<std::string> paths;
  std::string query;
  std::string id;
  int limit = 5;
  int list_limit = 100;
  bool json_output = false;
};

std::filesystem::path index_path(const index_options& o) {
  return o.index_path.empty() ? builtin::default_index_path() : std::filesystem::path(o.index_path);
}

result<std::unique_ptr<builtin::document_index>> open_index(const index_options& o) {
  return builtin::document_index::open(index_path(o));
}

// open_existing_index is for the commands that only read or remove: an index that is not there
// is a mistake (a typo in --index), not one to create empty; `index add` creates it.
result<std::unique_ptr<builtin::document_index>> open_existing_index(const index_options& o) {
  auto path = index_path(o);
  if (!std::filesystem::exists(path))
    return fail(errc::not_found, "no index \"" + path.string() +
                                     "\"; create it by adding documents: tooluse index add PATH" +
                                     (o.index_path.empty() ? "" : " --index " + o.index_path));
  return builtin::document_index::open(path);
}

int index_add(const index_options& o) {
  auto index = open_index(o);
  if (!index) return usage_error(index.error().message);
  std::size_t total = 0;
  for (const auto& p : o.paths) {
    auto ids = builtin::add_files(**index, p);
    if (!ids) return report_error(exit_status::failed, ids.error().message);
    total += ids->size();
  }
  auto size = (*index)->size();
  std::cout << "indexed " << total << " file(s); the index holds " << (size ? *size : 0)
            << " document(s)\n";
  return 0;
}

int index_search(const index_options& o) {
  auto index = open_existing_index(o);
  if (!index) return usage_error(index.error().message);
  auto hits = (*index)->search(o.query, static_cast<std::size_t>(std::max(1, o.limit)));
  if (!hits) return usage_error(hits.error().message);
  if (o.json_output) {
    json out = json::array();
    for (const auto& h : *hits)
      out.push_back({{"id", h.id}, {"title", h.title}, {"score", h.score}, {"snippet", h.snippet}});
    std::cout << dump_json(out, 2) << "\n";
    return 0;
  }
  int rank = 0;
  for (const auto& h : *hits)
    std::cout << ++rank << ". " << h.id << "  (score " << h.score << ")\n   " << h.snippet << "\n";
  if (hits->empty()) std::cout << "no matches\n";
  return 0;
}

int index_remove(const index_options& o) {
  auto index = open_existing_index(o);
  if (!index) return usage_error(index.error().message);
  auto removed = (*index)->remove(o.id);
  if (!removed) return usage_error(removed.error().message);
  if (!*removed)
    return report_error(exit_status::failed, "no document with id \"" + o.id + "\"",
                        "`tooluse index list` shows the ids (a file's absolute path).");
  std::cout << "removed " << o.id << "\n";
  return 0;
}

int index_list(const index_options& o) {
  auto index = open_existing_index(o);
  if (!index) return usage_error(index.error().message);
  auto docs = (*index)->list(static_cast<std::size_t>(std::max(1, o.list_limit)));
  if (!docs) return usage_error(docs.error().message);
  for (const auto& d : *docs) std::cout << d.id << "  " << d.bytes << " bytes\n";
  return 0;
}

void setup_index(CLI::App& app, app_state& state) {
  auto o = std::make_shared<index_options>();
  auto* index = app.add_subcommand("index", "Fill and query the document_search index (SQLite FTS5)");
  index->require_subcommand(1);
  index->add_option("--index", o->index_path,
                    "Index file (default: $TOOLUSE_INDEX or ~/.local/share/tooluse/index.sqlite)");
  index->footer("The document_search tool reads the same index file.");
  // --index belongs to the group but may be written after the subcommand too, as users do
  // (`tooluse index search words --index i.sqlite`). Subcommands inherit this when added.
  index->fallthrough();

  auto* add = index->add_subcommand("add", "Index files, or every text file under folders");
  add->add_option("paths", o->paths, "Files or folders")->required();
  add->callback([o, &state] { state.action = [o] { return index_add(*o); }; });

  auto* search = index->add_subcommand("search", "Search the index (BM25 ranking, snippets)");
  search->add_option("query", o->query, "Words to search for")->required();
  search->add_option("--limit,-n", o->limit, "Number of results")->capture_default_str();
  search->add_flag("--json", o->json_output, "Print the results as JSON");
  search->callback([o, &state] { state.action = [o] { return index_search(*o); }; });

  auto* remove = index->add_subcommand("remove", "Remove a document by id (a file's absolute path)");
  remove->add_option("id", o->id, "Document id")->required();
  remove->callback([o, &state] { state.action = [o] { return index_remove(*o); }; });

  auto* list = index->add_subcommand("list", "List the indexed documents");
  list->add_option("--limit,-n", o->list_limit, "Number of documents")->capture_default_str();
  list->callback([o, &state] { state.action = [o] { return index_list(*o); }; });
}

const command_registrar index_registrar(60, &setup_index);

}  // namespace
}  // namespace tooluse::cli
