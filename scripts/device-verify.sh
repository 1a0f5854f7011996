#!/usr/bin/env bash
# The lead's GPU verification, run through the device tool from the project root, carrying
# .devdeps (../shared/device/prepare) and, for the benchmarks' real graphs, .wgdata (a copy of
# ../shared/datasets; the tests read the bundled datasets/data):
#   bash scripts/device-verify.sh tests     # GPU tests (ctest -L gpu) + the README main job on the GPU
#   bash scripts/device-verify.sh bench     # slab hash + dynamic graph benchmarks (JSON to $OUT)
#   bash scripts/device-verify.sh sanitize  # every GPU test under compute-sanitizer memcheck + racecheck
#   bash scripts/device-verify.sh algo-bench  # every tools/bench/*/device_bench*.sh
# Several modes may be given; logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
# Everything: every GPU test (ctest label gpu), the CLI and every benchmark.
bash scripts/device-build.sh || exit 3
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
      # Every GPU test binary (ctest -L gpu) under memcheck and racecheck, up to 12 runs at once
      # (the GPU has room; each run is mostly host-side instrumentation), then their summaries.
      # The graph's filtered and sorted batch paths (taken by large batches) run on the small
      # cases too: graph_gpu_test reads WG_GRAPH_{FILTER,SORT}_FROM into GraphOptions' tuning
      # fields (tests/graph/gpu/graph_test_options.hpp); the library never reads the environment.
      export WG_SLAB_TEST_KEYS=3000 WG_GPU_TEST_SCALE=7
      tests=$(ctest --test-dir $B -L gpu -N -V | sed -n 's/^[0-9]*: Test command: //p' | awk '{print $1}' | sort -u)
      jobs_file=$(mktemp)
      for tool in memcheck racecheck; do
        for t in $tests; do
          name=$(basename "$t"); filter='*'
          case $name in
            slab_hash_test) filter='-*TableExhaustion*' ;;
            # long-diameter graphs are thousands of launches each: too slow instrumented
            bfs_gpu_test|sssp_gpu_test|wcc_gpu_test|kcore_gpu_test|pagerank_gpu_test)
              filter='-*luxembourg*:*delaunay*' ;;
          esac
          if [ "$tool" = racecheck ]; then
            case $name in
              tc_gpu_test) filter='*HandMade*:*karate*:*Rmat*' ;;
              bfs_gpu_test|sssp_gpu_test|wcc_gpu_test|kcore_gpu_test|pagerank_gpu_test)
                filter='-*luxembourg*:*delaunay*:*facebook*:*netscience*' ;;
            esac
          fi
          echo "$tool $t $filter - ${tool}_${name}" >> "$jobs_file"
        done
        for path in FILTER SORT; do
          echo "$tool $B/tests/graph/gpu/graph_gpu_test * WG_GRAPH_${path}_FROM=0 ${tool}_graph_gpu_test_${path}" >> "$jobs_file"
        done
      done
      run_one() {  # tool binary filter env logname
        local e=(); [ "$4" != - ] && e=("$4")
        env "${e[@]}" timeout 540 compute-sanitizer --tool "$1" --error-exitcode 1 "$2" \
          --gtest_filter="$3" > "$out/$5.log" 2>&1
        echo "$5 rc=$? $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$5.log" | tr '\n' ' ')"
      }
      export -f run_one; export out
      xargs -P 12 -L 1 bash -c 'run_one "$@"' _ < "$jobs_file" | sort | tee "$out/sanitize_summary.txt"
      grep -q " rc=[^0]" "$out/sanitize_summary.txt" && status=1
      ;;
    algo-bench)
      # Each benchmark folder's device_bench*.sh (the commands its author chose, < 4 min each).
      for f in tools/bench/*/device_bench*.sh; do
        echo "== $f"; timeout 400 bash "$f" 2>&1 | tail -40; echo "$f rc=$?"
      done
      ;;
  esac
done
echo "total: $(( $(date +%s) - t0 )) s"
exit $status
