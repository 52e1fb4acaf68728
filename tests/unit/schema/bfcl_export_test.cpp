// BFCL acceptance (issue 3), export side: every converted tool exports to every target, the
// strict export accepts the ground truth (omitted optionals sent as null), names round-trip.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <optional>

#include "bfcl_corpus.hpp"
#include "tooluse/schema/translate.hpp"

namespace tooluse::testing::bfcl {
namespace {

using schema::export_target;

constexpr export_target all_targets[] = {export_target::openai,    export_target::openai_strict,
                                         export_target::responses, export_target::anthropic,
                                         export_target::gemini,    export_target::mcp};

// Why strict mode could not take a tool, reduced to a category for the report.
std::string strict_reason(const std::string& message) {
  if (message.find("free-form keys") != std::string::npos) return "object with free-form keys";
  if (message.find("accepts any value") != std::string::npos) return "parameter of any type";
  if (message.find("is not supported by") != std::string::npos) return "unsupported keyword";
  return message;
}

// Keys Gemini rejects must not survive make_gemini_schema (walks schemas, not property maps).
bool gemini_clean(const json& s) {
  if (!s.is_object()) return true;
  for (const char* k : {"additionalProperties", "$ref", "$defs", "const", "$schema", "oneOf"})
    if (s.contains(k)) return false;
  if (s.contains("type") && !s["type"].is_string()) return false;
  if (s.contains("properties"))
    for (const auto& [name, sub] : s["properties"].items())
      if (!gemini_clean(sub)) return false;
  if (s.contains("items") && !gemini_clean(s["items"])) return false;
  for (const auto& b : s.value("anyOf", json::array()))
    if (!gemini_clean(b)) return false;
  return true;
}

// Every name maps to one the target accepts and back; returns how many were checked.
std::size_t check_names(const std::vector<schema::tool_spec>& specs,
                        const schema::exported_tools& out, export_target target,
                        std::size_t& renamed) {
  for (const auto& s : specs) {
    renamed += out.names.provider_name(s.name) != s.name ? 1 : 0;
    auto provider = out.names.provider_name(s.name);
    EXPECT_TRUE(provider && schema::matches_name_rule(*provider, schema::name_rule_for(target)))
        << s.name;
    if (provider) {
      EXPECT_EQ(out.names.original_name(*provider), s.name);
    }
  }
  return specs.size();
}

// `b` equals `a` except for properties `a` omits and `b` holds as null, at any depth.
bool same_but_nulls(const json& a, const json& b) {
  if (a.is_object() && b.is_object()) {
    for (const auto& [k, v] : a.items())
      if (!b.contains(k)) return false;
    for (const auto& [k, v] : b.items())
      if (a.contains(k) ? !same_but_nulls(a[k], v) : !v.is_null()) return false;
    return true;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_but_nulls(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

struct strict_form {
  std::optional<schema::validator> validator;
  std::string reason;  // why there is no strict form
};

// The strict form of every function, computed once.
const std::vector<strict_form>& strict_forms() {
  static const std::vector<strict_form> forms = [] {
    std::vector<strict_form> out;
    for (const auto& f : load().functions) {
      strict_form form;
      auto s = schema::make_strict_schema(f.spec.input_schema);
      if (!s) {
        EXPECT_EQ(s.error().code, errc::unsupported) << f.entry_id;
        form.reason = strict_reason(s.error().message);
      } else if (auto v = schema::validator::compile(*s); v) {
        form.validator = std::move(*v);
      } else {
        ADD_FAILURE() << f.entry_id << ": strict schema does not compile: " << v.error().message;
      }
      out.push_back(std::move(form));
    }
    return out;
  }();
  return forms;
}

TEST(bfcl_export, every_tool_exports_to_every_target) {
  const corpus& c = load();
  std::map<std::string, std::size_t> strict_failures;
  std::size_t exported = 0, names = 0, renamed = 0;
  for (const auto& e : c.entries) {
    std::vector<schema::tool_spec> specs;
    for (auto i : e.functions) specs.push_back(c.functions[i].spec);
    for (auto target : all_targets) {
      auto out = schema::export_tools(specs, target);
      if (target == export_target::openai_strict && !out) {
        ++strict_failures[strict_reason(out.error().message)];
        continue;
      }
      ASSERT_TRUE(out) << e.id << " " << to_string(target) << ": " << out.error().message;
      exported += specs.size();
      names += check_names(specs, *out, target, renamed);
      if (target == export_target::gemini) {
        for (const auto& d : out->tools[0]["functionDeclarations"]) {
          EXPECT_TRUE(gemini_clean(d.value("parameters", json::object())))
              << e.id << ": " << dump_json(d);
        }
      }
      if (target == export_target::openai) {
        for (std::size_t i = 0; i < specs.size(); ++i) {
          EXPECT_EQ(out->tools[i]["function"]["parameters"], specs[i].input_schema);
        }
      }
    }
  }
  std::size_t strict_ok = 0;
  for (const auto& f : strict_forms()) strict_ok += f.validator ? 1 : 0;
  std::cout << "[bfcl] tool exports: " << exported << " (6 targets); strict form for "
            << strict_ok << " of " << c.functions.size() << " functions; not expressible:";
  for (const auto& [why, n] : strict_failures) std::cout << " " << why << " (" << n << " entries)";
  std::cout << "\n[bfcl] tool names mapped and round-tripped: " << names << " (all targets); renamed for the target: " << renamed << "\n";
  for (const auto& [why, n] : strict_failures)
    EXPECT_TRUE(why == "object with free-form keys" || why == "parameter of any type" ||
                why == "unsupported keyword")
        << why;
}

TEST(bfcl_export, strict_export_accepts_the_ground_truth) {
  const corpus& c = load();
  const auto& forms = strict_forms();
  std::size_t accepted = 0, without_strict_form = 0;
  for (const auto& call : c.calls) {
    const function& f = c.functions[call.function];
    if (!f.validator->is_valid(call.arguments)) continue;  // listed corpus inconsistencies
    const strict_form& form = forms[call.function];
    if (!form.validator) {
      ++without_strict_form;
      continue;
    }
    json strict_args = schema::to_strict_arguments(f.spec.input_schema, call.arguments);
    auto errors = form.validator->validate(strict_args);
    EXPECT_TRUE(errors.empty()) << f.entry_id << " " << dump_json(strict_args) << "\n"
                                << schema::format_errors(errors);
    // Mapped back, the call is valid again; a null stays only where the original accepts it
    // (then omitted and null are both valid, and the strict form cannot tell them apart).
    json back = schema::from_strict_arguments(f.spec.input_schema, strict_args);
    EXPECT_TRUE(f.validator->is_valid(back)) << f.entry_id << " " << dump_json(back);
    EXPECT_TRUE(same_but_nulls(call.arguments, back)) << f.entry_id << " " << dump_json(back);
    if (errors.empty()) ++accepted;
  }
  EXPECT_GT(accepted, 6000u);
  std::cout << "[bfcl] ground-truth calls accepted by the strict export (omitted optionals as "
               "null, mapped back): "
            << accepted << "; calls of functions without a strict form: " << without_strict_form
            << "\n";
}

}  // namespace
}  // namespace tooluse::testing::bfcl
