#!/usr/bin/env bash
# On the GPU machine (through the device tool), from the project root: unpack .devdeps, configure
# into build-device and build only the given targets (all when none are given). Then run what
# you need, e.g.  bash scripts/device-build.sh slab_hash_test && build-device/tests/.../slab_hash_test
set -euo pipefail
if [ ! -d /opt/devdeps/usr ]; then
  for d in .devdeps/debs/*.deb; do dpkg -x "$d" /opt/devdeps; done
fi
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=${OUT:-/tmp/out}; mkdir -p "$out"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/opt/devdeps/usr \
  -DCMAKE_CUDA_ARCHITECTURES=${WG_CUDA_ARCH:-90} > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 2; }
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build-device -j "$(nproc)" "${targets[@]}" > "$out/build.log" 2>&1 || { grep -m 30 -B2 -A8 'error' "$out/build.log" | head -120; exit 3; }
echo "device build ok: ${*:-all}"
