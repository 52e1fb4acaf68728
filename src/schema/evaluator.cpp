// Evaluation of the keywords that do not descend into arrays or objects: references, type,
// enum, const, numbers, strings, formats and the in-place applicators (allOf, anyOf, oneOf,
// not, if/then/else).
#include "schema/evaluator.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

namespace tooluse::schema::detail {
namespace {

bool is_identifier(const std::string& key) {
  if (key.empty() || std::isdigit(static_cast<unsigned char>(key[0]))) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '$';
  });
}

std::string type_list(std::uint8_t types) {
  static const std::pair<std::uint8_t, std::string_view> k_names[] = {
      {t_object, "object"},   {t_array, "array"},   {t_string, "string"}, {t_integer, "integer"},
      {t_number, "number"},   {t_boolean, "boolean"}, {t_null, "null"},
  };
  std::vector<std::string_view> names;
  for (const auto& [bit, name] : k_names)
    if (types & bit) names.push_back(name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string enum_list(const std::vector<json>& values) {
  std::string out;
  std::size_t shown = std::min<std::size_t>(values.size(), 12);
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + short_json(values[i], 40);
  if (shown < values.size()) out += ", ... (" + std::to_string(values.size()) + " values)";
  return out;
}

bool is_multiple(const json& inst, long double m) {
  if (inst.is_number_integer() && m == std::floor(m) && m < 9e18L) {
    auto divisor = static_cast<std::uint64_t>(m);
    if (inst.is_number_unsigned()) return inst.get<std::uint64_t>() % divisor == 0;
    std::int64_t v = inst.get<std::int64_t>();
    std::uint64_t magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    return magnitude % divisor == 0;
  }
  long double x = to_long_double(inst);
  long double q = x / m;
  // Above 2^53 quotients are integral anyway, so only the exact remainder can tell, except
  // that every integer is a multiple of a divisor of 1 (1e-8 is not exact in binary).
  if (!std::isfinite(q) || std::fabs(q) > 9007199254740992.0L) {
    long double r = 1.0L / m;
    if (x == std::floor(x) && std::fabs(r - std::round(r)) <= 1e-9L * r) return true;
    return std::fmod(x, m) == 0;
  }
  return std::fabs(q - std::round(q)) <= 1e-12L * std::max(1.0L, std::fabs(q));
}

}  // namespace

bool type_matches(std::uint8_t types, const json& inst) {
  switch (inst.type()) {
    case json::value_t::null: return types & t_null;
    case json::value_t::boolean: return types & t_boolean;
    case json::value_t::string: return types & t_string;
    case json::value_t::array: return types & t_array;
    case json::value_t::object: return types & t_object;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return types & (t_integer | t_number);
    case json::value_t::number_float:
      return (types & t_number) || ((types & t_integer) && is_integer_value(inst));
    default: return false;
  }
}

std::string expectation(const node& n) {
  if (n.const_value) return short_json(*n.const_value, 40);
  if (n.has_enum) return "one of " + enum_list(n.enum_values);
  if (n.types) return type_list(n.types);
  if (n.ref) return expectation(*n.ref);
  return "a value matching " + n.location;
}

void append_path(std::string& out, const path_segment& seg) {
  if (!seg.key) {
    out += "[" + std::to_string(seg.index) + "]";
  } else if (is_identifier(*seg.key)) {
    out += (out.empty() ? "" : ".") + *seg.key;
  } else {
    out += "[" + dump_json(json(*seg.key)) + "]";
  }
}

std::string evaluator::render_path() const {
  std::string out = root_path;
  for (const auto& seg : path) append_path(out, seg);
  return out;
}

bool evaluator::report(std::string_view keyword, std::string message) {
  if (errors && (!max_errors || errors->size() < max_errors))
    errors->push_back({render_path(), std::string(keyword), std::move(message)});
  return false;
}

bool evaluator::test(const node& n, const json& inst, annotations* ann) {
  auto* saved = errors;
  errors = nullptr;
  bool ok = eval(n, inst, ann);
  errors = saved;
  return ok;
}

bool evaluator::eval(const node& n, const json& inst, annotations* ann) {
  if (n.trivially_true) return true;
  if (n.always_false) return report("false", "no value is allowed here");
  if (depth >= max_depth)
    return report("$ref", "the value nests too deeply to validate (more than " +
                              std::to_string(max_depth) + " levels of schemas)");
  ++depth;
  bool pushed = scope.empty() || scope.back() != n.res;
  if (pushed) scope.push_back(n.res);
  bool ok;
  if (n.has_unevaluated) {
    // unevaluated* sees only the annotations of this schema's own keywords, never those of
    // its parent's or siblings'.
    annotations local;
    ok = eval_keywords(n, inst, &local);
    if (ok && ann) ann->merge(local);
  } else {
    ok = eval_keywords(n, inst, ann);
  }
  if (pushed) scope.pop_back();
  --depth;
  return ok;
}

bool evaluator::eval_keywords(const node& n, const json& inst, annotations* a) {
  bool ok = true;
  if (n.ref) {
    ok = eval(*n.ref, inst, a) && ok;
    if (!ok && stop()) return false;
  }
  if (n.dynamic_ref) {
    const node* target = n.dynamic_ref;
    if (!n.dynamic_anchor.empty())
      for (const resource* r : scope)
        if (const node* t = r->find_dynamic(n.dynamic_anchor)) {
          target = t;
          break;
        }
    ok = eval(*target, inst, a) && ok;
    if (!ok && stop()) return false;
  }
  ok = eval_type_and_values(n, inst) && ok;
  if (!ok && stop()) return false;
  if (inst.is_number()) {
    ok = eval_number(n, inst) && ok;
  } else if (inst.is_string()) {
    ok = eval_string(n, inst) && ok;
  } else if (inst.is_array()) {
    ok = eval_array(n, inst, a) && ok;
  } else if (inst.is_object()) {
    ok = eval_object(n, inst, a) && ok;
  }
  if (!ok && stop()) return false;
  ok = eval_applicators(n, inst, a) && ok;
  if (!ok && stop()) return false;
  if (n.has_unevaluated && a && (inst.is_array() || inst.is_object()))
    ok = eval_unevaluated(n, inst, *a) && ok;
  return ok;
}

bool evaluator::eval_type_and_values(const node& n, const json& inst) {
  if (n.types && !type_matches(n.types, inst))
    return report("type", "expected " + type_list(n.types) + ", got " + describe_value(inst));
  bool ok = true;
  if (n.has_enum) {
    bool found;
    if (n.enum_all_strings) {
      found = inst.is_string() &&
              std::any_of(n.enum_values.begin(), n.enum_values.end(), [&](const json& v) {
                return v.get_ref<const std::string&>() == inst.get_ref<const std::string&>();
              });
    } else {
      found = std::any_of(n.enum_values.begin(), n.enum_values.end(),
                          [&](const json& v) { return json_equal(v, inst); });
    }
    if (!found)
      ok = report("enum", n.enum_values.size() == 1
                              ? "expected " + short_json(n.enum_values[0]) + ", got " + short_json(inst)
                              : "expected one of " + enum_list(n.enum_values) + ", got " +
                                    short_json(inst));
  }
  if (n.const_value && !json_equal(*n.const_value, inst))
    ok = report("const", "expected " + short_json(*n.const_value) + ", got " + short_json(inst));
  return ok;
}

bool evaluator::eval_number(const node& n, const json& inst) {
  bool ok = true;
  long double x = to_long_double(inst);
  std::string what = n.types == t_integer ? "an integer" : "a number";
  auto fail_bound = [&](std::string_view kw, std::string_view op, long double bound) {
    ok = report(kw, "expected " + what + " " + std::string(op) + " " + format_number(bound) +
                        ", got " + dump_json(inst));
  };
  if (n.minimum && x < *n.minimum) fail_bound("minimum", ">=", *n.minimum);
  if (n.maximum && x > *n.maximum) fail_bound("maximum", "<=", *n.maximum);
  if (n.exclusive_minimum && x <= *n.exclusive_minimum)
    fail_bound("exclusiveMinimum", ">", *n.exclusive_minimum);
  if (n.exclusive_maximum && x >= *n.exclusive_maximum)
    fail_bound("exclusiveMaximum", "<", *n.exclusive_maximum);
  if (n.multiple_of && !is_multiple(inst, *n.multiple_of))
    ok = report("multipleOf", "expected a multiple of " + format_number(*n.multiple_of) +
                                  ", got " + dump_json(inst));
  return ok;
}

bool evaluator::eval_string(const node& n, const json& inst) {
  bool ok = true;
  const std::string& s = inst.get_ref<const std::string&>();
  if (n.min_length || n.max_length) {
    std::uint64_t len = utf8_length(s);
    auto chars = [](std::uint64_t k) {
      return std::to_string(k) + (k == 1 ? " character" : " characters");
    };
    if (n.min_length && len < *n.min_length)
      ok = report("minLength", "expected at least " + chars(*n.min_length) + ", got " +
                                   std::to_string(len));
    if (n.max_length && len > *n.max_length)
      ok = report("maxLength", "expected at most " + chars(*n.max_length) + ", got " +
                                   std::to_string(len));
  }
  if (n.pattern && !n.pattern->search(s))
    ok = report("pattern", "expected a string matching " + short_json(json(n.pattern->source)) +
                               ", got " + short_json(inst));
  if (n.format != format_kind::none && !check_format(n.format, s))
    ok = report("format", "expected " + std::string(format_description(n.format)) + ", got " +
                              short_json(inst));
  return ok;
}

bool evaluator::eval_applicators(const node& n, const json& inst, annotations* a) {
  bool ok = true;
  for (const node* c : n.all_of) {
    ok = eval(*c, inst, a) && ok;
    if (!ok && stop()) return false;
  }
  if (!n.any_of.empty()) ok = eval_alternatives(n, n.any_of, inst, a, false) && ok;
  if (!ok && stop()) return false;
  if (!n.one_of.empty()) ok = eval_alternatives(n, n.one_of, inst, a, true) && ok;
  if (!ok && stop()) return false;
  if (n.not_schema && test(*n.not_schema, inst, nullptr))
    ok = report("not", "expected a value that does not match " + expectation(*n.not_schema) +
                           ", got " + short_json(inst));
  if (n.if_schema) {
    annotations cond_ann;
    bool cond = test(*n.if_schema, inst, a ? &cond_ann : nullptr);
    if (cond && a) a->merge(cond_ann);
    const node* branch = cond ? n.then_schema : n.else_schema;
    if (branch) ok = eval(*branch, inst, a) && ok;
  }
  if (!ok && stop()) return false;
  if (inst.is_object())
    for (const auto& [key, dependent] : n.dependent_schemas)
      if (inst.contains(key)) {
        ok = eval(*dependent, inst, a) && ok;
        if (!ok && stop()) return false;
      }
  return ok;
}

bool evaluator::eval_alternatives(const node& n, const std::vector<const node*>& branches,
                                  const json& inst, annotations* a, bool exactly_one) {
  std::vector<std::size_t> matched;
  std::vector<std::vector<validation_error>> failed;
  auto* saved = errors;
  for (std::size_t i = 0; i < branches.size(); ++i) {
    std::vector<validation_error> local;
    errors = saved ? &local : nullptr;
    annotations branch_ann;
    bool valid = eval(*branches[i], inst, a ? &branch_ann : nullptr);
    errors = saved;
    if (valid) {
      matched.push_back(i);
      if (a) a->merge(branch_ann);
      if (!a && !exactly_one) return true;
      if (!a && matched.size() > 1 && !saved) return false;
    } else if (saved) {
      failed.push_back(std::move(local));
    }
  }
  std::string_view keyword = exactly_one ? "oneOf" : "anyOf";
  if (matched.empty()) {
    if (saved) report_alternatives(keyword, branches, inst, failed);
    return false;
  }
  if (exactly_one && matched.size() > 1)
    return report(keyword, "expected exactly one alternative of oneOf to match, but " +
                               std::to_string(matched.size()) + " do (alternatives " +
                               std::to_string(matched[0]) + " and " + std::to_string(matched[1]) +
                               ")");
  (void)n;
  return true;
}

// When no alternative matches: if each failed at the value itself (wrong type, enum, const),
// one merged message says what would have been accepted; otherwise the errors of the
// alternative that got furthest (deepest path, then fewest errors) among those that accepted
// the value's kind are the useful ones ("expected at least 5 characters", not "expected string
// or integer, got string").
void evaluator::report_alternatives(std::string_view keyword,
                                    const std::vector<const node*>& branches, const json& inst,
                                    std::vector<std::vector<validation_error>>& failed) {
  std::string here = render_path();
  auto depth_of = [&](const std::vector<validation_error>& errs) {
    std::size_t d = 0;
    for (const auto& e : errs) d = std::max(d, e.path.size());
    return d;
  };
  auto at_value = [&](const std::vector<validation_error>& errs) {
    return std::all_of(errs.begin(), errs.end(), [&](const validation_error& e) {
      return e.path.size() <= here.size() &&
             (e.keyword == "type" || e.keyword == "enum" || e.keyword == "const" ||
              e.keyword == "false" || e.keyword == "anyOf" || e.keyword == "oneOf");
    });
  };
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < failed.size(); ++i) {
    if (at_value(failed[i])) continue;
    if (!best) {
      best = i;
      continue;
    }
    std::size_t di = depth_of(failed[i]), db = depth_of(failed[*best]);
    if (di > db || (di == db && failed[i].size() < failed[*best].size())) best = i;
  }
  if (best) {
    for (auto& e : failed[*best])
      if (!max_errors || errors->size() < max_errors) errors->push_back(std::move(e));
    return;
  }
  std::string expected;
  for (std::size_t i = 0; i < branches.size(); ++i)
    expected += (i == 0 ? "" : i + 1 == branches.size() ? " or " : ", ") + expectation(*branches[i]);
  if (expected.size() > 300)
    expected = "a value matching one of the " + std::to_string(branches.size()) +
               " alternatives of " + std::string(keyword);
  report(keyword, "expected " + expected + ", got " + describe_value(inst));
}

}  // namespace tooluse::schema::detail
