#pragma once
// Helpers for the textcall tests: parse a text fed in chunks, compare parses.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "tooluse/textcall/text_format.hpp"

namespace tooluse::textcall::testing {

/// parse_chunked feeds `text` in chunks of `size` bytes and collects the deltas.
inline parsed_text parse_chunked(format f, std::string_view text, std::size_t size,
                                 const parse_options& options = {}) {
  stream_parser p(f, options);
  parsed_text out;
  auto take = [&out](stream_delta d) {
    out.content += d.content;
    out.reasoning += d.reasoning;
    for (auto& c : d.calls) out.calls.push_back(std::move(c));
    for (auto& m : d.diagnostics) out.diagnostics.push_back(std::move(m));
  };
  for (std::size_t i = 0; i < text.size(); i += size) take(p.feed(text.substr(i, size)));
  take(p.finish());
  return out;
}

/// same_parse compares two parses field by field (arguments compared as JSON).
inline ::testing::AssertionResult same_parse(const parsed_text& a, const parsed_text& b) {
  if (a.content != b.content)
    return ::testing::AssertionFailure() << "content \"" << a.content << "\" vs \"" << b.content << "\"";
  if (a.reasoning != b.reasoning)
    return ::testing::AssertionFailure() << "reasoning \"" << a.reasoning << "\" vs \"" << b.reasoning << "\"";
  if (a.calls.size() != b.calls.size())
    return ::testing::AssertionFailure() << a.calls.size() << " calls vs " << b.calls.size();
  for (std::size_t i = 0; i < a.calls.size(); ++i) {
    const auto& x = a.calls[i];
    const auto& y = b.calls[i];
    if (x.id != y.id || x.name != y.name || x.arguments != y.arguments || x.raw_arguments != y.raw_arguments)
      return ::testing::AssertionFailure() << "call " << i << ": " << x.name << dump_json(x.arguments)
                                           << " vs " << y.name << dump_json(y.arguments);
  }
  return ::testing::AssertionSuccess();
}

/// streams_like_whole checks every chunk size from 1 byte to the whole text.
inline ::testing::AssertionResult streams_like_whole(format f, std::string_view text,
                                                     const parse_options& options = {}) {
  parsed_text whole = parse(f, text, options);
  for (std::size_t size = 1; size <= text.size(); ++size) {
    auto r = same_parse(parse_chunked(f, text, size, options), whole);
    if (!r) return r << " (chunk size " << size << ")";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tooluse::textcall::testing
