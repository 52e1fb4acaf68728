#!/usr/bin/env bash
# Line coverage of the library (src/ and include/), per module and overall, with gcov + lcov.
# Builds the `coverage` preset (build/coverage), runs ctest there, and prints a table.
# Usage: scripts/coverage.sh [--min PERCENT] [--no-build] [-- CTEST_ARGS...]
#   --min PERCENT  exit 1 when overall line coverage is below PERCENT (default: report only)
#   --no-build     use the existing build/coverage as it is
#   CTEST_ARGS     passed to ctest, e.g. -- -L unit  or  -- -R '^llm\.'
# The HTML report goes to build/coverage/html/index.html.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
min="" build=1 ctest_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --min) min="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) echo "coverage.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v lcov >/dev/null || { echo "coverage.sh: lcov is not installed (apt-get install lcov)" >&2; exit 2; }
cd "$root"
dir="$root/build/coverage"
if [[ $build == 1 ]]; then
  launcher=()
  if command -v ccache >/dev/null; then
    export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake --preset coverage "${launcher[@]}" >/dev/null
  cmake --build --preset coverage -j "$(nproc)"
fi
lcov --quiet --zerocounters --directory "$dir"
ctest --preset coverage "${ctest_args[@]}" || echo "coverage.sh: some tests failed; coverage is still reported" >&2
lcov --quiet --capture --directory "$dir" --output-file "$dir/all.info" --rc lcov_branch_coverage=0 2>/dev/null
lcov --quiet --extract "$dir/all.info" "$root/src/*" "$root/include/*" --output-file "$dir/lib.info"

# lines_of FILE: "hit total" over the records of an lcov tracefile.
lines_of() { awk -F: '/^LH:/{h+=$2} /^LF:/{f+=$2} END{print h+0, f+0}' "$1"; }
printf '%-12s %8s %8s %7s\n' module lines hit cover
for m in $(ls "$root/src"); do
  [[ -f "$root/src/$m/CMakeLists.txt" ]] || continue
  lcov --quiet --extract "$dir/lib.info" "$root/src/$m/*" --output-file "$dir/$m.info" 2>/dev/null || continue
  read -r hit total < <(lines_of "$dir/$m.info")
  [[ $total -gt 0 ]] || continue
  awk -v m="$m" -v h="$hit" -v t="$total" 'BEGIN{printf "%-12s %8d %8d %6.1f%%\n", m, t, h, 100*h/t}'
done
read -r hit total < <(lines_of "$dir/lib.info")
overall=$(awk -v h="$hit" -v t="$total" 'BEGIN{printf "%.1f", t ? 100*h/t : 0}')
printf '%-12s %8d %8d %6s%%\n' overall "$total" "$hit" "$overall"
if command -v genhtml >/dev/null; then
  genhtml --quiet "$dir/lib.info" --output-directory "$dir/html" >/dev/null 2>&1 || true
fi
if [[ -n "$min" ]] && awk -v o="$overall" -v m="$min" 'BEGIN{exit !(o < m)}'; then
  echo "coverage.sh: overall line coverage $overall% is below $min%" >&2
  exit 1
fi
