#!/usr/bin/env bash
# Hostile inputs for the `warpgraph` CLI, under `ulimit -v 4000000` (4 GB of address space):
# every case must end with the expected exit code (1: bad input, 2: bad command line), exactly
# one line on stderr that starts with "warpgraph: ", names the file (and "FILE:LINE:" where the
# problem has a line) and holds no raw control byte; never a crash, an OOM kill or a hang
# (each run has 60 s). The readers' fuzz seed corpus must run (exit 0) or fail the same way.
# Usage: hostile_inputs_test.sh WARPGRAPH SOURCE_DIR
set -u
W=$(realpath "$1")
SRC=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
ulimit -v 4000000
failures=0

# check NAME WANT_RC PATTERN ARGS... : runs warpgraph ARGS (stdin: $stdin_file, else /dev/null)
# and checks the outcome.
check() {
  local name=$1 want=$2 pattern=$3
  shift 3
  timeout 60 "$W" "$@" <"${stdin_file:-/dev/null}" >out.txt 2>err.txt
  local rc=$? ok=1 why=""
  local lines
  lines=$(wc -l <err.txt)
  [ "$rc" = "$want" ] || { ok=0; why="exit $rc, want $want"; }
  if [ "$want" != 0 ]; then
    [ "$lines" = 1 ] || { ok=0; why="$why; $lines stderr lines"; }
    head -c 11 err.txt | grep -q '^warpgraph: ' || { ok=0; why="$why; no 'warpgraph: ' prefix"; }
    if [ -n "$pattern" ] && ! grep -qE -- "$pattern" err.txt; then
      ok=0
      why="$why; message does not match /$pattern/"
    fi
    if LC_ALL=C tr -d '\n' <err.txt | LC_ALL=C grep -qa '[[:cntrl:]]'; then
      ok=0
      why="$why; raw control bytes in the message"
    fi
  fi
  printf '%-34s exit %-3s %s\n' "$name" "$rc" "$(head -c 200 err.txt | tr -d '\n')"
  if [ "$ok" != 1 ]; then
    echo "  FAILED: $why"
    failures=$((failures + 1))
  fi
}

# ---- the inputs -------------------------------------------------------------------------------
mm='%%MatrixMarket matrix coordinate pattern general'
printf '%s\n3000000000 3000000000 1\n1 2\n' "$mm" >mm_3e9.mtx
printf '%s\n2147483649 2147483649 1\n1 2\n' "$mm" >mm_past_limit.mtx
printf '%s\n2147483648 2147483648 1\n1 2147483648\n' "$mm" >mm_at_limit.mtx
printf '%s\n2000000000 2000000000 1\n1 2\n' "$mm" >mm_sparse.mtx
printf '%s\n3 3 1\n1 2\n2 3\n' "$mm" >mm_too_many.mtx
printf '%s\n3 3 1\n4 1\n' "$mm" >mm_id_range.mtx
printf '%s\n3 3 1000000000000000\n1 2\n' "$mm" >mm_many_entries.mtx
printf '%%%%MatrixMarket matrix coordinate \001\377bad general\n3 3 1\n1 2\n' >mm_bad_field.mtx
printf '0 1\n1 100000000\n' >snap_1e8.txt
printf '0 1\n1 2147483647\n' >snap_limit_minus_1.txt
printf '0 1\n1 2147483648\n' >snap_at_limit.txt
printf '0 1\n1 4294967296\n' >snap_2p32.txt
printf '0 1\n1 99999999999999999999999\n' >snap_overflow.txt
printf '0 1\n1 \0002\n' >snap_nul.txt
printf '\000\000\000\000' >only_nul.bin
head -c 4096 "$W" >binary.bin
printf '0 1\r\n1 2 \033[31mred\n' >snap_escape.txt
printf '' >empty.txt
printf '# only a comment\n\n' >comments.txt
head -c 10000000 /dev/zero | tr '\0' '7' >long_number.txt
head -c 200 "$SRC/datasets/data/facebook_combined.txt.gz" >truncated.txt.gz
# A gzip bomb: 2.4 GB of zeros in about 2 MB.
head -c 2400000000 /dev/zero | gzip -1 >bomb.txt.gz
mkdir -p a_directory
printf '+ 0 1\n+ 1 2147483648\n' >updates_limit.txt
printf '+ 0 1\n+ 1 2000000000\n' >updates_sparse.txt
printf '+ 0 1\n* 1 2\n' >updates_bad_op.txt
printf '0 1 5\n1 2 x\n' >temporal_bad.txt
printf '0 1\n1 2\n2 0\n' >triangle.txt
# Issue 44: lone-CR line ends, integer weights a double rounds, a CSV with a header, update
# files with a BOM, weights and vertex operations, NUL-only update files.
printf '0 1\r1 2\r2 0\r' >snap_cr.txt
printf '%s\r3 3 1\r1 2\r' "$mm" >mm_cr.mtx
printf '0 1 1\n1 2 9007199254740993\n' >weight_2p53.txt
printf 'FromNodeId,ToNodeId\n0,1\n1,2\n2,0\n' >ca_style.csv
printf '\357\273\277# BOM\n+ 0 1\n+ 1 2\n' >updates_bom.txt
printf '+ 0 1 2.5\n+ 1 2 1\n=\n+v 7\n-v 1\n- 0 1\n' >updates_weighted.txt
printf '+ 0 1\r+ 1 2\r+ 2 0\r' >updates_cr.txt
printf '+ 0 1\n- 0 1 5\n' >updates_erase_weight.txt

