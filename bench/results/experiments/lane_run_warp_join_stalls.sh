#!/usr/bin/env bash
# Why step 37 with a two-tile segment joined in its warp (session 74's
# lane_run_warp_join_probe_c69d4ca.patch) ran 1.4-1.9 us slower at every
# distribution: the two builds' kernels side by side under Nsight Compute.
# First each kernel's duration, launch limits, instructions and shared-memory
# bank conflicts (the tiles' kernels of both builds and the last kernel they
# share), then where the tiles' kernels' warps wait, instruction by
# instruction (ncu_source_stalls.sh).
# Build on the CPU machine (Release, sm_90) at c69d4ca with the patch
# applied and c69d4ca's step 37 copied as kernels/rows/37_probe_main.cu
# (every lane_run_segments in it renamed lane_run_main_segments, its METHOD
# line after lane_run_segments):
#   ninja -C build-rel bench_compare
#   tar -C build-rel -cf - bench/bench_compare |
#       xz -T2 --lzma2=preset=6,dict=256MiB > deps/join_pack.tar.xz
# Predictions: if the join's tiles' kernel lost occupancy (registers or
# shared memory), its launch limits say so and it is slower by about what
# session 74's 20 warps an SM cost; if not, the same occupancy and the
# extra time in a few instructions of the tile's loop (waits on shared
# memory or on a barrier the join adds), or in the last kernel.
source bench/results/experiments/probe_setup.sh deps/join_pack.tar.xz
{
B=/tmp/p/bench/bench_compare
S=bench/results/experiments/ncu_source_stalls.sh
metrics=gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers
metrics+=,launch__occupancy_limit_shared_mem,launch__shared_mem_per_block_static
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
for spec in uniform:100 uniform:10000 uniform:8; do
    for method in lane_run_segments lane_run_main_segments; do
        echo "=== $spec $method (lane_run_segments has the join), after $(since) s"
        timeout 90 ncu --clock-control none --cache-control none \
            -k "regex:lane_run_(main_)?segments_kernel|combine_tile_parts_kernel" --launch-skip 4 -c 2 \
            --metrics "$metrics" "$B" --segments $spec -m $method -S 3 -w 1 2>&1 |
            grep -E "_kernel|gpu__|launch__|sm__|smsp__|l1tex__|dram__" | sed 's/^ */  /'
    done
done
echo "=== where the warps wait, uniform:100, after $(since) s"
bash $S /tmp/p "lane_run_segments_kernel" --segments uniform:100 -m lane_run_segments -S 3 -w 1
bash $S /tmp/p "lane_run_main_segments_kernel" --segments uniform:100 -m lane_run_main_segments -S 3 -w 1
cat "$OUT/source_stalls.log"
echo "=== the bench's medians, after $(since) s"
time_two_methods $B lane_run_segments lane_run_main_segments 2 uniform:100 uniform:10000
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_warp_join_stalls.log
