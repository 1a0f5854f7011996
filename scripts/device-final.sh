#!/usr/bin/env bash
# The lead's one-call GPU verification and measurement, for a device call of at most 10 minutes
# (carry .devdeps .peers .wgdata): build everything; every GPU test, with compute-sanitizer runs
# of the given suites beside them; then every benchmark with a time cap each, the peers (Gunrock
# on the R-MAT s20 file, GpuBTree) in the same call. Logs and JSON go to /tmp/o and are packed
# into $OUT/final.tgz after every step, so a call cut short still returns what it measured.
#   [BENCHES="tc gunrock traversal global lsm lsm_range stream btree btree_graph algo"] \
#   bash scripts/device-final.sh [BUDGET_SECONDS] [SANITIZE_TESTS...]
set -uo pipefail
budget=${1:-580}; shift || true
sanitize_tests=("$@")
O=/tmp/o; mkdir -p $O
T0=$(date +%s)
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu CUDA_MODULE_LOADING=EAGER
B=build-device
benches=" ${BENCHES:-tc gunrock traversal global lsm stream btree btree_graph algo} "
want() { [[ $benches == *" $1 "* ]]; }
snap() { tar czf "$OUT/final.tgz" -C $O . 2>/dev/null; }
left() { echo $((budget - ($(date +%s) - T0))); }
# step LIMIT LOG CMD...: runs CMD with at most LIMIT seconds (less when the budget is short)
step() {
  local lim=$1 log=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt 15 ]; then echo "skipped (budget): $*" | tee -a $O/skipped.txt; return 99; fi
  [ "$lim" -gt "$l" ] && lim=$l
  timeout "$lim" "$@" > "$O/$log" 2>&1
  local rc=$?
  echo "[$(($(date +%s) - T0)) s] $log rc=$rc"
  snap
  return $rc
}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $O/gpu.txt
bash scripts/device-build.sh > $O/build.txt 2>&1 || {
  cp /tmp/out/build.log $O/ 2>/dev/null; grep -m 20 -A6 "error" /tmp/out/build.log | head -60
  snap; exit 3
}
echo "build $(($(date +%s) - T0)) s"

# ---- tests, sanitizers beside them, the R-MAT s20 file meanwhile --------------------------------
rmat_pid=
if want tc || want gunrock || want traversal || want global; then
  (bash .peers/run.sh rmat 20 16 /tmp/r20.mtx > $O/rmat.txt 2>&1) &
  rmat_pid=$!
fi
ctest --test-dir $B -L gpu --output-on-failure --timeout 200 -j4 > $O/ctest_gpu.log 2>&1 &
ctest_pid=$!
pids=()
for t in "${sanitize_tests[@]}"; do
  bin=$(find $B/tests -name "$t" -type f -perm -u+x | head -1)
  [ -z "$bin" ] && continue
  filter='*'
  case $t in
    bfs_gpu_test | sssp_gpu_test | wcc_gpu_test | kcore_gpu_test | pagerank_gpu_test)
      filter='-*luxembourg*:*delaunay*:*facebook*' ;;
    lsm_test | sorted_array_test) filter='*/0.*' ;;
    tc_gpu_test) filter='*HandMade*:*karate*:*Rmat*' ;;
    btree_graph_test)
      filter='BTreeGraph.RandomBatches*:BTreeGraph.VertexOps*:BTreeGraph.DeviceView*:*karate*' ;;
  esac
  for tool in memcheck racecheck; do
    WG_GPU_TEST_SCALE=7 WG_GPU_TEST_BATCHES=14 timeout ${SAN_TIMEOUT:-200} compute-sanitizer --tool $tool \
      --error-exitcode 1 "$bin" --gtest_filter="$filter" > "$O/${tool}_$t.log" 2>&1 &
    pids+=($!)
  done
