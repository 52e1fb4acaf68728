// document_index: SQLite FTS5 with BM25 ranking and snippets.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <sqlite3.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <utility>

#include "builtin/path_guard.hpp"
#include "tooluse/builtin/document_search.hpp"

namespace tooluse::builtin {
namespace fs = std::filesystem;

namespace {

// stmt owns a prepared statement.
struct stmt {
  sqlite3_stmt* s = nullptr;
  stmt() = default;
  stmt(stmt&& o) noexcept : s(std::exchange(o.s, nullptr)) {}
  stmt& operator=(stmt&&) = delete;
  ~stmt() { sqlite3_finalize(s); }
  void bind(int i, std::string_view v) { sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
  void bind(int i, std::int64_t v) { sqlite3_bind_int64(s, i, v); }
  std::string text(int col) {
    auto* p = sqlite3_column_text(s, col);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s, col))) : std::string();
  }
};

const char* schema_sql = R"sql(
PRAGMA journal_mode=WAL;
CREATE TABLE IF NOT EXISTS documents(
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT, source TEXT, bytes INTEGER,
  added_at INTEGER);
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(title, body, tokenize='porter unicode61');
)sql";

// Removes a document's text from the full-text index (before it is replaced or removed).
const char* delete_indexed_sql =
    "DELETE FROM documents_fts WHERE rowid = (SELECT rowid FROM documents WHERE id = ?1)";

// fts_query turns free text into an FTS5 query: every word quoted, OR-ed, so punctuation in a
// model's query can never be FTS5 syntax, and BM25 ranks documents with more words first.
std::string fts_query(std::string_view q) {
  std::string out, word;
  auto flush = [&] {
    if (word.empty()) return;
    out += (out.empty() ? "\"" : " OR \"") + word + "\"";
    word.clear();
  };
  for (char c : q) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u >= 0x80) word += c;
    else flush();
  }
  flush();
  return out;
}

}  // namespace

struct document_index::impl {
  sqlite3* db = nullptr;
  std::mutex mutex;
  fs::path file;
  ~impl() { sqlite3_close(db); }

  error db_error(std::string_view what) const {
    return error{errc::io_error, "document index \"" + file.string() + "\": " + std::string(what) +
                                     ": " + sqlite3_errmsg(db)};
  }
  // prepare compiles `sql` and binds `params` to ?1, ?2, ... in order.
  template <class... Params>
  result<stmt> prepare(const char* sql, const Params&... params) {
    stmt st;
    if (sqlite3_prepare_v2(db, sql, -1, &st.s, nullptr) != SQLITE_OK) return fail(db_error("prepare"));
    int i = 0;
    (st.bind(++i, params), ...);
    return st;
  }
  // run runs a statement that returns no rows; a failure names `what` it was doing.
  template <class... Params>
  status run(const char* sql, std::string_view what, const Params&... params) {
    auto st = prepare(sql, params...);
    if (!st) return fail(st.error());
    if (sqlite3_step(st->s) != SQLITE_DONE) return fail(db_error(what));
    return {};
  }
  status exec(const char* sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
      std::string m = msg ? msg : "failed";
      sqlite3_free(msg);
      return fail(errc::io_error, "document index \"" + file.string() + "\": " + m);
    }
    return {};
  }
};

document_index::document_index(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
document_index::~document_index() = default;

result<std::unique_ptr<document_index>> document_index::open(const fs::path& file) {
  auto p = std::make_unique<impl>();
  p->file = file;
  if (file != ":memory:" && file.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
  }
  if (sqlite3_open_v2(file.c_str(), &p->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK)
    return fail(p->db_error("cannot open"));
  sqlite3_busy_timeout(p->db, 5000);
  if (auto s = p->exec(schema_sql); !s) return fail(s.error());
  return std::unique_ptr<document_index>(new document_index(std::move(p)));
}

status document_index::add_text(std::string_view id, std::string_view text, std::string_view title,
                                std::string_view source) {
  if (id.empty()) return fail(errc::invalid_argument, "document id must not be empty");
  std::lock_guard lock(impl_->mutex);
  if (auto s = impl_->exec("BEGIN IMMEDIATE"); !s) return s;
  auto rollback = [&](error e) {
    impl_->exec("ROLLBACK");
    return fail(std::move(e));
  };
  if (auto s = impl_->run(delete_indexed_sql, "delete", id); !s) return rollback(s.error());
  auto ins = impl_->prepare(
      "INSERT INTO documents(id, title, source, bytes, added_at) VALUES(?1, ?2, ?3, ?4, strftime('%s','now')) "
      "ON CONFLICT(id) DO UPDATE SET title=excluded.title, source=excluded.source, bytes=excluded.bytes, "
      "added_at=excluded.added_at RETURNING rowid",
      id, title, source, static_cast<std::int64_t>(text.size()));
  if (!ins) return rollback(ins.error());
  if (sqlite3_step(ins->s) != SQLITE_ROW) return rollback(impl_->db_error("insert"));
  std::int64_t rowid = sqlite3_column_int64(ins->s, 0);
  sqlite3_reset(ins->s);  // a statement still in progress would block COMMIT
  if (auto s = impl_->run("INSERT INTO documents_fts(rowid, title, body) VALUES(?1, ?2, ?3)", "index",
                          rowid, title, text);
      !s)
    return rollback(s.error());
  return impl_->exec("COMMIT");
}

result<std::string> document_index::add_file(const fs::path& path, std::size_t max_bytes) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (!fs::is_regular_file(abs, ec)) return fail(errc::not_found, "file \"" + path.string() + "\" does not exist");
  auto size = fs::file_size(abs, ec);
  if (ec || size > max_bytes)
    return fail(errc::invalid_argument, "file \"" + path.string() + "\" is too large to index");
  // Open without blocking and without following a swapped-in symlink, then insist on a regular
  // file: a FIFO or device under the indexed folder must not hang or flood the indexer.
  int fd = ::open(abs.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) ::close(fd);
    return fail(errc::invalid_argument, "\"" + path.string() + "\" is not a regular file");
  }
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) break;
  }
  ::close(fd);
  if (text.size() > max_bytes)
    return fail(errc::invalid_argument, "file \"" + path.string() + "\" is too large to index");
  if (detail::looks_binary(std::string_view(text).substr(0, 8192)))
    return fail(errc::unsupported, "file \"" + path.string() + "\" is binary; only text can be indexed");
  if (auto s = add_text(abs.string(), text, abs.filename().string(), abs.string()); !s) return fail(s.error());
  return abs.string();
}

