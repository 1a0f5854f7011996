#!/usr/bin/env bash
# GPU run of the LSM / sorted-array work (issue 37): the GPU tests, both test binaries whole under
# compute-sanitizer memcheck and racecheck at WG_GPU_TEST_SCALE=8 (the four runs at once, each
# timed: each should take < 90 s on an H100), then lsm_bench (LSM, sorted array, B-tree and slab
# map on the paper's Tables II-IV, cleanup and bulk build; it prints the seconds of each part).
# Expects a device build in build-device (e.g. scripts/device-build.sh sorted_array_test lsm_test
# lsm_plan_test lsm_bench); writes logs and JSON to $OUT. About 4 minutes on an H100 or H200.
set -u
B=${B:-build-device}
OUT=${OUT:-.}
T0=$(date +%s)
nvidia-smi -L
timeout 60 $B/tests/containers/lsm/lsm_plan_test > $OUT/lsm_plan_test.log 2>&1; echo "lsm_plan_test rc=$?"
for t in sorted_array/sorted_array_test lsm/lsm_test; do
  n=$(basename $t)
  s=$(date +%s)
  timeout 60 $B/tests/containers/$t > $OUT/$n.log 2>&1; echo "$n rc=$? in $(( $(date +%s) - s )) s"
  grep -E "FAILED|PASSED|Failure" -A3 $OUT/$n.log | head -20
done
# Sanitizers: every test of both binaries (both key widths) at the sanitizer scale.
pids=()
for t in sorted_array/sorted_array_test lsm/lsm_test; do
  n=$(basename $t)
  for tool in memcheck racecheck; do
    ( s=$(date +%s)
      WG_GPU_TEST_SCALE=8 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 \
        $B/tests/containers/$t > $OUT/$n.$tool.log 2>&1
      echo "$tool $n rc=$? in $(( $(date +%s) - s )) s" >> $OUT/$n.$tool.log ) &
    pids+=($!)
  done
done
for p in "${pids[@]}"; do wait "$p"; done
for f in $OUT/*.memcheck.log $OUT/*.racecheck.log; do
  echo "$(basename $f .log): $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)|rc=' $f | tr '\n' ' ')"
done
echo "tests done at $(( $(date +%s) - T0 )) s"
timeout 170 $B/tools/bench/lsm/lsm_bench --json $OUT/lsm_bench.json ${BARGS:---samples 8} \
  > $OUT/lsm_bench.log 2>&1
echo "lsm_bench rc=$?"; cat $OUT/lsm_bench.log
echo "all done at $(( $(date +%s) - T0 )) s"
# Plots (one per table, every structure beside the K40c figures): on a machine with matplotlib,
#   /usr/bin/python3 tools/bench/plot_tables.py lsm $OUT/lsm_bench.json tools/bench/lsm/results/plots
