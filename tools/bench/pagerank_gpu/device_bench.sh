#!/usr/bin/env bash
# The GPU PageRank on the GPU machine (about 2 minutes): its test, then pagerank_bench on
# Gunrock's R-MAT s20 file beside Gunrock's own PageRank in the same job, then on R-MAT s20/s22
# generated here. Binaries in build-device/, peers in .peers/; logs and JSON to $OUT.
#   bash tools/bench/pagerank_gpu/device_bench.sh
set -u
B=${B:-build-device}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export CUDA_MODULE_LOADING=EAGER
nvidia-smi -L | tee "$OUT/gpu.txt"
timeout 60 $B/tests/algorithms/pagerank_gpu/pagerank_gpu_test > "$OUT/pagerank_gpu_test.log" 2>&1
echo "pagerank_gpu_test rc=$?"; grep -E "FAILED|PASSED|SKIPPED \]" "$OUT/pagerank_gpu_test.log" | head
P=$B/tools/bench/pagerank_gpu/pagerank_bench
G=${GUNROCK_MTX:-/tmp/rmat_s20_gunrock.mtx}
if [ ! -f "$G" ] && [ -f .peers/run.sh ]; then
  timeout 40 bash .peers/run.sh rmat 20 16 "$G" > /dev/null 2>&1; echo "rmat s20 file rc=$?"
fi
if [ -f "$G" ]; then
  [ -x .peers/bin/pr ] && timeout 30 .peers/bin/pr -m "$G" -n 5 > "$OUT/gunrock_pr.log" 2>&1 &&
    grep -E "Elapsed" "$OUT/gunrock_pr.log" | tail -2
  timeout 60 $P --mtx "$G" --json "$OUT/pagerank_gunrock_s20.json" 2>&1 | tee "$OUT/pagerank_gunrock_s20.log"
  # Hub split off (one warp per vertex), to see what the split buys.
  timeout 40 $P --mtx "$G" --split-degree 4000000000 --reps 3 --batch-log 10 \
    --json "$OUT/pagerank_gunrock_s20_nosplit.json" 2>&1 | tail -8
fi
timeout 60 $P --scale 22 --reps 3 --json "$OUT/pagerank_s22.json" 2>&1 | tee "$OUT/pagerank_s22.log"
