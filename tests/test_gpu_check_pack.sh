#!/usr/bin/env bash
# bench/gpu_check.sh's pack step, which needs no GPU. A made-up $OUT (two
# files, one with a space in its name, a folder of another) is left holding
# the log and one archive whose files read back byte for byte; a second
# pack refuses to overwrite that archive; an $OUT that holds only the log
# packs nothing and says so.
#   test_gpu_check_pack.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1 work=$2/gpu_check_pack
fail() { echo "FAIL: $*"; exit 1; }
pack() { OUT=$1 bash "$src/bench/gpu_check.sh" pack >"$work/said.txt" 2>&1; }

rm -rf "$work" && mkdir -p "$work/out/sweep" "$work/empty" || fail "cannot make $work"
echo "== an earlier step" >"$work/out/gpu_check.log"
printf 'name,median_us\none_pass_ilp,20.26\n' >"$work/out/run.csv"
printf 'a table\n' >"$work/out/with space.md"
seq 1 5000 >"$work/out/sweep/segment_sweep_uniform_8.csv"
mkdir "$work/want" && cp -r "$work/out/run.csv" "$work/out/with space.md" "$work/out/sweep" "$work/want/" ||
    fail "cannot copy the made-up files"

pack "$work/out" || fail "pack exited $?: $(cat "$work/said.txt")"
left=$(ls -A "$work/out" | sort | tr '\n' ' ')
[ "$left" = "gpu_check.log results.tar.xz " ] || fail "pack left '$left', not the log and the archive"
grep -q '^== an earlier step' "$work/out/gpu_check.log" || fail "pack lost the log's earlier lines"
mkdir "$work/back" && tar -xJf "$work/out/results.tar.xz" -C "$work/back" || fail "the archive does not unpack"
diff -r "$work/want" "$work/back" || fail "the archive's files differ from those the steps wrote"

pack "$work/out" && fail "a second pack exited 0 over the archive of the first"
grep -q 'exists already' "$work/said.txt" || fail "a second pack did not say why: $(cat "$work/said.txt")"
tar -tJf "$work/out/results.tar.xz" | grep -q 'segment_sweep_uniform_8.csv' ||
    fail "a second pack changed the first one's archive"

echo "== an earlier step" >"$work/empty/gpu_check.log"
pack "$work/empty" || fail "pack of a log alone exited $?: $(cat "$work/said.txt")"
[ "$(ls -A "$work/empty")" = gpu_check.log ] || fail "pack of a log alone wrote $(ls -A "$work/empty")"
grep -q 'nothing in' "$work/empty/gpu_check.log" || fail "pack of a log alone did not say so"
echo "ok: pack leaves the log and one archive, refuses to overwrite it, and packs nothing from a log alone"
