#include "builtin/tool_util.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tooluse::builtin::detail {

tool builtin_tool(std::string name, std::string title, std::string description, tool policy) {
  policy.name = std::move(name);
  policy.title = std::move(title);
  policy.description = std::move(description);
  policy.version = "1.0.0";
  return policy;
}

tool builtin_tool(const tool_text& text, tool policy) {
  policy.annotations = text.hints;
  return builtin_tool(std::string(text.name), std::string(text.title),
                      std::string(text.description), std::move(policy));
}

tool_result error_result(const error& e) { return tool_result::error(e.message); }

tool_result text_and_data(std::string text, json data) {
  tool_result r = tool_result::text(std::move(text));
  r.structured_content = std::move(data);
  return r;
}

std::string read_fd(int fd, std::size_t limit, bool& more) {
  std::string out;
  more = false;
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::size_t room = limit - out.size();
    if (static_cast<std::size_t>(n) > room) {
      out.append(buf, room);
      more = true;
      break;
    }
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() == limit) {
      char probe;
      ssize_t p = ::read(fd, &probe, 1);
      more = p > 0;
      break;
    }
  }
  return out;
}

bool write_fd(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string human_size(std::uintmax_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%ju B", bytes);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace tooluse::builtin::detail
