#!/usr/bin/env bash
# Prints the module graph as the build declares it (tooluse_module() calls in src/*/CMakeLists.txt):
# each module, the modules it declares, and how many public headers it owns.
# Usage: scripts/module_graph.sh [BUILD_DIR]   (configures a scratch build dir when none is given)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-}"
if [[ -z "$build" ]]; then
  build="$(mktemp -d)"
  trap 'rm -rf "$build"' EXIT
  cmake -S "$root" -B "$build" -G Ninja -DTOOLUSE_BUILD_TESTS=OFF -DTOOLUSE_BUILD_EXAMPLES=OFF >/dev/null
else
  cmake "$build" >/dev/null
fi
cat "$build/module_graph.md"
