### deps/session37a.sh
#!/usr/bin/env bash
# Session 37, call 1: split_columns with its parts forced (env PROBE_COLUMN_PARTS),
# down 4096..32768 columns of 64 MiB floats, beside cuBLAS gemv; two rounds.
# On an H200, first the three H200 sweeps with the same binary (env unset: HEAD's code).
set -uo pipefail
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
mkdir -p /tmp/p && xz -dc deps/probe37a/bench_compare.xz >/tmp/p/bc && chmod +x /tmp/p/bc
B=/tmp/p/bc
case "$name" in *H200*)
    mkdir -p build-cccl/bench && cp /tmp/p/bc build-cccl/bench/bench_compare
    for stage in segment_sweep argmax_rows columns; do
        mkdir -p "/tmp/o/$stage"
        OUT="/tmp/o/$stage" GPU_CHECK_BUILD=build-cccl timeout 150 bash bench/gpu_check.sh "$stage"
        tar -C /tmp/o -czf "$OUT/h200_$stage.tgz" "$stage"
    done ;;
esac
run() { # cols parts(or default) [up]
    local env=()
    [ "$2" != default ] && env+=(PROBE_COLUMN_PARTS=$2)
    [ "${3:-}" = up ] && env+=(PROBE_COLUMN_PARTS_UP=1)
    echo "== cols=$1 parts=$2 ${3:-}"
    env "${env[@]}" $B --cols $1 --axis 0 -m split_columns,cublas_columns 2>&1 | grep -E '^(split_columns|cublas_columns) '
}
for round in 1 2; do
    run 4096 default; run 4096 4; run 4096 2
    run 8192 default; run 8192 2; run 8192 1
    run 16384 default; run 16384 1
    run 32768 default; run 32768 2 up; run 32768 4 up
done
### deps/session37b.sh
#!/usr/bin/env bash
# Session 37, call 2: split_columns cut into strips (new) against one row a
# load (PROBE_STRIP_ROWS=1: HEAD's cut), same binary, rounds in both orders;
# then every type and operator on shapes the strips take, checked.
set -uo pipefail
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
mkdir -p /tmp/p && xz -dc deps/probe37b/bench_compare.xz >/tmp/p/bc && chmod +x /tmp/p/bc
B=/tmp/p/bc
one() { # label env cols
    echo "== cols=$3 $1"
    env $2 $B --cols $3 --axis 0 -m split_columns,cublas_columns 2>&1 | grep -E '^(split_columns|cublas_columns) '
}
for round in 1 2; do
    for c in 256 1024 2048 4096 8192 16384; do
        if [ $round = 1 ]; then one old PROBE_STRIP_ROWS=1 $c; one new X=1 $c
        else one new X=1 $c; one old PROBE_STRIP_ROWS=1 $c; fi
    done
done
echo "== checks (new cut): every type and operator"
for shape in "--cols 4096" "--cols 16384" "--cols 256" "--cols 2048" "--rows 4099 --cols 4096" "--rows 65 --cols 8192" "--rows 1001 --cols 1024"; do
    out=$($B $shape --axis 0 --type all --op all -m split_columns -S 3 -w 1 2>&1)
    echo "$shape: PASS $(echo "$out" | grep split_columns | grep -c PASS) FAIL $(echo "$out" | grep -c -e FAIL -e ' - ')"
    echo "$out" | grep -e FAIL -e error | head -5
    [ "$shape" = "--cols 4096" ] && echo "$out" | tail -25
done
### deps/session37c.sh
#!/usr/bin/env bash
# Session 37, call 3: split_columns' strips capped at 1 (HEAD's cut), 2 and 4
# rows (PROBE_STRIP_ROWS), same binary as call 2, rounds in both orders.
set -uo pipefail
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
mkdir -p /tmp/p && xz -dc deps/probe37b/bench_compare.xz >/tmp/p/bc && chmod +x /tmp/p/bc
B=/tmp/p/bc
one() { # rows cols
    echo "== cols=$2 strip_rows<=$1"
    PROBE_STRIP_ROWS=$1 $B --cols $2 --axis 0 -m split_columns,cublas_columns 2>&1 | grep -E '^(split_columns|cublas_columns) '
}
for round in 1 2; do
    for c in 256 1024 2048 4096 8192; do
        if [ $round = 1 ]; then one 1 $c; one 2 $c; one 4 $c
        else one 4 $c; one 2 $c; one 1 $c; fi
    done
done
### deps/session37d.sh
#!/usr/bin/env bash
# Session 37, call 4: split_columns' strips (at most 4 rows) with the wide
# kernel or the deep one (eight loads a lane: PROBE_STRIP_DEEP), and parts
# forced to 1 (PROBE_STRIP_PARTS1), against HEAD's cut (PROBE_STRIP_ROWS=1).
set -uo pipefail
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
mkdir -p /tmp/p && xz -dc deps/probe37d/bench_compare.xz >/tmp/p/bc && chmod +x /tmp/p/bc
B=/tmp/p/bc
one() { # label cols env...
    local label=$1 cols=$2; shift 2
    echo "== cols=$cols $label"
    env "$@" $B --cols $cols --axis 0 -m split_columns,cublas_columns 2>&1 | grep -E '^(split_columns|cublas_columns) '
}
configs() { # cols
    one old $1 PROBE_STRIP_ROWS=1; one strips $1 X=1; one deep $1 PROBE_STRIP_DEEP=1
    if [ $1 = 4096 ]; then one parts1 $1 PROBE_STRIP_PARTS1=1; one deep_parts1 $1 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1; fi
}
configs_reversed() {
    if [ $1 = 4096 ]; then one deep_parts1 $1 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1; one parts1 $1 PROBE_STRIP_PARTS1=1; fi
    one deep $1 PROBE_STRIP_DEEP=1; one strips $1 X=1; one old $1 PROBE_STRIP_ROWS=1
}
for c in 4096 8192 16384; do configs $c; done
for c in 4096 8192 16384; do configs_reversed $c; done
### deps/session37e.sh
#!/usr/bin/env bash
# Session 37, call 5: which cut with no parts where two keep the same loads
# in flight: 8192 floats in strips of 4 rows (256 tiles, four loads a lane)
# or of 2 rows (128 tiles, eight: the deep kernel); 16384 in strips of 2 or
# rows of one (128 tiles, deep); 4096 in strips of 4, deep, for reference.
set -uo pipefail
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
mkdir -p /tmp/p && xz -dc deps/probe37e/bench_compare.xz >/tmp/p/bc && chmod +x /tmp/p/bc
B=/tmp/p/bc
one() { # label cols env...
    local label=$1 cols=$2; shift 2
    echo "== cols=$cols $label"
    env "$@" $B --cols $cols --axis 0 -m split_columns,cublas_columns 2>&1 | grep -E '^(split_columns|cublas_columns) '
}
for round in 1 2; do
  if [ $round = 1 ]; then
    one r4_wide 8192 X=1; one r2_deep 8192 PROBE_STRIP_ROWS=2 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1
    one r2_wide 16384 X=1; one r1_deep 16384 PROBE_STRIP_ROWS=1 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1
    one r4_deep 4096 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1; one old 4096 PROBE_STRIP_ROWS=1
  else
    one r2_deep 8192 PROBE_STRIP_ROWS=2 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1; one r4_wide 8192 X=1
    one r1_deep 16384 PROBE_STRIP_ROWS=1 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1; one r2_wide 16384 X=1
    one old 4096 PROBE_STRIP_ROWS=1; one r4_deep 4096 PROBE_STRIP_DEEP=1 PROBE_STRIP_PARTS1=1
  fi
done
