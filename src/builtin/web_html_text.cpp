// HTML to readable text with gumbo (a real HTML5 parser): main content first.
#include <gumbo.h>

#include <algorithm>
#include <cctype>

#include <cstring>

#include "builtin/web_impl.hpp"

namespace tooluse::builtin::detail {
namespace {

bool dropped(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE: case GUMBO_TAG_NOSCRIPT: case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_SVG: case GUMBO_TAG_IFRAME: case GUMBO_TAG_NAV: case GUMBO_TAG_FORM:
    case GUMBO_TAG_BUTTON: case GUMBO_TAG_SELECT: case GUMBO_TAG_HEAD: case GUMBO_TAG_CANVAS:
      return true;
    default:
      return false;
  }
}

bool block(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_P: case GUMBO_TAG_DIV: case GUMBO_TAG_BR: case GUMBO_TAG_LI: case GUMBO_TAG_UL:
    case GUMBO_TAG_OL: case GUMBO_TAG_TR: case GUMBO_TAG_TABLE: case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE: case GUMBO_TAG_MAIN: case GUMBO_TAG_HEADER: case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_ASIDE: case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_PRE: case GUMBO_TAG_H1:
    case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
    case GUMBO_TAG_DL: case GUMBO_TAG_DT: case GUMBO_TAG_DD: case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_HR: case GUMBO_TAG_ADDRESS:
      return true;
    default:
      return false;
  }
}

const char* attr(const GumboNode* n, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&n->v.element.attributes, name);
  return a ? a->value : nullptr;
}

// writer collapses whitespace and keeps at most one blank line between blocks.
struct writer {
  std::string out;
  bool pending_space = false;
  bool in_pre = false;
  void text(std::string_view s) {
    for (char c : s) {
      bool ws = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
      if (ws && !in_pre) {
        pending_space = true;
        continue;
      }
      if (pending_space && !out.empty() && out.back() != '\n' && out.back() != ' ') out += ' ';
      pending_space = false;
      out += c;
    }
  }
  void newline(int n = 1) {
    pending_space = false;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    if (out.empty()) return;
    int have = 0;
    for (auto it = out.rbegin(); it != out.rend() && *it == '\n'; ++it) ++have;
    for (; have < n; ++have) out += '\n';
  }
};

void render(const GumboNode* node, writer& w, const GumboNode* skip);

void render_children(const GumboNode* node, writer& w, const GumboNode* skip) {
  const GumboVector& kids = node->v.element.children;
  for (unsigned i = 0; i < kids.length; ++i) render(static_cast<const GumboNode*>(kids.data[i]), w, skip);
}

void render(const GumboNode* node, writer& w, const GumboNode* skip) {
  if (node == skip) return;
  if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_CDATA || node->type == GUMBO_NODE_WHITESPACE) {
    w.text(node->v.text.text);
    return;
  }
  if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) return;
  GumboTag tag = node->v.element.tag;
  if (dropped(tag)) return;
  if (const char* hidden = attr(node, "hidden"); hidden) return;
  if (const char* aria = attr(node, "aria-hidden"); aria && std::strcmp(aria, "true") == 0) return;
  bool is_block = block(tag);
  // A list item, a table row and a line break end a line; other blocks a paragraph.
  const int breaks = tag == GUMBO_TAG_LI || tag == GUMBO_TAG_TR || tag == GUMBO_TAG_BR ? 1 : 2;
  if (is_block) w.newline(breaks);
  if (tag >= GUMBO_TAG_H1 && tag <= GUMBO_TAG_H6) w.out += std::string(static_cast<std::size_t>(tag - GUMBO_TAG_H1 + 1), '#') + " ";
  if (tag == GUMBO_TAG_LI) w.out += "- ";
  if (tag == GUMBO_TAG_TD || tag == GUMBO_TAG_TH) w.text(" | ");
  if (tag == GUMBO_TAG_IMG) {
    if (const char* alt = attr(node, "alt"); alt && *alt) w.text(std::string("[image: ") + alt + "]");
    return;
  }
  bool was_pre = w.in_pre;
  if (tag == GUMBO_TAG_PRE) w.in_pre = true;
  render_children(node, w, skip);
  w.in_pre = was_pre;
  if (is_block) w.newline(breaks);
}

const GumboNode* find_tag(const GumboNode* node, GumboTag want) {
  if (node->type != GUMBO_NODE_ELEMENT) return nullptr;
  if (node->v.element.tag == want) return node;
  const GumboVector& kids = node->v.element.children;
  for (unsigned i = 0; i < kids.length; ++i)
    if (auto* f = find_tag(static_cast<const GumboNode*>(kids.data[i]), want)) return f;
  return nullptr;
}

bool is_main(const GumboNode* n) {
  const char* role = attr(n, "role");
  return n->v.element.tag == GUMBO_TAG_MAIN || (role && std::strcmp(role, "main") == 0);
}

