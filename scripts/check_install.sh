#!/usr/bin/env bash
# Installs tooluse into a temporary prefix and builds examples/consumer against it with
# find_package(tooluse), then runs the result.
# usage: scripts/check_install.sh [BUILD_DIR]   (default build/asan, the build scripts/test.sh makes;
# a sanitized build's exported targets carry -fsanitize, so the consumer links its runtime)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/asan}"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S "$root/examples/consumer" -B "$prefix/consumer-build" -G Ninja \
      -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
out="$("$prefix/consumer-build/consumer")"
echo "$out"
[ "$out" = "consumer: calculator registered, greet says Hi CMake" ] || { echo "unexpected output" >&2; exit 1; }
"$prefix/bin/tooluse" --version
# The price catalog ships as a data file users can read and copy to override.
[ -f "$prefix/share/tooluse/prices.json" ] || { echo "share/tooluse/prices.json not installed" >&2; exit 1; }
