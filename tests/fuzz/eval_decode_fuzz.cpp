// Fuzz the BFCL decoders (tooluse eval): model output is untrusted text. No input may crash,
// hang or recurse without bound: the Python expression parser, the Java and JavaScript call
// parsers and every handler's decode_ast either decode or raise decode_error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "eval/decode_error.hpp"
#include "eval/handlers.hpp"
#include "eval/java.hpp"
#include "eval/js.hpp"
#include "eval/python.hpp"

using namespace tooluse::eval;
using namespace tooluse::eval::detail;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto attempt = [](auto&& f) {
    try {
      f();
    } catch (const decode_error&) {
    }
  };
  attempt([&] { (void)ast_parse_python(text).repr(); });
  attempt([&] { (void)parse_java_function_call(text).repr(); });
  attempt([&] { (void)parse_javascript_function_call(text).repr(); });
  attempt([&] { (void)java_type_converter(py_value::string(text), "ArrayList", "String"); });
  attempt([&] { (void)java_type_converter(py_value::string(text), "HashMap"); });
  attempt([&] { (void)js_type_converter(py_value::string(text), "array", "dict"); });
  attempt([&] { (void)js_type_converter(py_value::string(text), "dict"); });
  const language lang = size % 3 == 0 ? language::python : size % 3 == 1 ? language::java : language::javascript;
  for (const auto& family : known_formats()) {
    auto h = handler_for_format(family, family == "openai" || family == "mistral" ? "x-FC" : "x");
    attempt([&] { (void)decode_ast(*h, py_value::string(text), lang).repr(); });
  }
  return 0;
}
