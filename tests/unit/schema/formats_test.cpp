// "format" as an assertion (compile_options::format_assertion): each format accepts the forms its
// RFC allows and rejects the near misses a model writes, and the message names the format with
// an example. Unknown formats stay annotations.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tooluse/schema/validator.hpp"

namespace {

using tooluse::json;
using tooluse::schema::validator;

struct format_case {
  const char* format;
  std::vector<const char*> valid;
  std::vector<const char*> invalid;
};

validator asserting(const std::string& format) {
  auto v = validator::compile(json{{"type", "string"}, {"format", format}}, {.format_assertion = true});
  EXPECT_TRUE(v.has_value());
  return *v;
}

const std::vector<format_case>& cases() {
  static const std::vector<format_case> k_cases = {
      {"date", {"2024-02-29", "2000-02-29", "1999-12-31"},
       {"2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-4-01",
        "2024/04/01", "20240401", "2024-04-01T00:00:00Z", ""}},
      {"time", {"13:45:00Z", "13:45:00.123+02:00", "00:00:00z", "23:59:60Z", "01:29:60+01:30"},
       {"13:45:00", "24:00:00Z", "12:60:00Z", "12:00:61Z", "12:00:60Z", "12:00:00.Z",
        "12:00:00+2:00", "12:00:00+24:00", "12:00:00+02:60", "12:00:00+0200", "12:00:00ZZ",
        "1:00:00Z"}},
      {"date-time", {"2024-05-01T13:45:00Z", "2024-05-01t13:45:00.5-07:00", "2016-12-31T23:59:60Z"},
       {"2024-05-01 13:45:00Z", "2024-05-01T13:45:00", "2024-05-32T13:45:00Z", "2024-05-01T",
        "2016-12-31T22:59:60Z"}},
      {"duration", {"P3DT4H", "P1Y", "P1Y2M", "PT1M", "PT1H2M3S", "P2W", "P1M2D", "PT36H"},
       {"P", "PT", "P1H", "PT1D", "P1D2Y", "P1YD", "P2W1D", "PT1W", "P1DT", "3D", "P1.5D",
        "P1YT2H3D", "PTT1H"}},
      {"email", {"a@example.com", "first.last+tag@sub.example.org", "\"a b\"@example.com",
                 "x@[127.0.0.1]", "x@[IPv6:::1]", "o'brien@example.ie"},
       {"@example.com", "a@", "plain", ".a@example.com", "a.@example.com", "a..b@example.com",
        "a b@example.com", "a@-example.com", "a@[300.1.1.1]", "\xc3\xa9@example.com"}},
      {"idn-email", {"\xc3\xa9@example.com", "a@b\xc3\xbc" "cher.de"}, {"a@", "a b@c.d"}},
      {"hostname", {"example.com", "a", "xn--nxasmq6b.example", "a-b.c-d.e", "1.2.3.4"},
       {"", "-a.com", "a-.com", "a..b", ".a", "a_b.com", "ab--cd.com",
        "b\xc3\xbc" "cher.de"}},
      {"idn-hostname", {"b\xc3\xbc" "cher.de", "example.com"}, {"-x.de", "a..b"}},
      {"ipv4", {"0.0.0.0", "192.168.1.1", "255.255.255.255"},
       {"256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.", "a.b.c.d", "1.2.3.4 ", "1..3.4",
        "1234.1.1.1"}},
      {"ipv6", {"::", "::1", "1::", "fe80::1", "2001:db8:0:0:0:0:2:1", "1:2:3:4:5:6:7::",
                "::ffff:192.168.1.1", "1:2:3:4:5:6:1.2.3.4"},
       {"", ":1", "1:", "1:::2", "1::2::3", "12345::1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7",
        "::ffff:999.1.1.1", "g::1", "::1:2:3:4:5:6:7:8"}},
      {"uri", {"https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@b.c",
               "http://[::1]:8080/", "http://user@host/", "http://[v1.fe]/", "a+b-c.d:x"},
       {"/relative/path", "example.com", "http://exa mple.com", "1http://x", "http://x/%zz",
        "http://x/#a#b", "http://[::1/", "http://[zz]/", "http://x:80a/", "http://a[b]/",
        "http://x/a[0]", "http://u@v@w/", "http://[::1]x/", "h\xc3\xa9://x"}},
      {"uri-reference", {"/relative/path", "a/b?c", "#frag", "", "//host/path", "http://x"},
       {"a:b:c d", "\\\\server", "/a b", "%"}},
      {"iri", {"https://b\xc3\xbc" "cher.de/\xc3\xa9"}, {"/relative", "http://a b"}},
      {"iri-reference", {"/caf\xc3\xa9", "#\xc3\xa9"}, {"/a b"}},
      {"uri-template", {"http://example.com/{id}", "/search{?q,lang}", "{+path}/x", "{var:3}",
                        "{list*}", "{a.b}", "{%41}", "plain"},
       {"/{", "/}", "{a b}", "{a,}", "{.}", "{a..b}", "{var:0}", "{var:10000}", "{var:x}",
        "{var#}", "{{a}}", "a b", "{%4}"}},
      {"uuid", {"123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"},
       {"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400",
        "123e4567-e89b-12d3-a456_426614174000", "g23e4567-e89b-12d3-a456-426614174000"}},
      {"json-pointer", {"", "/", "/a/b", "/a~0b/c~1d", "/0"}, {"a", "/a~", "/a~2"}},
      {"relative-json-pointer", {"0", "1/a", "2#", "10/x~1y"}, {"", "/a", "01/a", "-1", "1~", "#"}},
      {"regex", {"^[a-z]+$", "(a|b)*", "\\d{2}", "(?=a)", "(a)\\1"}, {"(", "[a-", "a)", "\\q"}},
  };
  return k_cases;
}

TEST(formats, each_format_accepts_its_forms_and_rejects_near_misses) {
  for (const auto& c : cases()) {
    auto v = asserting(c.format);
    for (const char* s : c.valid) EXPECT_TRUE(v.is_valid(json(s))) << c.format << ": " << s;
    for (const char* s : c.invalid) EXPECT_FALSE(v.is_valid(json(s))) << c.format << ": " << s;
  }
}

TEST(formats, the_message_names_the_format_with_an_example) {
  const std::pair<const char*, const char*> k_messages[] = {
      {"date-time", "expected date-time (RFC 3339, e.g. 2024-05-01T13:45:00Z), got \"x\""},
      {"time", "expected time (HH:MM:SS with a zone, e.g. 13:45:00Z), got \"x\""},
      {"duration", "expected duration (ISO 8601, e.g. P3DT4H), got \"x\""},
      {"email", "expected e-mail address, got \"x\""},
      {"idn-email", "expected e-mail address, got \"x\""},
      {"hostname", "expected host name, got \"-x\""},
      {"ipv4", "expected IPv4 address, got \"x\""},
      {"ipv6", "expected IPv6 address, got \"x\""},
      {"uri", "expected absolute URI, got \"x\""},
      {"iri", "expected absolute URI, got \"x\""},
      {"uri-reference", "expected URI reference, got \"a b\""},
      {"uri-template", "expected URI template, got \"{\""},
      {"uuid", "expected UUID, got \"x\""},
      {"json-pointer", "expected JSON pointer, got \"x\""},
      {"relative-json-pointer", "expected relative JSON pointer, got \"x\""},
      {"regex", "expected regular expression, got \"(\""},
  };
  for (const auto& [format, message] : k_messages) {
    auto v = asserting(format);
    std::string bad = std::string(format) == "hostname"        ? "-x"
                      : std::string(format) == "uri-reference" ? "a b"
                      : std::string(format) == "uri-template"  ? "{"
                      : std::string(format) == "regex"         ? "("
                                                               : "x";
    auto errors = v.validate(json(bad));
    ASSERT_EQ(errors.size(), 1u) << format;
    EXPECT_EQ(errors[0].keyword, "format");
    EXPECT_EQ(errors[0].message, message);
  }
}

TEST(formats, unknown_formats_and_non_strings_pass) {
  auto unknown = asserting("x-color");
  EXPECT_TRUE(unknown.is_valid(json("anything")));
  auto v = validator::compile(json{{"format", "date"}}, {.format_assertion = true});
  ASSERT_TRUE(v.has_value());
  EXPECT_TRUE(v->is_valid(json(20240101)));  // format constrains strings only
  EXPECT_TRUE(v->is_valid(json::object()));
  EXPECT_FALSE(v->is_valid(json("2024-1-1")));
  auto not_a_string = validator::compile(json{{"format", 3}}, {.format_assertion = true});
  ASSERT_TRUE(not_a_string.has_value());  // a non-string format is ignored
  EXPECT_TRUE(not_a_string->is_valid(json("x")));
}

TEST(formats, the_format_assertion_vocabulary_turns_assertion_on_without_the_option) {
  json meta = json::parse(R"({
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://example.com/meta/format-assertion",
      "$vocabulary": {
        "https://json-schema.org/draft/2020-12/vocab/core": true,
        "https://json-schema.org/draft/2020-12/vocab/validation": true,
        "https://json-schema.org/draft/2020-12/vocab/format-assertion": true}})");
  auto v = validator::compile(
      json::parse(R"({"$schema": "https://example.com/meta/format-assertion", "format": "ipv4"})"),
      {.resolve = [&](const std::string& uri) -> std::optional<json> {
        if (uri == "https://example.com/meta/format-assertion") return meta;
        return std::nullopt;
      }});
  ASSERT_TRUE(v.has_value()) << v.error().message;
  EXPECT_TRUE(v->is_valid(json("10.0.0.1")));
  EXPECT_FALSE(v->is_valid(json("10.0.0")));
}

TEST(formats, hostnames_have_label_and_total_length_limits) {
  auto v = asserting("hostname");
  EXPECT_TRUE(v.is_valid(json(std::string(63, 'a') + ".com")));
  EXPECT_FALSE(v.is_valid(json(std::string(64, 'a') + ".com")));
  std::string long_name;
  while (long_name.size() < 251) long_name += "abcdefghi.";
  long_name += "com";  // 263 characters: over the 253 allowed
  EXPECT_FALSE(v.is_valid(json(long_name)));
  EXPECT_TRUE(v.is_valid(json(long_name.substr(long_name.size() - 253 + 10))));
}

}  // namespace
