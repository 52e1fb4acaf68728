// tooluse/base64.hpp: the RFC 4648 test vectors, the URL-safe alphabet, and what is refused.
#include "tooluse/base64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

struct vector_case {
  const char* plain;
  const char* encoded;
};

// RFC 4648 §10.
const vector_case rfc4648[] = {{"", ""},
                               {"f", "Zg=="},
                               {"fo", "Zm8="},
                               {"foo", "Zm9v"},
                               {"foob", "Zm9vYg=="},
                               {"fooba", "Zm9vYmE="},
                               {"foobar", "Zm9vYmFy"}};

TEST(base64, encodes_the_rfc_4648_vectors) {
  for (const auto& c : rfc4648) EXPECT_EQ(tooluse::base64_encode(c.plain), c.encoded) << c.plain;
}

TEST(base64, decodes_the_rfc_4648_vectors_padded_and_unpadded) {
  for (const auto& c : rfc4648) {
    EXPECT_EQ(tooluse::base64_decode(c.encoded), std::string(c.plain)) << c.encoded;
    std::string unpadded = c.encoded;
    while (!unpadded.empty() && unpadded.back() == '=') unpadded.pop_back();
    EXPECT_EQ(tooluse::base64_decode(unpadded), std::string(c.plain)) << unpadded;
  }
}

TEST(base64, round_trips_every_byte_value) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (std::size_t n = 0; n <= all.size(); n += 37) {
    std::string part = all.substr(0, n);
    EXPECT_EQ(tooluse::base64_decode(tooluse::base64_encode(part)), part);
    EXPECT_EQ(tooluse::base64url_decode(tooluse::base64url_encode(part)), part);
  }
}

TEST(base64, refuses_what_is_not_base64) {
  EXPECT_FALSE(tooluse::base64_decode("Zm9v!"));
  EXPECT_FALSE(tooluse::base64_decode("Z"));      // one character cannot encode a byte
  EXPECT_FALSE(tooluse::base64_decode("Zg="));    // padding to a length that is not 4k
  EXPECT_FALSE(tooluse::base64_decode(" Zm9v"));  // no whitespace
  EXPECT_FALSE(tooluse::base64_decode("Zm9v\n"));
  EXPECT_FALSE(tooluse::base64_decode("-_8="));  // URL-safe alphabet is not standard
}

TEST(base64url, uses_the_url_safe_alphabet_without_padding) {
  std::string bytes = "\xfb\xff\xbf";
  EXPECT_EQ(tooluse::base64_encode(bytes), "+/+/");
  EXPECT_EQ(tooluse::base64url_encode(bytes), "-_-_");
  EXPECT_EQ(tooluse::base64url_encode("f"), "Zg");
  EXPECT_EQ(tooluse::base64url_decode("-_-_"), bytes);
  EXPECT_EQ(tooluse::base64url_decode("Zg=="), std::string("f"));  // padding is tolerated
  EXPECT_FALSE(tooluse::base64url_decode("+/+/"));                 // standard alphabet is not
}

}  // namespace
