#!/usr/bin/env bash
# The user-facing docs link only files that exist, and tools/bench keeps at most 45 result files
# (one JSON per benchmark and machine, and the plots drawn from them, for about ten benchmarks):
# history lives in git.
set -euo pipefail
root=$1
cd "$root"
status=0
for doc in README.md tools/bench/RESULTS.md docs/tried.md datasets/README.md; do
  dir=$(dirname "$doc")
  # Relative Markdown link targets, without anchors.
  while IFS= read -r target; do
    case "$target" in http://* | https://* | mailto:* | '#'*) continue ;; esac
    if [ ! -e "$dir/${target%%#*}" ]; then
      echo "$doc links a missing file: $target" >&2
      status=1
    fi
  done < <(grep -o '](\([^)[:space:]]*\))' "$doc" | sed 's/^](\(.*\))$/\1/')
done
count=$(find tools/bench -type f ! -name CMakeLists.txt | grep -cE '\.(json|log|txt|png|svg|csv)$' || true)
if [ "$count" -gt 45 ]; then
  echo "tools/bench holds $count result files (at most 45)" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "docs links resolve; tools/bench holds $count result files"
exit "$status"
