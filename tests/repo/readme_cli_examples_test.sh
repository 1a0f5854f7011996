#!/usr/bin/env bash
# Every command of the README's "Using the CLI on your own files" block runs and exits 0, with
# its placeholder files replaced by bundled ones (my_graph.mtx: delaunay_n16, my_graph.txt.gz:
# ego-Facebook, base.mtx: karate, my_updates.txt: a small update file on karate's ids).
#   readme_cli_examples_test.sh SOURCE_DIR WARPGRAPH_BINARY WORK_DIR
set -euo pipefail
root=$1 bin=$(realpath "$2") work=$3
rm -rf "$work" && mkdir -p "$work"
data="$(cd "$root" && pwd)/datasets/data"
printf '+ 0 33\n+ 5 20\n=\n- 0 1\n=\n+ 0 1\n' > "$work/my_updates.txt"
block=$(awk '/^## Using the CLI on your own files/{f=1} f && /^```sh/{g=1; next} g && /^```/{exit} g' \
          "$root/README.md")
[ -n "$block" ] || { echo "README has no CLI example block" >&2; exit 1; }
failures=0 count=0
while IFS= read -r line; do
  cmd=${line%%#*}
  [ -z "${cmd// }" ] && continue
  cmd=${cmd//build\/tools\/cli\/warpgraph/$bin}
  cmd=${cmd//my_graph.mtx/$data/delaunay_n16.mtx.gz}
  cmd=${cmd//my_graph.txt.gz/$data/facebook_combined.txt.gz}
  cmd=${cmd//base.mtx/$data/karate.mtx.gz}
  cmd=${cmd//my_updates.txt/$work/my_updates.txt}
  count=$((count + 1))
  if (cd "$work" && eval "$cmd") > "$work/out_$count.txt" 2>&1; then
    echo "ok: $line"
  else
    echo "FAILED (exit $?): $line" >&2
    tail -5 "$work/out_$count.txt" >&2
    failures=$((failures + 1))
  fi
done <<< "$block"
echo "$count README CLI examples, $failures failed"
[ "$failures" = 0 ] && [ "$count" -gt 0 ]
