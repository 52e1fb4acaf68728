#include "eval/checker.hpp"

#include <algorithm>

#include "eval/decode_error.hpp"
#include "eval/java.hpp"
#include "eval/js.hpp"

namespace tooluse::eval::detail {
namespace {

using pk = py_value::kind;
using items = py_value::items_t;

/// A Python type as BFCL's mappings name them (`int`, `float`, ... ; none = no type).
struct py_type {
  std::optional<pk> kind;
  bool operator==(const py_type&) const = default;
};

std::string class_text(const py_type& t) {
  if (!t.kind) return "None";
  switch (*t.kind) {
    case pk::boolean: return "<class 'bool'>";
    case pk::integer: return "<class 'int'>";
    case pk::floating: return "<class 'float'>";
    case pk::string: return "<class 'str'>";
    case pk::list: return "<class 'list'>";
    case pk::set: return "<class 'set'>";
    case pk::dict: return "<class 'dict'>";
    default: return "<class 'NoneType'>";
  }
}

std::optional<pk> python_type(std::string_view t) {
  if (t == "string" || t == "any") return pk::string;
  if (t == "integer") return pk::integer;
  if (t == "float") return pk::floating;
  if (t == "boolean") return pk::boolean;
  if (t == "array" || t == "tuple") return pk::list;
  if (t == "dict") return pk::dict;
  return std::nullopt;
}

std::optional<pk> java_type(std::string_view t) {
  if (t == "byte" || t == "short" || t == "integer" || t == "long") return pk::integer;
  if (t == "float" || t == "double") return pk::floating;
  if (t == "boolean") return pk::boolean;
  if (t == "char" || t == "String" || t == "any") return pk::string;
  if (t == "Array" || t == "ArrayList" || t == "Queue" || t == "Stack") return pk::list;
  if (t == "Set") return pk::set;
  if (t == "HashMap" || t == "Hashtable") return pk::dict;
  return std::nullopt;
}

std::optional<pk> js_type(std::string_view t) {
  if (t == "String" || t == "any") return pk::string;
  if (t == "integer" || t == "Bigint") return pk::integer;
  if (t == "float") return pk::floating;
  if (t == "Boolean") return pk::boolean;
  if (t == "dict") return pk::dict;
  if (t == "array") return pk::list;
  return std::nullopt;
}

/// `x in container` with Python's rules for a dict (keys), a str (substring) and a sequence.
bool py_contains(const py_value& container, const py_value& x) {
  switch (container.type()) {
    case pk::dict: return container.find(x) != nullptr;
    case pk::string:
      if (!x.is_str()) throw decode_error("'in <string>' requires string as left operand, not " + std::string(x.type_name()));
      return container.as_str().find(x.as_str()) != std::string::npos;
    case pk::list:
    case pk::tuple:
    case pk::set: return py_in(x, container.items());
    default: throw decode_error("argument of type '" + std::string(container.type_name()) + "' is not iterable");
  }
}

/// Iterating a value as Python's `for x in value` / `range(len(value))` would.
items iterate(const py_value& v) {
  switch (v.type()) {
    case pk::list:
    case pk::tuple:
    case pk::set: return v.items();
    case pk::dict: {
      items keys;
      for (const auto& [k, _] : v.entries()) keys.push_back(k);
      return keys;
    }
    case pk::string: {
      items chars;
      const std::string& s = v.as_str();
      for (std::size_t i = 0; i < s.size();) {
        std::size_t n = 1;
        while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
        chars.push_back(py_value::string(s.substr(i, n)));
        i += n;
      }
      return chars;
    }
    default: throw decode_error("'" + std::string(v.type_name()) + "' object is not iterable");
  }
}

const py_value& subscript(const py_value& v, std::string_view key) {
  const py_value* found = v.find(key);
  if (!found) throw decode_error("KeyError: '" + std::string(key) + "'");
  return *found;
}

py_type possible_answer_type(const py_value& possible_answer) {
  for (const auto& answer : iterate(possible_answer))
    if (!(answer.is_str() && answer.as_str().empty())) return {answer.type()};
  return {};
}

py_value standardize_if_str(const py_value& v) {
  return v.is_str() ? py_value::string(standardize_string(v.as_str())) : v;
}

check_result fail(std::string message, std::string type) {
  check_result r;
  r.valid = false;
  r.error = json::array({std::move(message)});
  r.error_type = std::move(type);
  return r;
}

check_result type_checker(const std::string& param, const py_value& value, const py_value& possible_answer,
                          const std::string& expected_description, py_type expected, py_type nested) {
  check_result result;
  result.error_type = "type_error:simple";
  bool is_variable = false;
  py_type answer_type = possible_answer_type(possible_answer);
  if (answer_type.kind && answer_type != expected) is_variable = true;

  if (py_type{value.type()} == expected) {
    if (!nested.kind) {
      result.is_variable = is_variable;
      return result;
    }
    for (const auto& item : iterate(possible_answer)) {
      bool flag = true;
      if (item.is_list()) {
        for (const auto& value_item : iterate(value)) {
          auto r = type_checker(param, value_item, item, class_text(nested), nested, {});
          if (!r.valid) {
            flag = false;
            break;
          }
        }
      }
      if (flag) {
        check_result ok;
        ok.is_variable = is_variable;
        return ok;
      }
    }
    result.valid = false;
    result.error = json::array({"Nested type checking failed for parameter " + py_str_repr(param) +
                                ". Expected outer type " + expected_description + " with inner type " +
                                class_text(nested) + ". Parameter value: " + value.repr() + "."});
    result.error_type = "type_error:nested";
  }
  answer_type = possible_answer_type(possible_answer);
  if (answer_type.kind && py_type{value.type()} == answer_type) {
    result.is_variable = true;
    return result;
  }
  result.valid = false;
  result.error.push_back("Incorrect type for parameter " + py_str_repr(param) + ". Expected type " +
                         expected_description + ", got " + std::string(value.type_name()) +
                         ". Parameter value: " + value.repr() + ".");
  result.error_type = "type_error:simple";
  return result;
}

check_result string_checker(const std::string& param, const py_value& model_output, const py_value& possible_answer) {
  items standardized;
  for (const auto& a : iterate(possible_answer))
    if (a.is_str()) standardized.push_back(py_value::string(standardize_string(a.as_str())));
  if (!py_in(py_value::string(standardize_string(model_output.as_str())), standardized))
    return fail("Invalid value for parameter " + py_str_repr(param) + ": " + model_output.repr() +
                    ". Expected one of " + possible_answer.repr() + ". Case insensitive.",
                "value_error:string");
  return {};
}

check_result list_checker(const std::string& param, const py_value& model_output, const py_value& possible_answer) {
  items out;
  for (const auto& v : iterate(model_output)) out.push_back(standardize_if_str(v));
  items standardized;
  for (const auto& answer : iterate(possible_answer)) {
    items one;
    for (const auto& a : iterate(answer)) one.push_back(standardize_if_str(a));
    standardized.push_back(py_value::list(std::move(one)));
  }
  if (!py_in(py_value::list(std::move(out)), standardized))
    return fail("Invalid value for parameter " + py_str_repr(param) + ": " + model_output.repr() +
                    ". Expected one of " + possible_answer.repr() + ".",
                "value_error:list/tuple");
  return {};
}

check_result dict_checker(const std::string& param, const py_value& model_output, const items& possible_answers) {
  check_result result = fail("", "dict_checker:unclear");
  result.error = json::array();
  for (const auto& possible : possible_answers) {
    if (possible.is_str() && possible.as_str().empty()) continue;
    result = fail("", "dict_checker:unclear");
    result.error = json::array();
    bool flag = true;
    if (!model_output.is_dict() || !possible.is_dict())
      throw decode_error("'" + std::string((model_output.is_dict() ? possible : model_output).type_name()) +
                         "' object has no attribute 'keys'");
    if (model_output.size() != possible.size()) {
      result.error.push_back("Wrong number of parameters for dictionary.");
      result.error_type = "value_error:dict_items";
      continue;
    }
    for (const auto& [key, value] : model_output.entries()) {
      const py_value* expected = possible.find(key);
      if (!expected) {
        result.error.push_back("Unexpected parameter: '" + key.str() + "'.");
        result.error_type = "value_error:dict_key";
        flag = false;
        break;
      }
      if (expected->is_dict()) {
        result = dict_checker(param, value, {*expected});
        if (!result.valid) {
          flag = false;
          break;
        }
        continue;
      }
      py_value standardized_value = standardize_if_str(value);
      items standardized;
      for (const auto& a : iterate(*expected)) standardized.push_back(standardize_if_str(a));
      if (!py_in(standardized_value, standardized)) {
        result.error.push_back("Invalid value for parameter " + key.repr() + ": " + value.repr() +
                               ". Expected one of " + py_value::list(standardized).repr() + ".");
        result.error_type = "value_error:dict_value";
        flag = false;
        break;
      }
    }
    if (flag) return {};
  }
  return result;
}

check_result list_dict_checker(const std::string& param, const py_value& model_output, const py_value& possible_answers) {
  check_result result = fail("", "list_dict_checker:unclear");
  result.error = json::array();
  for (const auto& answer : iterate(possible_answers)) {
    bool flag = true;
    if (model_output.size() != answer.size()) {
      result = fail("Wrong number of dictionaries in the list.", "value_error:list_dict_count");
      continue;
    }
    const items out = iterate(model_output);
    const items expected = iterate(answer);
    for (std::size_t k = 0; k < out.size(); ++k) {
      result = dict_checker(param, out[k], {expected[k]});
      if (!result.valid) {
        flag = false;
        break;
      }
    }
    if (flag) return {};
  }
  return result;
}

std::string convert_func_name(const std::string& name, const check_options& o) {
  if (name.find('.') == std::string::npos || !o.underscore_to_dot) return name;
  std::string out = name;
  for (char& c : out)
    if (c == '.') c = '_';
  return out;
}

check_result simple_function_checker(const py_value& func_description, const py_value& model_output,
                                     const py_value& possible_answer_entry, const check_options& o) {
  if (!possible_answer_entry.is_dict() || possible_answer_entry.entries().empty())
    throw decode_error("IndexError: list index out of range");
  const py_value& possible_answer = possible_answer_entry.entries().front().second;
  std::string func_name = subscript(func_description, "name").str();
  const py_value& parameters = subscript(func_description, "parameters");
  const py_value& param_details = subscript(parameters, "properties");
  const py_value* required = parameters.find("required");

  func_name = convert_func_name(func_name, o);
  if (!py_contains(model_output, py_value::string(func_name)))
    return fail("Function name " + py_str_repr(func_name) + " not found in model output.",
                "simple_function_checker:wrong_func_name");
  const py_value& model_params = *model_output.find(py_value::string(func_name));

  if (required) {
    for (const auto& param : iterate(*required)) {
      if (!py_contains(model_params, param))
        return fail("Missing required parameter: " + param.repr() + ".", "simple_function_checker:missing_required");
    }
  }
  if (!model_params.is_dict())
    throw decode_error("'" + std::string(model_params.type_name()) + "' object has no attribute 'items'");

  for (const auto& [param_key, raw_value] : model_params.entries()) {
    if (!param_details.find(param_key) || !possible_answer.find(param_key))
      return fail("Unexpected parameter: " + param_key.repr() + ".", "simple_function_checker:unexpected_param");
    const std::string param = param_key.str();
    const py_value& details = *param_details.find(param_key);
    const std::string description = subscript(details, "type").str();
    const py_value& answers = *possible_answer.find(param_key);
    py_value value = raw_value;
    py_type expected, nested;
    auto nested_name = [&] { return subscript(subscript(details, "items"), "type").str(); };

    if (o.lang == language::java || o.lang == language::javascript) {
      bool java = o.lang == language::java;
      auto kind = java ? java_type(description) : js_type(description);
      if (!kind) throw decode_error("KeyError: '" + description + "'");
      expected = {kind};
      if (!value.is_str())
        return fail("Incorrect type for parameter " + py_str_repr(param) + ". Expected type String, got " +
                        std::string(value.type_name()) + ". Parameter value: " + value.repr() + ".",
                    java ? "type_error:java" : "type_error:js");
      if (description == "Array" || description == "ArrayList" || description == "array") {
        std::string inner = nested_name();
        nested = {java ? java_type(inner) : js_type(inner)};
        if (!nested.kind) throw decode_error("KeyError: '" + inner + "'");
        value = java ? java_type_converter(value, description, inner) : js_type_converter(value, description, inner);
      } else {
        value = java ? java_type_converter(value, description, std::nullopt)
                     : js_type_converter(value, description, std::nullopt);
      }
    } else {
      expected = {python_type(description)};
      if (!expected.kind) throw decode_error("KeyError: '" + description + "'");
      if (description == "array" || description == "tuple") {
        std::string inner = nested_name();
        nested = {python_type(inner)};
        if (!nested.kind) throw decode_error("KeyError: '" + inner + "'");
      }
    }
    if (description == "tuple" && value.type() == pk::tuple) value = py_value::list(value.items());
    if (o.lang == language::python && description == "float" && value.type() == pk::integer)
      value = py_value::floating(static_cast<double>(value.as_int()));

    check_result type_result = type_checker(param, value, answers, description, expected, nested);
    if (!type_result.valid) return type_result;
    if (!type_result.is_variable) {
      // dicts, lists of dicts, strings and lists have their own comparison; other values
      // (numbers, booleans, variables) must be one of the answers as they are.
      std::optional<check_result> special;
      if (expected.kind == pk::dict) special = dict_checker(param, value, iterate(answers));
      else if (expected.kind == pk::list && nested.kind == pk::dict) special = list_dict_checker(param, value, answers);
      else if (expected.kind == pk::string) special = string_checker(param, value, answers);
      else if (expected.kind == pk::list) special = list_checker(param, value, answers);
      if (special) {
        if (!special->valid) return *special;
        continue;
      }
    }
    if (!py_contains(answers, value))
      return fail("Invalid value for parameter " + py_str_repr(param) + ": " + value.repr() + ". Expected one of " +
                      answers.repr() + ".",
                  "value_error:others");
  }

  for (const auto& [param, answers] : possible_answer.entries()) {
    if (!py_contains(model_params, param) && !py_contains(answers, py_value::string("")))
      return fail("Optional parameter " + param.repr() + " not provided and not marked as optional.",
                  "simple_function_checker:missing_optional");
  }
  return {};
}

const py_value* find_description(const py_value& descriptions, const std::string& name) {
  if (descriptions.is_list()) {
    for (const auto& d : descriptions.items())
      if (name.find(subscript(d, "name").str()) != std::string::npos) return &d;
    return nullptr;
  }
  return &descriptions;
}

check_result parallel_no_order(const py_value& descriptions, const py_value& model_output,
                               const py_value& possible_answers, const check_options& o) {
  if (model_output.size() != possible_answers.size())
    return fail("Wrong number of functions.", "parallel_function_checker_no_order:wrong_count");
  std::vector<std::size_t> matched;
  const items outputs = iterate(model_output);
  std::size_t i = 0;
  for (const auto& [key, value] : possible_answers.entries()) {
    const std::string name = key.str();
    const py_value* description = find_description(descriptions, name);
    if (!description)
      return fail("Function doc description not found for function name: " + py_str_repr(name) + ".",
                  "parallel_function_checker_no_order:cannot_find_description");
    py_value::entries_t one;
    one.emplace_back(key, value);
    py_value answer = py_value::dict(std::move(one));
    json all_errors = json::array();
    check_result result;
    for (std::size_t index = 0; index < outputs.size(); ++index) {
      if (std::find(matched.begin(), matched.end(), index) != matched.end()) continue;
      result = simple_function_checker(*description, outputs[index], answer, o);
      if (result.valid) {
        matched.push_back(index);
        break;
      }
      all_errors.push_back({{"Model Result Index " + std::to_string(index),
                             {{"sub_error", result.error},
                              {"sub_error_type", result.error_type},
                              {"model_output_item", outputs[index].to_json()},
                              {"possible_answer_item", answer.to_json()}}}});
    }
    if (!result.valid) {
      std::string considered = "[";
      for (std::size_t k = 0; k < outputs.size(); ++k) {
        if (std::find(matched.begin(), matched.end(), k) != matched.end()) continue;
        considered += (considered.size() > 1 ? ", " : "") + std::to_string(k);
      }
      all_errors.insert(all_errors.begin(), "Could not find a matching function among index " + considered +
                                                "] of model output for index " + std::to_string(i) +
                                                " of possible answers.");
      check_result r;
      r.valid = false;
      r.error = std::move(all_errors);
      r.error_type = "parallel_function_checker_no_order:cannot_find_match";
      return r;
    }
    ++i;
  }
  return {};
}

}  // namespace

std::string standardize_string(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ' || c == ',' || c == '.' || c == '/' || c == '-' || c == '_' || c == '*' || c == '^') continue;
    auto b = static_cast<unsigned char>(c);
    if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c + 32);
    } else if (c == '\'') {
      out += '"';
    } else if (b == 0xC3 && i + 1 < s.size()) {
      // Latin-1 capitals (U+00C0-U+00DE but ×) lowercase by +0x20, as str.lower() does.
      auto n = static_cast<unsigned char>(s[i + 1]);
      out += c;
      out += static_cast<char>(n >= 0x80 && n <= 0x9E && n != 0x97 ? n + 0x20 : n);
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

check_result ast_check(const py_value& function, const py_value& model_output, const py_value& possible_answer,
                       std::string_view category, const check_options& options) {
  if (category.find("multiple") != std::string_view::npos || category.find("parallel") != std::string_view::npos) {
    py_value descriptions = category == "parallel_function" ? py_value::list({function}) : function;
    return parallel_no_order(descriptions, model_output, possible_answer, options);
  }
  if (model_output.size() != 1) return fail("Wrong number of functions.", "simple_function_checker:wrong_count");
  return simple_function_checker(function, model_output.items()[0], possible_answer, options);
}

}  // namespace tooluse::eval::detail
