// The smaller pieces of auth: the login redirect receiver on real loopback sockets, the token
// command authorizer (a real /bin/sh), the token file (modes, several servers, a corrupt file,
// the default path), WWW-Authenticate parsing edge cases, and JOSE input that must be refused.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "support/test_support.hpp"
#include "tooluse/auth/oauth.hpp"

namespace tooluse::auth::auth_misc_test {
namespace {

// get sends one raw HTTP GET to 127.0.0.1:port and returns the whole answer.
std::string get(unsigned short port, const std::string& target) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "connect failed";
  }
  std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  (void)!::write(fd, req.data(), req.size());
  std::string out;
  char buf[1024];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

unsigned short port_of(const std::string& redirect_uri) {
  auto colon = redirect_uri.rfind(':');
  return static_cast<unsigned short>(std::stoi(redirect_uri.substr(colon + 1)));
}

TEST(loopback_receiver, answers_other_paths_404_and_returns_the_callback_url) {
  auto rx = loopback_receiver::open(0);
  ASSERT_TRUE(rx) << rx.error().message;
  std::string uri = (*rx)->redirect_uri();
  EXPECT_EQ(uri.rfind("http://127.0.0.1:", 0), 0u);
  EXPECT_EQ(uri.substr(uri.size() - 9), "/callback");
  unsigned short port = port_of(uri.substr(0, uri.size() - 9));
  std::string favicon, callback;
  std::thread browser([&] {
    favicon = get(port, "/favicon.ico");
    callback = get(port, "/callback?code=abc&state=xyz");
  });
  auto got = (*rx)->wait(std::chrono::seconds(30));
  browser.join();
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, "http://127.0.0.1:" + std::to_string(port) + "/callback?code=abc&state=xyz");
  EXPECT_EQ(favicon.rfind("HTTP/1.1 404 Not Found", 0), 0u) << favicon;
  EXPECT_EQ(callback.rfind("HTTP/1.1 200 OK", 0), 0u) << callback;
  EXPECT_NE(callback.find("Signed in."), std::string::npos);
}

TEST(loopback_receiver, a_port_in_use_is_an_io_error_naming_it) {
  auto first = loopback_receiver::open(0);
  ASSERT_TRUE(first);
  std::string uri = (*first)->redirect_uri();
  unsigned short port = port_of(uri.substr(0, uri.size() - 9));
  auto second = loopback_receiver::open(port);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, errc::io_error);
  EXPECT_EQ(second.error().message, "cannot listen on 127.0.0.1:" + std::to_string(port) +
                                        " for the login redirect; pick another --port");
}

TEST(loopback_receiver, waiting_without_a_redirect_times_out) {
  auto rx = loopback_receiver::open(0);
  ASSERT_TRUE(rx);
  auto got = (*rx)->wait(std::chrono::seconds(0));
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code, errc::timeout);
  EXPECT_EQ(got.error().message,
            "no login redirect arrived at " + (*rx)->redirect_uri() + " in 0 s");
}

TEST(token_command, runs_the_command_once_then_again_on_a_401_only) {
  tooluse::testing::temp_dir dir;
  auto counter = (dir.path() / "n").string();
  // Each run prints a new token: tok-1, tok-2, ...
  std::string cmd = "n=$(cat " + counter + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " +
                    counter + "; printf 'tok-%s\\n  ' $n";
  auto a = make_token_command_authorizer(cmd);
  auto h = a->headers_for("POST", "http://x/mcp");
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(*h, (header_list{{"Authorization", "Bearer tok-1"}}));
  EXPECT_EQ(a->headers_for("POST", "http://x/mcp")->at(0).value, "Bearer tok-1");  // cached
  EXPECT_FALSE(*a->on_challenge(403, {}, *h, "POST", "http://x/mcp"));  // only 401 reruns
  EXPECT_TRUE(*a->on_challenge(401, {}, *h, "POST", "http://x/mcp"));
  auto h2 = *a->headers_for("POST", "http://x/mcp");
  EXPECT_EQ(h2.at(0).value, "Bearer tok-2");
  // A request sent with the old token is just resent; the new token refused too: give up.
  EXPECT_TRUE(*a->on_challenge(401, {}, *h, "POST", "http://x/mcp"));
  EXPECT_FALSE(*a->on_challenge(401, {}, h2, "POST", "http://x/mcp"));
  EXPECT_EQ(tooluse::testing::read_file(counter), "2\n");
}

