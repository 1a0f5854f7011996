#!/usr/bin/env bash
# GPU run of the LSM / sorted-array work (issue 37): tests, compute-sanitizer (memcheck and
# racecheck on the model tests), then lsm_bench. Expects a device build in build-device (e.g.
# scripts/device-build.sh sorted_array_test lsm_test lsm_plan_test lsm_bench); writes logs and
# JSON to $OUT. Total under 4 minutes on an H100.
set -u
B=${B:-build-device}
OUT=${OUT:-.}
T0=$(date +%s)
nvidia-smi -L
timeout 60 $B/tests/containers/lsm/lsm_plan_test > $OUT/lsm_plan_test.log 2>&1; echo "lsm_plan_test rc=$?"
timeout 30 $B/tests/containers/sorted_array/sorted_array_test > $OUT/sorted_array_test.log 2>&1; echo "sorted_array_test rc=$?"
grep -E "FAILED|PASSED|Failure" -A3 $OUT/sorted_array_test.log | head -20
timeout 30 $B/tests/containers/lsm/lsm_test > $OUT/lsm_test.log 2>&1; echo "lsm_test rc=$?"
grep -E "FAILED|PASSED|Failure" -A3 $OUT/lsm_test.log | head -20
for t in sorted_array/sorted_array_test lsm/lsm_test; do
  n=$(basename $t)
  WG_GPU_TEST_BATCHES=14 timeout 35 compute-sanitizer --tool memcheck --error-exitcode 1 $B/tests/containers/$t \
    --gtest_filter='*/0.*' > $OUT/$n.memcheck.log 2>&1; echo "memcheck $n rc=$?"; tail -2 $OUT/$n.memcheck.log
  timeout 20 compute-sanitizer --tool racecheck --error-exitcode 1 $B/tests/containers/$t \
    --gtest_filter='*/0.Capacity*' > $OUT/$n.racecheck.log 2>&1; echo "racecheck $n rc=$?"; tail -2 $OUT/$n.racecheck.log
done
echo "tests done at $(( $(date +%s) - T0 )) s"
timeout 90 $B/tools/bench/lsm/lsm_bench --json $OUT/lsm_bench.json ${BARGS:-} > $OUT/lsm_bench.log 2>&1
echo "lsm_bench rc=$?"; cat $OUT/lsm_bench.log
# A/B of range's answer slot on the same GPU: Table IV at b = 2^20 with the two-walk scheme
# (--range-slot 0) and with the default slot.
for slot in 0 -1; do
  timeout 30 $B/tools/bench/lsm/lsm_bench --only 4 --min-log2 20 --max-log2 20 --samples 8 \
    --range-slot $slot --json $OUT/lsm_bench_range_slot$slot.json > $OUT/lsm_bench_range_slot$slot.log 2>&1
  echo "range-slot $slot rc=$?"; grep "range\|count" $OUT/lsm_bench_range_slot$slot.log
done
echo "all done at $(( $(date +%s) - T0 )) s"
# Plots (one per table, beside the K40c figures): on a machine with matplotlib,
#   python3 tools/bench/plot.py $OUT/lsm_bench.json --out plots --logy --filter "GPU LSM"
