#include "tooluse/exec/cache.hpp"

namespace tooluse::exec {

result_cache::result_cache(cache_options options, std::shared_ptr<clock> time)
    : options_(options), clock_(std::move(time)) {
  if (!clock_) clock_ = steady_clock_source();
}

std::string result_cache::key(std::string_view tool, const json& arguments) {
  std::string k(tool);
  k += '\n';
  k += canonical_json(arguments);
  return k;
}

std::optional<tool_result> result_cache::get(const std::string& key) {
  const auto now = clock_->now();
  std::lock_guard lock(mutex_);
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  if (it->second->expires <= now) {
    lru_.erase(it->second);
    index_.erase(it);
    return std::nullopt;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->value;
}

void result_cache::put(const std::string& key, const tool_result& value) {
  if (options_.capacity == 0 || value.is_error) return;
  const auto expires = clock_->now() + options_.ttl;
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(key); it != index_.end()) {
    it->second->value = value;
    it->second->expires = expires;
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.push_front(entry{key, value, expires});
  index_.emplace(key, lru_.begin());
  while (lru_.size() > options_.capacity) {
    index_.erase(lru_.back().key);
    lru_.pop_back();
  }
}

std::size_t result_cache::size() const {
  std::lock_guard lock(mutex_);
  return lru_.size();
}

}  // namespace tooluse::exec
