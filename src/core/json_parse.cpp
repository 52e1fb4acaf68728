// parse_json: the one bounded JSON parse every peer's text goes through. nlohmann's SAX parser
// is iterative (a state stack, no recursion), so a builder that refuses to open container 129
// keeps the stack and the heap bounded however deep the text nests. ordered_json looks keys up
// linearly, which made an object with a million members quadratic to build; large objects get
// a hash index while they are being built.
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "tooluse/json.hpp"

namespace tooluse {
namespace {

std::mutex defaults_mutex;
json_limits defaults;  // guarded by defaults_mutex

std::string describe(const std::string& what) {
  // Strip "[json.exception.parse_error.101] " for a message written for people.
  if (auto pos = what.find("] "); pos != std::string::npos) return what.substr(pos + 2);
  return what;
}

class bounded_builder {
 public:
  explicit bounded_builder(const json_limits& limits) : limits_(limits) {}

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(json::number_integer_t v) { return put(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
  bool string(json::string_t& v) { return put(json(std::move(v))); }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }

  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    frame& f = stack_.back();
    auto& members = f.members;
    constexpr std::size_t index_from = 16;
    if (!f.index && members.size() >= index_from) {
      f.index = std::make_unique<std::unordered_map<std::string, std::size_t>>();
      for (std::size_t i = 0; i < members.size(); ++i) f.index->emplace(members[i].first, i);
    }
    if (f.index) {
      auto [it, fresh] = f.index->emplace(k, members.size());
      if (!fresh) {
        slot_ = &members[it->second].second;  // a duplicate key: the last value wins, as in nlohmann
        return true;
      }
    } else {
      for (auto& kv : members)
        if (kv.first == k) {
          slot_ = &kv.second;
          return true;
        }
    }
    members.emplace_back(std::move(k), nullptr);
    slot_ = &members.back().second;
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    if (!failure_) failure_ = error{errc::parse_error, "invalid JSON: " + describe(ex.what())};
    return false;
  }

  result<json> finish(bool ok) {
    if (failure_) return fail(*failure_);
    if (!ok) return fail(errc::parse_error, "invalid JSON");
    return std::move(root_);
  }

 private:
  // An object's members are gathered in `members` while it is built and moved into it when it
  // closes: ordered_json keeps them in a vector of pair<const string, json>, which cannot be
  // moved, so each time that vector grew it copied every member built so far, subtrees and all.
  struct frame {
    json* value;
    std::vector<std::pair<std::string, json>> members;
    std::unique_ptr<std::unordered_map<std::string, std::size_t>> index;
  };

  bool count() {
    if (++values_ <= limits_.max_values) return true;
    failure_ = limit_error("a JSON document with more than " + std::to_string(limits_.max_values) +
                               " values",
                           "json_limits::max_values", limits_.max_values);
    return false;
  }

  // place stores `v` where the next value goes and returns where it now lives.
  json* place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json* top = stack_.back().value;
    if (top->is_array()) {
      auto& arr = top->get_ref<json::array_t&>();
      arr.push_back(std::move(v));
      return &arr.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }

  bool put(json&& v) {
    if (!count()) return false;
    place(std::move(v));
    return true;
  }

  bool open(json&& container) {
    if (!count()) return false;
    if (stack_.size() >= limits_.max_depth) {
      failure_ = limit_error("JSON nested more than " + std::to_string(limits_.max_depth) +
                                 " levels deep",
                             "json_limits::max_depth", limits_.max_depth, "levels");
      return false;
    }
    stack_.push_back(frame{place(std::move(container)), {}, nullptr});
    return true;
  }

  bool close() {
    frame& f = stack_.back();
    if (f.value->is_object() && !f.members.empty()) {
      using items = json::object_t::Container;  // the ordered map's vector
      auto& vec = static_cast<items&>(f.value->get_ref<json::object_t&>());
      vec.reserve(f.members.size());
      for (auto& [k, v] : f.members) vec.emplace_back(std::move(k), std::move(v));
    }
    stack_.pop_back();
    return true;
  }

  json_limits limits_;
  json root_;
  std::vector<frame> stack_;
  json* slot_ = nullptr;
  std::size_t values_ = 0;
  std::optional<error> failure_;
};

}  // namespace

json_limits default_json_limits() noexcept {
  std::lock_guard lock(defaults_mutex);
  return defaults;
}

void set_default_json_limits(const json_limits& limits) noexcept {
  std::lock_guard lock(defaults_mutex);
  defaults = limits;
}

result<json> parse_json(std::string_view text) { return parse_json(text, default_json_limits()); }

result<json> parse_json(std::string_view text, const json_limits& limits) {
  if (text.size() > limits.max_bytes)
    return fail(limit_error("a JSON document of " + std::to_string(text.size()) + " bytes",
                            "json_limits::max_bytes", limits.max_bytes, "bytes"));
  bounded_builder builder(limits);
  try {
    bool ok = json::sax_parse(text.begin(), text.end(), &builder,
                              nlohmann::detail::input_format_t::json, /*strict=*/true);
    return builder.finish(ok);
  } catch (const std::exception& e) {
    // sax_parse reports syntax errors through parse_error(); this is, e.g., bad_alloc.
    return fail(errc::parse_error, std::string("invalid JSON: ") + e.what());
  }
}

}  // namespace tooluse
