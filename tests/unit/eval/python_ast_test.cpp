// BFCL reads prompted calls with CPython's ast.parse and its own resolve rules; each case here
// is what CPython 3.11 and BFCL's utils.py give for the text (checked with the real interpreter):
// the repr of the decoded list, or nullopt where BFCL's decoder raises.
#include <gtest/gtest.h>

#include <optional>

#include "eval/decode_error.hpp"
#include "eval/python.hpp"

namespace tooluse::eval::detail {
namespace {

struct py_case {
  const char* text;
  std::optional<const char*> repr;
};

const py_case cases[] = {
    {"[f(a=1, b=\"x\")]", "[{'f': {'a': 1, 'b': 'x'}}]"},
    {"[math.factorial(number=5)]", "[{'math.factorial': {'number': 5}}]"},
    {"[f(x=+5)]", "[{'f': {'x': -5}}]"},
    {"[f(x=not 5)]", "[{'f': {'x': -5}}]"},
    {"[f(x=-1.5)]", "[{'f': {'x': -1.5}}]"},
    {"[f(unit=celsius)]", "[{'f': {'unit': 'celsius'}}]"},
    {"[f(x=10/2, y=2**10, z=7//2, w=-7%3)]", "[{'f': {'x': 5.0, 'y': 1024, 'z': 3, 'w': 2}}]"},
    {"[f(s=\"a\" \"b\", t=r\"\\d+\")]", "[{'f': {'s': 'ab', 't': '\\\\d+'}}]"},
    {"[f(x=g(1, 2))]", "[{'f': {'x': 'g(1, 2)'}}]"},
    {"[f(x=df[\"a\"][1:2])]", "[{'f': {'x': \"df['a'][1:2]\"}}]"},
    {"[f(x=(1, 2), y={\"k\": [1, None, True]})]", "[{'f': {'x': (1, 2), 'y': {'k': [1, None, True]}}}]"},
    {"[f(1, a=2)]", "[{'f': {'a': 2}}]"},
    {"[f()]", "['f()']"},
    {"[f(x=a.b)]", std::nullopt},
    {"[f(x=lambda y: y)]", std::nullopt},
    {"[f(class=1)]", std::nullopt},
    {" [f(a=1)]", std::nullopt},
    {"[f(a=1)]\n[g(b=2)]", std::nullopt},
    {"[f(a=007)]", std::nullopt},
    {"[f(a=1 b=2)]", std::nullopt},
    {"[f(a=1, b)]", std::nullopt},
    {"[f(a=\"unterminated)]", std::nullopt},
    {"[f(a=“x”)]", std::nullopt},
    {"[f(a=1)], [g(b=2)]", std::nullopt},
    {"(f(a=1), g(b=2))", "[{'f': {'a': 1}}, {'g': {'b': 2}}]"},
    {"f(a=1)", std::nullopt},
    {"[1, f(a=1)]", std::nullopt},
    {"[f(a=x if y else z)]", std::nullopt},
    {"[f(a=[i for i in range(3)])]", std::nullopt},
    {"[f(a={1, 2})]", std::nullopt},
    {"[f(**kw, a=1)]", "[{'f': {None: 'kw', 'a': 1}}]"},
    {"[f(a=1e-5, b=1e16, c=0.1)]", "[{'f': {'a': 1e-05, 'b': 1e+16, 'c': 0.1}}]"},
    {"[f(a=...)]", "[{'f': {'a': '...'}}]"},
    {"[f(a=1_000)]", "[{'f': {'a': 1000}}]"},
    {"[f(a=0x1F)]", "[{'f': {'a': 31}}]"},
    {"[f(a=\"x\\ty\\u00e9\")]", "[{'f': {'a': 'x\\tyé'}}]"},
    {"[f(a=f\"x{y}\")]", std::nullopt},
    {"[a.b.c(d=1)]", "[{'a.b.c': {'d': 1}}]"},
    {"[f(a=g(b=1))]", "[{'f': {'a': {'g': {'b': 1}}}}]"},
    {"[f(a=-x)]", std::nullopt},
    {"[f(a=--1)]", std::nullopt},
    {"[f(a=\"a\"+\"b\", b=[1]*2, c=2*\"ab\")]", "[{'f': {'a': 'ab', 'b': [1, 1], 'c': 'abab'}}]"},
    {"[f(a=1/0)]", std::nullopt},
    {"[f(a=True+1)]", "[{'f': {'a': 2}}]"},
    {"[f(a=match)]", "[{'f': {'a': 'match'}}]"},
    {"[f(a={**d})]", std::nullopt},
    {"# comment\n[f(a=1)]", "[{'f': {'a': 1}}]"},
    {"[f(a=1)] # trailing", "[{'f': {'a': 1}}]"},
    {"[f(a=1,)]", "[{'f': {'a': 1}}]"},
    {"[]", "[]"},
    {"", std::nullopt},
    {"[f(a=1)]\n  ", std::nullopt},
};

TEST(eval_python_ast, decodes_as_cpython_and_bfcl_do) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      py_value v = ast_parse_python(c.text);
      ASSERT_TRUE(c.repr.has_value()) << "BFCL's decoder raises here, ours gave " << v.repr();
      EXPECT_EQ(v.repr(), *c.repr);
    } catch (const decode_error& e) {
      EXPECT_FALSE(c.repr.has_value()) << "BFCL decodes this as " << *c.repr << ", ours raised: " << e.what();
    }
  }
}

TEST(eval_python_ast, syntax_errors_read_like_cpython) {
  try {
    ast_parse_python("[f(a=1 b=2)]");
    FAIL() << "no error";
  } catch (const decode_error& e) {
    EXPECT_STREQ(e.what(), "invalid syntax (<unknown>, line 1)");
  }
  try {
    ast_parse_python("[f(a=007)]");
    FAIL() << "no error";
  } catch (const decode_error& e) {
    EXPECT_NE(std::string(e.what()).find("leading zeros"), std::string::npos) << e.what();
  }
}

TEST(eval_python_ast, deep_nesting_is_refused_not_a_stack_overflow) {
  std::string deep = "[f(a=" + std::string(100000, '[') + std::string(100000, ']') + ")]";
  EXPECT_THROW(ast_parse_python(deep), decode_error);
}

TEST(eval_python_ast, unparse_prints_as_ast_unparse) {
  EXPECT_EQ(unparse(*parse_python_expression("np.array( [1,2] ,dtype = 'f' )")), "np.array([1, 2], dtype='f')");
  EXPECT_EQ(unparse(*parse_python_expression("(a+b)*c")), "(a + b) * c");
  EXPECT_EQ(unparse(*parse_python_expression("a[1:2, ::3]")), "a[1:2, ::3]");
  EXPECT_EQ(unparse(*parse_python_expression("f(*x, **y)")), "f(*x, **y)");
  EXPECT_EQ(unparse(*parse_python_expression("f((1,))")), "f((1,))");
}

}  // namespace
}  // namespace tooluse::eval::detail
