# Sourced by the probe scripts beside it, on the device machine, with the
# pack of probe programs they were carried with:
#   source bench/results/experiments/probe_setup.sh deps/PACK.tar.xz
# The toolkit's libraries for programs built elsewhere, since() for the
# seconds since the start, the GPU's line, and the pack unpacked in /tmp/p
# (one folder a build).
set -uo pipefail
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64:/usr/local/cuda-13.0/lib
start=$(date +%s)
since() { echo "$(( $(date +%s) - start ))"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/p && xz -dc "$1" | tar -x -C /tmp/p || exit 1

# Every type and operator of METHODS on each segment SPEC, three samples a
# pair: a line a SPEC with its rows and those that did not PASS.
check_every_type() { # BENCH METHODS SPEC...
    local bench=$1 methods=$2 spec
    shift 2
    for spec in "$@"; do
        timeout 120 "$bench" --segments "$spec" --type all --op all -S 3 -w 1 -m "$methods" >/tmp/b.log 2>&1
        echo "$spec rc=$? $(awk '$2 ~ /^(sum|max|min|argmax|argmin)$/ {n++; if ($0 !~ /PASS/) {bad++; print "NOT PASS: " $0}}
                        END {print n " rows, " bad + 0 " not PASS"}' /tmp/b.log)"
    done
}

# Float sums of two methods on each segment SPEC, median of 100, in ROUNDS
# rounds (the even ones with the methods the other way round); each line
# starts with its SPEC and round.
time_two_methods() { # BENCH FIRST SECOND ROUNDS SPEC...
    local bench=$1 first=$2 second=$3 rounds=$4 round spec methods
    shift 4
    for round in $(seq "$rounds"); do
        methods=$first,$second
        [ $((round % 2)) = 0 ] && methods=$second,$first
        for spec in "$@"; do
            timeout 120 "$bench" --segments "$spec" -S 100 -m "$methods" 2>&1 |
                grep -E "^($first|$second) " | sed "s|^|$spec [$round] |"
        done
    done
}

# memcheck, racecheck and synccheck over METHOD's quick segment cases
# (tests/run_sanitizer.sh: exit 1 on any error reported).
sanitize_segments() { # TESTS METHOD
    local tool
    echo "--- sanitizers, after $(since) s"
    for tool in memcheck racecheck synccheck; do
        timeout 150 bash tests/run_sanitizer.sh $tool "$1" --quick --seed 1 --shape segments \
            --method "$2" 2>&1 | tail -2
        echo "== $tool --quick --shape segments --method $2: rc=${PIPESTATUS[0]} after $(since) s"
    done
}

# test_shapes_gpu's segment cases of METHOD, then the sanitizers over it.
check_segment_tests() { # TESTS METHOD
    timeout 240 "$1" --shape segments --method "$2" >/tmp/t.log 2>&1
    echo "test_shapes_gpu rc=$?"; grep -v "^ok " /tmp/t.log | head -20; grep -c "^ok " /tmp/t.log
    sanitize_segments "$1" "$2"
}

# test_shapes_gpu's segment cases of every method, then the sanitizers
# over METHOD.
check_all_segment_methods() { # TESTS METHOD
    echo "--- test_shapes_gpu --shape segments, after $(since) s"
    timeout 150 "$1" --shape segments 2>&1 | tail -24
    echo "test_shapes_gpu rc=${PIPESTATUS[0]}"
    sanitize_segments "$1" "$2"
}

# The whole-array float sum of 64 MiB (one_pass_ilp, median of 100).
time_whole_array() { # BENCH
    echo "--- whole array, after $(since) s"
    timeout 60 "$1" -S 100 -m one_pass_ilp 2>&1 | grep -E "^one_pass_ilp"
}
