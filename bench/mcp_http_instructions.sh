#!/usr/bin/env bash
# Counts the instructions one stateless tools/call costs `tooluse mcp serve --tools calculator`
# (user space, the server's whole path: HTTP parse, JSON-RPC parse, dispatch, the execution
# engine, the calculator, the reply), under valgrind's callgrind: a figure that, unlike
# requests/s, does not move with the machine's speed, so two builds compare in any hour.
# The kernel's share (the socket's send and receive) is not counted.
# usage: bench/mcp_http_instructions.sh [TOOLUSE_BINARY...]   (default build/bench/bin/tooluse)
#   SECONDS_OF_LOAD (10 by default): how long wrk (-t1 -c4) loads each server under callgrind.
# Prints, per binary: requests served, instructions, instructions per request; keeps the
# profile as callgrind.<name>.out in the current folder (callgrind_annotate --inclusive=yes).
# Needs: valgrind, wrk, curl.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -gt 0 ]] || set -- "$repo/build/bench/bin/tooluse"
for t in valgrind callgrind_control wrk curl; do
  command -v "$t" > /dev/null || { echo "$t is missing: sudo apt-get install valgrind wrk curl" >&2; exit 2; }
done
secs="${SECONDS_OF_LOAD:-10}"
port=3290
tmp="$(mktemp -d)"
vpid=""
trap '[[ -n "$vpid" ]] && kill "$vpid" 2> /dev/null; rm -rf "$tmp"' EXIT
meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
body="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"calculator\",\"arguments\":{\"expression\":\"1+1\"},$meta}}"
cat > "$tmp/call.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "calculator"
wrk.body = '$body'
LUA
for bin in "$@"; do
  [[ -x "$bin" ]] || { echo "$bin: not an executable (build the bench preset first)" >&2; exit 2; }
  name="$(basename "$bin")"
  # build/<name>/bin/tooluse is named after its build folder
  [[ "$name" == tooluse ]] && name="$(basename "$(dirname "$(dirname "$bin")")")"
  out="$tmp/cg.out"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" mcp serve \
    --http "127.0.0.1:$port" --threads 1 --tools calculator > /dev/null 2> "$tmp/valgrind.log" &
  vpid=$!
  for _ in $(seq 300); do curl -s -o /dev/null "http://127.0.0.1:$port/mcp" && break; sleep 0.1; done
  wrk -t1 -c4 -d3s -s "$tmp/call.lua" "http://127.0.0.1:$port/mcp" > /dev/null  # warm up
  callgrind_control -z "$vpid" > /dev/null 2>&1
  load="$(wrk -t1 -c4 -d"${secs}s" -s "$tmp/call.lua" "http://127.0.0.1:$port/mcp")"
  callgrind_control -d "$vpid" > /dev/null 2>&1
  n="$(awk '/requests in/ {print $1}' <<< "$load")"
  dump="$(ls -t "$out"* | head -1)"
  ir="$(awk '/^(summary|totals):/ {print $2; exit}' "$dump")"
  printf '%-20s %7d requests  %12d instructions  %8d per request\n' "$name" "$n" "$ir" "$(( ir / n ))"
  cp "$dump" "callgrind.$name.out"
  kill "$vpid"; wait "$vpid" 2> /dev/null || true
  vpid=""
  rm -f "$out"*
  port=$((port + 1))
done
