#include "builtin/tool_util.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tooluse::builtin::detail {

namespace {
const json* find_arg(const json& args, std::string_view key) {
  if (!args.is_object()) return nullptr;
  auto it = args.find(std::string(key));
  if (it == args.end() || it->is_null()) return nullptr;
  return &*it;
}

[[noreturn]] void wrong_type(std::string_view key, const char* expected, const json& v) {
  throw std::invalid_argument("argument \"" + std::string(key) + "\" must be " + expected +
                              ", got " + std::string(type_name(v)));
}
}  // namespace

bool has_arg(const json& args, std::string_view key) { return find_arg(args, key) != nullptr; }

std::string arg_string(const json& args, std::string_view key, std::string fallback) {
  const json* v = find_arg(args, key);
  if (!v) return fallback;
  if (!v->is_string()) wrong_type(key, "a string", *v);
  return v->get<std::string>();
}

std::int64_t arg_int(const json& args, std::string_view key, std::int64_t fallback) {
  const json* v = find_arg(args, key);
  if (!v) return fallback;
  if (v->is_number_integer()) return v->get<std::int64_t>();
  if (v->is_number_float()) {
    double d = v->get<double>();
    if (std::floor(d) == d && std::fabs(d) < 9e15) return static_cast<std::int64_t>(d);
  }
  wrong_type(key, "an integer", *v);
}

double arg_double(const json& args, std::string_view key, double fallback) {
  const json* v = find_arg(args, key);
  if (!v) return fallback;
  if (!v->is_number()) wrong_type(key, "a number", *v);
  return v->get<double>();
}

bool arg_bool(const json& args, std::string_view key, bool fallback) {
  const json* v = find_arg(args, key);
  if (!v) return fallback;
  if (!v->is_boolean()) wrong_type(key, "a boolean", *v);
  return v->get<bool>();
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
