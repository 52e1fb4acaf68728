#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz/*_fuzz.cpp, preset `fuzz`, clang 14) for a fixed
# share of a time budget and fails on any finding. A crashing input is copied to
# tests/fuzz/regressions/<target>/, where ctest replays it (fuzz_regressions.<target>) from then on.
#   scripts/fuzz.sh              # CI: 300 s in all, split evenly between the targets
#   FUZZ_SECONDS=3600 scripts/fuzz.sh   # a longer local run (one hour in all)
#   scripts/fuzz.sh json_parse sse      # only these targets
# Corpora persist in build/fuzz/corpus/<target> between runs; seeds come from the regressions.
set -euo pipefail
cd "$(dirname "$0")/.."
total=${FUZZ_SECONDS:-300}
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset fuzz "${launcher[@]}" >/dev/null
if [ $# -gt 0 ]; then targets=("$@"); else
  targets=()
  for f in tests/fuzz/*_fuzz.cpp; do n=$(basename "$f" _fuzz.cpp); targets+=("$n"); done
fi
cmake --build --preset fuzz --target "${targets[@]/#/fuzz_}"
per=$(( total / ${#targets[@]} )); [ "$per" -lt 5 ] && per=5
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=()
for t in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$t; artifacts=build/fuzz/artifacts/$t/
  mkdir -p "$corpus" "$artifacts" "tests/fuzz/regressions/$t"
  log=build/fuzz/$t.log
  # -rss_limit_mb: the targets must stay bounded; -timeout: one input may not hang. -max_len:
  # inputs up to 16 KB (seeds are cut to it; ctest replays the regressions whole), deep and wide
  # enough to pass every parser's limits, yet small enough for thousands of runs a second (at
  # 256 KB, json_parse managed 5 a second on its 300 KB seeds).

  if build/fuzz/fuzz/fuzz_$t -max_total_time="$per" -rss_limit_mb=2048 -timeout=30 \
       -max_len="${FUZZ_MAX_LEN:-16384}" -artifact_prefix="$artifacts" -print_final_stats=1 \
       "$corpus" "tests/fuzz/regressions/$t" >"$log" 2>&1; then
    runs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz_$t: ${per}s, ${runs:-?} executions, 0 findings"
  else
    echo "fuzz_$t: FINDING (log: $log)"; tail -30 "$log"
    cp "$artifacts"* "tests/fuzz/regressions/$t/" 2>/dev/null || true
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz findings in: ${failed[*]}; inputs copied to tests/fuzz/regressions/ (commit them with the fix)"
  exit 1
fi
