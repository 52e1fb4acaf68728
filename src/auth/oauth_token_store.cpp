// file_token_store: every server's OAuth state in one JSON file, mode 0600, written whole
// through a temporary file and rename so a crash never leaves half a file.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "tooluse/auth/oauth.hpp"

namespace tooluse::auth {

namespace {

class file_store final : public token_store {
 public:
  explicit file_store(std::string path) : path_(std::move(path)) {}

  std::optional<json> load(const std::string& key) override {
    std::lock_guard lock(mu_);
    auto all = read_all();
    if (!all || !all->contains(key)) return std::nullopt;
    return (*all)[key];
  }
  // save and erase rewrite the whole file. They refuse while it cannot be read (writing would
  // drop every other server's entries); a file that is not a JSON object is kept beside it as
  // PATH.corrupt, for a person to look at, and a new one is started.
  status save(const std::string& key, const json& state) override {
    std::lock_guard lock(mu_);
    auto all = read_for_update();
    if (!all) return fail(std::move(all.error()));
    (*all)[key] = state;
    return write_all(*all);
  }
  status erase(const std::string& key) override {
    std::lock_guard lock(mu_);
    auto all = read_for_update();
    if (!all) return fail(std::move(all.error()));
    all->erase(key);
    return write_all(*all);
  }

 private:
  // read_all returns the file's entries: none when there is no file yet; an error when it
  // exists but cannot be read, or is not a JSON object. The message never quotes the file:
  // it holds secrets.
  result<json> read_all() {
    namespace fs = std::filesystem;
    std::ifstream in(path_);
    if (!in) {
      std::error_code ec;
      if (!fs::exists(path_, ec) && !ec) return json::object();
      return fail(errc::io_error, "cannot read the token file " + path_ +
                                      "; check its permissions (it should belong to you, mode 0600)");
    }
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = parse_json(ss.str());
    if (!j || !j->is_object())
      return fail(errc::parse_error, "the token file " + path_ +
                                         " is not a JSON object; fix it, or move it away to start "
                                         "over (every server then asks you to log in again)");
    return std::move(*j);
  }
  result<json> read_for_update() {
    auto all = read_all();
    if (all || all.error().code != errc::parse_error) return all;
    const std::string aside = path_ + ".corrupt";
    if (::rename(path_.c_str(), aside.c_str()) != 0)
      return fail(errc::io_error, "the token file " + path_ + " is not a JSON object and cannot be moved to " +
                                      aside + "; move it away by hand");
    return json::object();
  }
  status write_all(const json& all) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p(path_);
    if (p.has_parent_path()) {
      fs::create_directories(p.parent_path(), ec);
      ::chmod(p.parent_path().c_str(), 0700);
    }
    std::string tmp = path_ + ".tmp";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
      return fail(errc::io_error,
                  "cannot write the token file " + tmp + "; check that its folder is writable");
    ::fchmod(fd, 0600);
    std::string text = all.dump(2) + "\n";
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ok = ::fsync(fd) == 0 && ok;
    ::close(fd);
    if (!ok || ::rename(tmp.c_str(), path_.c_str()) != 0)
      return fail(errc::io_error, "cannot write the token file " + path_);
    return {};
  }

  std::string path_;
  std::mutex mu_;
};

}  // namespace

std::string default_token_store_path() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state && *state) return std::string(state) + "/tooluse/mcp-tokens.json";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/state/tooluse/mcp-tokens.json";
}

std::shared_ptr<token_store> make_file_token_store(std::string path) {
  return std::make_shared<file_store>(path.empty() ? default_token_store_path() : std::move(path));
}

}  // namespace tooluse::auth
