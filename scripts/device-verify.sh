#!/usr/bin/env bash
# The lead's GPU verification, run through the device tool from the project root, carrying
# .devdeps (../shared/device/prepare) and, for the benchmarks' real graphs, .wgdata (a copy of
# ../shared/datasets; the tests read the bundled datasets/data):
#   bash scripts/device-verify.sh tests     # GPU tests (ctest -L gpu) + the README main job on the GPU
#   bash scripts/device-verify.sh bench     # slab hash + dynamic graph benchmarks (JSON to $OUT)
#   bash scripts/device-verify.sh sanitize  # GPU tests under compute-sanitizer memcheck + racecheck
# Several modes may be given; logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
gpu_tests="gpu_smoke_test slab_hash_test graph_gpu_test tc_gpu_test"
bash scripts/device-build.sh $gpu_tests warpgraph slab_hash_bench graph_gpu_bench || exit 3
echo "build: $(( $(date +%s) - t0 )) s"
B=build-device
status=0
for mode in "$@"; do
  case $mode in
    tests)
      ctest --test-dir $B -L gpu --output-on-failure --timeout 300 > "$out/ctest_gpu.log" 2>&1
      echo "ctest -L gpu rc=$?"; grep -E "tests passed|Failed|Passed|Skipped" "$out/ctest_gpu.log" | tail -12
      $B/tools/cli/warpgraph stream --verify 2>&1 | tee "$out/stream_gpu.log" | tail -4
      echo "stream rc=${PIPESTATUS[0]}"
      ;;
    bench)
      CUDA_MODULE_LOADING=EAGER timeout 330 $B/tools/bench/slab_hash/slab_hash_bench \
        --variants wcws,t8 --json "$out/slab_hash.json" > "$out/slab_hash_bench.log" 2>&1
      echo "slab bench rc=$?"; grep -E "lf=0.55|harmonic|mixed" "$out/slab_hash_bench.log" | grep -v "lf=0.55 wcws" | head -40
      CUDA_MODULE_LOADING=EAGER timeout 200 $B/tools/bench/graph_gpu/graph_gpu_bench --reps 3 \
        --max-scale 24 --data .wgdata --json "$out/graph_gpu_bench.json" > "$out/graph_gpu_bench.log" 2>&1
      echo "graph bench rc=$?"; tail -5 "$out/graph_gpu_bench.log"
      ;;
    sanitize)
      # Every GPU test under memcheck and racecheck, all runs at once (the GPU has room; each
      # run is mostly host-side instrumentation), then their summaries.
      export WG_SLAB_TEST_KEYS=3000 WG_GPU_TEST_SCALE=7
      runs=()
      for tool in memcheck racecheck; do
        for t in tests/core/gpu_smoke_test tests/containers/slab_hash/slab_hash_test \
                 tests/graph/gpu/graph_gpu_test tests/algorithms/tc_gpu/tc_gpu_test; do
          filter='*'
          case $t in *slab_hash_test) filter='-*TableExhaustion*' ;; esac
          [ "$tool" = racecheck ] && case $t in *tc_gpu_test) filter='*HandMade*:*karate*:*Rmat*' ;; esac
          log="$out/${tool}_$(basename $t).log"
          timeout 540 compute-sanitizer --tool $tool --error-exitcode 1 $B/$t --gtest_filter="$filter" \
            > "$log" 2>&1 &
          runs+=("$!:$log")
        done
        # the graph's filtered and sorted batch paths (taken by large batches) on the small
        # cases too: graph_gpu_test reads these variables into GraphOptions' tuning fields
        # (tests/graph/gpu/graph_test_options.hpp); the library never reads the environment
        for path in FILTER SORT; do
          log="$out/${tool}_graph_gpu_test_${path}.log"
          env WG_GRAPH_${path}_FROM=0 timeout 540 compute-sanitizer --tool $tool --error-exitcode 1 \
            $B/tests/graph/gpu/graph_gpu_test > "$log" 2>&1 &
          runs+=("$!:$log")
        done
      done
      for r in "${runs[@]}"; do
        wait "${r%%:*}"; rc=$?; [ $rc -ne 0 ] && status=1
        echo "$(basename "${r#*:}" .log) rc=$rc $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "${r#*:}" | tr '\n' ' ')"
      done
      ;;
  esac
done
echo "total: $(( $(date +%s) - t0 )) s"
exit $status
