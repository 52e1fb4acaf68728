#!/usr/bin/env bash
# Builds tooluse and runs every test (unit, integration, examples).
# Usage: scripts/test.sh [PRESET]   PRESET: debug (default), asan, tsan, release
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:-debug}"
"$root/scripts/setup.sh"
# Real npm peers (reference MCP servers, the TypeScript SDK, the Inspector) for interop tests.
TOOLUSE_NPM_PEERS="$("$root/scripts/npm_peers.sh")"
export TOOLUSE_NPM_PEERS
cd "$root"
launcher=()
if command -v ccache >/dev/null; then
  # Paths relative to the checkout, so another clone of the same sources hits the cache.
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset "$preset" "${launcher[@]}" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset"
