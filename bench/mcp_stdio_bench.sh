#!/usr/bin/env bash
# MCP over stdio, pipelined: writes an initialize and N tools/call requests into the server's
# stdin through a pipe without waiting, reads the N+1 responses from its stdout, and prints
# calls per second for
#   tooluse       examples/everything_server --stdio, tool test_simple_text
#   tooluse-exec  `tooluse mcp serve --stdio --tools calculator` (registry tool through tooluse::exec)
# usage: bench/mcp_stdio_bench.sh [RELEASE_BUILD_DIR] [N]   (defaults: build/bench, 200000)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$repo/build/bench}" && pwd)"
n="${2:-200000}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

requests() {  # requests <tool> <arguments json>: initialize + N calls, one per line
  printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  awk -v n="$n" -v tool="$1" -v args="$2" 'BEGIN {
    for (i = 1; i <= n; i++)
      printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}\n", i, tool, args
  }'
}

run() {  # run <name> <requests file> <command...>
  local name="$1" file="$2"
  shift 2
  local start end lines
  start="$(date +%s%N)"
  lines="$(cat "$file" | "$@" 2> /dev/null | grep -c '"result"')"
  end="$(date +%s%N)"
  local ms=$(((end - start) / 1000000))
  awk -v name="$name" -v n="$n" -v lines="$lines" -v ms="$ms" 'BEGIN {
    printf "%-13s %8d calls in %6d ms = %9.0f calls/s (%d results)\n", name, n, ms, n * 1000 / ms, lines
  }'
}

requests test_simple_text '{}' > "$tmp/simple.jsonl"
requests calculator '{"expression":"1+1"}' > "$tmp/calc.jsonl"
echo "pipelined stdio, $n calls; load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
run tooluse "$tmp/simple.jsonl" "$build/examples/everything_server" --stdio
run tooluse-exec "$tmp/calc.jsonl" "$build/bin/tooluse" mcp serve --stdio --tools calculator
