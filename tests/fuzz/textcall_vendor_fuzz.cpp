// Fuzz the textcall vendor parser family: no crash on any input, and streaming the input in
// chunks (size from the first byte) must give exactly the whole-text parse.
#include "textcall_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return textcall_fuzz::run_formats(data, size, {textcall_fuzz::format::deepseek, textcall_fuzz::format::harmony, textcall_fuzz::format::functionary_v32});
}
