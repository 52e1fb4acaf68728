#pragma once
// The BFCL single-turn corpus (tests/data/bfcl), loaded once per test binary: every function
// doc converted to a tool_spec with its compiled validator, and every ground-truth call expanded
// into concrete argument objects. Used by bfcl_*_test.cpp.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/schema/import.hpp"
#include "tooluse/schema/validator.hpp"

namespace tooluse::testing::bfcl {

/// function is one function doc of one entry.
struct function {
  std::string category;  ///< e.g. "simple_python", "live_multiple"
  std::string entry_id;
  json doc;              ///< the BFCL doc as written
  schema::tool_spec spec;
  std::shared_ptr<schema::validator> validator;
  std::string error;     ///< why conversion or compilation failed; empty if it worked
};

/// entry is one BFCL question: its functions.
struct entry {
  std::string category;
  std::string id;
  std::vector<std::size_t> functions;  ///< indexes into corpus::functions
};

/// call_instance is one concrete set of arguments a ground truth accepts.
struct call_instance {
  std::string entry_id;
  std::string category;
  std::size_t function;  ///< index into corpus::functions
  json arguments;
  bool is_base;          ///< the first acceptable value of every parameter
};

/// corpus is the whole data set; `skipped_expressions` counts ground-truth values of the Java
/// and JavaScript categories that are source-language expressions (a variable name or
/// `new int[]{1}` standing for a non-string parameter), which a JSON caller cannot send.
struct corpus {
  std::vector<function> functions;
  std::vector<entry> entries;
  std::vector<call_instance> calls;
  std::size_t ground_truth_entries = 0;
  std::size_t skipped_expressions = 0;
  std::size_t skipped_omitted_required = 0;  ///< "" offered for a parameter the doc requires
  std::size_t unknown_function_calls = 0;
};

/// load returns the corpus, loading it on first use. Thread-unsafe first call; tests are serial.
const corpus& load();

}  // namespace tooluse::testing::bfcl
