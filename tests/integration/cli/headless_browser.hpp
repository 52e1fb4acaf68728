#pragma once
// Rendering a page with headless Chromium (Debian's chromium; .ci/run installs it from
// scripts/packages.txt) and reading the DOM it built, for the trace viewer tests.
#include <filesystem>
#include <string>

#include "support/test_support.hpp"

namespace tooluse::testing {

/// chromium_path returns the browser's path, or "" when none is installed.
inline std::string chromium_path() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

/// rendered_dom loads `url` in headless Chromium (a fresh profile under `profile_dir`), lets its
/// scripts run (virtual time, so no waiting on the clock) and returns the serialized DOM; `status`
/// gets the browser's exit status.
inline std::string rendered_dom(const std::string& browser, const std::string& url,
                                const std::filesystem::path& profile_dir, int& status) {
  return run_shell(browser +
                       " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                       "--disable-background-networking --disable-component-update "
                       "--disable-sync --disable-dev-shm-usage --user-data-dir=" +
                       profile_dir.string() + " --virtual-time-budget=5000 --dump-dom '" + url +
                       "' 2>/dev/null",
                   status);
}

}  // namespace tooluse::testing
