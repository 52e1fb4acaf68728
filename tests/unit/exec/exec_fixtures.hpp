#pragma once
// Helpers for the executor tests: a registry with small tools and a gate to hold handlers.

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "tooluse/exec/executor.hpp"

namespace tooluse::exec::testing {

/// gate blocks handlers until opened; stands in for "a tool that never returns".
class gate {
 public:
  void open() {
    std::lock_guard lock(m_);
    open_ = true;
    cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return open_; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool open_ = false;
};

/// waiter blocks a test until a count is reached (e.g. "N handlers started").
class counter {
 public:
  void add() {
    std::lock_guard lock(m_);
    ++n_;
    cv_.notify_all();
  }
  void wait_for(int n) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return n_ >= n; });
  }
  int value() {
    std::lock_guard lock(m_);
    return n_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_ = 0;
};

inline tool_call make_call(std::string name, json args = json::object(), std::string id = {}) {
  tool_call c;
  c.id = id.empty() ? "call_" + name : std::move(id);
  c.name = std::move(name);
  c.raw_arguments = dump_json(args);
  c.arguments = std::move(args);
  return c;
}

inline json int_schema(const char* field) {
  return {{"type", "object"},
          {"properties", {{field, {{"type", "integer"}}}}},
          {"required", json::array({field})}};
}

/// echo returns the text of argument "i".
inline void add_echo(tool_registry& r, tool extra = {}) {
  extra.name = extra.name.empty() ? "echo" : extra.name;
  extra.input_schema = int_schema("i");
  r.add(std::move(extra), [](const json& args, call_context&) {
    return tool_result::text(std::to_string(args["i"].get<int>()));
  });
}

}  // namespace tooluse::exec::testing
