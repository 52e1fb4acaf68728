#pragma once
// The tokenizer of Python expressions (python.hpp): names, numbers, strings with their
// prefixes, operators, NEWLINE and the end, with CPython's rules for what is refused (leading
// zeros, an unexpected indent, an unterminated string, unbalanced brackets).

#include <string>
#include <string_view>
#include <vector>

#include "tooluse/eval/py_value.hpp"

namespace tooluse::eval::detail {

enum class tok { name, number, string, op, newline, end };

struct token {
  tok kind = tok::end;
  std::string text;        ///< name, operator, or the literal's source text
  py_value value;          ///< number: int/float; string: the decoded text
  bool is_imag = false;    ///< number: 1j
  bool is_bytes = false;   ///< string: b'...'
  bool is_fstring = false; ///< string: f'...'
  std::size_t begin = 0;   ///< offsets in the source
  std::size_t end = 0;
  int line = 1;
};

/// Tokenizes all of `text`; throws decode_error on a token CPython's tokenizer refuses.
std::vector<token> tokenize_python(std::string_view text);

/// Python's reserved keywords (soft keywords such as `match` are names).
bool is_python_keyword(std::string_view word);

}  // namespace tooluse::eval::detail
