#!/usr/bin/env bash
# Session 74's join of a two-tile segment in its warp again, its copies'
# rows now on 128-byte boundaries. Its warp_storage grew by the kept tail
# (16 bytes for the float sum), so the array of four warps' storage no
# longer had a stride of a multiple of 128 bytes: warps 1-3's rows of 32
# vectors sat 16, 32 and 48 bytes past a row of banks, and Nsight Compute
# (lane_run_warp_join_stalls.sh) counted 1.15 million excessive L2 sectors
# and 0.81 million excessive shared wavefronts on the tile's LDGSTS copies
# against main's 0.10 and 0.02 million. The change: alignas(128) on the
# copies' vectors, so every warp's rows start on a boundary whatever the
# struct's other members. Build as lane_run_warp_join_stalls.sh says, with
# that one line added to session 74's patch
# (lane_run_warp_join_probe_c69d4ca.patch), and test_shapes_gpu in the pack:
#   ninja -C build-rel bench_compare test_shapes_gpu
#   tar -C build-rel -cf - bench/bench_compare tests/test_shapes_gpu |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/join_aligned_pack.tar.xz
# Predictions: the excessive sectors and wavefronts back to main's; the
# join 0.2-0.5 us faster than main where most crossing segments end in the
# next tile (uniform:8, uniform:100, powerlaw:8, powerlaw:100), level at
# uniform:10000; every test right.
source bench/results/experiments/probe_setup.sh deps/join_aligned_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
metrics=gpu__time_duration.sum,lts__t_sectors_srcunit_tex.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum
for method in lane_run_segments lane_run_main_segments; do
    echo "=== uniform:100 $method (lane_run_segments has the join), after $(since) s"
    timeout 90 ncu --clock-control none --cache-control none -k "regex:lane_run_(main_)?segments_kernel" \
        --launch-skip 2 -c 1 --metrics "$metrics" "$B" --segments uniform:100 -m $method -S 3 -w 1 2>&1 |
        grep -E "gpu__|lts__|l1tex__|smsp__" | sed 's/^ */  /'
done
time_whole_array $B
time_two_methods $B lane_run_segments lane_run_main_segments 2 uniform:100 powerlaw:100 \
    powerlaw:1000 uniform:8 powerlaw:8 file:/tmp/zipf.txt uniform:1000 uniform:10000 uniform:1
check_all_segment_methods $T lane_run_segments
echo "--- every type and operator, after $(since) s"
check_every_type $B lane_run_segments uniform:8 powerlaw:1000 file:/tmp/zipf.txt
time_whole_array $B
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_warp_join_aligned_probe.log
