#pragma once
// Helpers for the builtin tool tests: call a tool by name, write files.

#include <filesystem>
#include <fstream>
#include <string>

#include "tooluse/tools/registry.hpp"

namespace tooluse::testing {

inline tool_result call_tool(const tool_registry& registry, const std::string& name,
                             const json& args) {
  tool_call call{.id = "t", .name = name, .raw_arguments = args.dump(), .arguments = args};
  call_context ctx;
  return registry.call(call, ctx);
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace tooluse::testing
