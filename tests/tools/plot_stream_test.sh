#!/usr/bin/env bash
# tools/plot_stream.py draws `warpgraph stream --json` (a PNG with one panel per series), and
# tools/bench/plot.py refuses such a document with a pointer to it (exit 1, not "no plottable
# records" and 0). Exit 77 (skipped) when matplotlib is missing.
# Usage: plot_stream_test.sh WARPGRAPH SOURCE_DIR PYTHON
set -u
exe=$1 src=$2 py=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$exe" stream "$src/datasets/data/karate.mtx.gz" --algo tc,cc,bfs --batch-size 8 --json \
  > "$tmp/stream.json" || fail "stream --json"
out=$("$py" "$src/tools/bench/plot.py" "$tmp/stream.json" --out "$tmp/plots" 2>&1) \
  && fail "plot.py accepted a stream document: $out"
grep -q "plot_stream.py" <<<"$out" || fail "plot.py does not point to plot_stream.py: $out"

"$py" -c "import matplotlib" 2>/dev/null || { echo "matplotlib missing: skipped"; exit 77; }
"$py" "$src/tools/plot_stream.py" "$tmp/stream.json" -o "$tmp/stream.png" || fail "plot_stream.py"
[ "$(head -c 4 "$tmp/stream.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "not a PNG"
# From stdin too; a document that is not a stream is refused (exit 1).
"$exe" stream "$src/datasets/data/karate.mtx.gz" --batch-size 16 --json |
  "$py" "$src/tools/plot_stream.py" - -o "$tmp/stdin.png" || fail "plot_stream.py from stdin"
[ -s "$tmp/stdin.png" ] || fail "no image from stdin"
echo '[{"x": 1, "value": 2}]' > "$tmp/bench.json"
"$py" "$src/tools/plot_stream.py" "$tmp/bench.json" -o "$tmp/no.png" 2>/dev/null
[ $? -eq 1 ] || fail "plot_stream.py accepted benchmark records"
echo "ok"
