// A raw tool: a JSON Schema and a handler taking JSON, registered and called by name.
#include <iostream>
#include <tooluse/tooluse.hpp>

int main() {
  tooluse::tool_registry tools;
  tools.add({.name = "greet",
             .description = "Greet a user by name",
             .input_schema = {{"type", "object"},
                              {"properties", {{"user", {{"type", "string"}}}}},
                              {"required", {"user"}}}},
            [](const tooluse::json& args, tooluse::call_context&) {
              return tooluse::tool_result::text("Hi " + args["user"].get<std::string>());
            });
  tooluse::call_context ctx;
  auto result = tools.call(tooluse::tool_call::from_text("1", "greet", R"({"user":"Ada"})"), ctx);
  std::cout << result.all_text() << "\n";
}
