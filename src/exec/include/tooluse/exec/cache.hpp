#pragma once
/// \file cache.hpp
/// tooluse::exec::result_cache, an LRU cache with TTL for results of read-only tools, keyed by
/// tool name and canonical arguments. Error results are never stored.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "tooluse/exec/clock.hpp"
#include "tooluse/json.hpp"
#include "tooluse/tools/tool_result.hpp"

namespace tooluse::exec {

/// cache_options turns the result cache on (capacity > 0). Only tools annotated read_only are
/// cached.
struct cache_options {
  std::size_t capacity = 0;  ///< entries; 0 disables the cache
  std::chrono::milliseconds ttl{std::chrono::minutes(5)};
};

/// result_cache is an LRU map from (tool, canonical_json(arguments)) to a result, with entries
/// expiring `ttl` after they were stored. Thread-safe.
class result_cache {
 public:
  result_cache(cache_options options, std::shared_ptr<clock> time);

  /// key returns the cache key of a call: the tool name and the canonical arguments.
  static std::string key(std::string_view tool, const json& arguments);
  /// get returns a fresh entry (and marks it recently used), or std::nullopt.
  std::optional<tool_result> get(const std::string& key);
  /// put stores `value` unless it is an error result; evicts the least recently used entry
  /// when full.
  void put(const std::string& key, const tool_result& value);
  /// size returns the number of entries, expired ones included until touched.
  std::size_t size() const;

 private:
  struct entry {
    std::string key;
    tool_result value;
    clock::time_point expires;
  };
  cache_options options_;
  std::shared_ptr<clock> clock_;
  mutable std::mutex mutex_;
  std::list<entry> lru_;  // most recently used first
  std::unordered_map<std::string, std::list<entry>::iterator> index_;
};

}  // namespace tooluse::exec
