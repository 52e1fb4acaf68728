#pragma once
/// \file result.hpp
/// tooluse::result<T>, the return type of every fallible operation: a T or a tooluse::error.
/// It is tl::expected (Debian's libexpected-dev), kept behind this alias so it can become
/// std::expected once the project moves to C++23.

#include <string>
#include <tl/expected.hpp>
#include <utility>

#include "tooluse/error.hpp"

namespace tooluse {

/// result<T> holds a T, or the error that prevented it.
template <class T>
using result = tl::expected<T, error>;

/// status is a result without a value: success, or an error.
using status = tl::expected<void, error>;

/// fail makes the error side of a result: `return fail(errc::not_found, "no tool \"x\"");`
inline tl::unexpected<error> fail(errc code, std::string message, int jsonrpc_code = 0) {
  return tl::unexpected<error>(error{code, std::move(message), jsonrpc_code});
}

/// fail forwards an existing error.
inline tl::unexpected<error> fail(error e) { return tl::unexpected<error>(std::move(e)); }

}  // namespace tooluse
