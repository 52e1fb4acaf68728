// ECMA-262 patterns translated to RE2: each escape and group form either matches what
// ECMA-262 would, or is refused at compile time with the reason (never at validation time).
#include <gtest/gtest.h>

#include <string>

#include "tooluse/schema/validator.hpp"

namespace {

using tooluse::errc;
using tooluse::json;
using tooluse::schema::validator;

validator pattern(const std::string& p) {
  auto v = validator::compile(json{{"type", "string"}, {"pattern", p}});
  EXPECT_TRUE(v.has_value()) << p << ": " << (v ? "" : v.error().message);
  return v ? *v : *validator::compile(json(false));
}

std::string refusal(const std::string& p) {
  auto v = validator::compile(json{{"pattern", p}});
  if (v) return "(compiled)";
  EXPECT_EQ(v.error().code, errc::schema_error);
  return v.error().message;
}

bool matches(const std::string& p, const std::string& text) { return pattern(p).is_valid(json(text)); }

TEST(ecma_regex, pattern_is_a_search_not_a_full_match) {
  EXPECT_TRUE(matches("b", "abc"));
  EXPECT_FALSE(matches("^b", "abc"));
  EXPECT_TRUE(matches("", "anything"));
}

TEST(ecma_regex, hex_unicode_and_control_escapes) {
  EXPECT_TRUE(matches("^\\x41$", "A"));
  EXPECT_TRUE(matches("^\\u00e9$", "\xc3\xa9"));
  EXPECT_TRUE(matches("^\\u{1F600}$", "\xf0\x9f\x98\x80"));
  EXPECT_TRUE(matches("^\\ud83d\\ude00$", "\xf0\x9f\x98\x80"));  // a surrogate pair is one code point
  EXPECT_TRUE(matches("^\\cJ$", "\n"));
  EXPECT_TRUE(matches("^a\\0b$", std::string("a\0b", 3)));
  EXPECT_TRUE(matches("^\\t\\v\\f$", "\t\v\f"));
  EXPECT_TRUE(matches("^\\.\\*\\/$", ".*/"));
}

TEST(ecma_regex, malformed_escapes_are_named) {
  EXPECT_EQ(refusal("\\x4"), "keyword \"pattern\" at #: pattern \"\\\\x4\": malformed \\x escape "
                             "(expected 2 hex digits)");
  EXPECT_EQ(refusal("\\u12"), "keyword \"pattern\" at #: pattern \"\\\\u12\": malformed \\u escape "
                              "(expected 4 hex digits)");
  EXPECT_NE(refusal("\\u{}").find("malformed \\u{...} escape"), std::string::npos);
  EXPECT_NE(refusal("\\u{110000}").find("malformed \\u{...} escape"), std::string::npos);
  EXPECT_NE(refusal("\\u{12345678}").find("malformed \\u{...} escape"), std::string::npos);
  EXPECT_NE(refusal("\\c1").find("\\c must be followed by a letter"), std::string::npos);
  EXPECT_NE(refusal("\\01").find("octal escapes are not allowed"), std::string::npos);
  EXPECT_NE(refusal("\\q").find("\\q is not a valid escape"), std::string::npos);
  EXPECT_NE(refusal("abc\\").find("the pattern ends with a lone backslash"), std::string::npos);
  EXPECT_NE(refusal("\\pL").find("malformed \\p{...} escape"), std::string::npos);
  EXPECT_NE(refusal("\\k<name>").find("named backreferences"), std::string::npos);
}

TEST(ecma_regex, classes_translate_their_escapes) {
  EXPECT_TRUE(matches("^[\\s]$", "\xe3\x80\x80"));   // IDEOGRAPHIC SPACE is \s
  EXPECT_FALSE(matches("^[\\S]$", "\xe3\x80\x80"));
  EXPECT_TRUE(matches("^[\\S]$", "\xf0\x9f\x98\x80"));
  EXPECT_TRUE(matches("^\\S$", "x"));
  EXPECT_FALSE(matches("^\\S$", "\t"));
  EXPECT_TRUE(matches("^[\\b]$", "\b"));             // backspace inside a class
  EXPECT_TRUE(matches("^[a[]+$", "a[a"));            // '[' is literal inside a class
  EXPECT_TRUE(matches("^[^a]$", "b"));
  EXPECT_FALSE(matches("^[^a]$", "a"));
  EXPECT_NE(refusal("[\\B]").find("\\B is not allowed in a character class"), std::string::npos);
  EXPECT_NE(refusal("[abc").find("unterminated character class"), std::string::npos);
}

TEST(ecma_regex, empty_classes_match_nothing_or_anything) {
  EXPECT_FALSE(matches("[]", "anything"));
  EXPECT_TRUE(matches("^[^]$", "\n"));
  EXPECT_TRUE(matches("^a[^]b$", "a\xc3\xa9" "b"));
}

TEST(ecma_regex, unicode_properties_take_long_and_short_names) {
  EXPECT_TRUE(matches("^\\p{Letter}+$", "\xc3\xa9t\xc3\xa9"));
  EXPECT_TRUE(matches("^\\p{L}+$", "abc"));
  EXPECT_TRUE(matches("^\\p{General_Category=Decimal_Number}$", "\xd9\xa4"));  // ARABIC-INDIC 4
  EXPECT_TRUE(matches("^\\P{Lu}$", "a"));
  EXPECT_FALSE(matches("^\\P{Lu}$", "A"));
  EXPECT_TRUE(matches("^\\p{Greek}$", "\xce\xb1"));  // script names pass through
  auto unknown = validator::compile(json{{"pattern", "\\p{NoSuchProperty}"}});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message.find("is not a valid regular expression"), std::string::npos);
}

