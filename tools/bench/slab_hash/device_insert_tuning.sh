#!/usr/bin/env bash
# Bulk insert tuning of the slab hash in one device call (from the project root, carrying .devdeps):
# build, the model tests with the default BulkInsertPolicy, the build rates of the insert kernel
# variants (map and set, 2^22 and 2^24 keys, load factor 0.55, median of 9 after 2 warm-ups), the
# tests again under each candidate policy (WG_SLAB_BULK_INSERT), compute-sanitizer on the model
# tests (small). Logs go to $OUT (8 files).
#   bash tools/bench/slab_hash/device_insert_tuning.sh
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
bash scripts/device-build.sh slab_hash_test slab_hash_bench || exit 3
echo "build: $(( $(date +%s) - t0 )) s"
T=build-device/tests/containers/slab_hash/slab_hash_test
B=build-device/tools/bench/slab_hash/slab_hash_bench

timeout 120 $T > "$out/test_default.log" 2>&1
echo "default policy: slab_hash_test rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$out/test_default.log" | tr '\n' ' ')"

# old kernel (b1 t256 w) first and last: drift check
variants=${WG_TUNE_VARIANTS:-t8b1-t256-w,t8b1-t256-k,t8b1-t512-k,t8b4-t128-k,t8b4-t256-k,t8b4-t512-k,t8b8-t128-k,t8b8-t256-k,t8b8-t256-w,t8b8-t512-k,t8b1-t256-w}
timeout 150 $B --sizes 22,24 --load-factors 0.55 --kinds map,set --variants "$variants" --reps 9 \
  --warmup 2 --no-mixed --json "$out/insert_tuning.json" > "$out/insert_tuning.log" 2>&1
echo "bench rc=$?"
grep -E " build " "$out/insert_tuning.log" | sed -E 's/ +paper.*//'
grep -E "find_all .* t8b1-t256-k|find_all .* t8b1-t256-w" "$out/insert_tuning.log" | sed -E 's/ +paper.*//'
grep -E "ERROR|FAILED" "$out/insert_tuning.log"

for p in 1,512,1 1,256,0 4,128,1 4,256,1 4,512,1 8,128,1 8,256,1 8,512,1; do
  WG_SLAB_BULK_INSERT=$p timeout 60 $T > /tmp/test_policy.log 2>&1
  rc=$?
  echo "policy $p: rc=$rc $(grep -E '^\[  (PASSED|FAILED)' /tmp/test_policy.log | tr '\n' ' ')"
  [ $rc -eq 0 ] || grep -E "FAILED|Failure|rror" /tmp/test_policy.log | head -20
done >> "$out/test_policies.log"
cat "$out/test_policies.log"

export WG_SLAB_TEST_KEYS=3000
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 1 $T --gtest_filter='*Model*:*BulkBuild*' \
    > /tmp/sanitize_$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|^\[  PASSED' /tmp/sanitize_$tool.log | tr '\n' ' ')"
  tail -40 /tmp/sanitize_$tool.log >> "$out/sanitize.log"
done
