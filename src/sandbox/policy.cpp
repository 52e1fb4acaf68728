// sandbox::policy from and to JSON (the "sandbox" value of an mcpServers entry).
#include "tooluse/sandbox/policy.hpp"

namespace tooluse::sandbox {

std::string_view to_string(limit l) noexcept {
  switch (l) {
    case limit::none: return "none";
    case limit::memory: return "memory";
    case limit::cpu_time: return "cpu_time";
    case limit::processes: return "processes";
    case limit::file_size: return "file_size";
    case limit::open_files: return "open_files";
    case limit::tmp_size: return "tmp_size";
    case limit::disk_space: return "disk_space";
    case limit::timeout: return "timeout";
    case limit::output_size: return "output_size";
    case limit::cancelled: return "cancelled";
  }
  return "none";
}

namespace {

tl::unexpected<error> bad(const std::string& field, const std::string& expected) {
  return fail(errc::invalid_argument, "sandbox." + field + ": expected " + expected);
}

result<std::vector<std::filesystem::path>> paths(const json& v, const std::string& field) {
  if (!v.is_array()) return bad(field, "a list of absolute paths");
  std::vector<std::filesystem::path> out;
  for (const auto& p : v) {
    if (!p.is_string() || p.get<std::string>().empty() || p.get<std::string>()[0] != '/')
      return bad(field, "a list of absolute paths");
    out.emplace_back(p.get<std::string>());
  }
  return out;
}

}  // namespace

result<policy> parse_policy(const json& value, const policy& defaults) {
  if (value.is_boolean() && value.get<bool>()) return defaults;
  if (!value.is_object())
    return fail(errc::invalid_argument, "sandbox: expected true or an object of policy fields");
  policy p = defaults;
  const std::pair<const char*, std::size_t policy::*> numbers[] = {
      {"memory_limit_mb", &policy::memory_limit_mb}, {"cpu_seconds", &policy::cpu_seconds},
      {"max_processes", &policy::max_processes},     {"max_file_size_mb", &policy::max_file_size_mb},
      {"max_open_files", &policy::max_open_files},   {"tmp_size_mb", &policy::tmp_size_mb},
      {"min_free_disk_mb", &policy::min_free_disk_mb}};
  for (const auto& [key, v] : value.items()) {
    bool known = false;
    for (const auto& [name, field] : numbers) {
      if (key != name) continue;
      known = true;
      if (!v.is_number_unsigned()) return bad(key, "a non-negative integer");
      p.*field = v.get<std::size_t>();
    }
    if (known) continue;
    if (key == "network") {
      if (v.is_boolean() && !v.get<bool>()) {
        p.allowed_hosts.clear();
        continue;
      }
      if (!v.is_array()) return bad(key, "false or a list of host names");
      p.allowed_hosts.clear();
      for (const auto& h : v) {
        if (!h.is_string() || h.get<std::string>().empty()) return bad(key, "false or a list of host names");
        p.allowed_hosts.push_back(h.get<std::string>());
      }
    } else if (key == "read" || key == "write") {
      auto list = paths(v, key);
      if (!list) return fail(list.error());
      (key == "read" ? p.read_paths : p.write_paths) = std::move(*list);
    } else {
      return fail(errc::invalid_argument,
                  "sandbox: unknown field \"" + key +
                      "\" (known: memory_limit_mb, cpu_seconds, max_processes, max_file_size_mb, "
                      "max_open_files, tmp_size_mb, min_free_disk_mb, network, read, write)");
    }
  }
  return p;
}

json to_json(const policy& p) {
  json j = {{"memory_limit_mb", p.memory_limit_mb}, {"cpu_seconds", p.cpu_seconds},
            {"max_processes", p.max_processes},     {"max_file_size_mb", p.max_file_size_mb},
            {"max_open_files", p.max_open_files},   {"tmp_size_mb", p.tmp_size_mb},
            {"min_free_disk_mb", p.min_free_disk_mb}};
  if (p.host_network)
    j["network"] = "host";
  else if (p.allowed_hosts.empty())
    j["network"] = false;
  else
    j["network"] = p.allowed_hosts;
  json read = json::array(), write = json::array();
  for (const auto& r : p.read_paths) read.push_back(r.string());
  for (const auto& w : p.write_paths) write.push_back(w.string());
  j["read"] = std::move(read);
  j["write"] = std::move(write);
  return j;
}

}  // namespace tooluse::sandbox