result<bool> document_index::remove(std::string_view id) {
  std::lock_guard lock(impl_->mutex);
  if (auto s = impl_->run(delete_indexed_sql, "remove", id); !s) return fail(s.error());
  if (auto s = impl_->run("DELETE FROM documents WHERE id = ?1", "remove", id); !s)
    return fail(s.error());
  return sqlite3_changes(impl_->db) > 0;
}

result<std::vector<search_hit>> document_index::search(std::string_view query, std::size_t limit) {
  std::string q = fts_query(query);
  if (q.empty()) return fail(errc::invalid_argument, "the query has no words to search for");
  std::lock_guard lock(impl_->mutex);
  auto st = impl_->prepare(
      "SELECT d.id, d.title, d.source, snippet(documents_fts, 1, '[', ']', '...', 16), "
      "bm25(documents_fts, 5.0, 1.0) AS rank FROM documents_fts JOIN documents d ON d.rowid = "
      "documents_fts.rowid WHERE documents_fts MATCH ?1 ORDER BY rank LIMIT ?2",
      q, static_cast<std::int64_t>(limit));
  if (!st) return fail(st.error());
  std::vector<search_hit> hits;
  int rc;
  while ((rc = sqlite3_step(st->s)) == SQLITE_ROW)
    hits.push_back({st->text(0), st->text(1), st->text(2), st->text(3), -sqlite3_column_double(st->s, 4)});
  if (rc != SQLITE_DONE) return fail(impl_->db_error("search"));
  return hits;
}

result<std::vector<document_info>> document_index::list(std::size_t limit) {
  std::lock_guard lock(impl_->mutex);
  auto st = impl_->prepare("SELECT id, title, source, bytes FROM documents ORDER BY id LIMIT ?1",
                           static_cast<std::int64_t>(limit));
  if (!st) return fail(st.error());
  std::vector<document_info> out;
  while (sqlite3_step(st->s) == SQLITE_ROW)
    out.push_back({st->text(0), st->text(1), st->text(2), static_cast<std::size_t>(sqlite3_column_int64(st->s, 3))});
  return out;
}

result<std::size_t> document_index::size() {
  std::lock_guard lock(impl_->mutex);
  auto st = impl_->prepare("SELECT count(*) FROM documents");
  if (!st) return fail(st.error());
  if (sqlite3_step(st->s) != SQLITE_ROW) return fail(impl_->db_error("count"));
  return static_cast<std::size_t>(sqlite3_column_int64(st->s, 0));
}

result<std::vector<std::string>> add_files(document_index& index, const fs::path& path,
                                           std::size_t max_files, std::size_t max_bytes) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return fail(errc::not_found, "\"" + path.string() + "\" does not exist");
  std::vector<std::string> ids;
  if (!fs::is_directory(path, ec)) {
    auto id = index.add_file(path, max_bytes);
    if (!id) return fail(id.error());
    ids.push_back(*id);
    return ids;
  }
  fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end && ids.size() < max_files; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.starts_with(".") || name == "node_modules") {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    auto id = index.add_file(it->path(), max_bytes);
    if (id) ids.push_back(*id);
    else if (id.error().code == errc::io_error) return fail(id.error());
  }
  return ids;
}

fs::path default_index_path() {
  if (const char* e = std::getenv("TOOLUSE_INDEX"); e && *e) return e;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return fs::path(x) / "tooluse/index.sqlite";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".local/share/tooluse/index.sqlite";
  return "tooluse-index.sqlite";
}

}  // namespace tooluse::builtin