const GumboNode* find_if(const GumboNode* node, bool (*pred)(const GumboNode*)) {
  if (node->type != GUMBO_NODE_ELEMENT) return nullptr;
  if (pred(node)) return node;
  const GumboVector& kids = node->v.element.children;
  for (unsigned i = 0; i < kids.length; ++i)
    if (auto* f = find_if(static_cast<const GumboNode*>(kids.data[i]), pred)) return f;
  return nullptr;
}

// find_main returns <main> or role="main", else the first <article>, else null.
const GumboNode* find_main(const GumboNode* body) {
  if (const GumboNode* m = find_if(body, is_main)) return m;
  return find_tag(body, GUMBO_TAG_ARTICLE);
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && (s[start] == '\n' || s[start] == ' ')) ++start;
  return s.substr(start);
}

// nesting_estimate bounds how deep gumbo's tree for `html` can get: start tags open, end tags
// and self-closed tags close; tags HTML closes implicitly (p, li, td, ...) and void elements do
// not nest. gumbo builds and frees its tree recursively, so a page of 400 000 nested <div>s
// would overflow the stack: such a page is flattened instead (its tags stripped).
std::size_t nesting_estimate(std::string_view h) {
  static const char* flat[] = {"p",    "li",  "td",   "th",    "tr",     "option", "dt",
                               "dd",   "br",  "img",  "input", "meta",   "link",   "hr",
                               "area", "base", "col", "embed", "param",  "source", "track",
                               "wbr",  "!",   "?"};
  std::size_t depth = 0, max_depth = 0;
  for (std::size_t i = 0; i + 1 < h.size(); ++i) {
    if (h[i] != '<') continue;
    const bool closing = h[i + 1] == '/';
    std::size_t n = i + (closing ? 2 : 1);
    std::size_t e = n;
    while (e < h.size() && (std::isalnum(static_cast<unsigned char>(h[e])) || h[e] == '!' || h[e] == '?')) ++e;
    if (e == n) continue;
    std::string name(h.substr(n, e - n));
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool is_flat = name[0] == '!' || name[0] == '?';
    for (const char* f : flat) is_flat |= name == f;
    if (is_flat) continue;
    if (closing) {
      if (depth > 0) --depth;
    } else {
      auto gt = h.find('>', e);
      if (gt != std::string_view::npos && gt > 0 && h[gt - 1] == '/') continue;
      max_depth = std::max(max_depth, ++depth);
    }
  }
  return max_depth;
}

std::string tags_stripped(std::string_view h) {
  writer w;
  bool in_tag = false;
  for (char c : h) {
    if (c == '<') in_tag = true;
    else if (c == '>') in_tag = false;
    else if (!in_tag) w.text(std::string_view(&c, 1));
  }
  return trim(w.out);
}

}  // namespace

html_document html_to_text(std::string_view html, std::size_t max_depth) {
  if (nesting_estimate(html) > max_depth)
    return html_document{.title = std::string(),
                         .text = tags_stripped(html) + "\n\n(the page nests elements deeper than " +
                    std::to_string(max_depth) + " levels, builtin::web_options::max_html_depth; "
                    "its tags were stripped instead of parsed)"};
  GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  html_document doc;
  if (const GumboNode* title = find_tag(out->root, GUMBO_TAG_TITLE)) {
    writer w;
    render_children(title, w, nullptr);
    doc.title = trim(w.out);
  }
  const GumboNode* body = find_tag(out->root, GUMBO_TAG_BODY);
  const GumboNode* main = body ? find_main(body) : nullptr;
  writer w;
  if (main) {
    render(main, w, nullptr);
    writer rest;
    render(body, rest, main);
    std::string tail = trim(rest.out);
    doc.text = trim(w.out);
    if (!tail.empty()) doc.text += "\n\n---\n(other page content)\n" + tail;
  } else {
    render(body ? body : out->root, w, nullptr);
    doc.text = trim(w.out);
  }
  gumbo_destroy_output(&kGumboDefaultOptions, out);
  return doc;
}

std::string strip_tags(std::string_view html) {
  std::string out;
  bool in_tag = false;
  for (char c : html) {
    if (c == '<') in_tag = true;
    else if (c == '>') in_tag = false;
    else if (!in_tag) out += c;
  }
  static const std::pair<const char*, const char*> entities[] = {
      {"&quot;", "\""}, {"&#39;", "'"}, {"&#039;", "'"}, {"&apos;", "'"}, {"&lt;", "<"}, {"&gt;", ">"},
      {"&nbsp;", " "}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities)
    for (auto p = out.find(from); p != std::string::npos; p = out.find(from, p + std::strlen(to)))
      out.replace(p, std::strlen(from), to);
  return out;
}

}  // namespace tooluse::builtin::detail
