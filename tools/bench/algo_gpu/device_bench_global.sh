#!/usr/bin/env bash
# The GPU global algorithms on the GPU machine: tests, sanitizers, CLI, bench (under 4 minutes:
# every step is time-limited; the benches write their JSON after each graph and algorithm).
# Binaries in build-device/, datasets in .wgdata/, peers in .peers/bin; logs and JSON to $OUT.
#   bash tools/bench/algo_gpu/device_bench_global.sh
# GUNROCK_MTX (default .wgdata/rmat_s20_gunrock.mtx, when present) is Gunrock's R-MAT s20 file.
set -u
B=${B:-build-device}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export CUDA_MODULE_LOADING=EAGER
nvidia-smi -L | tee "$OUT/gpu.txt"
T=$B/tests/algorithms
for t in wcc_gpu kcore_gpu pagerank_gpu; do
  timeout 60 $T/$t/${t}_test > "$OUT/${t}_test.log" 2>&1
  echo "${t}_test rc=$?"; grep -E "FAILED|PASSED" "$OUT/${t}_test.log" | head -20
done
# Sanitizers at a small scale (the tests read WG_GPU_TEST_SCALE).
export WG_GPU_TEST_SCALE=8
for t in wcc_gpu kcore_gpu pagerank_gpu; do
  timeout 50 compute-sanitizer --tool memcheck --error-exitcode 1 $T/$t/${t}_test \
    --gtest_filter='*HandMade*:*Stream*:-*Dense*:*Default*:*Recomputes*' > "$OUT/${t}_memcheck.log" 2>&1
  echo "${t} memcheck rc=$?"; tail -2 "$OUT/${t}_memcheck.log"
done
timeout 40 compute-sanitizer --tool racecheck --error-exitcode 1 $T/kcore_gpu/kcore_gpu_test \
  --gtest_filter='*HandMade*:*SparseStreamRounds*' > "$OUT/kcore_racecheck.log" 2>&1
echo "kcore racecheck rc=$?"; tail -2 "$OUT/kcore_racecheck.log"
unset WG_GPU_TEST_SCALE
# The CLI on the GPU (same output shape as cpu).
W=$B/tools/cli/warpgraph
for c in cc kcore pagerank; do
  timeout 30 $W $c .wgdata/facebook_combined.txt* --backend gpu > "$OUT/cli_$c.txt" 2>&1
  echo "cli $c rc=$?"; cat "$OUT/cli_$c.txt" | head -8
done
# Gunrock's R-MAT s20 file (made by the peers' generator when not given) and Gunrock's PageRank
# in the same job (its figure: 8.76 ms on an H200).
G=${GUNROCK_MTX:-/tmp/rmat_s20_gunrock.mtx}
if [ ! -f "$G" ] && [ -f .peers/run.sh ]; then
  timeout 60 bash .peers/run.sh rmat 20 16 "$G" > /dev/null 2>&1; echo "rmat s20 file rc=$?"
fi
MTX=""; [ -f "$G" ] && MTX="--mtx $G"
if [ -x .peers/bin/pr ] && [ -f "$G" ]; then
  timeout 60 .peers/bin/pr -m "$G" -n 5 > "$OUT/gunrock_pr.log" 2>&1; echo "gunrock pr rc=$?"
  grep -E "Elapsed" "$OUT/gunrock_pr.log" | tail -2
fi
timeout 110 $B/tools/bench/algo_gpu/global_bench --only static $MTX --min-scale 20 --max-scale 24 \
  --reps 3 --json "$OUT/global_static.json" > "$OUT/global_static.log" 2>&1
echo "static bench rc=$?"; cat "$OUT/global_static.log"
timeout 100 $B/tools/bench/algo_gpu/global_bench --only dynamic --dyn-scale 20 \
  --min-batch-log 4 --max-batch-log 18 --reps 3 --json "$OUT/global_dynamic.json" \
  > "$OUT/global_dynamic.log" 2>&1
echo "dynamic bench rc=$?"; cat "$OUT/global_dynamic.log"
