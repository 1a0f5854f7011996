#!/usr/bin/env bash
# GPU run of issue 36 (streaming ingest), from the project root on the GPU machine, after
#   bash scripts/device-build.sh stream_ingest_test stream_bench warpgraph
# Writes logs and JSON to "$OUT". Total under 4 minutes on an H100 (each step time-limited).
#   1. stream_ingest_test, then under compute-sanitizer memcheck and racecheck (small scale);
#   2. stream_bench: batch sizes 2^12..2^24 (resident, sync host, StreamIngest pageable/pinned,
#      pinned/pageable copies alone, and a stage breakdown per size), file replay of 10^8
#      updates, plain and gzip, and a 2^24-edge SNAP file built into the GPU graph after its read
#      and while it is parsed;
#   3. warpgraph stream --backend gpu --verify (generated) and --updates (a generated 80 MB file,
#      streamed: read, parsed and applied at once);
#   4. stream_bench 2^18..2^21 again with --spin-us 0 (waiting threads sleep at once: the
#      wake-ups the default polling avoids), for the breakdown beside step 2's;
#   5. warpgraph tc --backend gpu on bundled graphs (built while the file is parsed) against the
#      reference backend's count.
# Each stream_bench size prints a breakdown line per ingest kind: stage / h2d / apply busy ms,
# the waits, the wall, the overlap ((stage + h2d + apply) / wall) and the limiting stage.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
B=build-device
T0=$(date +%s)
nvidia-smi -L; nproc

timeout 120 $B/tests/graph/gpu/stream_ingest_test > "$OUT/stream_ingest_test.log" 2>&1
echo "stream_ingest_test rc=$?"; grep -E "FAILED|PASSED|Failure" -A3 "$OUT/stream_ingest_test.log" | head -30
WG_GPU_TEST_SCALE=8 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 1 \
  $B/tests/graph/gpu/stream_ingest_test \
  --gtest_filter='*PageableMixedUndirectedSet:*PinnedMixedDirectedMap:*Failed*:*Refuses*' \
  > "$OUT/stream_memcheck.log" 2>&1
echo "memcheck rc=$?"; tail -3 "$OUT/stream_memcheck.log"
WG_GPU_TEST_SCALE=8 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 \
  $B/tests/graph/gpu/stream_ingest_test --gtest_filter='*PageableMixedUndirectedSet:*GeneratedFilesLargerThanTheSlots' \
  > "$OUT/stream_racecheck.log" 2>&1
echo "racecheck rc=$?"; tail -3 "$OUT/stream_racecheck.log"
echo "tests done at $(( $(date +%s) - T0 )) s"

timeout 170 $B/tools/bench/stream/stream_bench --reps ${REPS:-2} --replay-updates ${UPDATES:-100000000} \
  --build-edges 16777216 --replay-dir /tmp --json "$OUT/stream_bench.json" > "$OUT/stream_bench.log" 2>&1
echo "stream_bench rc=$?"; cut -c1-200 "$OUT/stream_bench.log"
echo "bench done at $(( $(date +%s) - T0 )) s"

W=$B/tools/cli/warpgraph
if [ -x "$W" ]; then
  timeout 40 $W stream --backend gpu --verify --batch-size 20000 > "$OUT/cli.log" 2>&1; echo "cli generated rc=$?"
  python3 - > /tmp/ingest_updates.txt <<'PY'
import random
random.seed(5)
n = 1 << 18  # 5M lines, ~80 MB: past the 64 MiB from which the CLI streams the file
out = []
for b in range(50):
    op = '-' if b % 4 == 3 else '+'
    for _ in range(100000):
        out.append(f"{op} {random.randrange(n)} {random.randrange(n)}")
    out.append("=")
print("\n".join(out))
PY
  timeout 90 $W stream --backend gpu --updates /tmp/ingest_updates.txt --verify >> "$OUT/cli.log" 2>&1
  echo "cli --updates rc=$?"
  timeout 60 $W stream --backend gpu --updates /tmp/ingest_updates.txt --json > "$OUT/cli_updates.json" 2>>"$OUT/cli.log"
  echo "cli --updates --json rc=$?"; tail -16 "$OUT/cli.log" | cut -c1-200
fi
timeout 45 $B/tools/bench/stream/stream_bench --reps 2 --min-log2 18 --max-log2 21 --no-replay \
  --build-edges 0 --spin-us 0 --json "$OUT/stream_bench_spin0.json" > "$OUT/stream_bench_spin0.log" 2>&1
echo "stream_bench --spin-us 0 rc=$?"; cut -c1-200 "$OUT/stream_bench_spin0.log"

if [ -x "$W" ]; then
  for g in luxembourg_osm.mtx.gz delaunay_n16.mtx.gz facebook_combined.txt.gz; do
    f=.wgdata/$g; [ -f "$f" ] || f=datasets/data/$g
    a=$(timeout 30 $W tc --backend gpu --json "$f" 2>>"$OUT/cli.log" | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])')
    b=$(timeout 30 $W tc --backend reference --json "$f" 2>>"$OUT/cli.log" | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])')
    echo "tc $g: gpu (pipelined build) $a, reference $b $([ "$a" = "$b" ] && echo OK || echo MISMATCH)"
  done
fi
# The CLI's GPU commands (their graphs are now built while the file is parsed) against the reference.
if [ -x $B/tests/tools/tools_cli_tests ]; then
  timeout 120 $B/tests/tools/tools_cli_tests --gtest_filter='*Gpu*:*gpu*' > "$OUT/cli_gpu_tests.log" 2>&1
  echo "tools_cli_tests (gpu) rc=$?"; grep -E "PASSED|FAILED|SKIPPED \]" "$OUT/cli_gpu_tests.log" | head -20
fi
echo "all done at $(( $(date +%s) - T0 )) s"
