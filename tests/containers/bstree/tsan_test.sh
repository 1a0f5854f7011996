#!/usr/bin/env bash
# ThreadSanitizer run of the BS-tree tests (ctest entry bstree_tsan): compiles the engine and the
# model + OLC stress test sources with GCC -fsanitize=thread -O1 -g in a scratch folder (outside
# the Release build, which must stay unsanitized) and runs them; any TSan report fails the test
# (halt_on_error, exit code 66). GCC + TSan is the configuration that once caught a miscompiled
# mask move in the AVX-512 path, so the compiler is GCC unless WG_TSAN_CXX says otherwise.
#   tsan_test.sh <source root> <scratch dir>
set -euo pipefail
src=$1 work=$2
cxx=${WG_TSAN_CXX:-g++}
mkdir -p "$work/include"
ln -sfn "$src" "$work/include/warpgraph"
flags=(-std=c++20 -fsanitize=thread -O1 -g -pthread -I"$work/include"
       -I"$src/tests/containers/bstree")
# Four translation units; build two at a time (CI boxes may have 2 cores) and wait for all.
units=(containers/bstree/core.cpp containers/bstree/ops.cpp
       tests/containers/bstree/bstree_test.cpp tests/containers/bstree/bstree_concurrency_test.cpp)
pids=()
for u in "${units[@]}"; do
  o="$work/$(basename "${u%.cpp}").o"
  "$cxx" "${flags[@]}" -c "$src/$u" -o "$o" 2>"$o.log" &
  pids+=($!)
  if (( ${#pids[@]} % 2 == 0 )); then wait "${pids[-2]}" "${pids[-1]}" || { cat "$work"/*.log; exit 1; }; fi
done
wait || { cat "$work"/*.log; exit 1; }
for o in "$work"/*.o; do [[ -s $o ]] || { cat "$work"/*.log; exit 1; }; done
lib=("$work/core.o" "$work/ops.o")
"$cxx" -fsanitize=thread -pthread "${lib[@]}" "$work/bstree_test.o" -lgtest_main -lgtest \
  -o "$work/bstree_test"
"$cxx" -fsanitize=thread -pthread "${lib[@]}" "$work/bstree_concurrency_test.o" -lgtest_main \
  -lgtest -o "$work/bstree_concurrency_test"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
# The stress tests run 4 times (more interleavings). Under TSan the tests pick the scalar successor kernel themselves (see the concurrency test);
# the model tests run every variant x SIMD path single-threaded, which TSan checks as well.
"$work/bstree_concurrency_test" --gtest_brief=1 --gtest_repeat=4
"$work/bstree_test" --gtest_brief=1
echo "bstree_tsan: no ThreadSanitizer reports"