TEST(token_command, a_failing_or_silent_command_says_its_exit_status) {
  auto failing = make_token_command_authorizer("exit 3");
  auto r = failing->headers_for("GET", "http://x/");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::io_error);
  EXPECT_EQ(
      r.error().message,
      "the token command failed (exit status 3) or printed nothing; run it by hand to see why");
  auto silent = make_token_command_authorizer("true");
  r = silent->headers_for("GET", "http://x/");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("(exit status 0) or printed nothing"), std::string::npos);
}

TEST(token_command, a_token_with_a_line_break_inside_is_refused) {
  // It would otherwise split the Authorization header in two.
  auto a = make_token_command_authorizer("printf 'abc\\r\\nX-Injected: 1'");
  auto r = a->headers_for("GET", "http://x/");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, errc::io_error);
  EXPECT_NE(r.error().message.find("more than one line"), std::string::npos) << r.error().message;
}

TEST(token_file, keeps_servers_apart_in_a_0700_folder_and_sets_a_corrupt_file_aside) {
  tooluse::testing::temp_dir dir;
  auto folder = dir.path() / "state";
  auto path = (folder / "tokens.json").string();
  auto store = make_file_token_store(path);
  EXPECT_FALSE(store->load("https://a/mcp"));  // no file yet
  ASSERT_TRUE(store->save("https://a/mcp", {{"n", 1}}));
  ASSERT_TRUE(store->save("https://b/mcp", {{"n", 2}}));
  ASSERT_TRUE(store->save("https://a/mcp", {{"n", 3}}));
  EXPECT_EQ((*store->load("https://a/mcp"))["n"], 3);
  EXPECT_EQ((*store->load("https://b/mcp"))["n"], 2);
  struct stat st {};
  ASSERT_EQ(::stat(folder.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));  // written through a rename
  // A second store on the same file sees the same state.
  EXPECT_EQ((*make_file_token_store(path)->load("https://b/mcp"))["n"], 2);
  ASSERT_TRUE(store->erase("https://missing/mcp"));  // erasing nothing is fine
  { std::ofstream(path, std::ios::trunc) << "{not json"; }
  EXPECT_FALSE(store->load("https://a/mcp"));
  ASSERT_TRUE(store->save("https://c/mcp", {{"n", 4}}));
  EXPECT_EQ((*store->load("https://c/mcp"))["n"], 4);
  EXPECT_FALSE(store->load("https://b/mcp"));
  // The corrupt file was kept beside the new one, not overwritten.
  std::ifstream aside(path + ".corrupt");
  std::string kept((std::istreambuf_iterator<char>(aside)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "{not json");
}

TEST(token_file, an_unwritable_folder_is_an_io_error_naming_the_file) {
  tooluse::testing::temp_dir dir;
  auto blocker = dir.path() / "file";
  std::ofstream(blocker) << "x";
  auto store = make_file_token_store((blocker / "tokens.json").string());  // a file as folder
  auto s = store->save("k", json::object());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, errc::io_error);
  EXPECT_NE(s.error().message.find("tokens.json"), std::string::npos) << s.error().message;
}

TEST(token_file, default_path_follows_xdg_state_home_then_home) {
  const char* old_state = std::getenv("XDG_STATE_HOME");
  const char* old_home = std::getenv("HOME");
  std::string saved_state = old_state ? old_state : "", saved_home = old_home ? old_home : "";
  ::setenv("XDG_STATE_HOME", "/xdg", 1);
  EXPECT_EQ(default_token_store_path(), "/xdg/tooluse/mcp-tokens.json");
  ::unsetenv("XDG_STATE_HOME");
  ::setenv("HOME", "/home/u", 1);
  EXPECT_EQ(default_token_store_path(), "/home/u/.local/state/tooluse/mcp-tokens.json");
  if (old_state) ::setenv("XDG_STATE_HOME", saved_state.c_str(), 1);
  if (old_home)
    ::setenv("HOME", saved_home.c_str(), 1);
  else
    ::unsetenv("HOME");
}