done
wait $ctest_pid; echo "ctest -L gpu rc=$?"
grep -E "tests passed|\(Failed\)|Timeout|Not Run" $O/ctest_gpu.log | head -20
for p in "${pids[@]}"; do wait "$p"; done
for f in $O/memcheck_*.log $O/racecheck_*.log; do
  [ -f "$f" ] && echo "$(basename "$f" .log): $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$f" | tr '\n' ' ')"
done | tee $O/sanitize_summary.txt
[ -n "$rmat_pid" ] && wait $rmat_pid
step 120 cli_gpu.log $B/tests/tools/tools_cli_tests --gtest_filter='CliGpu*:CliTraversal*:CliStream*'
grep -E "^\[  (FAILED|PASSED) " $O/cli_gpu.log
snap
echo "tests done at $(($(date +%s) - T0)) s"

# ---- benchmarks, each capped ----------------------------------------------------------------
R=/tmp/r20.mtx
want tc && step 60 tc_order.log $B/tools/bench/graph_gpu/graph_gpu_bench --only build --file $R \
  --min-scale 20 --max-scale 20 --reps 3 --json $O/tc_order.json
grep -E "r20|rmat" $O/tc_order.log
want gunrock && step 45 gunrock_bfs.log .peers/bin/bfs -m $R -s 0 -n 5
want gunrock && step 45 gunrock_sssp.log .peers/bin/sssp -m $R -s 0 -n 5
want gunrock && step 45 gunrock_pr.log .peers/bin/pr -m $R -n 5
want gunrock && step 60 gunrock_tc.log .peers/bin/tc -m $R -r
grep -h "Elapsed" $O/gunrock_*.log
want traversal && step 70 traversal_static.log $B/tools/bench/algo_gpu/traversal_bench --only static --mtx $R \
  --min-scale 20 --max-scale 21 --reps 3 --json $O/traversal_static.json
want traversal && step 60 traversal_dynamic.log $B/tools/bench/algo_gpu/traversal_bench --only dynamic \
  --dyn-scale 20 --max-batch-log 16 --reps 3 --json $O/traversal_dynamic.json
want global && step 60 global_static.log $B/tools/bench/algo_gpu/global_bench --only static --mtx $R \
  --min-scale 20 --max-scale 21 --reps 3 --json $O/global_static.json
want global && step 60 global_dynamic.log $B/tools/bench/algo_gpu/global_bench --only dynamic --dyn-scale 20 \
  --min-batch-log 4 --max-batch-log 14 --reps 3 --json $O/global_dynamic.json
want lsm && step 60 lsm_bench.log $B/tools/bench/lsm/lsm_bench --max-log2 22 --samples 8 \
  --json $O/lsm_bench.json
want stream && step 60 stream_bench.log $B/tools/bench/stream/stream_bench --reps 2 --min-log2 14 \
  --max-log2 22 --replay-updates 30000000 --replay-dir /tmp --json $O/stream_bench.json
want btree && step 40 gpubtree_peer.log .peers/bin/gpubtree_bench
want btree && step 60 btree_bench.log $B/tools/bench/btree/btree_bench --max-log 24 --reps 3 \
  --json $O/btree_bench.json
want btree_graph && [ -x $B/tools/bench/graph_gpu/btree_graph_bench ] && step 40 btree_graph_bench.log \
  $B/tools/bench/graph_gpu/btree_graph_bench --scales 20 --batch-logs 18:20 --tc-batch-logs 18:18 --reps 3 --json $O/btree_graph_bench.json
want algo && step 30 stream_algo_gpu.log $B/tools/cli/warpgraph stream --backend gpu \
  --algo tc,bfs,cc,pagerank,kcore --verify
if want lsm_range; then
  for slot in 0 -1; do
    step 40 lsm_range_slot$slot.log $B/tools/bench/lsm/lsm_bench --only 4 --min-log2 20 \
      --max-log2 20 --samples 8 --range-slot $slot --json $O/lsm_range_slot$slot.json
    grep -E "range L=8|count L=8" $O/lsm_range_slot$slot.log
  done
fi
echo "all done at $(($(date +%s) - T0)) s"
snap
