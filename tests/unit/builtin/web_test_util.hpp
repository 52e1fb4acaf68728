#pragma once
// Helpers for the network tool tests: fixtures recorded from the APIs' documented shapes,
// served by a loopback server.

#include <string>

#include "support/fake_llm_server.hpp"
#include "support/test_support.hpp"

namespace tooluse::testing {

inline std::string fixture(const std::string& name) {
  return read_file(std::filesystem::path(TOOLUSE_SOURCE_DIR) / "tests/unit/builtin/fixtures" / name);
}

inline scripted_response json_reply(const std::string& body, int status = 200) {
  return {.status = status, .headers = {{"Content-Type", "application/json"}}, .body = body};
}

}  // namespace tooluse::testing