check "MM size 3e9 x 3e9" 1 'mm_3e9.mtx:2: .*id limit' tc mm_3e9.mtx --backend cpu
check "MM size 2^31+1" 1 'mm_past_limit.mtx:2: .*id limit' tc mm_past_limit.mtx
check "MM size 2^31, id 2^31" 1 'mm_at_limit.mtx:2: .*--compact-ids' tc mm_at_limit.mtx
check "MM size 2e9, 1 entry" 1 'mm_sparse.mtx:2: .*--compact-ids' tc mm_sparse.mtx --backend cpu
check "MM size 2e9, info" 1 'mm_sparse.mtx:2: .*--compact-ids' info mm_sparse.mtx
check "MM size 2e9, stream reference" 1 'mm_sparse.mtx:2: ' stream mm_sparse.mtx --backend reference
check "MM more entries than declared" 1 'mm_too_many.mtx:4: ' tc mm_too_many.mtx
check "MM id past the size line" 1 'mm_id_range.mtx:3: ' tc mm_id_range.mtx
check "MM declares 10^15 entries" 1 'mm_many_entries.mtx:3: found 1 entry ' tc mm_many_entries.mtx
check "MM header with control bytes" 1 'mm_bad_field.mtx:1: .*\\x01\\xFFbad' tc mm_bad_field.mtx
check "SNAP id 1e8, 2 edges" 1 'snap_1e8.txt:2: .*--compact-ids' tc snap_1e8.txt --backend cpu
check "SNAP id 1e8, cc" 1 'snap_1e8.txt:2: .*--compact-ids' cc snap_1e8.txt
check "SNAP id 2^31-1" 1 'snap_limit_minus_1.txt:2: .*--compact-ids' tc snap_limit_minus_1.txt
check "SNAP id 2^31" 1 'snap_at_limit.txt:2: .*id limit' tc snap_at_limit.txt
check "SNAP id 2^32" 1 'snap_2p32.txt:2: .*id limit' tc snap_2p32.txt
check "SNAP id past 2^64" 1 'snap_overflow.txt:2: .*out of range' tc snap_overflow.txt
check "SNAP NUL byte in an id" 1 'snap_nul.txt:2: .*\\x002' tc snap_nul.txt
check "only NUL bytes" 1 'only_nul.bin:1: .*\\x00' tc only_nul.bin
check "binary (ELF) file" 1 'binary.bin:1: .*\\x7FELF' tc binary.bin
check "binary file, info" 1 'binary.bin:1: ' info binary.bin
check "escape sequence in a field" 1 'snap_escape.txt:2: .*\\x1B' tc snap_escape.txt
check "empty file" 1 'empty.txt' tc empty.txt
check "comments only" 1 'comments.txt:2: ' tc comments.txt
check "10 MB number, no newline" 1 'long_number.txt:1: .*out of range' tc long_number.txt
check "truncated gzip" 1 'truncated.txt.gz: .*truncated' tc truncated.txt.gz
check "gzip bomb (2.4 GB of zeros)" 1 'bomb.txt.gz: ' tc bomb.txt.gz
check "a directory" 1 'a_directory' tc a_directory
check "a missing file" 1 'no_such_file.txt: ' tc no_such_file.txt
check "updates: id 2^31" 1 'updates_limit.txt:2: .*id limit' stream --updates updates_limit.txt
check "updates: id 2e9, 2 entries" 1 'updates_sparse.txt: ' stream --updates updates_sparse.txt
check "updates: unknown operation" 1 'updates_bad_op.txt:2: ' stream --updates updates_bad_op.txt
check "updates: binary file" 1 'binary.bin:1: ' stream --updates binary.bin
check "lone CR line ends (SNAP)" 1 'snap_cr.txt:1: .*carriage return' tc snap_cr.txt
check "lone CR line ends (MM)" 1 'mm_cr.mtx:1: .*carriage return' tc mm_cr.mtx
check "integer weight beyond 2^53" 1 'weight_2p53.txt:2: .*cannot hold exactly' tc weight_2p53.txt
check "/dev/zero" 1 '/dev/zero:1: NUL byte' tc /dev/zero
check "/dev/zero, info" 1 '/dev/zero:1: NUL byte' info /dev/zero
check "updates: /dev/zero" 1 '/dev/zero:1: NUL byte' stream --updates /dev/zero
check "updates: lone CR line ends" 1 'updates_cr.txt:1: .*carriage return' stream --updates \
  updates_cr.txt
