#!/usr/bin/env bash
# The GPU global algorithms on the GPU machine: tests, CLI, benches, then sanitizers, in that
# order, within BUDGET seconds (default 235: every step's timeout is cut to what is left; the
# benches write their JSON after each graph and algorithm, so a cut step still reports).
# Binaries in build-device/, datasets in .wgdata/, peers in .peers/; logs and JSON to $OUT.
#   bash tools/bench/algo_gpu/device_bench_global.sh
#   MAXS=24 BMAX=20 bash ...   # R-MAT up to s24, dynamic batches up to 2^20 (longer)
# GUNROCK_MTX: Gunrock's R-MAT s20 file (made with the peers' generator when absent).
set -u
B=${B:-build-device}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export CUDA_MODULE_LOADING=EAGER
T0=$(date +%s)
BUDGET=${BUDGET:-235}
# step SECONDS CMD...: runs CMD with the smaller of SECONDS and the time left.
step() {
  local want=$1; shift
  local left=$(( BUDGET - ($(date +%s) - T0) ))
  [ "$left" -gt "$want" ] && left=$want
  if [ "$left" -le 5 ]; then echo "skipped (budget): $*"; return 124; fi
  timeout "$left" "$@"
}
nvidia-smi -L | tee "$OUT/gpu.txt"
T=$B/tests/algorithms
for t in wcc_gpu kcore_gpu pagerank_gpu; do
  step 45 $T/$t/${t}_test > "$OUT/${t}_test.log" 2>&1
  echo "${t}_test rc=$?"; grep -E "FAILED|PASSED|SKIPPED \]" "$OUT/${t}_test.log" | head -20
done
# The CLI on the GPU (same output shape as cpu).
W=$B/tools/cli/warpgraph
for c in cc kcore pagerank; do
  step 20 $W $c .wgdata/facebook_combined.txt* --backend gpu > "$OUT/cli_$c.txt" 2>&1
  echo "cli $c rc=$?"; head -8 "$OUT/cli_$c.txt"
done
# Gunrock's R-MAT s20 file and Gunrock's PageRank in the same job (its figure: 8.76 ms, H200).
G=${GUNROCK_MTX:-/tmp/rmat_s20_gunrock.mtx}
if [ ! -f "$G" ] && [ -f .peers/run.sh ]; then
  step 40 bash .peers/run.sh rmat 20 16 "$G" > /dev/null 2>&1; echo "rmat s20 file rc=$?"
fi
MTX=""; [ -f "$G" ] && MTX="--mtx $G"
if [ -x .peers/bin/pr ] && [ -f "$G" ]; then
  step 30 .peers/bin/pr -m "$G" -n 5 > "$OUT/gunrock_pr.log" 2>&1; echo "gunrock pr rc=$?"
  grep -E "Elapsed" "$OUT/gunrock_pr.log" | tail -2
fi
step 60 $B/tools/bench/algo_gpu/global_bench --only static $MTX --min-scale 20 \
  --max-scale ${MAXS:-22} --reps 3 --json "$OUT/global_static.json" > "$OUT/global_static.log" 2>&1
echo "static bench rc=$?"; cat "$OUT/global_static.log"
step 60 $B/tools/bench/algo_gpu/global_bench --only dynamic --dyn-scale 20 --min-batch-log 4 \
  --max-batch-log ${BMAX:-16} --reps 3 --json "$OUT/global_dynamic.json" \
  > "$OUT/global_dynamic.log" 2>&1
echo "dynamic bench rc=$?"; cat "$OUT/global_dynamic.log"
# memcheck at a small scale (the tests read WG_GPU_TEST_SCALE), with what time is left.
export WG_GPU_TEST_SCALE=8
for t in wcc_gpu kcore_gpu pagerank_gpu; do
  step 30 compute-sanitizer --tool memcheck --error-exitcode 1 $T/$t/${t}_test \
    --gtest_filter='*HandMade*:*StreamRestricted*:*SparseStreamRounds*:*UndirectedStream*:*karate*' \
    > "$OUT/${t}_memcheck.log" 2>&1
  echo "${t} memcheck rc=$?"; tail -2 "$OUT/${t}_memcheck.log"
done
echo "total $(( $(date +%s) - T0 )) s"
