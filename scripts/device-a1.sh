#!/usr/bin/env bash
# One device call: build everything, every GPU test, the CLI's GPU cases, the GPU stream.
set -uo pipefail
O=/tmp/o; mkdir -p $O
t0=$(date +%s)
bash scripts/device-build.sh > $O/build.txt 2>&1 || { tail -60 $O/build.txt; grep -m 20 -B2 -A6 "error" /tmp/out/build.log 2>/dev/null | head -80; cp /tmp/out/build.log $O/ 2>/dev/null; tar czf $OUT/logs.tgz -C $O .; exit 3; }
echo "build $(( $(date +%s) - t0 )) s"
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu
B=build-device
ctest --test-dir $B -L gpu --output-on-failure --timeout 400 -j3 > $O/ctest_gpu.log 2>&1
echo "ctest -L gpu rc=$?"; grep -E "tests passed|Failed|\(Failed\)|Timeout|\*\*\*" $O/ctest_gpu.log | head -30
timeout 300 $B/tests/tools/tools_cli_tests --gtest_filter='CliGpu*:CliTraversal*:*Gpu*:*gpu*' > $O/cli_gpu.log 2>&1
echo "cli gpu rc=$?"; grep -E "^\[  (FAILED|PASSED) |tests ran" $O/cli_gpu.log | head -20
timeout 120 $B/tools/cli/warpgraph stream --backend gpu --verify > $O/stream.log 2>&1; echo "stream rc=$?"; tail -3 $O/stream.log
echo "total $(( $(date +%s) - t0 )) s"
tar czf $OUT/logs.tgz -C $O .
