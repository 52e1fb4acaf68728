// Sealing of 2026-07-28 requestState (server_request_state.cpp): a sealed state opens with its key
// only; any change to the body or the MAC, a missing separator, a body that is not base64url
// JSON under a valid MAC, all fail; random_token gives fresh lowercase hex of the asked size.
#include <gtest/gtest.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <set>

#include "mcp/server_impl.hpp"
#include "tooluse/base64.hpp"

namespace mcp = tooluse::mcp;
using tooluse::json;

TEST(mcp_request_state, a_sealed_state_opens_with_its_key) {
  const std::string key = mcp::random_token(32);
  for (json state : {json{{"step", 2}, {"items", {1, 2, 3}}}, json("text"), json(nullptr), json::array(), json(1.5)}) {
    std::string sealed = mcp::seal_state(key, state);
    EXPECT_NE(sealed.find('.'), std::string::npos);
    auto opened = mcp::open_state(key, sealed);
    ASSERT_TRUE(opened) << state.dump();
    EXPECT_EQ(*opened, state);
  }
}

TEST(mcp_request_state, another_key_cannot_open_it) {
  std::string sealed = mcp::seal_state("key-one", json{{"a", 1}});
  EXPECT_FALSE(mcp::open_state("key-two", sealed));
  EXPECT_FALSE(mcp::open_state("", sealed));
}

TEST(mcp_request_state, any_change_breaks_the_seal) {
  const std::string key = "k";
  std::string sealed = mcp::seal_state(key, json{{"amount", 10}});
  auto dot = sealed.rfind('.');
  // A different body with the old MAC.
  std::string forged_body = tooluse::base64url_encode(R"({"amount":1000})") + sealed.substr(dot);
  EXPECT_FALSE(mcp::open_state(key, forged_body));
  // Every single-character change of the MAC.
  for (std::size_t i = dot + 1; i < sealed.size(); ++i) {
    std::string t = sealed;
    t[i] = t[i] == '0' ? '1' : '0';
    EXPECT_FALSE(mcp::open_state(key, t)) << i;
  }
  EXPECT_FALSE(mcp::open_state(key, sealed.substr(0, sealed.size() - 1)));  // short MAC
  EXPECT_FALSE(mcp::open_state(key, sealed + "0"));                         // long MAC
  EXPECT_FALSE(mcp::open_state(key, sealed.substr(0, dot)));                // no separator
  EXPECT_FALSE(mcp::open_state(key, ""));
  EXPECT_FALSE(mcp::open_state(key, "."));
}

namespace {

// hmac_hex is HMAC-SHA256 in lowercase hex, computed here independently of
// server_request_state.cpp.
std::string hmac_hex(const std::string& key, const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  static constexpr char hex[] = "0123456789abcdef";
  std::string s;
  for (unsigned i = 0; i < len; ++i) {
    s.push_back(hex[out[i] >> 4]);
    s.push_back(hex[out[i] & 15]);
  }
  return s;
}

}  // namespace

TEST(mcp_request_state, the_format_is_base64url_json_dot_hex_hmac) {
  const std::string key = "k";
  std::string body = tooluse::base64url_encode(R"({"n":1})");
  EXPECT_EQ(mcp::seal_state(key, json{{"n", 1}}), body + "." + hmac_hex(key, body));
}

TEST(mcp_request_state, a_correct_mac_over_a_body_that_is_not_base64url_json_still_fails) {
  const std::string key = "k";
  for (std::string body : {std::string("!!!"), tooluse::base64url_encode("not json"),
                           tooluse::base64url_encode(R"({"open":)"), std::string("")}) {
    EXPECT_FALSE(mcp::open_state(key, body + "." + hmac_hex(key, body))) << body;
  }
  // The same construction over a JSON body opens: the MAC above was right.
  std::string good = tooluse::base64url_encode("[1]");
  EXPECT_EQ(mcp::open_state(key, good + "." + hmac_hex(key, good)), std::optional<json>(json::array({1})));
}

TEST(mcp_request_state, random_tokens_are_fresh_lowercase_hex) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string t = mcp::random_token(16);
    ASSERT_EQ(t.size(), 32u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(mcp::random_token(0), "");
  EXPECT_EQ(mcp::random_token(1).size(), 2u);
}