check "updates: weight on a deletion" 1 'updates_erase_weight.txt:2: .*deletion takes no weight' \
  stream --updates updates_erase_weight.txt
check "CSV with a header (ca-GrQc style)" 0 '' tc ca_style.csv
check "updates: UTF-8 BOM" 0 '' stream --updates updates_bom.txt
check "updates: weights and vertex operations" 0 '' stream --updates updates_weighted.txt
check "a pipe (process substitution)" 0 '' tc <(printf '0 1\n1 2\n2 0\n')
check "temporal: bad timestamp" 1 'temporal_bad.txt:2: ' stream --temporal temporal_bad.txt \
  --window 1

# ---- options ----------------------------------------------------------------------------------
check "--batch-size 10^12" 2 '--batch-size' stream triangle.txt --batch-size 1000000000000
check "--batch-size 0" 2 '--batch-size' stream triangle.txt --batch-size 0
check "--batch-size -5" 2 '--batch-size' stream triangle.txt --batch-size -5
check "--batch-size 2^64" 2 '--batch-size' stream triangle.txt --batch-size 18446744073709551616
check "--duplicate-fraction 1" 2 '--duplicate-fraction' stream triangle.txt --duplicate-fraction 1
check "--absent-fraction nan" 2 '--absent-fraction' stream triangle.txt --absent-fraction nan
check "--initial-fraction 2" 2 '--initial-fraction' stream triangle.txt --initial-fraction 2
check "--window 0" 2 '--window' stream --temporal temporal_bad.txt --window 0
check "--max-iterations 10^12" 2 '--max-iterations' pagerank triangle.txt \
  --max-iterations 1000000000000
check "--damping 1.5" 2 '--damping' pagerank triangle.txt --damping 1.5
check "--source 10^12" 1 '--source' bfs triangle.txt --source 1000000000000
check "--format with control bytes" 2 '\\x01' tc triangle.txt --format $'\001x'
check "unknown option" 2 'no-such-option' tc triangle.txt --no-such-option
check "unknown command, control bytes" 2 '\\x1B' $'\033[2Jboom' triangle.txt
check "two files" 2 'unexpected argument' tc triangle.txt triangle.txt
check "--backend nonsense" 2 'unknown backend' tc triangle.txt --backend nonsense
if ! "$W" --help | grep -q 'usable here: [^;]*gpu'; then
  for cmd in info tc bfs cc pagerank sssp stream; do
    check "--backend gpu ($cmd, no GPU)" 2 '^warpgraph: --backend gpu: ' $cmd triangle.txt \
      --backend gpu
  done
