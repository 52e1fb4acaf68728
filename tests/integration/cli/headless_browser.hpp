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

#include <fstream>
#include <sstream>

namespace tooluse::testing {

/// browser_flags are the switches every headless run takes: a fresh profile, nothing fetched
/// from elsewhere, a fixed window and scale so screenshots are the same size everywhere.
inline std::string browser_flags(const std::filesystem::path& profile_dir) {
  return " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
         "--disable-background-networking --disable-component-update --disable-sync "
         "--disable-dev-shm-usage --hide-scrollbars --force-device-scale-factor=1 "
         "--font-render-hinting=none --run-all-compositor-stages-before-draw --window-size=1280,900 "
         "--user-data-dir=" +
         profile_dir.string() + " --virtual-time-budget=5000 ";
}

/// screenshot renders `url` at 1280x900 into the PNG `out`; false (with the browser's output
/// in `log`) when no PNG was written.
inline bool screenshot(const std::string& browser, const std::string& url,
                       const std::filesystem::path& out, const std::filesystem::path& profile_dir,
                       std::string& log) {
  std::filesystem::remove(out);
  int status = 0;
  log = run_shell(browser + browser_flags(profile_dir) + "--screenshot=" + out.string() + " '" +
                      url + "' 2>&1",
                  status);
  return status == 0 && std::filesystem::exists(out) && std::filesystem::file_size(out) > 0;
}

inline std::string base64(const std::string& bytes) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned n = (static_cast<unsigned char>(bytes[i]) << 16) |
                 (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                 static_cast<unsigned char>(bytes[i + 2]);
    for (int s : {18, 12, 6, 0}) out += abc[(n >> s) & 63];
  }
  if (i + 1 == bytes.size()) {
    unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
    out += abc[(n >> 18) & 63];
    out += abc[(n >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    unsigned n = (static_cast<unsigned char>(bytes[i]) << 16) |
                 (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += abc[(n >> 18) & 63];
    out += abc[(n >> 12) & 63];
    out += abc[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

/// image_difference is what comparing two screenshots found.
struct image_difference {
  bool compared = false;  ///< both decoded, same size
  std::string report;     ///< the comparison page's words (sizes, counts), for messages
  double pixels = 1;      ///< share of pixels whose colour differs by more than 32 of 255
  double blocks = 1;      ///< share of 16x16 blocks whose mean brightness differs by more than 8
};

/// compare_images decodes two PNGs in the browser (a canvas; no image library needed) and
/// measures how far they differ. Block means forgive the sub-pixel glyph differences two font
/// rasterisers make while still seeing a moved, missing or resized element.
inline image_difference compare_images(const std::string& browser, const std::filesystem::path& a,
                                       const std::filesystem::path& b,
                                       const std::filesystem::path& work) {
  const std::string page = R"(<!doctype html><body><pre id="out">pending</pre><script>
const load = (src) => new Promise((ok, bad) => { const i = new Image(); i.onload = () => ok(i); i.onerror = bad; i.src = src; });
const pixels = (img) => { const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
  const g = c.getContext("2d"); g.drawImage(img, 0, 0); return g.getImageData(0, 0, img.width, img.height).data; };
Promise.all([load("data:image/png;base64,@A@"), load("data:image/png;base64,@B@")]).then(([ia, ib]) => {
  const out = document.getElementById("out");
  if (ia.width !== ib.width || ia.height !== ib.height) { out.textContent = `size ${ia.width}x${ia.height} vs ${ib.width}x${ib.height}`; return; }
  const pa = pixels(ia), pb = pixels(ib), w = ia.width, h = ia.height;
  let diff = 0;
  for (let i = 0; i < pa.length; i += 4)
    if (Math.max(Math.abs(pa[i] - pb[i]), Math.abs(pa[i + 1] - pb[i + 1]), Math.abs(pa[i + 2] - pb[i + 2])) > 32) diff++;
  let blocks = 0, differing = 0;
  for (let by = 0; by < h; by += 16) for (let bx = 0; bx < w; bx += 16) {
    let sa = 0, sb = 0, n = 0;
    for (let y = by; y < Math.min(by + 16, h); y++) for (let x = bx; x < Math.min(bx + 16, w); x++) {
      const i = (y * w + x) * 4; sa += pa[i] + pa[i + 1] + pa[i + 2]; sb += pb[i] + pb[i + 1] + pb[i + 2]; n++;
    }
    blocks++; if (Math.abs(sa - sb) / (3 * n) > 8) differing++;
  }
  out.textContent = `compared ${w}x${h} pixels=${diff / (w * h)} blocks=${differing / blocks}`;
}, () => { document.getElementById("out").textContent = "undecodable"; });
</script></body>)";
  std::string html = page;
  html.replace(html.find("@A@"), 3, base64(read_file(a)));
  html.replace(html.find("@B@"), 3, base64(read_file(b)));
  auto file = work / "compare.html";
  std::ofstream(file) << html;
  int status = 0;
  std::string dom = run_shell(browser + browser_flags(work / "compare-profile") + "--dump-dom 'file://" +
                                  file.string() + "' 2>/dev/null",
                              status);
  image_difference d;
  auto at = dom.find("<pre id=\"out\">");
  if (at == std::string::npos) {
    d.report = "no result: " + dom.substr(0, 300);
    return d;
  }
  d.report = dom.substr(at + 14, dom.find("</pre>", at) - at - 14);
  if (d.report.rfind("compared ", 0) != 0) return d;
  d.compared = true;
  std::istringstream words(d.report.substr(d.report.find("pixels=")));
  std::string w;
  while (words >> w) {
    if (w.rfind("pixels=", 0) == 0) d.pixels = std::stod(w.substr(7));
    if (w.rfind("blocks=", 0) == 0) d.blocks = std::stod(w.substr(7));
  }
  return d;
}

}  // namespace tooluse::testing
