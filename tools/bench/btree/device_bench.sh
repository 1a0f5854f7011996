#!/usr/bin/env bash
# The B-link tree benchmarks on the GPU machine, with the GpuBTree peer in the same job (so the
# ratios compare one GPU). From the project root, after building build-device and copying
# ../shared/peers to .peers:   bash tools/bench/btree/device_bench.sh
# Writes btree.json, btree.txt, peers_gpubtree.txt to $OUT. About 2-3 minutes in all.
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$out/gpu.txt"
# The peer: insert, search, range (8 hits), delete at 2^20, 2^22, 2^24 keys.
if [ -x .peers/bin/gpubtree_bench ]; then
  timeout 150 .peers/bin/gpubtree_bench 2>&1 | tee "$out/peers_gpubtree.txt"
else
  echo "no .peers/bin/gpubtree_bench: copy ../shared/peers to .peers" | tee "$out/peers_gpubtree.txt"
fi
# Ours: trees of 2^20, 2^22, 2^24 keys (add --max-log 26 for the largest table when time allows).
timeout 200 build-device/tools/bench/btree/btree_bench --max-log 24 --reps 5 \
  --json "$out/btree.json" 2>&1 | tee "$out/btree.txt"
