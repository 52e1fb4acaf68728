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
# The consumer is compiled by the build's own compiler: a sanitized build's libraries need the
# sanitizer runtime of the compiler that instrumented them (the asan preset's is clang 14).
cxx="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")"
cmake -S "$root/examples/consumer" -B "$prefix/consumer-build" -G Ninja \
      -DCMAKE_PREFIX_PATH="$prefix" ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
out="$("$prefix/consumer-build/consumer")"
echo "$out"
[ "$out" = "consumer: calculator registered, greet says Hi CMake" ] || { echo "unexpected output" >&2; exit 1; }
"$prefix/bin/tooluse" --version
# The price catalog ships as a data file users can read and copy to override.
[ -f "$prefix/share/tooluse/prices.json" ] || { echo "share/tooluse/prices.json not installed" >&2; exit 1; }
