// BFCL's JavaScript decoding (js_parser.py on tree-sitter-javascript 0.21.4) and js_type_converter.py.
// Every expected value here is what BFCL's own code gives: parser cases were run through the
// real tree-sitter-javascript 0.21.4 grammar with BFCL's traversal, converter cases through BFCL's
// js_type_converter.py under CPython 3.11.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "eval/decode_error.hpp"
#include "eval/js.hpp"

namespace tooluse::eval::detail::js_test {
namespace {

struct parse_case {
  const char* source;
  const char* repr;   // repr() of BFCL's result, or nullptr when it raises
  const char* error;  // str() of the exception BFCL raises
};

struct convert_case {
  const char* value;
  const char* type;
  const char* nested;  // nullptr: no nested type
  const char* repr;    // repr() of BFCL's result, or nullptr when it raises
  const char* error;   // str() of the ValueError / NotImplementedError
};

const parse_case parse_cases[] = {
    {"foo(a=1,)", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=1) bar(b=2)", nullptr, "Error js parsing the source code."},
    {"foo(a=1);", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=1), bar(b=2)", "None", nullptr},
    {"foo(a=1 b=2)", nullptr, "Error js parsing the source code."},
    {"", "None", nullptr},
    {"x", "None", nullptr},
    {"foo(a={x:1, y:[1,2]}, b=true, c, true, false, d=\"x'y\")", nullptr, "Error: Multiple arguments with the same name are not supported."},
    {"foo(a=function(){return 1})", "[{'foo': {'a': 'function(){return 1}'}}]", nullptr},
    {"a.b(x=1)", "[{'a.b': {'x': '1'}}]", nullptr},
    {"foo(a=1)\nbar(b=2)", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=`t${x}`)", "[{'foo': {'a': '`t${x}`'}}]", nullptr},
    {"foo(a=1", nullptr, "Error js parsing the source code."},
    {"foo(\"a\")", "[{'foo': {}}]", nullptr},
    {"await foo(a=1)", "None", nullptr},
    {"new Foo(a=1)", "None", nullptr},
    {"foo(a=1)(b=2)", "[{'foo(a=1)': {'b': '2'}}]", nullptr},
    {"let x = foo(a=1)", "None", nullptr},
    {"foo(a=\"\")", "[{'foo': {'a': ''}}]", nullptr},
    {"foo(a=\"x\")", "[{'foo': {'a': 'x'}}]", nullptr},
    {"foo(a=1, a=2)", nullptr, "Error: Multiple arguments with the same name are not supported."},
    {"foo(a=x=>x)", "[{'foo': {'a': 'x=>x'}}]", nullptr},
    {"foo(a={1,2})", nullptr, "Error js parsing the source code."},
    {"foo(a=undefined)", "[{'foo': {'a': 'undefined'}}]", nullptr},
    {"foo(undefined)", "[{'foo': {}}]", nullptr},
    {"foo(a=1);;", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=1) // c", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=/re/g, b=x/2/3)", "[{'foo': {'a': '/re/g', 'b': 'x/2/3'}}]", nullptr},
    {"foo(a=1)}", nullptr, "Error js parsing the source code."},
    {"foo(a=1))", nullptr, "Error js parsing the source code."},
    {"[foo(a=1)]", "None", nullptr},
    {"foo(a=1),", nullptr, "Error js parsing the source code."},
    {"foo(a={})", "[{'foo': {'a': '{}'}}]", nullptr},
    {"foo(a={a:1,})", "[{'foo': {'a': '{a:1,}'}}]", nullptr},
    {"foo(a=[1,,2])", "[{'foo': {'a': '[1,,2]'}}]", nullptr},
    {"foo(...x, a=1)", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=async () => 1)", "[{'foo': {'a': 'async () => 1'}}]", nullptr},
    {"foo(a=class {})", "[{'foo': {'a': 'class {}'}}]", nullptr},
    {"foo(get=1, let=2, async=3, of=4, static=5)", "[{'foo': {'get': '1', 'let': '2', 'async': '3', 'of': '4', 'static': '5'}}]", nullptr},
    {"foo(a='x\ny')", nullptr, "Error js parsing the source code."},
    {"foo(a=1)\n", "[{'foo': {'a': '1'}}]", nullptr},
    {"hello world", nullptr, "Error js parsing the source code."},
    {"x y", nullptr, "Error js parsing the source code."},
    {"foo(a=b c)", nullptr, "Error js parsing the source code."},
    {"foo(a=1)\n(b=2)", "[{'foo(a=1)': {'b': '2'}}]", nullptr},
    {"foo(a=function f(x) { if (x) { return 1 } else return 2; })", "[{'foo': {'a': 'function f(x) { if (x) { return 1 } else return 2; }'}}]", nullptr},
    {"foo.bar(a=1)", "[{'foo.bar': {'a': '1'}}]", nullptr},
    {"foo['x'](a=1)", "[{\"foo['x']\": {'a': '1'}}]", nullptr},
    {"foo\?.(a=1)", "[{'foo': {}}]", nullptr},
    {"foo(a\?.b, c=d\?.[1])", "[{'foo': {'c': 'd\?.[1]'}}]", nullptr},
    {"foo(a=b\?\?c, d=x**2, e=typeof x, f=new Date(), g=new Date, h=void 0)", "[{'foo': {'a': 'b\?\?c', 'd': 'x**2', 'e': 'typeof x', 'f': 'new Date()', 'g': 'new Date', 'h': 'void 0'}}]", nullptr},
    {"foo(a=+1, b=-1, c=!x, d=x++)", "[{'foo': {'a': '+1', 'b': '-1', 'c': '!x', 'd': 'x++'}}]", nullptr},
    {"foo(a=#x)", nullptr, "Error js parsing the source code."},
    {"foo(a=0x1F, b=1e5, c=.5, d=5., e=1_000, f=10n, g=08, h=0o7, i=0b1)", "[{'foo': {'a': '0x1F', 'b': '1e5', 'c': '.5', 'd': '5.', 'e': '1_000', 'f': '10n', 'g': '08', 'h': '0o7', 'i': '0b1'}}]", nullptr},
    {"foo(a='\\'')", "[{'foo': {'a': \"\\\\'\"}}]", nullptr},
    {"foo(a=1, b)", "[{'foo': {'a': '1', None: 'b'}}]", nullptr},
    {"foo(a, b)", nullptr, "Error: Multiple arguments with the same name are not supported."},
    {"foo(true, false)", "[{'foo': {None: 'true'}}]", nullptr},
    {"foo(a=true)", "[{'foo': {'a': 'true'}}]", nullptr},
    {"foo(a=1) /* c */", "[{'foo': {'a': '1'}}]", nullptr},
    {"/* c */ foo(a=1)", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=/* c */1)", "[{'foo': {'a': '/* c */'}}]", nullptr},
    {"foo(a=x => { return x; })", "[{'foo': {'a': 'x => { return x; }'}}]", nullptr},
    {"foo(a={b: function() {}, c() {}, [d]: 1, e, ...f, 'g': 2, 3: 4})", "[{'foo': {'a': \"{b: function() {}, c() {}, [d]: 1, e, ...f, 'g': 2, 3: 4}\"}}]", nullptr},
    {"foo(a=1)\n\nbar(b=1)", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=[\"x\", 'y'])", "[{'foo': {'a': '[\"x\", \\'y\\']'}}]", nullptr},
    {"foo(a=x \? y : z)", "[{'foo': {'a': 'x \? y : z'}}]", nullptr},
    {"foo(a=(1, 2))", "[{'foo': {'a': '(1, 2)'}}]", nullptr},
    {"foo(a=b=c)", "[{'foo': {'a': 'b=c'}}]", nullptr},
    {"foo(a+=1)", "[{'foo': {}}]", nullptr},
    {"foo(a.b=1)", "[{'foo': {'a.b': '1'}}]", nullptr},
    {"foo(\"a\"=1)", nullptr, "Error js parsing the source code."},
    {"foo(1=1)", nullptr, "Error js parsing the source code."},
    {"foo(a=)", nullptr, "Error js parsing the source code."},
    {"foo(=1)", nullptr, "Error js parsing the source code."},
    {"foo()", "[{'foo': {}}]", nullptr},
    {"foo", "None", nullptr},
    {"a.b", "None", nullptr},
    {"if (x) foo(a=1)", "None", nullptr},
    {"let x = 1; foo(a=1)", "[{'foo': {'a': '1'}}]", nullptr},
    {"foo(a=1);bar(b=2)", "[{'foo': {'a': '1'}}]", nullptr},
    {"f(a=x in y, b=x instanceof Y)", "[{'f': {'a': 'x in y', 'b': 'x instanceof Y'}}]", nullptr},
    {"f(a=`${`${x}`}`)", "[{'f': {'a': '`${`${x}`}`'}}]", nullptr},
    {"f(a=await x)", "[{'f': {'a': 'await x'}}]", nullptr},
    {"f(a=yield)", "[{'f': {'a': 'yield'}}]", nullptr},
    {"f(a=this, b=super.x)", "[{'f': {'a': 'this', 'b': 'super.x'}}]", nullptr},
    {"f(a=x\n++y)", nullptr, "Error js parsing the source code."},
    {"f(a=1\n)", "[{'f': {'a': '1'}}]", nullptr},
    {"f(a=\"\\\n\")", "[{'f': {'a': '\\\\\\n'}}]", nullptr},
    {"manageReactState(store={'initialState': initialStateObject,'reducers': reducersMap,'middlewares': [loggerMiddleware], 'enhancers': ['applyMiddleware','myMiddleWare']}, context=ReactContext, hooks={'useStateSelectorHook': useStateSelectorHook, 'useDispatchActionHook': useDispatchActionHook})", "[{'manageReactState': {'store': \"{'initialState': initialStateObject,'reducers': reducersMap,'middlewares': [loggerMiddleware], 'enhancers': ['applyMiddleware','myMiddleWare']}\", 'context': 'ReactContext', 'hooks': \"{'useStateSelectorHook': useStateSelectorHook, 'useDispatchActionHook': useDispatchActionHook}\"}}]", nullptr},
    {"performDataFetch(apiEndpoint='https://api.example.com/data', requestConfig='{\"method\": \"GET\"}', expectedResponse='{\"key\": \"value\"}')", "[{'performDataFetch': {'apiEndpoint': 'https://api.example.com/data', 'requestConfig': '{\"method\": \"GET\"}', 'expectedResponse': '{\"key\": \"value\"}'}}]", nullptr},
    {"buttonAddClickHandler(element='myButton', callback='handleButtonClick', options='{stopProgation: true}')", "[{'buttonAddClickHandler': {'element': 'myButton', 'callback': 'handleButtonClick', 'options': '{stopProgation: true}'}}]", nullptr},
    {"findProductById(products=[Product A, Product B, Product C], id='123')", nullptr, "Error js parsing the source code."},
    {"EventScheduler(events={'setupStage': {'function': setupStageFunction, 'prerequisites': []}, 'cleanupStage': {'function': cleanStageFunction, 'prerequisites': ['setupStage']}}, concurrencyLimit=3)", "[{'EventScheduler': {'events': \"{'setupStage': {'function': setupStageFunction, 'prerequisites': []}, 'cleanupStage': {'function': cleanStageFunction, 'prerequisites': ['setupStage']}}\", 'concurrencyLimit': '3'}}]", nullptr},
    {"B(t='5', e=function logMessage(message) { console.log(message); })", "[{'B': {'t': '5', 'e': 'function logMessage(message) { console.log(message); }'}}]", nullptr},
    {"manageReactState(store='{\"initialState\": initialStateObject, \"reducers\": reducersMap, \"middlewares\": [loggerMiddleware], \"enhancers\": [applyMiddleware(\"myMiddleWare\")]}', context='React.createContext()', hooks='{\"useSelector\": useStateSelectorHook, \"useDispatch\": useDispatchActionHook}')", "[{'manageReactState': {'store': '{\"initialState\": initialStateObject, \"reducers\": reducersMap, \"middlewares\": [loggerMiddleware], \"enhancers\": [applyMiddleware(\"myMiddleWare\")]}', 'context': 'React.createContext()', 'hooks': '{\"useSelector\": useStateSelectorHook, \"useDispatch\": useDispatchActionHook}'}}]", nullptr},
    {"performDataFetch(apiEndpoint=\"https://api.example.com/data\", requestConfig=\"{\"method\": \"GET\"}\", expectedResponse=\"{\"key\": \"value\"}\")", nullptr, "Error js parsing the source code."},
    {"buttonAddClickHandler(element=\"myButton\", callback=\"handleButtonClick\", options=\"{ stopPropagation: true }\")", "[{'buttonAddClickHandler': {'element': 'myButton', 'callback': 'handleButtonClick', 'options': '{ stopPropagation: true }'}}]", nullptr},
    {"findProductById(products=\"['Product A', 'Product B', 'Product C']\", id=\"123\")", "[{'findProductById': {'products': \"['Product A', 'Product B', 'Product C']\", 'id': '123'}}]", nullptr},
    {"EventScheduler(events=\"{'setupStage': setupStageFunction, 'cleanupStage': ['cleanStageFunction', 'setupStage']}\", concurrencyLimit=\"3\")", "[{'EventScheduler': {'events': \"{'setupStage': setupStageFunction, 'cleanupStage': ['cleanStageFunction', 'setupStage']}\", 'concurrencyLimit': '3'}}]", nullptr},
    {"B(t=\"5\", e=\"[() => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed')]\")", "[{'B': {'t': '5', 'e': \"[() => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed'), () => console.log('Task executed')]\"}}]", nullptr},
    {"map: f(a=1)", "None", nullptr},
    {"f(a=x<y=2)", "[{'f': {'a': 'x<y=2'}}]", nullptr},
    {"f(a=x[1, b=2)", "[{'f': {'a': 'x[1, b=2'}}]", nullptr},
    {"x; f(a=1)", "[{'f': {'a': '1'}}]", nullptr},
    {"f(a=\"x\\\"y\")", "[{'f': {'a': 'x\\\\\"y'}}]", nullptr},
    {"f(a='it\\'s')", "[{'f': {'a': \"it\\\\'s\"}}]", nullptr},
};

const convert_case convert_cases[] = {
    {"-5n", "Boolean", nullptr, "'-5n'", nullptr},
    {"[1, [2, 3]]", "integer", nullptr, "'[1, [2, 3]]'", nullptr},
    {"responseData", "dict", nullptr, "'responseData'", nullptr},
    {"[1, 2", "array", nullptr, "'[1, 2'", nullptr},
    {"processKeyFunction", "any", nullptr, "'processKeyFunction'", nullptr},
    {"[1, 2, 3]", "array", nullptr, "[1, 2, 3]", nullptr},
    {"123n", "object", nullptr, nullptr, "Unsupported type: object"},
    {"123", "any", nullptr, "'123'", nullptr},
    {"{a: \"x, y: z\", b: 2}", "Bigint", nullptr, "'{a: \"x, y: z\", b: 2}'", nullptr},
    {"{\"url\": \"http://x.com:80/a\", \"n\": 1}", "array", nullptr, "'{\"url\": \"http://x.com:80/a\", \"n\": 1}'", nullptr},
    {"[1, 2", "array", "integer", "'[1, 2'", nullptr},
    {"{a: \"x, y: z\", b: 2}", "int", nullptr, nullptr, "Unsupported type: int"},
    {"-123", "float", nullptr, "-123.0", nullptr},
    {"{'key': 'value'}", "Boolean", nullptr, "\"{'key': 'value'}\"", nullptr},
    {"new Array([1, 2], [3, 4])", "dict", nullptr, "'new Array([1, 2], [3, 4])'", nullptr},
    {"{\"a\": 1}", "int", nullptr, nullptr, "Unsupported type: int"},
    {"[\"a\", 'b', c]", "dict", nullptr, "'[\"a\", \\'b\\', c]'", nullptr},
    {"\"https://github.com/yarnpkg/berry\"", "String", nullptr, "'https://github.com/yarnpkg/berry'", nullptr},
    {"[{\"key1\": 1}, {\"key2\": 2}]", "Boolean", nullptr, "'[{\"key1\": 1}, {\"key2\": 2}]'", nullptr},
    {"[{\"key1\": 1}, {\"key2\": 2}]", "integer", nullptr, "'[{\"key1\": 1}, {\"key2\": 2}]'", nullptr},
    {"{a: 1, b: {c: 2}, d: [1,2]}", "object", nullptr, nullptr, "Unsupported type: object"},
    {"123n\n", "array", nullptr, "'123n'", nullptr},
    {"not a dict", "Bigint", nullptr, "'not a dict'", nullptr},
    {"[1,2] + [3]", "object", nullptr, nullptr, "Unsupported type: object"},
    {"{'key': 'value'}", "any", nullptr, "\"{'key': 'value'}\"", nullptr},
    {"{:1}", "float", nullptr, "'{:1}'", nullptr},
    {"\"abc\"", "object", nullptr, nullptr, "Unsupported type: object"},
    {"[ 1 , \"two\", true, 2.5, x ]", "integer", nullptr, "'[ 1 , \"two\", true, 2.5, x ]'", nullptr},
    {"{\"key\": \"value\"}", "dict", nullptr, "{'key': 'value'}", nullptr},
    {"true", "Boolean", nullptr, "True", nullptr},
    {"new Array(5)", "array", nullptr, "[5]", nullptr},
    {"{a: \"x, y: z\", b: 2}", "float", nullptr, "'{a: \"x, y: z\", b: 2}'", nullptr},
    {"10", "float", nullptr, "10.0", nullptr},
    {"123n\n", "Boolean", nullptr, "'123n\\n'", nullptr},
    {"{'key1': 123, 'key2': 'value', 'key3': false}", "dict", nullptr, "{'key1': 123, 'key2': 'value', 'key3': False}", nullptr},
    {"{'key1': 123, 'key2': 'value', 'key3': false}", "int", nullptr, nullptr, "Unsupported type: int"},
    {"example@domain.com", "String", nullptr, "'example@domain.com'", nullptr},
    {"{}", "array", nullptr, "'{}'", nullptr},
    {"processFunction", "any", nullptr, "'processFunction'", nullptr},
    {"johndoe", "String", nullptr, "'johndoe'", nullptr},
    {"new Array([1, 2], [3, 4])", "object", nullptr, nullptr, "Unsupported type: object"},
    {"{a}", "integer", nullptr, "'{a}'", nullptr},
    {"['width', 'height']", "array", "String", "['width', 'height']", nullptr},
    {"{\"url\": \"http://x.com:80/a\", \"n\": 1}", "Boolean", nullptr, "'{\"url\": \"http://x.com:80/a\", \"n\": 1}'", nullptr},
    {"123n", "Boolean", nullptr, "'123n'", nullptr},
    {"-1.5", "int", nullptr, nullptr, "Unsupported type: int"},
    {"-123", "integer", nullptr, "-123", nullptr},
    {"[]", "any", nullptr, "'[]'", nullptr},
    {"[[1, 2], [3, 4]]", "array", "integer", "[[1, 2], [3, 4]]", nullptr},
    {"  {\"a\": [1, 2], \"b\": \"x\"}  ", "Bigint", nullptr, "'  {\"a\": [1, 2], \"b\": \"x\"}  '", nullptr},
    {"123n\n", "any", nullptr, "'123n\\n'", nullptr},
    {"{a}", "array", "integer", "'{a}'", nullptr},
    {"dataPointsArray", "array", "String", "'dataPointsArray'", nullptr},
    {"new Array(5)", "object", nullptr, nullptr, "Unsupported type: object"},
    {"[1, 2, 3]", "object", nullptr, nullptr, "Unsupported type: object"},
    {"unionTypeObj", "any", nullptr, "'unionTypeObj'", nullptr},
    {"abc", "int", nullptr, nullptr, "Unsupported type: int"},
    {"{a: \"x, y: z\", b: 2}", "any", nullptr, "'{a: \"x, y: z\", b: 2}'", nullptr},
    {"new Array(1, 2, 3)", "integer", nullptr, "'new Array(1, 2, 3)'", nullptr},
    {"materialProps", "dict", nullptr, "'materialProps'", nullptr},
    {" [ [ 1, 2 ], [ 3,   4], [5, 6]]", "float", nullptr, "' [ [ 1, 2 ], [ 3,   4], [5, 6]]'", nullptr},
    {"{a:1,,b:2}", "integer", nullptr, "'{a:1,,b:2}'", nullptr},
    {"123\n", "Boolean", nullptr, "'123\\n'", nullptr},
    {"{ stopPropagation: true }", "any", nullptr, "'{ stopPropagation: true }'", nullptr},
    {"{'key': 'value'}", "String", nullptr, "\"{'key': 'value'}\"", nullptr},
    {"123n\n", "int", nullptr, nullptr, "Unsupported type: int"},
    {"[]", "integer", nullptr, "'[]'", nullptr},
    {"new Array(5)", "dict", nullptr, "'new Array(5)'", nullptr},
    {"new Array(1, 2, 3)", "any", nullptr, "'new Array(1, 2, 3)'", nullptr},
    {"123n\n", "object", nullptr, nullptr, "Unsupported type: object"},
    {"emailForm", "any", nullptr, "'emailForm'", nullptr},
    {"-123", "array", "integer", "'-123'", nullptr},
    {"false", "Bigint", nullptr, "'false'", nullptr},
    {"{:1}", "array", "integer", "'{:1}'", nullptr},
    {"new Array()", "array", nullptr, "[]", nullptr},
    {"{ stopPropagation: true }", "array", "integer", "'{ stopPropagation: true }'", nullptr},
    {"{}", "int", nullptr, nullptr, "Unsupported type: int"},
    {"{\"a\": {\"b\": 1}}", "Bigint", nullptr, "'{\"a\": {\"b\": 1}}'", nullptr},
    {"  {\"a\": [1, 2], \"b\": \"x\"}  ", "String", nullptr, "'  {\"a\": [1, 2], \"b\": \"x\"}  '", nullptr},
    {"{\"initialState\": initialStateObject, \"reducers\": reducersMap, \"middlewares\": [\"loggerMiddleware\"], \"enhancers\": [\"applyMiddleware\", \"myMiddleWare\"]}", "int", nullptr, nullptr, "Unsupported type: int"},
    {"[ 1 , \"two\", true, 2.5, x ]", "any", nullptr, "'[ 1 , \"two\", true, 2.5, x ]'", nullptr},
    {"\"abc\"", "integer", nullptr, "'\"abc\"'", nullptr},
    {"'urgent'", "String", nullptr, "'urgent'", nullptr},
    {"{\"a\": {\"b\": 1}}", "array", "integer", "'{\"a\": {\"b\": 1}}'", nullptr},
    {"abc", "array", "integer", "'abc'", nullptr},
    {"['texture1', 'texture2']", "array", "String", "['texture1', 'texture2']", nullptr},
    {"{\"url\": \"http://x.com:80/a\", \"n\": 1}", "object", nullptr, nullptr, "Unsupported type: object"},
    {"'abc'", "array", nullptr, "\"'abc'\"", nullptr},
    {"{}", "float", nullptr, "'{}'", nullptr},
    {"1.5", "Bigint", nullptr, "'1.5'", nullptr},
    {"[1,2] + [3]", "Boolean", nullptr, "'[1,2] + [3]'", nullptr},
    {"{\"url\": \"http://x.com:80/a\", \"n\": 1}", "Bigint", nullptr, "'{\"url\": \"http://x.com:80/a\", \"n\": 1}'", nullptr},
    {"{\"a\": 1}", "String", nullptr, "'{\"a\": 1}'", nullptr},
    {"UserProfile", "String", nullptr, "'UserProfile'", nullptr},
    {"'loopEnd'", "String", nullptr, "'loopEnd'", nullptr},
    {"[1, 2", "Boolean", nullptr, "'[1, 2'", nullptr},
    {"-5n", "object", nullptr, nullptr, "Unsupported type: object"},
    {"null", "any", nullptr, "'null'", nullptr},
    {"[1, 2", "String", nullptr, "'[1, 2'", nullptr},
    {"  {\"a\": [1, 2], \"b\": \"x\"}  ", "float", nullptr, "'  {\"a\": [1, 2], \"b\": \"x\"}  '", nullptr},
    {"{'setupStage': {'function': setupStageFunction, 'prerequisites': []}, 'cleanupStage': {'function': cleanStageFunction, 'prerequisites': ['setupStage']}}", "dict", nullptr, "{'setupStage': \"{'function': setupStageFunction\", 'prerequisites': []}", nullptr},
    {"['isRequired', 'isValidEmail']", "array", "String", "['isRequired', 'isValidEmail']", nullptr},
    {" [ [ 1, 2 ], [ 3,   4], [5, 6]]", "int", nullptr, nullptr, "Unsupported type: int"},
    {"\"abc'", "array", "integer", "'\"abc\\''", nullptr},
    {"{a:1,,b:2}", "float", nullptr, "'{a:1,,b:2}'", nullptr},
    {"['bookA','bookB','bookC']", "array", "String", "['bookA', 'bookB', 'bookC']", nullptr},
    {"new Array(5)", "any", nullptr, "'new Array(5)'", nullptr},
    {"new Array([1, 2], [3, 4])", "int", nullptr, nullptr, "Unsupported type: int"},
    {"dashboardElement", "any", nullptr, "'dashboardElement'", nullptr},
    {"[3, 1, 2, 1, 4, 3]", "array", "integer", "[3, 1, 2, 1, 4, 3]", nullptr},
    {"processType", "any", nullptr, "'processType'", nullptr},
    {"{a}", "object", nullptr, nullptr, "Unsupported type: object"},
    {"[1, 2, 3]", "int", nullptr, nullptr, "Unsupported type: int"},
    {"dataAnalysisContext", "any", nullptr, "'dataAnalysisContext'", nullptr},
    {"[1, [2, 3]]", "dict", nullptr, "'[1, [2, 3]]'", nullptr},
    {"abc", "any", nullptr, "'abc'", nullptr},
    {"new Array([1, 2], [3, 4])", "float", nullptr, "'new Array([1, 2], [3, 4])'", nullptr},
    {"{\"a\": 1}", "Boolean", nullptr, "'{\"a\": 1}'", nullptr},
    {"['param1', 'param2', 'param3', '...']", "array", "String", "['param1', 'param2', 'param3', '...']", nullptr},
    {" [ [ 1, 2 ], [ 3,   4], [5, 6]]", "object", nullptr, nullptr, "Unsupported type: object"},
};

TEST(eval_js, parse_javascript_function_call_matches_bfcl) {
  for (const auto& c : parse_cases) {
    SCOPED_TRACE(c.source);
    if (c.repr) {
      try {
        EXPECT_EQ(parse_javascript_function_call(c.source).repr(), c.repr);
      } catch (const decode_error& e) {
        ADD_FAILURE() << "unexpected error: " << e.what();
      }
    } else {
      try {
        auto r = parse_javascript_function_call(c.source);
        ADD_FAILURE() << "expected " << c.error << ", got " << r.repr();
      } catch (const decode_error& e) {
        EXPECT_STREQ(e.what(), c.error);
      }
    }
  }
}

TEST(eval_js, js_type_converter_matches_bfcl) {
  for (const auto& c : convert_cases) {
    SCOPED_TRACE(std::string(c.type) + " " + (c.nested ? c.nested : "-") + " " + c.value);
    std::optional<std::string_view> nested;
    if (c.nested) nested = c.nested;
    if (c.repr) {
      EXPECT_EQ(js_type_converter(py_value::string(c.value), c.type, nested).repr(), c.repr);
    } else {
      try {
        auto r = js_type_converter(py_value::string(c.value), c.type, nested);
        ADD_FAILURE() << "expected " << c.error << ", got " << r.repr();
      } catch (const decode_error& e) {
        EXPECT_STREQ(e.what(), c.error);
      }
    }
  }
}

TEST(eval_js, decoded_values_keep_python_types) {
  // None (not an empty dict) when no top-level call is found; None keys for bare identifiers.
  EXPECT_TRUE(parse_javascript_function_call("let x = f(a=1)").is_none());
  py_value r = parse_javascript_function_call("f(x, b=true)");
  ASSERT_TRUE(r.is_list());
  const py_value* args = r.items()[0].find("f");
  ASSERT_NE(args, nullptr);
  EXPECT_NE(args->find(py_value()), nullptr);
  EXPECT_EQ(js_type_converter(py_value::string("12n"), "Bigint").type_name(), "int");
  EXPECT_EQ(js_type_converter(py_value::string("[1, 'a']"), "array").repr(), "[1, 'a']");
}

TEST(eval_js, text_is_decoded_from_bytes) {
  // Unlike the Java parser, BFCL's JavaScript parser reads node.text (bytes, decoded).
  EXPECT_EQ(parse_javascript_function_call("f(a=\"\u00e9\", b=x)").repr(),
            "[{'f': {'a': '\u00e9', 'b': 'x'}}]");
}

}  // namespace
// Cases from held-out BFCL results (2024-08-11) where BFCL's error type differed from ours; each
// expected value was checked against tree-sitter-javascript 0.21.4.
const parse_case heldout_cases[] = {
    // A statement starting with `{` is read as an object when a block cannot hold it (the
    // dict-shaped answers of many prompt models: BFCL reports the wrong output format).
    {"{'name': 'f', 'arguments': {'a': 'b'}}", "None", nullptr},
    {"{\"f\": {\"a\": \"b\"}}", "None", nullptr},
    {"{name: f, parameters: {a: b}}", "None", nullptr},
    {"{{'a': 1}}", "None", nullptr},
    {"{}", "None", nullptr},
    {"{a, b}", "None", nullptr},
    {"{'a': 1}(x)", "[{\"{'a': 1}\": {None: 'x'}}]", nullptr},
    {"{a: 1}(x)", "[{'{a: 1}': {None: 'x'}}]", nullptr},  // labeled_statement loses (-1)
    {"{a: 1}.f(x)", "[{'{a: 1}.f': {None: 'x'}}]", nullptr},
    {"{a: 1} f(x)", "[{'f': {None: 'x'}}]", nullptr},  // only the block reading completes
    {"{'a': 1}\nf(x)", "[{'f': {None: 'x'}}]", nullptr},
    {"{'a': 1}; f(x)", "[{'f': {None: 'x'}}]", nullptr},
    {"{'a': 1}\n{b: 2}\nf(x)", "[{'f': {None: 'x'}}]", nullptr},
    {"{'a': 1} f(x)", nullptr, "Error js parsing the source code."},
    {"{a} = x", nullptr, "Error js parsing the source code."},
    // Regex flags are lower-case letters only.
    {"f(x=/ab/gi)", "[{'f': {'x': '/ab/gi'}}]", nullptr},
    {"f(x=/ab/gI)", nullptr, "Error js parsing the source code."},
    {"f(dir=myApp, dirPath=/projects/myApp/node_modules/react)", nullptr, "Error js parsing the source code."},
    // A template literal on the next line starts a new statement (automatic semicolon), except
    // inside brackets, where it is a tagged template.
    {"`` \n[f(a=1)]\n``", "None", nullptr},
    {"f(a=1)\n`t`", "[{'f': {'a': '1'}}]", nullptr},
    {"g(f\n`t`)", "[{'g': {}}]", nullptr},
    // A label right after a string of 11 bytes or more gets a MISSING `;` (databricks-dbrx
    // javascript 13, quotes ending early); a label body missing at the end is a MISSING `;` too.
    // The limit is BFCL's (UTF-8 input); node's binding, on UTF-16, already takes 'abcd'.
    {"'performDataFetch(apiEndpoint='https://api.example.com/data', requestConfig='{\"method\": \"GET\"}')'", "None", nullptr},
    {"'abcdefghi' x: 1", "None", nullptr},
    {"'abcdefgh' x: 1", nullptr, "Error js parsing the source code."},
    {"'abc' x: 1", nullptr, "Error js parsing the source code."},
    {"'abcdefghi' x: 1\nf(a=1)", "[{'f': {'a': '1'}}]", nullptr},
    {"'abcdefgh' x: 1 y: 2", nullptr, "Error js parsing the source code."},
    {"'abcdefghijklmnop' f(a=1)", nullptr, "Error js parsing the source code."},
    {"f(a=1)\nx:", "[{'f': {'a': '1'}}]", nullptr},
    {"{x:}", nullptr, "Error js parsing the source code."},
};

TEST(eval_js, heldout_error_types_match_bfcl) {
  for (const auto& c : heldout_cases) {
    SCOPED_TRACE(c.source);
    if (c.repr) {
      try {
        EXPECT_EQ(parse_javascript_function_call(c.source).repr(), c.repr);
      } catch (const decode_error& e) {
        ADD_FAILURE() << "unexpected error: " << e.what();
      }
    } else {
      try {
        auto r = parse_javascript_function_call(c.source);
        ADD_FAILURE() << "expected " << c.error << ", got " << r.repr();
      } catch (const decode_error& e) {
        EXPECT_STREQ(e.what(), c.error);
      }
    }
  }
}

}  // namespace tooluse::eval::detail
