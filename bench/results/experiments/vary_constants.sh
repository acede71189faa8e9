#!/usr/bin/env bash
# Rebuild with some top-level constants changed and time one method in each
# variant: the probes of bench/NOTES.md, session 13. Run on a GPU machine
# after bench/gpu_check.sh build; appends to $OUT/vary_constants.log and
# restores the files it changed.
#
#   vary_constants.sh segments|lane_runs|columns|column_edges|column_narrow|column_types|argmax_rows|argmax_narrow|argmax_groups|staged_columns VARIANT...
#     segments   merge_path_segments over uniform:1, 8, 100, 10000,
#                powerlaw:8, 100 and the Zipf group-by, beside the whole array
#     lane_runs  lane_run_segments (after its quick shape tests) over the
#                same and powerlaw:1000, beside the whole array
#     columns    split_columns and cuBLAS gemv at 1 to 65536 columns
#     column_edges  the same at the widths of four-byte loads (3 and 1024
#                columns one element off 16 bytes, 33, 100003) and of the
#                short matrices (65536 to 262144 columns: 256 to 64 rows)
#     column_narrow  the same at narrow widths whose stretch leaves lanes
#                idle (3, 5, 7, 48, 100 floats; 3 doubles) and at 1 and 32
#     column_types  split_columns and cuBLAS gemv down 32 and 4096 columns of
#                float, double, int64 and half sums and float and half argmax
#                (after the quick shape tests; session 17 ran argmax down 32 only)
#     argmax_rows  float argmax rows of 32 to 65536 columns: warp_per_row,
#                block_per_row, adaptive_rows and CUB's segmented ArgMax
#                (after the quick shape tests of the two steps and the quick
#                method tests of steps 15-17), beside the whole array's
#                argmax (one_pass_ilp, CUB) and sum
#     argmax_narrow  float argmax rows of 1 to 256 columns: adaptive_rows,
#                packed_rows, tiled_rows, group_per_row and warp_per_row
#                (after the quick shape tests of the steps that write many
#                results), beside the whole array's argmax; then adaptive_rows
#                on half rows of 32, double rows of 1 and segments uniform:8
#     argmax_groups  group_per_row's float argmax rows of 16 to 2048 columns,
#                half rows of 64 and double rows of 64-256 (after its quick
#                shape tests), beside the whole array's argmax
#     staged_columns  staged_columns (after its quick shape tests) down 1, 3,
#                32, 33, 128 and 256 float columns and the float argmax down
#                3, beside the whole array
#     VARIANT    FILE:NAME=VALUE[,FILE:NAME=VALUE...]: the line
#                "constexpr <type> NAME = ...;" of FILE gets VALUE;
#                patch:PATH applies a patch (git apply) first; "as-is" times
#                the files unchanged. Each variant starts from the files as
#                they were, so "as-is patch:P" is an A/B in one call.
#
# Session 13's probes, each variant one argument (S, C, P, L, R, N, G and W: the files below):
#   segments S:TILE_BYTES_PER_THREAD=288,S:MIN_BLOCKS_PER_SM=3 and 176/4, 424/2,
#            232/3, after "git apply bench/results/experiments/merge_path_dynamic_shared.patch" (the tile
#            in dynamic shared memory) -> h100_merge_path_tile_probe_0a47fb3.log
#   segments C:SEGMENT_BLOCK=256,S:MIN_BLOCKS_PER_SM=4,S:TILE_BYTES_PER_THREAD=176
#            and 128/8/176, 128/7/200, 128/6/232 -> h100_merge_path_block_probe_efb5b6f.log
#   columns  P:PART_LOADS=8 and 16, 32 -> h100_split_columns_tail_probe_9e63737.log
#   columns  P:LOADS=4 and 8, 16 -> h100_split_columns_loads_probe_7cb59a6.log
#   argmax_rows as-is patch:bench/results/experiments/argmax_row_local_index.patch
#            -> h100_argmax_row_local_index_b93ae0b.log; then the same with
#            argmax_row_int_index.patch (the branch-free scan for the int
#            index alone)
# Session 14's step-36 probes, each "as-is patch:P": merge_path_next_tile_copies
#   -> h100_merge_path_next_tile_copies_f9dbfcb.log; merge_path_prefetch_first_tiles,
#   merge_path_overlapped_last_kernel and both -> h100_merge_path_prefetch_pdl_3b9f437.log;
#   merge_path_lean_copies -> h100_merge_path_lean_copies_b93ae0b.log;
#   merge_path_walk_selects -> h100_merge_path_walk_selects_6dd81cd.log
# Session 15's, each against "as-is" in the same call: merge_path_reads_twice_expected and
#   merge_path_walk_by_warp_vote -> h100_merge_path_reads_twice_warp_vote_c4e0169.log;
#   merge_path_one_barrier_a_trip with S:READ_MARGIN=1 and 3 ->
#   h100_merge_path_one_barrier_margins_4730d90.log; the same with S:MAX_ROUNDS=8 ->
#   h100_merge_path_rounds_4730d90.log (constants as they were before 28a1351);
#   columns as-is P:MAX_PARTS=256 P:MAX_PARTS=128 P:MAX_PARTS=128,P:LOADS=8
#   P:MAX_PARTS=64,P:LOADS=8 -> h100_split_columns_parts_probe_17cbb7a.log;
#   argmax_rows as-is L:ROW_LANES_LOADS=4 R:ROW_PARTS_LOADS=8 -> h100_argmax_rows_loads_probe_f27c41c.log
# Session 16's: columns as-is patch:bench/results/experiments/split_columns_narrow_eight_loads.patch
#   -> h100_split_columns_narrow_eight_loads_f9ba0d2.log; column_edges as-is
#   patch:split_columns_scalar_sixteen_loads.patch patch:split_columns_few_rows_128.patch
#   -> h100_split_columns_edges_probe_6f6f177.log (the rows at 3, 33 and 100003 columns
#   missing: totals that were not whole rows) and, the first two again,
#   h100_split_columns_edges_probe_87e41b1.log
# Session 17's: column_edges as-is patch:bench/results/experiments/split_columns_runs_of_vectors.patch
#   -> h100_split_columns_runs_of_vectors_1021c6c.log (then test_shapes_gpu --method split_columns);
#   column_types as-is patch:split_columns_one_branch_a_batch.patch ->
#   h100_split_columns_one_branch_a_batch_1658388.log; column_types
#   patch:split_columns_one_branch_a_batch.patch patch:split_columns_full_batches.patch
#   -> h100_split_columns_load_batches_1658388.log (the float sweep of the last variant:
#   h100_cols_sweep_full_batches_1658388.csv)
# Session 18's: column_types as-is patch:bench/results/experiments/split_columns_arg_whole_batches.patch
#   -> h100_split_columns_arg_whole_batches_ebc957c.log (kept: the patch is in the kernel since)
#   column_narrow as-is patch:bench/results/experiments/split_columns_idle_lanes_load_nothing.patch
#   -> h100_split_columns_idle_lanes_907afa5.log (kept)
#   Run in session 19: column_narrow as-is
#   patch:bench/results/experiments/split_columns_idle_lanes_load_in_bounds.patch and column_edges
#   as-is patch:split_columns_runs_whole_batches.patch -> h100_split_columns_in_bounds_runs_8c70a96.log
#   (both kept: e970073)
# Session 19's: columns as-is patch:bench/results/experiments/split_columns_l2_256_prefetch.patch
#   -> h100_split_columns_l2_256_prefetch_8c70a96.log (no change); columns as-is
#   patch:split_columns_interleaved_parts.patch -> h100_split_columns_interleaved_parts_e970073.log
#   (kept: 0235f52; its P:WIDE_LOADS=2 variant did not run: set_constant finds one
#   constant a declaration, and WIDE_LOADS then shared one with two others)
# Session 20's (the patches against eb6afbb): column_narrow as-is
#   patch:bench/results/experiments/split_columns_narrow_runs_fill.patch ->
#   h100_split_columns_narrow_runs_fill_eb6afbb.log (slower: not kept); column_types as-is
#   patch:split_columns_parts_as_bands.patch P:WIDE_LOADS=2 patch:split_columns_half_grid.patch
#   -> h100_split_columns_parts_as_bands_eb6afbb.log (bands kept for 8-byte elements:
#   6483796; the half grid's variant was cut by the call's time limit); columns as-is
#   patch:split_columns_half_grid.patch -> h100_split_columns_half_grid_3c719b4.log (mixed:
#   not kept). P:WIDE_LOADS=8 did not run.
# Session 21's: columns as-is P:WIDE_LOADS=8
#   patch:bench/results/experiments/split_columns_half_grid.patch,P:WIDE_LOADS=8 ->
#   h100_split_columns_wide_loads_half_grid_9d448e4.log (both slower at 4096 columns: not kept).
# Session 22's: lane_runs as-is N:MIN_BLOCKS_PER_SM=8
#   patch:bench/results/experiments/lane_run_next_tile_copies.patch ->
#   h100_lane_run_variants_2ea38ed.log (64 registers and the second buffer both slower: not
#   kept). Run in session 23: lane_runs as-is patch:bench/results/experiments/lane_run_ends_as_64_bit.patch
#   patch:bench/results/experiments/lane_run_walk_pointer.patch ->
#   h100_lane_run_ends_walk_context_d4ac283.log (the 64-bit ends kept: 4324970; the walk
#   through a moving pointer no faster: not kept).
# Session 24's: lane_runs as-is patch:bench/results/experiments/lane_run_even_shares.patch
#   patch:lane_run_even_shares_first_copies.patch and segments as-is
#   patch:merge_path_even_shares.patch -> h100_even_shares_9f55773.log (even shares kept:
#   cf725f6; the first copies during the search no faster); lane_runs as-is
#   patch:lane_run_slot_segments.patch -> h100_lane_run_slot_segments_42ac2dd.log (kept:
#   03d7667); lane_runs as-is and the same with _from_first_empty and _16_bit_probe ->
#   h100_lane_run_slot_segments_variants_06091ec.log (neither faster).
# Session 25's: lane_runs as-is N:READ_MARGIN=3 N:READ_MARGIN=4
#   patch:bench/results/experiments/lane_run_one_warp_blocks_probe.patch ->
#   h100_lane_run_read_margin_one_warp_blocks_4480070.log (READ_MARGIN 4 kept; the one-warp
#   blocks slower everywhere: not kept).
#   lane_runs as-is patch:bench/results/experiments/lane_run_weighted_shares.patch ->
#   h100_lane_run_weighted_shares_e843128.log; lane_runs as-is
#   patch:lane_run_weighted_share_searches_alone.patch patch:lane_run_weighted_shares.patch ->
#   h100_lane_run_weighted_share_searches_0537b24.log (the searches cost more than the balance
#   gains: not kept).
# Session 26's: lane_runs as-is patch:bench/results/experiments/lane_run_wide_first_search.patch
#   patch:lane_run_wide_first_search.patch,N:SEARCH_PROBES=8 ->
#   h100_lane_run_wide_first_search_91db4df.log (wider rounds slower: not kept).
# Session 27's: staged_columns as-is G:THREADS=256
#   patch:bench/results/experiments/staged_columns_chunks_on_lines.patch,G:THREADS=256
#   G:THREADS=512 G:THREADS=256,G:STAGES=7 -> h100_staged_columns_threads_stages_lines_e4cba13.log
#   (fewer threads slower: the adds set the pace; the reads then batched, 88d3f6f);
#   staged_columns as-is G:THREADS=512 -> h100_staged_columns_batched_threads_88d3f6f.log
#   (512 kept: 0b263b6).
# Session 28's: argmax_narrow as-is patch:bench/results/experiments/arg_results_written_whole.patch
#   -> h100_arg_results_written_whole_54a6f78.log (kept: d58c34e); argmax_groups as-is
#   patch:argmax_group_loads.patch patch:argmax_group_loads.patch,L:ARG_GROUP_LOADS=8
#   patch:argmax_group_loads.patch,L:ARG_GROUP_LOADS=3 -> h100_argmax_group_loads_eebf1ef.log
#   (four loads a lane, eight where the width is not whole vectors: kept, 975b326).
# Session 29's: argmax_rows as-is patch:bench/results/experiments/block_per_row_int_reduce.patch
#   patch:warp_per_row_arg_loads.patch patch:warp_per_row_arg_loads.patch,W:ARG_LOADS=8 ->
#   h100_argmax_row_probes_a24886c.log (four loads kept for warp_per_row's argmax; the int
#   combine within noise where adaptive_rows runs block_per_row: not kept).
# Session 40's (H200): argmax_groups as-is patch:bench/results/experiments/argmax_group_eight_loads.patch
#   -> h200_argmax_group_eight_loads_a30a4e4.log (eight loads a lane faster at 128 and 256
#   floats, slower from 512; kept for 128-511 floats, eefdd8c); argmax_groups as-is
#   L:ARG_EIGHT_LOADS_FROM=16 L:ARG_EIGHT_LOADS_FROM=16,L:ARG_UNEVEN_LOADS=4 ->
#   h200_argmax_group_loads_window_eefdd8c.log (eight from 64 floats faster: kept; four for
#   33 floats slower).
# Session 42's (H200): argmax_rows as-is patch:bench/results/experiments/argmax_batch_extreme_first.patch
#   -> h200_argmax_batch_extreme_first_0c69549.log (slower at every width of the block a
#   row: not kept).
# Those logs were written by one-off scripts this one replaces: the same
# variants and measurements, their own headers and widths.
set -uo pipefail
S=kernels/rows/36_merge_path_segments.cu
C=kernels/blocks/segment_carries.cuh
P=kernels/columns/32_split_columns.cu
L=kernels/blocks/row_lanes.cuh
R=kernels/blocks/row_parts.cuh
N=kernels/rows/37_lane_run_segments.cu
G=kernels/columns/38_staged_columns.cu
W=kernels/rows/24_warp_per_row.cu
bench=build-gpu/bench/bench_compare
log=${OUT:?set OUT}/vary_constants.log
mode=$1; shift

