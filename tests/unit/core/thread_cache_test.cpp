// thread_cache: a thread's second lookup is its own copy (load is not called again), forget()
// drops the entries of one owner in every thread and lets their values go, and values never
// outlive a forget of their owner in another thread's cache.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>
#include <thread>

#include "tooluse/thread_cache.hpp"

namespace tooluse::detail {
namespace {

struct value {
  std::string text;
};
using cache = thread_cache<value>;

TEST(ThreadCache, ASecondLookupIsTheThreadsOwnCopy) {
  int owner = 0;
  int loads = 0;
  auto shared = std::make_shared<value>(value{"a"});
  auto load = [&] {
    ++loads;
    return shared;
  };
  auto first = cache::get(&owner, "k", load);
  auto second = cache::get(&owner, "k", load);
  EXPECT_EQ(loads, 1);
  EXPECT_EQ(first.get(), shared.get());
  EXPECT_EQ(second.get(), shared.get());
  // The copies share a control block of this thread's, not the table's.
  EXPECT_EQ(shared.use_count(), 2);  // `shared` and the cache's holder
  cache::forget(&owner);
}

TEST(ThreadCache, KeysAndOwnersAreSeparate) {
  int a = 0, b = 0;
  auto one = cache::get(&a, "k", [] { return std::make_shared<value>(value{"a/k"}); });
  auto two = cache::get(&b, "k", [] { return std::make_shared<value>(value{"b/k"}); });
  auto three = cache::get(&a, "l", [] { return std::make_shared<value>(value{"a/l"}); });
  EXPECT_EQ(cache::get(&a, "k", [] { return std::shared_ptr<value>(); })->text, "a/k");
  EXPECT_EQ(cache::get(&b, "k", [] { return std::shared_ptr<value>(); })->text, "b/k");
  EXPECT_EQ(cache::get(&a, "l", [] { return std::shared_ptr<value>(); })->text, "a/l");
  cache::forget(&a);
  cache::forget(&b);
}

TEST(ThreadCache, NothingFoundIsNotKept) {
  int owner = 0;
  int loads = 0;
  auto none = [&] {
    ++loads;
    return std::shared_ptr<value>();
  };
  EXPECT_EQ(cache::get(&owner, "missing", none), nullptr);
  EXPECT_EQ(cache::get(&owner, "missing", none), nullptr);
  EXPECT_EQ(loads, 2);
}

TEST(ThreadCache, ForgetDropsEveryThreadsEntriesAndFreesTheirValues) {
  int owner = 0;
  auto v = std::make_shared<value>(value{"old"});
  std::weak_ptr<value> watch = v;
  // Another thread caches the value and stays alive (its cache with it) until told to end.
  std::promise<void> cached, finish;
  std::thread other([&] {
    cache::get(&owner, "k", [&] { return v; });
    cached.set_value();
    finish.get_future().wait();
  });
  cached.get_future().wait();
  v.reset();
  EXPECT_FALSE(watch.expired());  // held by the other thread's cache
  cache::forget(&owner);
  EXPECT_TRUE(watch.expired());  // forgotten there too, though that thread never looked again
  auto fresh = cache::get(&owner, "k", [] { return std::make_shared<value>(value{"new"}); });
  EXPECT_EQ(fresh->text, "new");
  finish.set_value();
  other.join();
  cache::forget(&owner);
}

TEST(ThreadCache, MoreKeysThanSlotsStillFindEachValue) {
  int owner = 0;
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 20; ++i) {
      const std::string key = "k" + std::to_string(i);
      auto got = cache::get(&owner, key, [&] { return std::make_shared<value>(value{key}); });
      EXPECT_EQ(got->text, key);
    }
  cache::forget(&owner);
}

}  // namespace
}  // namespace tooluse::detail
