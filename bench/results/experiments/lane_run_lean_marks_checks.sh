#!/usr/bin/env bash
# Step 37 as kept at df26ea3 (the marking's OR in every lane, the results'
# batches in two loops): the segment sweep, every segment case of every
# segment method, the sanitizers over step 37's quick set, every type and
# operator at four distributions, and step 37 past 2^31 elements.
# Build on the CPU machine (Release, sm_90) at df26ea3:
#   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build-rel bench_compare test_shapes_gpu
#   tar -C build-rel --transform 's,^,main/,' -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz --lzma2=preset=6,dict=256MiB > deps/checks_pack.tar.xz
# Run: bash bench/results/experiments/lane_run_lean_marks_checks.sh FULL_COMMIT (carry deps/).
# Predictions: the sweep's shares at the means of 8 2-3 points above
# bd312e9's (uniform:8 about 87%, powerlaw:8 about 85%, the Zipf group-by
# about 76%), the rest within a point; every test right, every sanitizer
# clean, past 2^31 3 of 3.
source bench/results/experiments/probe_setup.sh deps/checks_pack.tar.xz
B=/tmp/p/main/bench/bench_compare T=/tmp/p/main/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
log=$OUT/h200_lane_run_lean_marks_checks_${1:0:7}.log
{
    GPU_CHECK_BUILD=/tmp/p/main SUITE_COMMIT=$1 OUT=/tmp/sweep timeout 170 bash bench/gpu_check.sh segment_sweep >/dev/null 2>&1
    echo "== segment sweep: rc=$? after $(since) s"
    cat /tmp/sweep/segment_sweep.md
    rm -f /tmp/sweep/zipf_lengths.txt
    tar -C /tmp -cJf $OUT/h200_segment_sweep_${1:0:7}.tar.xz sweep
    timeout 150 $T --shape segments 2>&1 | tail -20
    echo "== test_shapes_gpu --shape segments: rc=${PIPESTATUS[0]} after $(since) s"
    for tool in memcheck racecheck synccheck; do
        timeout 100 bash tests/run_sanitizer.sh $tool $T --quick --seed 1 --shape segments --method lane_run_segments 2>&1 | tail -2
        echo "== $tool --quick --shape segments --method lane_run_segments: rc=${PIPESTATUS[0]} after $(since) s"
    done
    check_every_type $B lane_run_segments uniform:1 uniform:8 powerlaw:1000 file:/tmp/zipf.txt
    echo "== types after $(since) s"
    timeout $((540 - $(since))) $T --large --shape segments --method lane_run_segments 2>&1 | tail -2
    echo "== test_shapes_gpu --large --shape segments --method lane_run_segments: rc=${PIPESTATUS[0]} after $(since) s"
} >$log 2>&1
cut -c1-110 $log | grep -v '^| uniform:1 \|^$'