set_constant() { # set_constant FILE NAME VALUE
    grep -q "constexpr [a-z0-9_ ]*\b$2 = " "$1" || { echo "no constant $2 in $1" >&2; exit 2; }
    sed -i "s/\(constexpr [a-z0-9_ ]*\b$2 = \)[^;]*;/\1$3;/" "$1"
}

time_variant() {
    case $mode in
    segments)
        build-gpu/tests/test_shapes_gpu --method merge_path_segments --quick 2>&1 | tail -1
        "$bench" -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp "
        for s in uniform:1 uniform:8 uniform:100 uniform:10000 powerlaw:8 powerlaw:100 file:/tmp/zipf.txt; do
            echo "-- $s"
            "$bench" --segments "$s" -S 100 -m merge_path_segments 2>&1 | grep -E "^merge_path_segments "
        done ;;
    lane_runs)
        build-gpu/tests/test_shapes_gpu --method lane_run_segments --quick 2>&1 | tail -1
        "$bench" -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp "
        for s in uniform:1 uniform:8 uniform:100 uniform:10000 powerlaw:8 powerlaw:100 powerlaw:1000 file:/tmp/zipf.txt; do
            echo "-- $s"
            "$bench" --segments "$s" -S 100 -m lane_run_segments 2>&1 | grep -E "^lane_run_segments "
        done ;;
    columns)
        build-gpu/tests/test_shapes_gpu --method split_columns --quick 2>&1 | tail -1
        for cols in 1 32 64 128 256 1024 4096 16384 65536; do
            echo "-- cols $cols"
            "$bench" --cols "$cols" --axis 0 -S 100 -m split_columns,cublas_columns 2>&1 |
                grep -E "^(split_columns|cublas_columns) "
        done ;;
    column_edges)
        build-gpu/tests/test_shapes_gpu --method split_columns --quick 2>&1 | tail -1
        # n a whole number of rows, at most 2^24
        for shape in "3 -n 16777215 --offset 1" "33 -n 16777200" "100003 -n 16700501" \
                     "1024 --offset 1" 65536 131072 262144; do
            echo "-- cols $shape"
            # shellcheck disable=SC2086 # the width and its options, split
            "$bench" --cols $shape --axis 0 -S 100 -m split_columns,cublas_columns 2>&1 |
                grep -E "^(split_columns|cublas_columns) "
        done ;;
    column_narrow)
        build-gpu/tests/test_shapes_gpu --method split_columns --quick 2>&1 | tail -1
        # n the whole rows of 2^24 floats (2^23 doubles)
        for shape in "float 1" "float 3" "float 5" "float 7" "float 32" "float 48" "float 100" \
                     "double 3" "double 32"; do
            set -- $shape
            local total=$((1 << 24)); [ "$1" = double ] && total=$((1 << 23))
            echo "-- $1 cols $2"
            "$bench" --type "$1" --cols "$2" -n $((total / $2 * $2)) --axis 0 -S 100 \
                -m split_columns,cublas_columns 2>&1 | grep -E "^(split_columns|cublas_columns) "
        done ;;
    column_types)
        build-gpu/tests/test_shapes_gpu --method split_columns --quick 2>&1 | tail -1
        for shape in "float sum" "double sum" "int64 sum" "half sum" "float argmax" "half argmax"; do
            set -- $shape
            for cols in 32 4096; do
                echo "-- $1 $2, cols $cols"
                "$bench" --type "$1" --op "$2" --cols "$cols" --axis 0 -S 100 \
                    -m split_columns,cublas_columns 2>&1 | grep -E "^(split_columns|cublas_columns) "
            done
        done ;;
    argmax_rows)
        for method in warp_per_row block_per_row; do
            build-gpu/tests/test_shapes_gpu --method "$method" --quick 2>&1 | tail -1
        done
        for method in vector_loads single_pass one_pass_ilp; do # reduce_vectors' whole-array steps
            build-gpu/tests/test_methods_gpu --method "$method" --quick 2>&1 | tail -1
        done
        echo "-- float argmax, the whole array (the sum's after it)"
        "$bench" --op argmax -m one_pass_ilp,cub -S 100 2>&1 | grep -E "^(one_pass_ilp|cub) "
        "$bench" -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp "
        for cols in 32 256 1024 2048 4096 8192 16384 65536; do
            echo "-- cols $cols"
            "$bench" --cols "$cols" --op argmax -S 100 \
                -m warp_per_row,block_per_row,adaptive_rows,cub_segmented 2>&1 |
                grep -E "^(warp_per_row|block_per_row|adaptive_rows|cub_segmented) "
        done ;;
    argmax_narrow)
        for method in packed_rows tiled_rows group_per_row lane_run_segments; do
            build-gpu/tests/test_shapes_gpu --method "$method" --quick 2>&1 | tail -1
        done
        "$bench" --op argmax -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp "
        for cols in 1 2 3 4 8 16 32 33 64 128 256; do
            echo "-- float argmax, cols $cols"
            "$bench" --op argmax --cols "$cols" -n $(((1 << 24) / cols * cols)) -S 100 \
                -m adaptive_rows,packed_rows,tiled_rows,group_per_row,warp_per_row 2>&1 |
                grep -E "^(adaptive_rows|packed_rows|tiled_rows|group_per_row|warp_per_row) "
        done
        for shape in "--type half --cols 32" "--type double --cols 1" "--segments uniform:8"; do
            echo "-- argmax $shape"
            # shellcheck disable=SC2086 # the shape's options, split
            "$bench" --op argmax $shape -S 100 -m adaptive_rows 2>&1 | grep -E "^adaptive_rows "
        done ;;
    argmax_groups)
        build-gpu/tests/test_shapes_gpu --method group_per_row --quick 2>&1 | tail -1
        "$bench" --op argmax -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp "
        for cols in 16 32 33 64 128 256 512 1000 1024 2048; do
            echo "-- float argmax, cols $cols"
            "$bench" --op argmax --cols "$cols" -n $(((1 << 24) / cols * cols)) -S 100 \
                -m group_per_row 2>&1 | grep -E "^group_per_row "
        done
        echo "-- half argmax, cols 64"
        "$bench" --type half --op argmax --cols 64 -S 100 -m group_per_row 2>&1 | grep -E "^group_per_row "
        for cols in 64 128 256; do
            echo "-- double argmax, cols $cols"
            "$bench" --type double --op argmax --cols "$cols" -S 100 -m group_per_row 2>&1 |
                grep -E "^group_per_row "
        done ;;
    staged_columns)
        build-gpu/tests/test_shapes_gpu --method staged_columns --quick 2>&1 | tail -1
        "$bench" -m one_pass_ilp -S 100 2>&1 | grep -E "^one_pass_ilp "
        for shape in "sum 1" "sum 3" "sum 32" "sum 33" "sum 128" "sum 256" "argmax 3"; do
            set -- $shape
            echo "-- float $1, cols $2"
            "$bench" --op "$1" --cols "$2" -n $(((1 << 24) / $2 * $2)) --axis 0 -S 100 \
                -m staged_columns 2>&1 | grep -E "^staged_columns "
        done ;;
    *) echo "mode: segments, lane_runs, columns, column_edges, column_narrow, column_types, argmax_rows, argmax_narrow, argmax_groups or staged_columns, not '$mode'" >&2; exit 2 ;;
    esac
}

