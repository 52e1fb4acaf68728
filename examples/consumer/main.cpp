// Built by scripts/check_install.sh against an installed tooluse (find_package(tooluse)).
#include <iostream>
#include <tooluse/builtin/builtins.hpp>
#include <tooluse/tooluse.hpp>

int main() {
  tooluse::tool_registry tools;
  tools.add({.name = "greet", .description = "Greet someone"},
            [](const tooluse::json& args, tooluse::call_context&) {
              return tooluse::tool_result::text("Hi " + args.value("who", std::string("you")));
            });
  tooluse::builtin::register_builtins(tools);
  tooluse::call_context ctx;
  auto r = tools.call(tooluse::tool_call::from_text("1", "greet", R"({"who":"CMake"})"), ctx);
  std::cout << "consumer: calculator " << (tools.find("calculator") ? "registered" : "missing")
            << ", greet says " << r.all_text() << "\n";
}
