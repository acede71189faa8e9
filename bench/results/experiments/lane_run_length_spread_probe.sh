#!/usr/bin/env bash
# Session 35, call 6: what the spread of lengths costs step 37 at a mean of
# 8. Files of lengths: every length 8; 16 and 0 in turn (half the
# segments empty, still no segment crossing a tile); 1 to 15 drawn evenly
# (no empty one); 0 to 16 drawn evenly (uniform:8's law). Then ncu's warp
# states of the tiles' kernel for the first and the last.
set -uo pipefail
mkdir -p /tmp/p
xz -dc deps/cccl34/bench_compare.xz >/tmp/p/b && chmod +x /tmp/p/b || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 - <<'PY'
import random
n = 1 << 24
def write(name, lengths):
    with open('/tmp/p/' + name, 'w') as f:
        f.write('\n'.join(map(str, lengths)) + '\n')
def drawn(lo, hi):
    r, out, total = random.Random(1), [], 0
    while total < n:
        x = min(r.randint(lo, hi), n - total)
        out.append(x)
        total += x
    return out
write('len8.txt', [8] * (n // 8))
write('len16_0.txt', [16, 0] * (n // 16))
write('u1_15.txt', drawn(1, 15))
write('u0_16.txt', drawn(0, 16))
PY
for round in 1 2; do
    for f in len8 len16_0 u1_15 u0_16; do
        printf -- "-- %s: " "$f"
        /tmp/p/b --segments file:/tmp/p/$f.txt -S 100 -m lane_run_segments 2>&1 |
            grep -E "^lane_run_segments |rror" | awk '{printf "%s %s %s %s", $1, $3, $4, $12}'
        echo
    done
done
for f in len8 u0_16; do
    echo "== ncu $f"
    timeout 100 ncu --clock-control none -k regex:lane_run_segments_kernel -c 1 \
        --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
        --metrics smsp__inst_executed.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum \
        /tmp/p/b --segments file:/tmp/p/$f.txt -S 1 -w 0 -m lane_run_segments 2>&1 |
        grep -E "Stall|stall|Warp Cycles|inst_executed|sectors_op|op_st|Duration|Throughput|Issued" | cut -c1-120
done
echo "-- done"