# Kept aside and put back before each variant and at the end: a tree sent to
# a GPU machine may carry a stale .git, so "git checkout" could not restore it.
# The files S, C, P, L, R, N, G and W and every file a variant's patch changes.
files=("$S" "$C" "$P" "$L" "$R" "$N" "$G" "$W")
for variant in "$@"; do
    for change in ${variant//,/ }; do
        case $change in
        patch:*) while read -r _ _ file; do files+=("$file"); done \
                     < <(git apply --numstat "${change#patch:}") ;;
        esac
    done
done
kept=$(mktemp -d)
for file in "${files[@]}"; do cp "$file" "$kept/${file//\//_}"; done
# Only a file that differs is copied back: an unchanged file keeps its time,
# so the build after it compiles what the variant changed and nothing more.
restore() {
    for file in "${files[@]}"; do
        cmp -s "$kept/${file//\//_}" "$file" || cp "$kept/${file//\//_}" "$file"
    done
}

{
    echo "# $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1), commit ${SUITE_COMMIT:-unknown}: vary_constants.sh $mode $*"
    echo "# columns: method, family, median us, min us, max us, GB/s, % peak, ... (median of 100)"
} >>"$log"
case $mode in segments | lane_runs) python3 bench/zipf_lengths.py >/tmp/zipf.txt ;; esac
for variant in "$@"; do
    restore
    for change in ${variant//,/ }; do
        case $change in
        as-is) ;;
        patch:*) git apply "${change#patch:}" || { echo "patch ${change#patch:} does not apply" >&2; exit 2; } ;;
        *)  file=${change%%:*} assignment=${change#*:}
            set_constant "${!file}" "${assignment%%=*}" "${assignment#*=}" ;;
        esac
    done
    echo "=== $variant" >>"$log"
    if cmake --build build-gpu -j16 --target bench_compare test_shapes_gpu test_methods_gpu >/dev/null 2>&1; then
        time_variant >>"$log"
    else
        echo "build failed" >>"$log"
    fi
done
restore
