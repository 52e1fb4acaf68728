#!/usr/bin/env bash
# Builds tooluse and runs every test (unit, integration, examples).
# Usage: scripts/test.sh [PRESET]   PRESET: debug (default), asan, tsan, release
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:-debug}"
"$root/scripts/setup.sh"
cd "$root"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset "$preset" "${launcher[@]}" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset"
