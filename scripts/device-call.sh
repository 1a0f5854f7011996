#!/usr/bin/env bash
# The lead's device call: build the given targets, then run the steps of a plan file (one
# "SECONDS LOGNAME COMMAND..." per line; lines starting with "&" run in the background and are
# waited for at the end, or at a line "wait"). Logs go to /tmp/o, packed into $OUT/o.tgz after every step, so a call
# cut short still returns what it ran.   bash scripts/device-call.sh PLAN TARGET...
set -uo pipefail
plan=$1; shift
O=/tmp/o; mkdir -p $O
T0=$(date +%s)
export LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu CUDA_MODULE_LOADING=EAGER
snap() { tar czf "$OUT/o.tgz" -C $O . 2>/dev/null; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $O/gpu.txt
OUT=$O bash scripts/device-build.sh "$@" > $O/build.txt 2>&1 || { cat $O/build.txt | head -80; snap; exit 3; }
echo "build $(($(date +%s) - T0)) s"
pids=()
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  if [[ $line == wait ]]; then
    for p in "${pids[@]}"; do wait "$p"; done
    pids=(); snap; continue
  fi
  bg=0; [[ $line == \&* ]] && { bg=1; line=${line:1}; }
  read -r lim log cmd <<< "$line"
  if [ $bg = 1 ]; then
    ( s=$(date +%s); timeout "$lim" bash -c "$cmd" > "$O/$log" 2>&1; echo "[bg] $log rc=$? in $(( $(date +%s) - s )) s" >> $O/steps.txt ) &
    pids+=($!)
  else
    s=$(date +%s); timeout "$lim" bash -c "$cmd" > "$O/$log" 2>&1; rc=$?
    echo "$log rc=$rc in $(( $(date +%s) - s )) s" | tee -a $O/steps.txt
    grep -hE "^\[  (PASSED|FAILED) |FAILED  \]|ERROR SUMMARY|RACECHECK SUMMARY" "$O/$log" | head -8
    snap
  fi
done < "$plan"
for p in "${pids[@]}"; do wait "$p"; done
cat $O/steps.txt | grep "\[bg\]"
for f in $O/*memcheck* $O/*racecheck*; do
  [ -f "$f" ] && echo "$(basename "$f"): $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED) ' "$f" | tr '\n' ' ')"
done
echo "total $(($(date +%s) - T0)) s"
snap
