#!/usr/bin/env bash
# Slab vs B-tree adjacency on the GPU machine (btree_graph_bench): edge insert/delete rates
# (batches 2^16..2^22), static TC (slab hash probes vs B-tree sorted intersection) and
# incremental TC, on R-MAT s20 and s22 and the shared graphs. From the project root, with
# build-device built and the datasets copied to .wgdata/:
#   bash tools/bench/graph_gpu/device_bench_btree_graph.sh        (TEST=1: the GPU test first)
# Writes btree_graph_*.json / .txt to $OUT. About 2.5 minutes (3 with TEST=1).
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
B=build-device
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$out/gpu.txt"
if [ -n "${TEST:-}" ]; then
  timeout 60 $B/tests/graph/gpu/btree_graph_test > "$out/btree_graph_test.txt" 2>&1
  echo "btree_graph_test rc=$?"; grep -E "FAILED|PASSED|Failure" -A3 "$out/btree_graph_test.txt" | head -40
fi
files=()
for f in facebook_combined.txt delaunay_n16.mtx luxembourg_osm.mtx; do
  for g in .wgdata/$f .wgdata/$f.gz; do [ -f "$g" ] && { files+=(--file "$g"); break; }; done
done
timeout 75 $B/tools/bench/graph_gpu/btree_graph_bench --scales 20 --batch-logs 16:22 \
  --tc-batch-logs 16:20 --reps 3 "${files[@]}" --json "$out/btree_graph_s20.json" \
  2>&1 | tee "$out/btree_graph_s20.txt"
echo "s20 rc=${PIPESTATUS[0]}"
timeout 95 $B/tools/bench/graph_gpu/btree_graph_bench --scales 22 --batch-logs 18:22 \
  --tc-batch-logs 18:20 --reps 3 --json "$out/btree_graph_s22.json" \
  2>&1 | tee "$out/btree_graph_s22.txt"
echo "s22 rc=${PIPESTATUS[0]}"
