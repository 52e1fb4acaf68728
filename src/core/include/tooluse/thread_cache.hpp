#pragma once
// thread_cache: each thread's last few lookups in a shared table, so that a lookup the thread
// made before takes no lock that other threads take and touches no reference count that other
// threads change.
//
// Why: a table read by every request (the tool registry, the MCP server's tool entries) sits
// behind a reader-writer lock and hands out shared_ptr copies. Both are atomic writes to a cache
// line that every I/O thread writes too, so two threads serving requests pass the line back and
// forth several times per request. Here a hit locks a mutex only its own thread uses (a writer
// of the table takes it only to forget entries) and copies a shared_ptr whose control block this
// thread allocated (an aliasing pointer that owns a private holder of the table's pointer).
//
// The table's owner calls `forget(owner)` after every change of a key's value (add, replace,
// remove) and in its destructor: every thread's entries of that owner are dropped, so a lookup
// never returns a value the table no longer has once the change has returned, and a removed
// value is not kept alive by a cache. Lookups made while a change is under way may return the
// old value, as a lookup that took the table's lock just before the change would.
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tooluse::detail {

template <class V>
class thread_cache {
 public:
  /// get returns owner's value for key: this thread's copy when it has one, else load()'s (a
  /// std::shared_ptr<V>, null when there is none), which it keeps. load runs with this thread's
  /// cache locked: it must not look up in a thread_cache<V> again.
  template <class Load>
  static std::shared_ptr<V> get(const void* owner, std::string_view key, Load&& load) {
    auto& c = mine();
    std::unique_lock lock(c.mu);
    for (auto& s : c.slots)
      if (s.owner == owner && s.key == key) return s.value;
    std::shared_ptr<V> found = load();
    if (!found) return found;
    auto holder = std::make_shared<std::shared_ptr<V>>(std::move(found));
    slot& s = c.slots[c.next++ % c.slots.size()];
    auto old = std::move(s.value);  // destroyed after the lock: a value's destructor may look up
    s.owner = owner;
    s.key.assign(key);
    s.value = std::shared_ptr<V>(holder, holder->get());
    auto out = s.value;
    lock.unlock();
    return out;
  }

  /// forget drops every thread's entries of owner. Call it after each change of owner's table,
  /// without holding a lock that load() takes.
  static void forget(const void* owner) {
    std::vector<std::shared_ptr<V>> dropped;  // destroyed after the locks
    auto& all = registry();
    std::lock_guard lock(all.mu);
    for (cache* c : all.caches) {
      std::lock_guard one(c->mu);
      for (auto& s : c->slots)
        if (s.owner == owner) {
          s.owner = nullptr;
          s.key.clear();
          dropped.push_back(std::move(s.value));
        }
    }
  }

 private:
  struct slot {
    const void* owner = nullptr;
    std::string key;
    std::shared_ptr<V> value;
  };
  struct cache;
  struct cache_list {
    std::mutex mu;
    std::vector<cache*> caches;
  };
  static cache_list& registry() {
    static auto* list = new cache_list;  // never destroyed: threads may end after static destructors ran
    return *list;
  }
  struct cache {
    std::mutex mu;
    std::array<slot, 8> slots;
    unsigned next = 0;
    cache() {
      auto& all = registry();
      std::lock_guard lock(all.mu);
      all.caches.push_back(this);
    }
    ~cache() {
      {
        auto& all = registry();
        std::lock_guard lock(all.mu);
        std::erase(all.caches, this);
      }
      for (auto& s : slots) s.value.reset();
    }
    cache(const cache&) = delete;
    cache& operator=(const cache&) = delete;
  };
  static cache& mine() {
    thread_local cache c;
    return c;
  }
};

}  // namespace tooluse::detail
