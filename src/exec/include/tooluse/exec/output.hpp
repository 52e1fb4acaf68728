#pragma once
/// \file output.hpp
/// Output limiting: a result's text longer than the limit keeps its head and tail, with a notice
/// saying how much was cut and, optionally, where the full output was saved. Media (images,
/// audio, blobs) is never truncated.

#include <cstddef>
#include <filesystem>
#include <string>

#include "tooluse/tools/tool_result.hpp"

namespace tooluse::exec {

/// output_limit says how much text a result may keep.
struct output_limit {
  std::size_t max_bytes = 0;        ///< text bytes kept over all text blocks; 0: unlimited
  double head_fraction = 0.4;       ///< share of max_bytes kept from the start; rest from the end
  std::filesystem::path spill_dir;  ///< if set, the full text is written to a file here
  std::string spill_name;           ///< file name in spill_dir, e.g. "<tool>-<call id>.txt"
};

/// limit_output truncates the text blocks of `r` to `limit.max_bytes` in total, keeping the
/// first head_fraction and the last part (cut at UTF-8 character boundaries) of each block in
/// proportion to its size, and appends a text block like
/// "[output truncated: 120000 bytes, kept the first 4000 and the last 6000, cut 110000; the
/// full output is in /tmp/x.txt]". Sets meta "truncated" to {"original_bytes","kept_bytes",
/// "cut_bytes"[, "full_output"]}. Returns true if anything was cut. A failed spill is reported in
/// the notice instead of the path.
bool limit_output(tool_result& r, const output_limit& limit);

}  // namespace tooluse::exec
