#include "tooluse/exec/output.hpp"

#include <algorithm>
#include <fstream>
#include <utility>

namespace tooluse::exec {
namespace {

// Moves `pos` back to the start of a UTF-8 character so a cut never splits one.
std::size_t char_boundary(const std::string& s, std::size_t pos) {
  while (pos > 0 && pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

// Keeps about `keep` bytes of `text`: head_fraction from the start, the rest from the end.
// Returns the bytes kept from the head and from the tail.
std::pair<std::size_t, std::size_t> cut_block(std::string& text, std::size_t keep,
                                              double head_fraction) {
  if (text.size() <= keep) return {text.size(), 0};
  std::size_t head = char_boundary(text, static_cast<std::size_t>(keep * head_fraction));
  std::size_t tail_start = char_boundary(text, text.size() - (keep - head));
  if (tail_start < head) tail_start = head;
  std::string out = text.substr(0, head);
  out += "\n[...]\n";
  out.append(text, tail_start, std::string::npos);
  const std::size_t tail = text.size() - tail_start;
  text = std::move(out);
  return {head, tail};
}

std::string spill(const tool_result& r, const output_limit& limit, std::string& failure) {
  if (limit.spill_dir.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(limit.spill_dir, ec);
  std::string name = limit.spill_name.empty() ? "output.txt" : limit.spill_name;
  for (char& c : name)
    if (c == '/' || c == '\\') c = '_';
  auto path = limit.spill_dir / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << r.all_text();
  if (!out) {
    failure = "the full output could not be saved to " + path.string();
    return {};
  }
  return path.string();
}

}  // namespace

bool limit_output(tool_result& r, const output_limit& limit) {
  if (limit.max_bytes == 0) return false;
  std::size_t total = 0;
  for (const auto& b : r.content)
    if (const auto* t = std::get_if<text_content>(&b)) total += t->text.size();
  if (total <= limit.max_bytes) return false;

  std::string failure;
  const std::string path = spill(r, limit, failure);
  const double head_fraction = std::clamp(limit.head_fraction, 0.0, 1.0);
  std::size_t kept = 0, head_kept = 0;
  for (auto& b : r.content) {
    auto* t = std::get_if<text_content>(&b);
    if (!t) continue;  // media and resources are never truncated
    const std::size_t share = limit.max_bytes * t->text.size() / total;
    auto [head, tail] = cut_block(t->text, share, head_fraction);
    head_kept += head;
    kept += head + tail;
  }
  const std::size_t cut = total - kept;
  std::string notice = "[output truncated: " + std::to_string(total) + " bytes, kept the first " +
                       std::to_string(head_kept) + " and the last " +
                       std::to_string(kept - head_kept) + ", cut " + std::to_string(cut);
  if (!path.empty()) notice += "; the full output is in " + path;
  if (!failure.empty()) notice += "; " + failure;
  notice += "]";
  r.content.emplace_back(text_content{notice});
  json info = {{"original_bytes", total}, {"kept_bytes", kept}, {"cut_bytes", cut}};
  if (!path.empty()) info["full_output"] = path;
  r.meta["truncated"] = std::move(info);
  return true;
}

}  // namespace tooluse::exec
