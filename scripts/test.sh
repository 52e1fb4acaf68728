#!/usr/bin/env bash
# Builds tooluse and runs every test (unit, integration, examples).
# Usage: scripts/test.sh [PRESET]   PRESET: asan (default: Debug with AddressSanitizer + UBSan,
#                                   compiled by clang 14), asan-gcc (the same, g++), debug, tsan,
#                                   coverage
# The default build is the sanitized one, so that one build serves the tests, the conformance
# suites and the sanitizer checks (CI runs this, .ci/run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:-asan}"
if [[ "$preset" == asan* ]]; then
  # Leaks and undefined behaviour fail the test that caused them.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
fi
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
