#!/usr/bin/env bash
# A/B of two source trees on the GPU machine: builds the slab hash and dynamic-graph benchmarks
# of both, then runs them in alternating rounds (A B, B A, A B, ...) so that drift of the machine
# falls on both sides alike, and prints each table's harmonic mean per round and tree.
#   bash tools/bench/ab_trees.sh OLD_TREE NEW_TREE ROUNDS [graph_gpu_bench args...]
# AB_BENCHES="graph" (default "slab graph") runs only the named benchmarks.
# Run from the project root through the device tool (needs .devdeps, see scripts/device-build.sh).
# Logs go to $OUT: {slab,graph}_{A,B}_r{N}.log and ab_summary.txt.
set -uo pipefail
old=$1 new=$2 rounds=${3:-3}
shift 3 || true
graph_args=("$@")
[ ${#graph_args[@]} -eq 0 ] && graph_args=(--reps 3 --max-scale 22)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
if [ ! -d /opt/devdeps/usr ]; then for d in .devdeps/debs/*.deb; do dpkg -x "$d" /opt/devdeps; done; fi
build() {  # tree builddir
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/opt/devdeps/usr \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DWG_BUILD_TESTS=OFF > "$out/configure_$(basename "$2").log" 2>&1 &&
    cmake --build "$2" -j "$(nproc)" --target slab_hash_bench graph_gpu_bench \
      > "$out/build_$(basename "$2").log" 2>&1
}
t0=$(date +%s)
build "$old" /tmp/ab-A || { echo "build A failed"; tail -30 "$out/build_ab-A.log"; exit 3; }
build "$new" /tmp/ab-B || { echo "build B failed"; tail -30 "$out/build_ab-B.log"; exit 3; }
echo "builds: $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name --format=csv,noheader
for r in $(seq 1 "$rounds"); do
  order="A B"; [ $((r % 2)) -eq 0 ] && order="B A"
  for side in $order; do
    t=$(date +%s)
    case " ${AB_BENCHES:-slab graph} " in *" slab "*)
      /tmp/ab-$side/tools/bench/slab_hash/slab_hash_bench --variants t8 \
        --json /tmp/slab_${side}_r$r.json > "$out/slab_${side}_r$r.log" 2>&1 ;; esac
    case " ${AB_BENCHES:-slab graph} " in *" graph "*)
      /tmp/ab-$side/tools/bench/graph_gpu/graph_gpu_bench "${graph_args[@]}" \
        --json /tmp/graph_${side}_r$r.json > "$out/graph_${side}_r$r.log" 2>&1 ;; esac
    echo "round $r $side: $(( $(date +%s) - t )) s"
  done
done
for f in "$out"/slab_*_r*.log "$out"/graph_*_r*.log; do
  echo "== $(basename "$f")"; grep -iE "harmonic" -A3 "$f" | grep -vE '^--$' | head -40
done > "$out/ab_summary.txt"
echo "total: $(( $(date +%s) - t0 )) s"
