#!/usr/bin/env bash
# The traversal benchmark on the GPU machine (run from the project root, after the device build
# put the binaries in build-device/ and the peers were copied to .peers/). About 3 minutes:
# Gunrock's bfs/sssp and ours on the same R-MAT s20 file, static BFS/SSSP on R-MAT s20..s21
# (slab graph and CsrGraph), dynamic per-batch update vs recompute on s20, 2^4..2^18.
# Larger static scales: BARGS="--max-scale 24" (s23/s24 add about a minute each).
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
B=build-device/tools/bench/algo_gpu/traversal_bench
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/traversal_gpu.txt"
mtx=.wgdata/rmat20.mtx
[ -f "$mtx" ] || bash .peers/run.sh rmat 20 16 "$mtx" > /dev/null
# Gunrock in the same job, on the same file.
for a in bfs sssp; do
  echo "gunrock $a" | tee -a "$out/traversal_gunrock.txt"
  timeout 60 .peers/bin/$a -m "$mtx" -s 0 -n 5 2>&1 | tee -a "$out/traversal_gunrock.log" \
    | grep -E "Elapsed|errors" | tee -a "$out/traversal_gunrock.txt"
done
timeout 120 "$B" --only static --mtx "$mtx" --min-scale 20 --max-scale 21 --reps 5 \
  --json "$out/traversal_static.json" ${BARGS:-} 2>&1 | tee "$out/traversal_static.log"
timeout 80 "$B" --only dynamic --dyn-scale 20 --max-batch-log 18 --reps 3 \
  --json "$out/traversal_dynamic.json" 2>&1 | tee "$out/traversal_dynamic.log"
