#!/usr/bin/env bash
# The GPU algorithm benchmarks of issue 34 on the GPU machine, in one job, within BUDGET seconds
# (default 400, meant to reach R-MAT s24 on an H200; the steps are ordered so that a short
# budget loses the largest scales first): every step's timeout is cut to what is left, each bench
# gets a --time-limit a little under it and writes its JSON after every row, so a cut run still
# reports. Run from the project root after the device build (binaries in
# $B/tools/bench/algo_gpu), with the shared datasets in .wgdata/ and the peers in .peers/
# (../shared/peers/README.md):
#   bash tools/bench/algo_gpu/device_bench.sh
#   MAXS=22 BMAX=16 BSTEP=1 BUDGET=300 bash tools/bench/algo_gpu/device_bench.sh
# GUNROCK_MTX: Gunrock's R-MAT s20 file (default .wgdata/rmat20.mtx, made by the peers' generator
# when absent).
# Order (most wanted first): Gunrock's bfs/sssp/pr on its R-MAT s20 file; ours, static, on that
# file, the shared real graphs and R-MAT s20 (slab, CSR, B-tree); dynamic per-batch rows on
# R-MAT s20 (batches 2^BMIN..2^BMAX, step BSTEP); Gunrock's tc; static R-MAT s21..s$MAXS.
# Output in $OUT: *.json (rows), *.log, gunrock_r20.txt (the lines plot_tables.py reads),
# RESULTS_SECTION.md (tables: algo_gpu/plot_algorithms.py markdown) and plots/ when matplotlib
# is there.
set -u
B=${B:-build-device}
BIN=$B/tools/bench/algo_gpu
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export CUDA_MODULE_LOADING=EAGER
T0=$(date +%s)
BUDGET=${BUDGET:-400}
MAXS=${MAXS:-24}
BMIN=${BMIN:-4}
BMAX=${BMAX:-20}
BSTEP=${BSTEP:-2}
REPS=${REPS:-5}
left() { echo $((BUDGET - ($(date +%s) - T0))); }
# step SECONDS CMD...: runs CMD with the smaller of SECONDS and the time left.
step() {
  local want=$1 l
  shift
  l=$(left)
  [ "$l" -gt "$want" ] && l=$want
  if [ "$l" -le 5 ]; then
    echo "skipped (budget): $*"
    return 124
  fi
  timeout "$l" "$@"
}
# limit SECONDS: the --time-limit of a bench given SECONDS of step timeout (it stops starting
# rows ~15% before the step would kill it).
limit() {
  local l
  l=$(left)
  [ "$l" -gt "$1" ] && l=$1
  echo $((l * 85 / 100))
}
nvidia-smi -L | tee "$OUT/gpu.txt"
for b in traversal_bench global_bench; do
  [ -x "$BIN/$b" ] || echo "MISSING $BIN/$b (build it: ninja -C $B $b)"
done

# Gunrock's R-MAT s20 file (the peers' generator) and Gunrock's searches and PageRank on it.
G=${GUNROCK_MTX:-.wgdata/rmat20.mtx}
if [ ! -s "$G" ] && [ -f .peers/run.sh ]; then
  mkdir -p "$(dirname "$G")"
  step 60 bash .peers/run.sh rmat 20 16 "$G" > "$OUT/rmat20_gen.log" 2>&1
  echo "gunrock rmat s20 file rc=$?"
fi
GR="$OUT/gunrock_r20.txt"
: > "$GR"
gunrock() {  # gunrock ALGO SECONDS ARGS...: its log, and "ALGO ... Elapsed Time : MS" in $GR
  local a=$1 want=$2
  shift 2
  if [ ! -x ".peers/bin/$a" ] || [ ! -s "$G" ]; then
    echo "gunrock $a: no binary or no file"
    return
  fi
  step "$want" ".peers/bin/$a" -m "$G" "$@" > "$OUT/gunrock_$a.log" 2>&1
  echo "gunrock $a rc=$?"
  grep -E "Elapsed" "$OUT/gunrock_$a.log" | tail -1 | sed "s/^/$a /" | tee -a "$GR"
}
gunrock bfs 60 -s 0 -n 5
gunrock sssp 60 -s 0 -n 5
gunrock pr 60 -n 5

# Ours, static: Gunrock's file, the shared real graphs, R-MAT s20.
GRAPHS=()
[ -s "$G" ] && GRAPHS+=(--gunrock-mtx "$G")
for name in luxembourg_osm delaunay_n16 facebook_combined netscience; do
  for f in .wgdata/"$name".*; do
    [ -f "$f" ] && GRAPHS+=(--graph "$f") && break
  done
done
for b in traversal global; do
  step 90 "$BIN/${b}_bench" --only static "${GRAPHS[@]}" --min-scale 20 --max-scale 20 \
    --reps "$REPS" --time-limit "$(limit 90)" --json "$OUT/${b}_static_s20.json" \
    > "$OUT/${b}_static_s20.log" 2>&1
  echo "$b static (files, s20) rc=$?"
  cat "$OUT/${b}_static_s20.log"
done

# Ours, dynamic: per batch, apply + update against apply + recompute, R-MAT s20.
for b in traversal global; do
  want=60
  [ $b = global ] && want=100
  step $want "$BIN/${b}_bench" --only dynamic --dyn-scale 20 --min-batch-log "$BMIN" \
    --max-batch-log "$BMAX" --batch-step "$BSTEP" --reps 3 --time-limit "$(limit $want)" \
    --json "$OUT/${b}_dynamic.json" > "$OUT/${b}_dynamic.log" 2>&1
  echo "$b dynamic rc=$?"
  cat "$OUT/${b}_dynamic.log"
done

# Gunrock's triangle count (8.5 s of counting on the H200, plus its file load).
[ -z "${SKIP_GUNROCK_TC:-}" ] && gunrock tc 60 -r

# Ours, static, larger R-MAT scales (each scale a process of its own: a cut loses one scale).
for ((s = 21; s <= MAXS; s++)); do
  for b in traversal global; do
    want=$((15 << (s - 20)))
    [ $want -gt 200 ] && want=200
    step $want "$BIN/${b}_bench" --only static --min-scale $s --max-scale $s --reps "$REPS" \
      --time-limit "$(limit $want)" --json "$OUT/${b}_static_s$s.json" \
      > "$OUT/${b}_static_s$s.log" 2>&1
    echo "$b static s$s rc=$?"
    cat "$OUT/${b}_static_s$s.log"
  done
done

# Tables (no matplotlib needed) and plots (when matplotlib is there).
shopt -s nullglob
ST=("$OUT"/*_static_*.json)
DY=("$OUT"/*_dynamic.json)
if command -v python3 > /dev/null && [ $((${#ST[@]} + ${#DY[@]})) -gt 0 ]; then
  python3 tools/bench/algo_gpu/plot_algorithms.py markdown --gunrock "$GR" "${ST[@]}" "${DY[@]}" \
    > "$OUT/RESULTS_SECTION.md" 2> "$OUT/plot.log"
  echo "tables rc=$?"
  if python3 -c "import matplotlib" 2> /dev/null; then
    P=tools/bench/plot_tables.py
    [ ${#ST[@]} -gt 0 ] && python3 $P --gunrock "$GR" static "${ST[@]}" "$OUT/plots" >> "$OUT/plot.log" 2>&1
    [ ${#DY[@]} -gt 0 ] && python3 $P dynamic "${DY[@]}" "$OUT/plots" >> "$OUT/plot.log" 2>&1
    echo "plots in $OUT/plots"
  fi
fi
echo "total $(($(date +%s) - T0)) s"
