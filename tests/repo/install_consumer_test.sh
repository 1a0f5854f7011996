#!/usr/bin/env bash
# Installs this build into a scratch prefix, then configures, builds and runs a separate CMake
# project that finds it with find_package(warpgraph).
set -euo pipefail
build=$1 consumer=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
# Only headers go under include/: no data, fuzz corpus or empty folders of them.
stray=$(find "$work/prefix/include" -type f ! -name '*.hpp' ! -name '*.cuh' ! -name '*.h' \
          ! -name '*.inl'; find "$work/prefix/include" -type d \( -name data -o -name fuzz \))
[ -z "$stray" ] || { echo "install put non-headers under include/:" >&2; echo "$stray" >&2; exit 1; }
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$consumer" -B "$work/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" > "$work/build.log" || { tail -50 "$work/build.log"; exit 1; }
graph="$consumer/../../../datasets/data/facebook_combined.txt.gz"
out=$("$work/build/consumer" "$graph")
echo "$out"
grep -q "triangles 1612010" <<<"$out"
# The README example streams the same graph; its stream ends on the whole graph again.
last=$("$work/build/readme_example" "$graph" | tail -n 1)
echo "readme_example: $last"
grep -q ": 1612010 triangles, 1 components$" <<<"$last"
