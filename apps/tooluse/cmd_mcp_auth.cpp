// tooluse mcp login / logout: sign in to a remote MCP server with OAuth (the browser is sent
// to the authorization server and back to a loopback redirect) and keep its tokens in the
// user's token file (mode 0600), or forget them. Registers under the "mcp" command.
// Exit 0 ok, 1 the login failed, 2 bad usage.
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "conventions.hpp"
#include "tooluse/auth/oauth.hpp"

extern char** environ;

namespace tooluse::cli {
namespace {

struct login_flags {
  std::string url;
  std::string client_id, client_secret, scope, client_metadata_url;
  int port = 0;
  bool no_browser = false;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  bool json_out = false;
};

// open_in_browser starts xdg-open when it is on PATH; false when there is none.
bool open_in_browser(const std::string& url) {
  const char* path = std::getenv("PATH");
  bool found = false;
  for (std::string_view p = path ? path : ""; !found && !p.empty();) {
    auto colon = p.find(':');
    auto dir = p.substr(0, colon);
    found = ::access((std::string(dir) + "/xdg-open").c_str(), X_OK) == 0;
    p = colon == std::string_view::npos ? std::string_view{} : p.substr(colon + 1);
  }
  if (!found) return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::string prog = "xdg-open";
  std::string arg = url;
  char* argv[] = {prog.data(), arg.data(), nullptr};
  pid_t pid = 0;
  bool ok = posix_spawnp(&pid, "xdg-open", &fa, nullptr, argv, environ) == 0;
  posix_spawn_file_actions_destroy(&fa);
  return ok;
}

auth::oauth_options base_options(const login_flags& f) {
  auth::oauth_options o;
  o.client_name = "tooluse";
  o.store = auth::make_file_token_store();
  o.scope = f.scope;
  o.client_metadata_url = f.client_metadata_url;
  if (!f.client_id.empty())
    o.preregistered =
        auth::client_credentials{.client_id = f.client_id, .client_secret = f.client_secret};
  o.log = [](const std::string& line) { std::cerr << "tooluse: " << line << "\n"; };
  return o;
}

int login(const login_flags& f) {
  if (!f.url.starts_with("http://") && !f.url.starts_with("https://"))
    return usage_error("mcp login: \"" + f.url + "\" is not an http:// or https:// URL");
  if (f.port < 0 || f.port > 65535) return usage_error("mcp login: bad --port");
  auto receiver = auth::loopback_receiver::open(static_cast<unsigned short>(f.port));
  if (!receiver) return report_error(exit_status::failed, receiver.error().message);
  auto o = base_options(f);
  o.redirect_uri = (*receiver)->redirect_uri();
  auto* rx = receiver->get();
  o.open_browser = [rx, &f](const std::string& url) -> result<std::string> {
    std::cerr << "tooluse: open this URL to sign in:\n  " << url << "\n" << std::flush;
    if (!f.no_browser && open_in_browser(url)) std::cerr << "tooluse: (opened in your browser)\n";
    std::cerr << "tooluse: waiting for the sign-in to finish at " << rx->redirect_uri() << "\n"
              << std::flush;
    return rx->wait(std::chrono::duration_cast<std::chrono::seconds>(f.timeout));
  };
  std::shared_ptr<auth::oauth_authorizer> a;
  try {
    a = auth::make_oauth_authorizer(f.url, std::move(o));
  } catch (const std::invalid_argument& e) {
    return usage_error(std::string("mcp login: ") + e.what());
  }
  if (auto s = a->authorize(); !s)
    return report_error(exit_status::failed, "login to " + f.url + " failed: " + s.error().message);
  std::string file = auth::default_token_store_path();
  if (f.json_out)
    std::cout << dump_json(json{{"server", f.url}, {"token_file", file}, {"logged_in", true}})
              << "\n";
  else
    std::cout << "Logged in to " << f.url << "; tokens saved in " << file << "\n";
  return 0;
}

int logout(const login_flags& f) {
  auto store = auth::make_file_token_store();
  bool had = store->load(f.url).has_value();
  if (auto s = store->erase(f.url); !s) return report_error(exit_status::failed, s.error().message);
  if (f.json_out)
    std::cout << dump_json(json{{"server", f.url}, {"forgotten", had}}) << "\n";
  else
    std::cout << (had ? "Logged out of " : "No saved login for ") << f.url << "\n";
  return 0;
}

void setup_mcp_auth(CLI::App& app, app_state& state) {
  CLI::App* mcp_cmd = app.get_subcommand("mcp");
  auto lf = std::make_shared<login_flags>();
  auto* login_cmd = mcp_cmd->add_subcommand(
      "login", "Sign in to a remote MCP server with OAuth and keep its tokens");
  login_cmd->add_option("url", lf->url, "The server's MCP endpoint, e.g. https://example.com/mcp")
      ->required();
  login_cmd->add_option("--client-id", lf->client_id,
                        "A client id registered with the authorization server");
  login_cmd
      ->add_option("--client-secret", lf->client_secret,
                   "Its secret (prefer the TOOLUSE_CLIENT_SECRET variable)")
      ->envname("TOOLUSE_CLIENT_SECRET");
  login_cmd->add_option("--scope", lf->scope,
                        "Scopes to ask for besides the server's, space-separated");
  login_cmd->add_option("--client-metadata-url", lf->client_metadata_url,
                        "This client's Client ID Metadata Document (https URL)");
  login_cmd->add_option("--port", lf->port, "Loopback port for the redirect (0: any free port)")
      ->capture_default_str();
  add_duration_option(*login_cmd, "--timeout", lf->timeout,
                      "How long to wait for the sign-in, e.g. 90s, 5m");
  login_cmd->add_flag("--no-browser", lf->no_browser, "Only print the URL to open");
  login_cmd->add_flag("--json", lf->json_out, "Print the outcome as JSON");
  login_cmd->footer(
      "The authorization URL is opened with xdg-open when there is one, and printed always.\n"
      "Tokens are kept per server in $XDG_STATE_HOME/tooluse/mcp-tokens.json (else\n"
      "~/.local/state/tooluse/mcp-tokens.json), mode 0600, refreshed when they expire, and used\n"
      "by `tooluse mcp list/call --url` and by --mcp configs.\n"
      "Example:\n  tooluse mcp login https://mcp.example.com/mcp && tooluse mcp list --url "
      "https://mcp.example.com/mcp\n"
      "Exit status: 0 logged in, 1 the login failed, 2 bad usage.");
  login_cmd->callback([lf, &state] { state.action = [lf] { return login(*lf); }; });
  auto of = std::make_shared<login_flags>();
  auto* logout_cmd =
      mcp_cmd->add_subcommand("logout", "Forget the saved tokens of a remote MCP server");
  logout_cmd->add_option("url", of->url, "The server's MCP endpoint")->required();
  logout_cmd->add_flag("--json", of->json_out, "Print the outcome as JSON");
  logout_cmd->footer("Exit status: 0 done, 1 the token file could not be written, 2 bad usage.");
  logout_cmd->callback([of, &state] { state.action = [of] { return logout(*of); }; });
}

// After cmd_mcp_client.cpp (41).
const command_registrar mcp_auth_registrar(42, &setup_mcp_auth);

}  // namespace
}  // namespace tooluse::cli
