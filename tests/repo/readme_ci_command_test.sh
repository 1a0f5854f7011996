#!/usr/bin/env bash
# The README's test command (the line after the marker "<!-- test-command -->") must be the
# command .ci/run runs first, so CI tests exactly what users are told to run; the only other
# commands .ci/run may run are the stress tests the README's command leaves out (-LE stress)
# and the compile-only build of the CUDA code (which the README's command skips without a GPU).
set -euo pipefail
root=$1
readme_cmd=$(awk '/<!-- test-command -->/{getline; getline; print; exit}' "$root/README.md")
stress_cmd='ctest --test-dir build --output-on-failure -L stress'
cuda_cmd='cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DWG_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build-cuda -j"$(nproc)" --target wg_cuda_code'
# The commands of .ci/run: every line that is not a comment, blank, the shebang, `set` or `cd`.
mapfile -t ci_cmds < <(grep -vE '^\s*(#|$|set |cd )' "$root/.ci/run")
fail() {
  echo "$1" >&2
  echo "  README: $readme_cmd" >&2
  printf '  CI    : %s\n' "${ci_cmds[@]}" >&2
  exit 1
}
[ -n "$readme_cmd" ] || fail "README.md has no test command after <!-- test-command -->"
[ "${#ci_cmds[@]}" = 3 ] || fail ".ci/run must run exactly three commands: the README's, the stress tests, the CUDA compile"
[ "${ci_cmds[0]}" = "$readme_cmd" ] || fail "README test command and .ci/run's first command differ"
[ "${ci_cmds[1]}" = "$stress_cmd" ] || fail ".ci/run's second command must be: $stress_cmd"
[ "${ci_cmds[2]}" = "$cuda_cmd" ] || fail ".ci/run's third command must be: $cuda_cmd"
case "$readme_cmd" in
  *" -LE stress") ;;
  *) fail "the README's test command must leave out the stress tests (end with -LE stress)" ;;
esac
echo "README and .ci/run run: $readme_cmd"
echo ".ci/run then runs: $stress_cmd"
echo "and compiles the CUDA code: $cuda_cmd"
