// URI reference resolution (RFC 3986 section 5) and JSON pointers, for $id and $ref.
#include <cctype>
#include <string>

#include "schema/schema_impl.hpp"
#include "tooluse/text.hpp"

namespace tooluse::schema::detail {
namespace {

struct uri_parts {
  std::string scheme;  // without ':'
  bool has_authority = false;
  std::string authority;
  std::string path;
  bool has_query = false;
  std::string query;
  bool has_fragment = false;
  std::string fragment;
};

uri_parts parse_uri(std::string_view s) {
  uri_parts u;
  // scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
  std::size_t i = 0;
  if (!s.empty() && std::isalpha(static_cast<unsigned char>(s[0]))) {
    std::size_t j = 1;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '+' ||
                            s[j] == '-' || s[j] == '.'))
      ++j;
    if (j < s.size() && s[j] == ':') {
      u.scheme = std::string(s.substr(0, j));
      i = j + 1;
    }
  }
  std::string_view rest = s.substr(i);
  if (auto h = rest.find('#'); h != std::string_view::npos) {
    u.has_fragment = true;
    u.fragment = std::string(rest.substr(h + 1));
    rest = rest.substr(0, h);
  }
  if (auto q = rest.find('?'); q != std::string_view::npos) {
    u.has_query = true;
    u.query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  if (rest.size() >= 2 && rest[0] == '/' && rest[1] == '/') {
    u.has_authority = true;
    auto end = rest.find('/', 2);
    if (end == std::string_view::npos) end = rest.size();
    u.authority = std::string(rest.substr(2, end - 2));
    rest = rest.substr(end);
  }
  u.path = std::string(rest);
  return u;
}

std::string remove_dot_segments(std::string_view in) {
  std::string input(in);
  std::string output;
  while (!input.empty()) {
    if (input.rfind("../", 0) == 0) {
      input.erase(0, 3);
    } else if (input.rfind("./", 0) == 0) {
      input.erase(0, 2);
    } else if (input.rfind("/./", 0) == 0) {
      input.replace(0, 3, "/");
    } else if (input == "/.") {
      input = "/";
    } else if (input.rfind("/../", 0) == 0 || input == "/..") {
      input = input == "/.." ? "/" : input.substr(3);
      auto slash = output.rfind('/');
      output.erase(slash == std::string::npos ? 0 : slash);
    } else if (input == "." || input == "..") {
      input.clear();
    } else {
      std::size_t start = input[0] == '/' ? 1 : 0;
      auto next = input.find('/', start);
      if (next == std::string::npos) next = input.size();
      output += input.substr(0, next);
      input.erase(0, next);
    }
  }
  return output;
}

std::string merge_paths(const uri_parts& base, std::string_view ref_path) {
  if (base.has_authority && base.path.empty()) return "/" + std::string(ref_path);
  auto slash = base.path.rfind('/');
  if (slash == std::string::npos) return std::string(ref_path);
  return base.path.substr(0, slash + 1) + std::string(ref_path);
}

std::string recompose(const uri_parts& u) {
  std::string out;
  if (!u.scheme.empty()) out += u.scheme + ":";
  if (u.has_authority) out += "//" + u.authority;
  out += u.path;
  if (u.has_query) out += "?" + u.query;
  if (u.has_fragment) out += "#" + u.fragment;
  return out;
}

}  // namespace

std::string resolve_uri(std::string_view base_text, std::string_view ref_text) {
  uri_parts ref = parse_uri(ref_text);
  uri_parts base = parse_uri(base_text);
  uri_parts t;
  if (!ref.scheme.empty()) {
    t = ref;
    t.path = remove_dot_segments(ref.path);
  } else {
    t.scheme = base.scheme;
    if (ref.has_authority) {
      t.has_authority = true;
      t.authority = ref.authority;
      t.path = remove_dot_segments(ref.path);
      t.has_query = ref.has_query;
      t.query = ref.query;
    } else {
      t.has_authority = base.has_authority;
      t.authority = base.authority;
      if (ref.path.empty()) {
        t.path = base.path;
        t.has_query = ref.has_query || base.has_query;
        t.query = ref.has_query ? ref.query : base.query;
      } else {
        t.path = ref.path[0] == '/' ? remove_dot_segments(ref.path)
                                    : remove_dot_segments(merge_paths(base, ref.path));
        t.has_query = ref.has_query;
        t.query = ref.query;
      }
    }
  }
  t.has_fragment = ref.has_fragment && !ref.fragment.empty();
  t.fragment = ref.fragment;
  return recompose(t);
}

std::pair<std::string, std::string> split_fragment(std::string_view uri) {
  auto h = uri.find('#');
  if (h == std::string_view::npos) return {std::string(uri), ""};
  return {std::string(uri.substr(0, h)), std::string(uri.substr(h + 1))};
}

std::string percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      int hi = hex_value(text[i + 1]);
      int lo = hex_value(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

const json* resolve_pointer(const json& root, std::string_view pointer) {
  const json* cur = &root;
  if (pointer.empty()) return cur;
  if (pointer[0] != '/') return nullptr;
  std::size_t pos = 1;
  while (true) {
    auto next = pointer.find('/', pos);
    std::string_view raw = pointer.substr(pos, next == std::string_view::npos ? next : next - pos);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        token += raw[i];
      }
    }
    if (cur->is_object()) {
      auto it = cur->find(token);
      if (it == cur->end()) return nullptr;
      cur = &*it;
    } else if (cur->is_array()) {
      if (token.empty() || token.size() > 9 ||
          token.find_first_not_of("0123456789") != std::string::npos ||
          (token.size() > 1 && token[0] == '0'))
        return nullptr;
      std::size_t index = std::stoul(token);
      if (index >= cur->size()) return nullptr;
      cur = &(*cur)[index];
    } else {
      return nullptr;
    }
    if (next == std::string_view::npos) return cur;
    pos = next + 1;
  }
}

}  // namespace tooluse::schema::detail