TEST(ecma_regex, groups_named_and_non_capturing) {
  EXPECT_TRUE(matches("^(?:ab)+$", "abab"));
  EXPECT_TRUE(matches("^(?<year>\\d{4})$", "2024"));
  EXPECT_NE(refusal("(?i)a").find("unsupported group syntax \"(?i\""), std::string::npos);
  EXPECT_NE(refusal("a)").find("unmatched \")\""), std::string::npos);
  EXPECT_NE(refusal("((a)").find("unclosed \"(\""), std::string::npos);
  EXPECT_NE(refusal("(?!a)").find("lookahead and lookbehind"), std::string::npos);
  EXPECT_NE(refusal("(?<=a)b").find("lookahead and lookbehind"), std::string::npos);
  EXPECT_NE(refusal("(?<!a)b").find("lookahead and lookbehind"), std::string::npos);
}

TEST(ecma_regex, dot_excludes_every_line_terminator) {
  EXPECT_FALSE(matches("^.$", "\r"));
  EXPECT_FALSE(matches("^.$", "\xe2\x80\xa8"));  // LINE SEPARATOR
  EXPECT_TRUE(matches("^.$", "\xe2\x80\xa7"));   // the code point before it
  EXPECT_TRUE(matches("^.$", "\xf0\x9f\x98\x80"));  // one code point, four bytes
}

TEST(ecma_regex, word_boundaries_and_identity_escapes_of_non_ascii) {
  EXPECT_TRUE(matches("\\bcat\\b", "a cat sat"));
  EXPECT_FALSE(matches("\\bcat\\b", "concatenate"));
  EXPECT_TRUE(matches("\\Bcat\\B", "concatenate"));
  EXPECT_TRUE(matches("^\\\xc3\xa9$", "\xc3\xa9"));
}

TEST(ecma_regex, a_long_pattern_is_shortened_in_the_message) {
  std::string long_pattern(100, 'a');
  long_pattern += "(?=b)";
  std::string message = refusal(long_pattern);
  EXPECT_NE(message.find("...: lookahead"), std::string::npos) << message;
  EXPECT_LT(message.size(), 200u);
}

TEST(ecma_regex, pattern_properties_use_the_same_translation) {
  auto v = validator::compile(json::parse(R"({"patternProperties": {"^\\d+$": {"type": "integer"}},
                                              "additionalProperties": false})"));
  ASSERT_TRUE(v.has_value());
  EXPECT_TRUE(v->is_valid(json::parse(R"({"12": 3})")));
  EXPECT_FALSE(v->is_valid(json::parse(R"({"12": "3"})")));
  EXPECT_FALSE(v->is_valid(json::parse(R"({"\u0661": 3})")));  // \d is ASCII only
  EXPECT_NE(refusal("\\1").find("backreferences (\\1)"), std::string::npos);
}

}  // namespace
