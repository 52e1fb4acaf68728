// tooluse/text.hpp: hexadecimal digits, UTF-8 encoding at each length's boundaries, Python string
// literals.
#include "tooluse/text.hpp"

#include <gtest/gtest.h>

#include <string>

TEST(text, hex_value_reads_both_cases_and_refuses_the_rest) {
  EXPECT_EQ(tooluse::hex_value('0'), 0);
  EXPECT_EQ(tooluse::hex_value('9'), 9);
  EXPECT_EQ(tooluse::hex_value('a'), 10);
  EXPECT_EQ(tooluse::hex_value('F'), 15);
  EXPECT_EQ(tooluse::hex_value('g'), -1);
  EXPECT_EQ(tooluse::hex_value('/'), -1);
  EXPECT_EQ(tooluse::hex_value('\0'), -1);
}

TEST(text, ascii_lower_folds_only_ascii_letters) {
  EXPECT_EQ(tooluse::ascii_lower("Content-TYPE: Object"), "content-type: object");
  EXPECT_EQ(tooluse::ascii_lower("\xC3\x84" "Bc"), "\xC3\x84" "bc");  // U+00C4 is kept as it is
  EXPECT_EQ(tooluse::ascii_lower(""), "");
}

TEST(text, append_utf8_writes_one_to_four_bytes) {
  std::string out;
  tooluse::append_utf8(out, U'A');
  tooluse::append_utf8(out, 0x7F);
  tooluse::append_utf8(out, 0x80);
  tooluse::append_utf8(out, 0x7FF);
  tooluse::append_utf8(out, 0x800);
  tooluse::append_utf8(out, 0xFFFF);
  tooluse::append_utf8(out, 0x10000);
  tooluse::append_utf8(out, 0x10FFFF);
  EXPECT_EQ(out, "A\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF");
}

TEST(text, python_quoted_escapes_as_python_repr_does) {
  // Only the chosen quote is escaped; control bytes and DEL become \xNN; UTF-8 stays as it is.
  EXPECT_EQ(tooluse::python_quoted("it's \"x\"\\", '"'), R"("it's \"x\"\\")");
  EXPECT_EQ(tooluse::python_quoted("it's \"x\"", '\''), R"('it\'s "x"')");
  EXPECT_EQ(tooluse::python_quoted("a\nb\rc\td\x01" "e\x7f\xC3\xA9", '"'),
            "\"a\\nb\\rc\\td\\x01e\\x7f\xC3\xA9\"");
  EXPECT_EQ(tooluse::python_quoted("", '\''), "''");
}
