#!/usr/bin/env bash
# GPU run: build, tests, sanitizer, bench (graphgpu). Each step time-limited.
# Usage (through the device tool, carrying .devdeps and build-graphgpu-data, a copy of
# ../shared/datasets): RC=1 CLI=1 BARGS="--reps 3 --max-scale 24" bash tools/bench/graph_gpu/run_device.sh
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu
mkdir -p ../shared && ln -sfn "$PWD/build-graphgpu-data" ../shared/datasets
nvidia-smi -L
T0=$(date +%s)
bash scripts/device-build.sh graph_gpu_test tc_gpu_test graph_gpu_bench || { tail -50 $OUT/build.log; exit 3; }
echo "build done in $(( $(date +%s) - T0 )) s"
B=build-device
timeout ${TG:-100} $B/tests/graph/gpu/graph_gpu_test > $OUT/graph_test.log 2>&1; echo "graph_gpu_test rc=$?"
grep -E "FAILED|PASSED|Failure|error" $OUT/graph_test.log | head -30
timeout ${TT:-120} $B/tests/algorithms/tc_gpu/tc_gpu_test > $OUT/tc_test.log 2>&1; echo "tc_gpu_test rc=$?"
grep -E "FAILED|PASSED|Failure|error" -A3 $OUT/tc_test.log | head -30
if [ -n "$CLI" ]; then
  timeout 150 cmake --build $B --target warpgraph -j "$(nproc)" > $OUT/cli.log 2>&1 && {
    W=$B/tools/cli/warpgraph
    timeout 30 $W tc build-graphgpu-data/karate.mtx --backend gpu
    timeout 30 $W tc build-graphgpu-data/facebook_combined.txt --backend gpu
    timeout 60 $W stream --backend gpu --verify --batch-size 20000 2>&1 | tail -6
  } >> $OUT/cli.log 2>&1
  echo "cli rc=$?"; tail -14 $OUT/cli.log | cut -c1-200
fi
echo "tests done at $(( $(date +%s) - T0 )) s"
export WG_GPU_TEST_SCALE=7
timeout ${TM:-80} compute-sanitizer --tool memcheck --error-exitcode 1 $B/tests/graph/gpu/graph_gpu_test --gtest_filter=${MF:-'*UndirectedSet*:*VertexErase*:*LastWeight*:*Bulk*'} > $OUT/memcheck.log 2>&1; echo "memcheck graph rc=$?"; tail -3 $OUT/memcheck.log
timeout ${TM:-80} compute-sanitizer --tool memcheck --error-exitcode 1 $B/tests/algorithms/tc_gpu/tc_gpu_test --gtest_filter=${MT:-'*HandMade*:*karate*:*RmatStreamSet*'} >> $OUT/memcheck.log 2>&1; echo "memcheck tc rc=$?"; tail -3 $OUT/memcheck.log
if [ -n "$RC" ]; then
timeout ${TR:-80} compute-sanitizer --tool racecheck --error-exitcode 1 $B/tests/graph/gpu/graph_gpu_test --gtest_filter='*UndirectedSet*:*VertexEraseAndReuseUndirectedSet*' > $OUT/racecheck.log 2>&1; echo "racecheck graph rc=$?"; tail -3 $OUT/racecheck.log
timeout ${TR:-80} compute-sanitizer --tool racecheck --error-exitcode 1 $B/tests/algorithms/tc_gpu/tc_gpu_test --gtest_filter='*HandMade*:*karate*' >> $OUT/racecheck.log 2>&1; echo "racecheck tc rc=$?"; tail -3 $OUT/racecheck.log
fi
unset WG_GPU_TEST_SCALE
echo "sanitizers done at $(( $(date +%s) - T0 )) s"
CUDA_MODULE_LOADING=EAGER timeout ${TB:-150} $B/tools/bench/graph_gpu/graph_gpu_bench $BARGS --data build-graphgpu-data --json $OUT/graph_gpu_bench.json > $OUT/bench.log 2>&1; echo "bench rc=$?"
cat $OUT/bench.log | cut -c1-160
echo "all done at $(( $(date +%s) - T0 )) s"
