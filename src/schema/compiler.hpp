#pragma once
// The schema compiler's state, shared by compiler.cpp (documents, identifiers, references) and
// compiler_keywords.cpp (turning one subschema's keywords into a node).

#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "schema/schema_impl.hpp"

namespace tooluse::schema::detail {

/// is_schema: a subschema is an object or a boolean.
inline bool is_schema(const json& s) { return s.is_object() || s.is_boolean(); }

/// schema_info is where a subschema sits: its base URI, its resource, its location.
struct schema_info {
  std::string base;
  resource* res = nullptr;
  std::string location;
};

/// compiler compiles one compiled_schema; used once, by compile_into.
struct compiler {
  compiled_schema& out;
  const compile_options& options;
  std::unordered_map<std::string, const json*> index;  ///< URI or URI#anchor -> schema
  std::unordered_map<const json*, schema_info> info;
  std::unordered_map<const json*, node*> memo;
  std::vector<node*> todo;
  std::set<std::string> attempted;  ///< documents looked up through the resolver

  /// add_document indexes the identifiers in `doc` (retrieved from `uri`).
  status add_document(const json& doc, const std::string& uri);

  /// walk indexes $id, $anchor and $dynamicAnchor in `s` and its subschemas.
  status walk(const json& s, std::string base, resource* res, const std::string& location,
              int depth);

  /// node_for returns the node of `s`, creating it (filled later) on first use.
  node* node_for(const json* s, const schema_info& fallback);

  /// resolve_ref finds the target of $ref/$dynamicRef `ref` written in `where`.
  /// Errors: errc::schema_error if it does not resolve.
  result<node*> resolve_ref(const std::string& ref, const schema_info& where,
                            std::string_view keyword);

  /// child returns the node of subschema `s` found at `location`.
  node* child(const json& s, const schema_info& parent, const std::string& location);

  /// fill parses the keywords of n.source into n (compiler_keywords.cpp).
  status fill(node& n);

  /// run compiles the root and everything reachable from it.
  status run();

 private:
  status fill_applicators(node& n, const json& s, const schema_info& where);
  status fill_references(node& n, const json& s, const schema_info& where);
  status fill_scalars(node& n, const json& s, const schema_info& where);
  status fill_arrays(node& n, const json& s, const schema_info& where);
  status fill_objects(node& n, const json& s, const schema_info& where);
  status fill_object_maps(node& n, const json& s, const schema_info& where);
  status drain();
  const json* load_document(const std::string& uri);
  void apply_metaschema(resource& res, const json& s);
};

/// builtin_metaschema is the draft 2020-12 metaschema document tooluse ships for `uri`
/// (https://json-schema.org/draft/2020-12/schema and its vocabulary metaschemas, meta/<name>),
/// or null for any other URI.
const json* builtin_metaschema(std::string_view uri);

/// metaschema_text is one built-in metaschema: its path below
/// https://json-schema.org/draft/2020-12/ and its JSON text.
struct metaschema_text {
  std::string_view path;
  std::string_view text;
};

/// builtin_metaschema_texts lists the files of src/schema/metaschema/, embedded at build time
/// (generated from metaschema_data.cpp.in).
std::span<const metaschema_text> builtin_metaschema_texts() noexcept;

}  // namespace tooluse::schema::detail