fi
check "--compact-ids makes id 2^31-1 work" 0 '' tc snap_limit_minus_1.txt --compact-ids
check "--compact-ids on Matrix Market" 0 '' tc mm_sparse.mtx --compact-ids

# ---- outputs never overwrite an input; FILE '-' reads stdin (issue 44) ------------------------
printf '0 1\n1 2\n' >keep.txt
cp keep.txt keep.orig
check "-o names the input" 2 'keep.txt: refusing to overwrite' cc keep.txt -o ./keep.txt
check "--batch-csv names the input" 2 'refusing to overwrite' stream keep.txt --batch-csv keep.txt
check "-o - with --json" 2 '^warpgraph: --output -: ' cc keep.txt -o - --json
cmp -s keep.txt keep.orig || { echo "  FAILED: keep.txt was overwritten"; failures=$((failures + 1)); }
printf '\001\377\000garbage\n' >garbage.bin
stdin_file=garbage.bin check "binary garbage on stdin" 1 '^warpgraph: -:1: ' tc -
stdin_file=/dev/null check "empty stdin" 1 '^warpgraph: -: ' info -
printf '0 1 1\n1 2 -3\n' >negative.txt
check "negative weight for sssp" 1 'negative.txt:2: negative weight -3 \(shortest paths need' sssp \
  negative.txt --backend reference
printf '+ 0 1\n-v 1\n+v 1\n-v 7 8\n' >vertex_ops_bad.txt
check "two ids after -v" 1 'vertex_ops_bad.txt:4: ' stream --updates vertex_ops_bad.txt
printf 'source,target,weight\n0,1,2,extra\n' >extra_column.csv
check "an extra CSV column" 1 'extra_column.csv:2: ' tc extra_column.csv
if "$W" --help | grep -q 'usable here: [^;]*cpu'; then
  printf '0 1 1\n1 2 1e308\n' >weight_1e308.txt
  check "weight 1e308 on cpu" 2 'weight_1e308.txt:2: weight 1e\+308 cannot be held exactly as a float' sssp \
    weight_1e308.txt --backend cpu
fi

# ---- a file truncated while it is read (issue 44): a snapshot or an input error, never a signal
seq 0 400000 | awk '{print $1, $1 + 1}' >big.txt
for delay in 0 0.01 0.03 0.06 0.1; do
  cp big.txt shrinks.txt
  (sleep "$delay"; : >shrinks.txt) &
  timeout 60 "$W" tc shrinks.txt >out.txt 2>err.txt
  rc=$?
  wait
  printf '%-34s exit %-3s %s\n' "truncated after ${delay}s" "$rc" "$(head -c 200 err.txt | tr -d '\n')"
  if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
    echo "  FAILED: exit $rc (a signal or a crash)"
    failures=$((failures + 1))
  fi
done

# ---- the readers' fuzz seed corpus ------------------------------------------------------------
for f in "$SRC"/datasets/fuzz/corpus/matrix_market/* "$SRC"/datasets/fuzz/corpus/snap/*; do
  for cmd in tc info; do
    timeout 60 "$W" $cmd "$f" >out.txt 2>err.txt
    rc=$?
    want=0
    [ "$rc" = 1 ] && want=1  # a seed may be invalid on purpose: then it fails like the above
    check "corpus $(basename "$f") ($cmd)" $want "$(basename "$f")" $cmd "$f"
  done
done
for f in "$SRC"/datasets/fuzz/corpus/updates/update*; do
  timeout 60 "$W" stream --updates "$f" >out.txt 2>err.txt
  rc=$?
  want=0
  [ "$rc" = 1 ] && want=1
  check "corpus $(basename "$f") (stream)" $want "$(basename "$f")" stream --updates "$f"
done

if [ "$failures" != 0 ]; then
  echo "$failures case(s) failed"
  exit 1
fi
echo "all hostile inputs handled"
