#!/usr/bin/env bash
# A/B of two source trees on the GPU machine: builds the benchmarks of both, then runs them in
# alternating rounds (A B, B A, A B, ...) so that drift of the machine falls on both sides alike,
# and compares every table's rows (tools/bench/ab_compare.py: B/A per table, > 1 is B faster).
#   bash tools/bench/ab_trees.sh OLD_TREE NEW_TREE ROUNDS
# AB_BENCHES picks the benchmarks (default all: "slab graph algo btree btree_graph stream");
# AB_BUDGET (seconds, default 480) stops starting rounds past it. AB_B_BUILD: a build directory of
# NEW_TREE that already holds the benchmarks (e.g. build-device), used instead of building B.
# Run from the project root through the device tool (needs .devdeps, see scripts/device-build.sh).
# Logs and JSON go to $OUT/ab: NAME_{A,B}_rN.{log,json}, ab_summary.txt.
set -uo pipefail
old=$1 new=$2 rounds=${3:-3}
out=${OUT:-/tmp/out}/ab; mkdir -p "$out"
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
if [ ! -d /opt/devdeps/usr ]; then for d in .devdeps/debs/*.deb; do dpkg -x "$d" /opt/devdeps; done; fi
benches=" ${AB_BENCHES:-slab graph algo btree btree_graph stream} "
want() { [[ $benches == *" $1 "* ]]; }
targets=()
want slab && targets+=(--target slab_hash_bench)
want graph && targets+=(--target graph_gpu_bench)
want algo && targets+=(--target traversal_bench --target global_bench)
want btree && targets+=(--target btree_bench)
want btree_graph && targets+=(--target btree_graph_bench)
want stream && targets+=(--target stream_bench)
build() {  # tree builddir
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/opt/devdeps/usr \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DWG_ENABLE_CUDA=ON -DWG_BUILD_TESTS=OFF \
    > "$out/configure_$(basename "$2").log" 2>&1 &&
    cmake --build "$2" -j "$(nproc)" "${targets[@]}" > "$out/build_$(basename "$2").log" 2>&1
}
t0=$(date +%s)
build "$old" /tmp/ab-A || { echo "build A failed"; tail -30 "$out/build_ab-A.log"; exit 3; }
if [ -n "${AB_B_BUILD:-}" ]; then
  ln -sfn "$(realpath "$AB_B_BUILD")" /tmp/ab-B
else
  build "$new" /tmp/ab-B || { echo "build B failed"; tail -30 "$out/build_ab-B.log"; exit 3; }
fi
echo "builds: $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/gpu.txt"
run() {  # side round name cmd... (the binary path is relative to the build dir)
  local side=$1 r=$2 name=$3; shift 3
  local bin=/tmp/ab-$side/$1; shift
  timeout "${AB_STEP_LIMIT:-120}" "$bin" "$@" --json "$out/${name}_${side}_r$r.json" > "$out/${name}_${side}_r$r.log" 2>&1
}
for r in $(seq 1 "$rounds"); do
  [ $(( $(date +%s) - t0 )) -gt "${AB_BUDGET:-480}" ] && { echo "budget: stopped before round $r"; break; }
  order="A B"; [ $((r % 2)) -eq 0 ] && order="B A"
  for s in $order; do
    t=$(date +%s)
    want slab && run $s $r slab tools/bench/slab_hash/slab_hash_bench --variants t8 --sizes 22,24 \
      --load-factors 0.6 --reps 5
    want graph && run $s $r graph tools/bench/graph_gpu/graph_gpu_bench --reps 3 --max-scale 20
    want algo && run $s $r traversal_static tools/bench/algo_gpu/traversal_bench --only static \
      --min-scale 20 --max-scale 20 --structures slab,btree --reps 5
    want algo && run $s $r global_static tools/bench/algo_gpu/global_bench --only static \
      --min-scale 20 --max-scale 20 --tc-max-scale 20 --structures slab,btree --reps 5
    want algo && run $s $r traversal_dynamic tools/bench/algo_gpu/traversal_bench --only dynamic \
      --dyn-scale 20 --min-batch-log 4 --max-batch-log 16 --batch-step 4 --reps 3
    want algo && run $s $r global_dynamic tools/bench/algo_gpu/global_bench --only dynamic \
      --dyn-scale 20 --min-batch-log 4 --max-batch-log 16 --batch-step 4 --reps 3
    want btree && run $s $r btree tools/bench/btree/btree_bench --min-log 20 --max-log 22 --reps 5
    want btree_graph && run $s $r btree_graph tools/bench/graph_gpu/btree_graph_bench --scales 20 \
      --batch-logs 16:20 --tc-batch-logs 16:18 --reps 3
    want stream && run $s $r stream tools/bench/stream/stream_bench --min-log2 16 --max-log2 22 \
      --no-replay --build-edges 0
    echo "round $r $s: $(( $(date +%s) - t )) s"
  done
done
python3 tools/bench/ab_compare.py "$out" | tee "$out/ab_summary.txt"
echo "total: $(( $(date +%s) - t0 )) s"
