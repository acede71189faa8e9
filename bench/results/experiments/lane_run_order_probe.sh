#!/usr/bin/env bash
# Which warps take step 37's tile more (h200_lane_run_weighted_modes_18aca15.log:
# spreading them over the grid cost 0.7-1.5 us). Step 37 copied as
# lane_run_order_segments (lane_run_order_probe_022987c.patch), shares by
# PROBE_ORDER: 0 step 37's even_share (the first warps a tile more); 1 the
# tile more to the last warps; 2 warp w's share in proportion to
# 1 + PROBE_RAMP (1 - 2 w / W), rounded down at each boundary.
# Predicted, if the warps that start first should hold more: order 1
# 0.7-1.5 us slower than step 37, ramp 0.1 level or up to 0.5 faster,
# ramp -0.1 slower; if not, all within 0.3.
source bench/results/experiments/probe_setup.sh deps/order_pack.tar.xz
{
B=/tmp/p/bench/bench_compare T=/tmp/p/tests/test_shapes_gpu
python3 bench/zipf_lengths.py >/tmp/zipf.txt
P=lane_run_order_segments
for setting in "1 0" "2 0.3"; do
    set -- $setting
    PROBE_ORDER=$1 PROBE_RAMP=$2 timeout 200 $T --shape segments --method $P >/tmp/t.log 2>&1
    echo "order $1 ramp $2: test_shapes_gpu rc=$? $(grep "^ok .*$P" /tmp/t.log)"
done
time_whole_array $B
specs="uniform:8 file:/tmp/zipf.txt uniform:100 uniform:10000"
for setting in "1 0" "2 0.1" "2 -0.1" "2 0.2" "1 0" "2 0.1"; do
    set -- $setting
    echo "--- order $1 ramp $2, after $(since) s"
    PROBE_ORDER=$1 PROBE_RAMP=$2 time_two_methods $B lane_run_segments $P 1 $specs | sed "s|^|o$1 r$2 |"
done
echo "--- after $(since) s"
} 2>&1 | tee ${OUT:-/tmp}/lane_run_order_probe.log
