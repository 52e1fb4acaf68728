// event_log between two openings of one store (as two processes would have): what one
// publishes, a listener of the other gets once, in order, over SQLite (polled, woken by local
// publishes) and over PostgreSQL (LISTEN/NOTIFY); events published before listen() are not
// delivered; a listener that is destroyed stops.
#include "tooluse/store/events.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "store_pg.hpp"
#include "support/test_support.hpp"

namespace events_test {
namespace {

using namespace std::chrono_literals;
using tooluse::json;
namespace store = tooluse::store;

// inbox collects delivered events and waits (with a deadline) for a count of them.
struct inbox {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<store::event> got;
  void add(const store::event& e) {
    std::lock_guard lock(mu);
    got.push_back(e);
    cv.notify_all();
  }
  bool wait_for(std::size_t n) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, 20s, [&] { return got.size() >= n; });
  }
  std::vector<store::event> snapshot() {
    std::lock_guard lock(mu);
    return got;
  }
};

void two_openings_talk(const std::string& location) {
  auto a = store::open_events(location);
  ASSERT_TRUE(a) << a.error().message;
  auto b = store::open_events(location);
  ASSERT_TRUE(b) << b.error().message;
  ASSERT_TRUE((*a)->publish("old", {{"n", 0}}));  // before anyone listens: the past

  inbox at_b, at_a;
  auto lb = (*b)->listen([&](const store::event& e) { at_b.add(e); });
  ASSERT_TRUE(lb) << lb.error().message;
  auto la = (*a)->listen([&](const store::event& e) { at_a.add(e); });
  ASSERT_TRUE(la) << la.error().message;

  for (int i = 1; i <= 5; ++i) ASSERT_TRUE((*a)->publish("s-" + std::to_string(i), {{"n", i}}));
  ASSERT_TRUE(at_b.wait_for(5)) << "the other opening got " << at_b.snapshot().size() << " of 5";
  ASSERT_TRUE(at_a.wait_for(5)) << "the publisher's own listener got " << at_a.snapshot().size();
  auto got = at_b.snapshot();
  ASSERT_EQ(got.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(got[size_t(i)].topic, "s-" + std::to_string(i + 1));
    EXPECT_EQ(got[size_t(i)].data["n"], i + 1);
    if (i > 0) {
      EXPECT_GT(got[size_t(i)].seq, got[size_t(i - 1)].seq);
    }
  }

  // From b to a too; then a destroyed listener hears nothing more.
  ASSERT_TRUE((*b)->publish("back", {{"from", "b"}}));
  ASSERT_TRUE(at_a.wait_for(6));
  EXPECT_EQ(at_a.snapshot().back().topic, "back");
  ASSERT_TRUE(at_b.wait_for(6));
  lb->reset();
  ASSERT_TRUE((*a)->publish("after", json::object()));
  ASSERT_TRUE(at_a.wait_for(7));
  EXPECT_EQ(at_b.snapshot().size(), 6u);
}

}  // namespace

TEST(store_events, sqlite_openings_of_one_file_deliver_each_event_once_in_order) {
  tooluse::testing::temp_dir dir;
  two_openings_talk((dir.path() / "events.db").string());
}

TEST(store_events, an_empty_location_is_refused_with_what_to_give) {
  auto e = store::open_events("");
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("SQLite file or a postgresql:// URL"), std::string::npos);
}

TEST(store_events, postgres_listeners_are_woken_by_notify) {
  auto& cluster = tooluse::testing::shared_postgres();
  TOOLUSE_REQUIRE_POSTGRES(cluster);
  two_openings_talk(cluster.url("events"));
}

}  // namespace events_test
