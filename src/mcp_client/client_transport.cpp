// split_command: shell-like word splitting for `--server 'CMD ARGS'`.
#include <string>
#include <vector>

#include "tooluse/mcp/client_transport.hpp"

namespace tooluse::mcp {

result<std::vector<std::string>> split_command(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0; else word += c;
      continue;
    }
    if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
      continue;
    }
    if (quote == '"') {
      if (c == '"') quote = 0; else word += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) {
    return fail(errc::invalid_argument,
                std::string("unterminated ") + quote + " quote in server command `" +
                    std::string(line) + "`; close the quote");
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) {
    return fail(errc::invalid_argument, "empty server command; give the program to run, e.g. "
                                        "`npx -y @modelcontextprotocol/server-memory`");
  }
  return words;
}

}  // namespace tooluse::mcp
