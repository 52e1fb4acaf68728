// The draft 2020-12 metaschema and its vocabulary metaschemas, served for $ref and $schema to
// their well-known URIs without any network access. The documents are the JSON files under
// metaschema/ (where they come from: src/schema/CMakeLists.txt), compiled in as text by
// metaschema_data.cpp.in.
#include <map>

#include "schema/compiler.hpp"

namespace tooluse::schema::detail {
namespace {

constexpr std::string_view k_base = "https://json-schema.org/draft/2020-12/";

std::map<std::string, json, std::less<>> load_all() {
  std::map<std::string, json, std::less<>> docs;
  for (const metaschema_text& m : builtin_metaschema_texts())
    docs.emplace(std::string(k_base) + std::string(m.path), json::parse(m.text));
  return docs;
}

}  // namespace

const json* builtin_metaschema(std::string_view uri) {
  if (uri.substr(0, k_base.size()) != k_base) return nullptr;
  static const std::map<std::string, json, std::less<>> k_docs = load_all();
  auto it = k_docs.find(uri);
  return it == k_docs.end() ? nullptr : &it->second;
}

}  // namespace tooluse::schema::detail