TEST(www_authenticate, edge_cases) {
  // Escapes inside quoted strings, spaces around '=', upper-case parameter names.
  auto c =
      parse_www_authenticate(R"(Bearer  ERROR = "invalid_token" , error_description="say \"hi\"")");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].param("error"), "invalid_token");
  EXPECT_EQ(c[0].param("error_description"), "say \"hi\"");
  EXPECT_EQ(c[0].param("missing"), "");
  // Token68 credentials, then a second challenge.
  auto t = parse_www_authenticate("Negotiate abc123==, Bearer realm=\"x\"");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].scheme, "Negotiate");
  EXPECT_EQ(t[1].scheme, "Bearer");
  EXPECT_EQ(t[1].param("realm"), "x");
  EXPECT_TRUE(parse_www_authenticate("").empty());
  EXPECT_TRUE(parse_www_authenticate("   ").empty());
  // An unterminated quoted string does not run past the end.
  auto u = parse_www_authenticate(R"(Bearer error="unterminated)");
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].scheme, "Bearer");
}

TEST(jose_input, refuses_what_is_not_a_key_or_a_jwt) {
  EXPECT_FALSE(signing_key::generate("HS256"));
  EXPECT_FALSE(signing_key::from_pem(
      "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n"));
  EXPECT_FALSE(
      signing_key::from_jwk(json::parse(R"({"kty":"EC","crv":"P-256","x":"AA","y":"AA"})")));
  EXPECT_FALSE(signing_key::from_jwk(json::parse(R"({"kty":"oct","k":"c2VjcmV0"})")));
  EXPECT_FALSE(signing_key::from_jwk(json::parse(R"({"kty":"RSA","e":"AQAB"})")));
  EXPECT_FALSE(
      signing_key::from_jwk(json::parse(R"({"kty":"EC","crv":"P-999","x":"AA","y":"AA"})")));
  EXPECT_FALSE(signing_key::from_jwk(json("not an object")));
  EXPECT_FALSE(signing_key{}.valid());
  EXPECT_FALSE(sign_jwt({}, {}, signing_key{}));
  for (const char* bad :
       {"", "a", "a.b", "a.b.c.d", "@@.e30.", "e30.@@.", "e30.e30.@@", "W10.e30."})
    EXPECT_FALSE(decode_jwt(bad)) << bad;
  auto ok = decode_jwt("e30.e30.");  // {} . {} . empty signature
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->signing_input, "e30.e30");
  EXPECT_TRUE(ok->signature.empty());
  // base64url accepts padding, and the standard alphabet (some servers send it), but nothing
  // outside the two.
  EXPECT_EQ(*base64url_decode("YQ=="), "a");
  EXPECT_EQ(*base64url_decode("YQ"), "a");
  EXPECT_EQ(*base64url_decode("-_8"), "\xfb\xff");
  EXPECT_EQ(*base64url_decode("+/8"), "\xfb\xff");
  EXPECT_FALSE(base64url_decode("Y*Q"));
  EXPECT_FALSE(base64url_decode("Y Q"));
  EXPECT_EQ(sha256("abc").size(), 32u);
  EXPECT_EQ(base64url_encode(sha256("")), "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
  EXPECT_NE(random_token(), random_token());
  EXPECT_EQ(random_token(12).size(), 16u);
}

TEST(jose_input, a_signature_of_the_wrong_length_or_alg_does_not_verify) {
  auto key = *signing_key::generate("ES512");
  EXPECT_EQ(key.alg(), "ES512");
  auto sig = key.sign("input");
  ASSERT_TRUE(sig);
  EXPECT_EQ(sig->size(), 132u);  // P-521 r||s, 66 bytes each
  EXPECT_TRUE(key.verify("input", *sig, "ES512"));
  EXPECT_FALSE(key.verify("input", sig->substr(1), "ES512"));
  EXPECT_FALSE(key.verify("input", *sig, "ES256"));
  EXPECT_FALSE(key.verify("input", "", "ES512"));
  auto rsa = *signing_key::generate("RS256");
  auto rs = rsa.sign("input");
  ASSERT_TRUE(rs);
  EXPECT_TRUE(rsa.verify("input", *rs, "RS256"));
  EXPECT_FALSE(rsa.verify("input", *rs, "PS256"));  // same key, other padding
  EXPECT_FALSE(rsa.verify("input", *rs, "none"));
}

}  // namespace
}  // namespace tooluse::auth
