// Fuzzes the built-in tools' parsers of untrusted input: HTML to text (gumbo + rendering),
// snippet tag stripping, URL parsing and redirect resolution, the SSRF address classifier, and
// path confinement of model-supplied paths. Invariants: no crash, and a path accepted by
// path_guard::resolve always lies under the root.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "builtin/path_guard.hpp"
#include "builtin/web_impl.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tooluse::builtin::detail;
  std::string in(reinterpret_cast<const char*>(data), size);
  (void)html_to_text(in);
  (void)strip_tags(in);
  if (auto u = parse_url(in)) {
    (void)resolve_reference(*u, in.substr(in.size() / 2));
  }
  (void)is_public_address(in);
  static const std::filesystem::path root = [] {
    auto p = std::filesystem::temp_directory_path() / "tooluse-fuzz-root";
    std::filesystem::create_directories(p / "sub");
    return std::filesystem::canonical(p);
  }();
  static const path_guard guard(root);
  if (auto r = guard.resolve(in)) {
    std::string s = r->string();
    if (s.compare(0, root.string().size(), root.string()) != 0) __builtin_trap();
  }
  return 0;
}
