/* The registry, on the CPU: every descriptor is well formed, names are
 * unique and match their files, and the refusal rules hold. Every declared
 * pair is instantiated by construction (with_pair in element_traits.cuh
 * switches over all of them); the GPU test runs each one.
 *   test_registry SOURCE_DIR */
#include <ctype.h>
#include <glob.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "device_info.h"
#include "measure.h"
#include "registry.h"

static const char *source_dir;

static void names_should_be_unique_lowercase_identifiers(void)
{
    CHECK(METHOD_COUNT >= 24);
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const char *name = METHODS[i]->name;
        CHECK(name && *name);
        for (const char *c = name; *c; ++c)
            CHECK(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_');
        for (size_t j = i + 1; j < METHOD_COUNT; ++j)
            CHECK(strcmp(name, METHODS[j]->name) != 0);
        CHECK(find_method(name) == METHODS[i]);
    }
    CHECK(find_method("vec4") == NULL); /* renamed: vector_loads */
}

/* One entry point, whatever the shapes: a device launch, a pass kernel (the
 * whole array alone) or a host loop; only CPU methods run on the host. */
static void every_method_should_have_one_entry_point_and_its_texts(void)
{
    const unsigned many = SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS) |
                          SHAPE_BIT(SHAPE_COLUMNS);
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        CHECK((m->shapes & ~(SHAPE_BIT(SHAPE_WHOLE) | many)) == 0);
        CHECK((m->launch != NULL) + (m->pass != NULL) + (m->host != NULL) == 1);
        CHECK(!m->workspace || m->launch);
        CHECK(!m->pass || (m->pass->items_per_block > 0 && (m->shapes & many) == 0));
        CHECK(m->source && *m->source && m->idea && *m->idea);
        CHECK((m->family == FAMILY_CPU) == (m->host != NULL));
    }
}

/* Methods that take only some pairs: cuBLAS's two (float and double sums),
 * CUB's two determinism modes (sums; and nothing at all when built with a
 * CCCL older than 3.1, as CUB's fixed-size rows), PyTorch (no uint32; nothing
 * at all when built without PyTorch), and the reproducible and exact kernels
 * (floating-point sums). Every other method takes every value pair (sum, max
 * and min of every type), and argmax and argmin too where it keeps an index. */
static const char *const NARROW_METHODS[] = {"cublas", "cublas_rows", "cublas_columns",
                                             "cub_atomic", "cub_reproducible", "cub_fixed_size",
                                             "torch", "reproducible", "exact"};

static bool is_narrow(const char *name)
{
    for (size_t i = 0; i < sizeof NARROW_METHODS / sizeof NARROW_METHODS[0]; ++i)
        if (strcmp(name, NARROW_METHODS[i]) == 0)
            return true;
    return false;
}

/* unsupported_why explains the value pairs a method refuses (sum, max, min
 * of a type); argmax and argmin refused by a method that keeps no index
 * have the registry's own reason. A method that keeps an index keeps it for
 * argmax and argmin both. A method with value operators that is not narrow
 * takes them all, for every type, with argmax and argmin or without. */
static void declared_pairs_should_be_within_the_enums_and_refusals_explained(void)
{
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        /* No pair at all: a method this build cannot run (CUB's modes with an
         * old CCCL, torch without PyTorch). */
        CHECK((m->types == 0) == (m->ops == 0));
        CHECK((m->types & ~ALL_TYPES) == 0 && (m->ops & ~ALL_OPS) == 0);
        const bool refuses_some = m->types != ALL_TYPES || (m->ops & VALUE_OPS) != VALUE_OPS;
        CHECK(refuses_some == (m->unsupported_why != NULL));
        const unsigned arg_ops = m->ops & ARG_OPS;
        CHECK(arg_ops == 0 || arg_ops == ARG_OPS);
        if (!is_narrow(m->name) && (m->ops & VALUE_OPS))
            CHECK(m->types == ALL_TYPES && (m->ops == VALUE_OPS || m->ops == ALL_OPS));
        if (m->types == 0)
            CHECK(strcmp(m->name, "cub_atomic") == 0 || strcmp(m->name, "cub_reproducible") == 0 ||
                  strcmp(m->name, "cub_fixed_size") == 0 || strcmp(m->name, "torch") == 0);
    }
}

/* File, descriptor and -m key say the same word: kernels/<family>/NN_<name>.cu,
 * vendor_shims/<name>.cu or kernels/cpu/<name>.cu (the CPU loops), exactly once. */
static void every_name_should_be_its_file_name(void)
{
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const char *name = METHODS[i]->name;
        char pattern[3][512];
        snprintf(pattern[0], sizeof pattern[0], "%s/kernels/*/[0-9][0-9]_%s.cu", source_dir, name);
        snprintf(pattern[1], sizeof pattern[1], "%s/vendor_shims/%s.cu", source_dir, name);
        snprintf(pattern[2], sizeof pattern[2], "%s/kernels/cpu/%s.cu", source_dir, name);
        size_t found = 0;
        for (int p = 0; p < 3; ++p) {
            glob_t g;
            if (glob(pattern[p], 0, NULL, &g) == 0)
                found += g.gl_pathc;
            globfree(&g);
        }
        if (found != 1)
            fprintf(stderr, "  %s: %zu files named after it\n", name, found);
        CHECK(found == 1);
    }
}

/* The step's number in kernels/<folder>/NN_<name>.cu, and its folder; -1
 * for a method that is not a numbered step (vendors, CPU loops). */
static int step_number(const char *name, char *folder, size_t folder_len)
{
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/kernels/*/[0-9][0-9]_%s.cu", source_dir, name);
    glob_t g;
    int step = -1;
    if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 1) {
        const char *file = strrchr(g.gl_pathv[0], '/') + 1;
        const char *dir = file - 1;
        while (dir > g.gl_pathv[0] && dir[-1] != '/')
            --dir;
        snprintf(folder, folder_len, "%.*s", (int)(file - 1 - dir), dir);
        step = (file[0] - '0') * 10 + (file[1] - '0');
    }
    globfree(&g);
    return step;
}

/* Steps tell one story: each number once, in the registry's order, with no
 * gap, each in its family's folder. */
static void step_numbers_should_be_unique_and_in_story_order(void)
{
    static const char *const FOLDER[] = {[FAMILY_PROGRESSION] = "classic",
                                         [FAMILY_MODERN] = "modern", [FAMILY_ROWS] = "rows",
                                         [FAMILY_COLUMNS] = "columns", [FAMILY_ARG] = "arg"};
    int last = -1;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        char folder[64] = "";
        const int step = step_number(METHODS[i]->name, folder, sizeof folder);
        if (step < 0)
            continue;
        if (step != last + 1)
            fprintf(stderr, "  %s: step %02d after step %02d\n", METHODS[i]->name, step, last);
        CHECK(step == last + 1);
        CHECK(METHODS[i]->family <= FAMILY_ARG &&
              strcmp(folder, FOLDER[METHODS[i]->family]) == 0);
        last = step;
    }
    CHECK(last >= 35);
}

/* The summation order matches the rest of the descriptor: a pass kernel's
 * blocks are its pass's, a serial-chain flag is a chain, a method whose
 * bits vary run to run cannot promise the same bits on another grid; and
 * every order but a chain is far tighter than one (k at 2^24 elements,
 * summation_order.h) - a row method's only tighter: a row may have as few
 * as 2 lanes (group_per_row) or 32 (warp_per_row) chaining it. */
static void orders_should_agree_with_the_descriptor(void)
{
    const size_t n = (size_t)1 << 24;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        const struct summation_order o = m->order;
        CHECK(o.kind <= ORDER_FIXED_DEPTH);
        if (m->pass)
            CHECK(o.kind == ORDER_BLOCK_PASSES && o.width == m->pass->items_per_block);
        if (m->flags & METHOD_SERIAL_CHAIN)
            CHECK(o.kind == ORDER_SERIAL_CHAIN);
        CHECK(!(m->flags & METHOD_GRID_INDEPENDENT) || !(m->flags & METHOD_ORDER_VARIES));
        if (o.kind != ORDER_SERIAL_CHAIN)
            CHECK((o.width >= 1 || o.kind == ORDER_FIXED_DEPTH) && o.depth >= 1 &&
                  longest_chain(o, n) < (m->family == FAMILY_ROWS || m->family == FAMILY_COLUMNS
                                             ? n - 1
                                             : n / 200));
        if (m->family == FAMILY_VENDOR)
            CHECK(o.kind == ORDER_SERIAL_CHAIN); /* theirs to know, not ours */
    }
    const struct method *r0 = find_method("reduce0"), *ilp = find_method("one_pass_ilp");
    CHECK(longest_chain(r0->order, n) == 8 * 4); /* 3 passes of 256, + 1 for the split */
    CHECK(longest_chain(ilp->order, n) == n / 256 + 8192 / 256 + 2 * 15);
    const struct method *tiles = find_method("reproducible"), *exact = find_method("exact");
    CHECK(tiles->order.kind == ORDER_FIXED_DEPTH && longest_chain(tiles->order, n) == 12);
    CHECK(exact->order.kind == ORDER_FIXED_DEPTH && longest_chain(exact->order, n) == 1);
    CHECK((tiles->flags & METHOD_GRID_INDEPENDENT) && (exact->flags & METHOD_GRID_INDEPENDENT));
}

static void refusals_should_name_the_reason(void)
{
    char reason[160];
    const struct method *cublas = find_method("cublas"), *loop = find_method("cpu_loop"),
                        *naive = find_method("atomic_naive"), *cub = find_method("cub");
    CHECK(method_refuses(cublas, (struct reduce_spec){TYPE_INT32, OP_SUM}, 10, reason, sizeof reason));
    CHECK(strstr(reason, "int32 sum") != NULL && strstr(reason, "cuBLAS") != NULL);
    CHECK(method_refuses(cublas, (struct reduce_spec){TYPE_FLOAT, OP_MAX}, 10, reason, sizeof reason));
    CHECK(!method_refuses(cublas, (struct reduce_spec){TYPE_DOUBLE, OP_SUM}, 10, reason, sizeof reason));
    /* A float chain stops growing past 2^24 elements; integers, max and double do not. */
    const size_t past = ((size_t)1 << 24) + 1;
    CHECK(!method_refuses(loop, (struct reduce_spec){TYPE_FLOAT, OP_SUM}, past - 1, reason, sizeof reason));
    CHECK(method_refuses(loop, (struct reduce_spec){TYPE_FLOAT, OP_SUM}, past, reason, sizeof reason));
    CHECK(strstr(reason, "16777216") != NULL);
    CHECK(method_refuses(naive, (struct reduce_spec){TYPE_HALF, OP_SUM}, past, reason, sizeof reason));
    CHECK(!method_refuses(naive, (struct reduce_spec){TYPE_FLOAT, OP_MAX}, past, reason, sizeof reason));
    CHECK(!method_refuses(naive, (struct reduce_spec){TYPE_INT32, OP_SUM}, past, reason, sizeof reason));
    CHECK(!method_refuses(naive, (struct reduce_spec){TYPE_DOUBLE, OP_SUM}, past, reason, sizeof reason));
    CHECK(!method_refuses(cub, (struct reduce_spec){TYPE_BFLOAT16, OP_MIN}, SIZE_MAX, reason, sizeof reason));
}

/* argmax and argmin: refused, with the registry's reason, by every method
 * that finds only a value - whatever its own unsupported_why says about its
 * other pairs - and taken by the CPU loop, the one-pass kernel and the
 * adaptive rows, for every type; they are no sum, so no chain limit refuses
 * them. */
static void arg_ops_should_be_refused_where_no_index_is_kept(void)
{
    char reason[160];
    const struct method *r0 = find_method("reduce0");
    CHECK(r0 != NULL && (r0->ops & ARG_OPS) == 0);
    if (!r0)
        return;
    CHECK(method_refuses(r0, (struct reduce_spec){TYPE_FLOAT, OP_ARGMAX}, 10, reason, sizeof reason));
    CHECK(strstr(reason, "float argmax") != NULL && strstr(reason, "not where it is") != NULL);
    CHECK(!method_refuses(r0, (struct reduce_spec){TYPE_FLOAT, OP_MAX}, 10, reason, sizeof reason));
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        if (m->ops & ARG_OPS)
            continue;
        CHECK(method_refuses(m, (struct reduce_spec){TYPE_DOUBLE, OP_ARGMIN}, 10, reason,
                             sizeof reason));
        CHECK(strstr(reason, "double argmin: it finds a value, not where it is") != NULL);
    }
    static const char *const KEEPS_INDEX[] = {"cpu_loop", "one_pass_ilp", "adaptive_rows"};
    const size_t past = ((size_t)1 << 24) + 1; /* past a float chain's limit */
    for (size_t i = 0; i < sizeof KEEPS_INDEX / sizeof KEEPS_INDEX[0]; ++i) {
        const struct method *m = find_method(KEEPS_INDEX[i]);
        CHECK(m != NULL);
        for (int t = 0; m && t < TYPE_COUNT; ++t)
            for (int op = OP_ARGMAX; op <= OP_ARGMIN; ++op) {
                const struct reduce_spec spec = {(enum element_type)t, (enum reduce_op)op};
                const bool refused = method_refuses(m, spec, past, reason, sizeof reason);
                if (refused)
                    fprintf(stderr, "  %s: %s\n", m->name, reason);
                CHECK(!refused);
            }
    }
}

/* A method whose index field is narrow (max_n) takes max_n elements and
 * refuses one more, saying why, for every pair it declares. */
static void index_field_widths_should_refuse_one_element_past_them(void)
{
    char reason[160];
    size_t narrow = 0;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        const struct method *m = METHODS[i];
        for (int t = 0; m->max_n && t < TYPE_COUNT; ++t)
            for (int op = 0; op < OP_COUNT; ++op) {
                const struct reduce_spec spec = {(enum element_type)t, (enum reduce_op)op};
                if (!method_supports(m, spec))
                    continue;
                CHECK(!method_refuses(m, spec, m->max_n, reason, sizeof reason));
                CHECK(method_refuses(m, spec, m->max_n + 1, reason, sizeof reason));
                CHECK(strstr(reason, "index field holds at most") != NULL);
            }
        narrow += m->max_n != 0;
        CHECK(m->max_n == 0 || (m->ops & ARG_OPS) != 0); /* only an index has a width */
    }
    CHECK(narrow >= 1);
}

/* CUB's segmented ArgMax and ArgMin count elements in an int: segments past
 * INT_MAX elements in all, and a row longer than that, are refused for the
 * arg operators alone; every method without the flag runs them. */
static void int_arg_offsets_should_refuse_one_element_past_int_max(void)
{
    char reason[160];
    const struct method *cub = find_method("cub_segmented");
    CHECK(cub != NULL && (cub->flags & METHOD_INT_ARG_OFFSETS));
    const struct reduce_spec argmin = {TYPE_HALF, OP_ARGMIN}, sum = {TYPE_FLOAT, OP_SUM};
    const size_t past = (size_t)INT_MAX + 1;
    const struct reduce_shape segments = {.kind = SHAPE_SEGMENTS, .count = 3};
    CHECK(!method_refuses_extent(cub, argmin, segments, past - 1, reason, sizeof reason));
    CHECK(method_refuses_extent(cub, argmin, segments, past, reason, sizeof reason));
    CHECK(strstr(reason, "segments past INT_MAX elements") != NULL && strstr(reason, "argmin") != NULL);
    CHECK(!method_refuses_extent(cub, sum, segments, past, reason, sizeof reason));
    /* rows: the row's width counts, not n (CUB's calls take batches of rows) */
    const struct reduce_shape wide = {.kind = SHAPE_ROWS, .count = 1, .cols = past},
                              narrow = {.kind = SHAPE_ROWS, .count = 4, .cols = past / 2};
    CHECK(method_refuses_extent(cub, argmin, wide, past, reason, sizeof reason));
    CHECK(strstr(reason, "a row past INT_MAX") != NULL);
    CHECK(!method_refuses_extent(cub, argmin, narrow, 4 * (past / 2), reason, sizeof reason));
    size_t flagged = 0;
    for (size_t i = 0; i < METHOD_COUNT; ++i) {
        flagged += (METHODS[i]->flags & METHOD_INT_ARG_OFFSETS) != 0;
        if (!(METHODS[i]->flags & METHOD_INT_ARG_OFFSETS))
            CHECK(!method_refuses_extent(METHODS[i], argmin, segments, SIZE_MAX, reason, sizeof reason));
    }
    CHECK(flagged == 1);
}

/* CUB's determinism modes and its fixed-size segmented overload need CCCL
 * >= 3.1: with an older one (the CUDA 13.0 toolkit's 3.0.1) every pair is
 * refused with the flag that fixes it; with a newer one, each mode takes the
 * pairs CUB really runs that way, and the fixed-size rows take every pair. */
static void cub_modes_should_refuse_what_this_cccl_cannot_do(void)
{
    char reason[160];
    const struct method *atomic = find_method("cub_atomic"), *repro = find_method("cub_reproducible"),
                        *fixed_size = find_method("cub_fixed_size");
    CHECK(atomic && repro && fixed_size);
    if (!atomic || !repro || !fixed_size)
        return;
    const struct reduce_spec float_sum = {TYPE_FLOAT, OP_SUM}, int_sum = {TYPE_INT32, OP_SUM},
                             half_sum = {TYPE_HALF, OP_SUM}, float_max = {TYPE_FLOAT, OP_MAX};
    if (cccl_version() < 3001000) {
        CHECK(atomic->types == 0 && repro->types == 0 && fixed_size->types == 0);
        CHECK(method_refuses(atomic, float_sum, 100, reason, sizeof reason));
        CHECK(strstr(reason, "needs CCCL >= 3.1 (built with ") != NULL);
        CHECK(strstr(reason, "-DREDUCE_CCCL_ROOT=") != NULL);
        CHECK(method_refuses(repro, half_sum, 100, reason, sizeof reason));
        CHECK(strstr(reason, "needs CCCL >= 3.1") != NULL);
        CHECK(method_refuses(fixed_size, float_max, 100, reason, sizeof reason));
        CHECK(strstr(reason, "needs CCCL >= 3.1 (built with ") != NULL);
        CHECK(strstr(reason, "-DREDUCE_CCCL_ROOT=") != NULL);
        return;
    }
    CHECK(fixed_size->types == ALL_TYPES && (fixed_size->ops & VALUE_OPS) == VALUE_OPS &&
          !fixed_size->unsupported_why);
    CHECK(!method_refuses(atomic, float_sum, 100, reason, sizeof reason));
    CHECK(!method_refuses(atomic, int_sum, 100, reason, sizeof reason));
    CHECK(!method_refuses(atomic, half_sum, 100, reason, sizeof reason));
    CHECK(method_refuses(atomic, float_max, 100, reason, sizeof reason));
    CHECK(strstr(reason, "sums only") != NULL);
    CHECK(!method_refuses(repro, float_sum, 100, reason, sizeof reason));
    CHECK(!method_refuses(repro, half_sum, 100, reason, sizeof reason));
    CHECK(method_refuses(repro, int_sum, 100, reason, sizeof reason));
    CHECK(method_refuses(repro, float_max, 100, reason, sizeof reason));
    CHECK(strstr(reason, "floating-point sums") != NULL);
}

/* The shapes each row vendor and the CPU loop declare: CUB's
 * offsets and Thrust's keys take rows and segments, CUB's fixed size and
 * cuBLAS's gemv rows alone, its other gemv columns alone; the CPU loop every
 * shape. */
static void row_vendors_and_the_cpu_loop_should_declare_their_shapes(void)
{
    static const struct {
        const char *name;
        unsigned shapes;
    } EXPECTED[] = {{"cub_segmented", SHAPE_BIT(SHAPE_ROWS) | SHAPE_BIT(SHAPE_SEGMENTS)},
                    {"cub_fixed_size", SHAPE_BIT(SHAPE_ROWS)},
                    {"thrust_by_key", SHAPE_BIT(SHAPE_SEGMENTS)},
                    {"cublas_rows", SHAPE_BIT(SHAPE_ROWS)},
                    {"cublas_columns", SHAPE_BIT(SHAPE_COLUMNS)},
                    {"cpu_loop", SHAPE_BIT(SHAPE_WHOLE) | SHAPE_BIT(SHAPE_ROWS) |
                                     SHAPE_BIT(SHAPE_SEGMENTS) | SHAPE_BIT(SHAPE_COLUMNS)}};
    for (size_t i = 0; i < sizeof EXPECTED / sizeof EXPECTED[0]; ++i) {
        const struct method *m = find_method(EXPECTED[i].name);
        CHECK(m != NULL);
        if (!m)
            continue;
        CHECK(m->shapes == EXPECTED[i].shapes);
        CHECK(m->family == (strcmp(m->name, "cpu_loop") == 0 ? FAMILY_CPU : FAMILY_VENDOR));
    }
    char reason[160];
    const struct method *gemv = find_method("cublas_rows"), *offsets = find_method("cub_segmented");
    CHECK(gemv && offsets);
    if (!gemv || !offsets)
        return;
    CHECK(!method_refuses(gemv, (struct reduce_spec){TYPE_FLOAT, OP_SUM}, 10, reason, sizeof reason));
    CHECK(!method_refuses(gemv, (struct reduce_spec){TYPE_DOUBLE, OP_SUM}, 10, reason, sizeof reason));
    CHECK(method_refuses(gemv, (struct reduce_spec){TYPE_HALF, OP_SUM}, 10, reason, sizeof reason));
    CHECK(strstr(reason, "half sum") != NULL && strstr(reason, "cuBLAS gemv") != NULL);
    CHECK(method_refuses(gemv, (struct reduce_spec){TYPE_DOUBLE, OP_MAX}, 10, reason, sizeof reason));
    CHECK(offsets->types == ALL_TYPES && (offsets->ops & VALUE_OPS) == VALUE_OPS &&
          !offsets->unsupported_why);
}

/* The step adaptive_rows runs for one call ("none" without adaptive_rows,
 * so that the checks fail rather than crash). */
static const char *adaptive_step(enum element_type type, enum reduce_op op,
                                 struct reduce_shape shape, size_t n)
{
    const struct method *adaptive = find_method("adaptive_rows");
    if (!adaptive || !adaptive->chosen_step)
        return "none";
    const struct method *step = adaptive->chosen_step((struct reduce_spec){type, op}, shape, n);
    return step->name;
}

static struct reduce_shape rows_of(size_t cols)
{
    return (struct reduce_shape){.kind = SHAPE_ROWS, .count = 1, .cols = cols};
}

/* Only adaptive_rows runs another method's kernel, and what it runs takes
 * the same shapes and pairs. */
static void adaptive_rows_should_be_the_only_method_that_chooses(void)
{
    const struct method *adaptive = find_method("adaptive_rows");
    CHECK(adaptive && adaptive->chosen_step);
    for (size_t i = 0; i < METHOD_COUNT; ++i)
        CHECK((METHODS[i]->chosen_step != NULL) == (METHODS[i] == adaptive));
    const struct method *chosen = find_method(adaptive_step(TYPE_HALF, OP_ARGMIN, rows_of(7), 7));
    CHECK(chosen && (chosen->shapes & SHAPE_BIT(SHAPE_ROWS)) && (chosen->types & TYPE_BIT(TYPE_HALF)) &&
          (chosen->ops & OP_BIT(OP_ARGMIN)));
}

/* adaptive_rows' row tables, at widths either side of their limits (bytes
 * of a row): the sum's and argmax's own (groups of lanes and a block a row
 * further); packed widths packed for every type and operator; rows of up
 * to 512 bytes that are not a whole number of 16-byte vectors staged, and
 * not those of whole vectors or wider. */
static void adaptive_rows_should_choose_rows_by_their_width(void)
{
    static const struct {
        enum element_type type;
        enum reduce_op op;
        size_t cols;
        const char *step;
    } ROWS[] = {
        {TYPE_FLOAT, OP_SUM, 1, "packed_rows"},       {TYPE_FLOAT, OP_SUM, 3, "packed_rows"},
        {TYPE_FLOAT, OP_SUM, 5, "staged_lane_rows"},  {TYPE_FLOAT, OP_SUM, 12, "group_per_row"},
        {TYPE_FLOAT, OP_SUM, 33, "staged_lane_rows"}, {TYPE_FLOAT, OP_SUM, 127, "staged_lane_rows"},
        {TYPE_FLOAT, OP_SUM, 129, "group_per_row"},   {TYPE_FLOAT, OP_SUM, 512, "group_per_row"},
        {TYPE_HALF, OP_SUM, 255, "staged_lane_rows"}, {TYPE_HALF, OP_SUM, 257, "group_per_row"},
        {TYPE_DOUBLE, OP_MIN, 5, "staged_lane_rows"}, {TYPE_DOUBLE, OP_MIN, 6, "group_per_row"},
        {TYPE_FLOAT, OP_SUM, 1024, "warp_per_row"},   {TYPE_FLOAT, OP_SUM, 2048, "block_per_row"},
        {TYPE_FLOAT, OP_SUM, 65536, "tiled_rows"},    {TYPE_FLOAT, OP_SUM, 65537, "split_rows"},
        {TYPE_DOUBLE, OP_MAX, 2, "packed_rows"},      {TYPE_DOUBLE, OP_MAX, 1024, "block_per_row"},
        {TYPE_FLOAT, OP_ARGMAX, 1, "packed_rows"},    {TYPE_FLOAT, OP_ARGMIN, 3, "packed_rows"},
        {TYPE_DOUBLE, OP_ARGMAX, 1, "packed_rows"},   {TYPE_HALF, OP_ARGMAX, 1, "packed_rows"},
        {TYPE_BFLOAT16, OP_ARGMIN, 3, "packed_rows"}, {TYPE_HALF, OP_ARGMAX, 4, "packed_rows"},
        {TYPE_HALF, OP_SUM, 1, "packed_rows"},
        {TYPE_FLOAT, OP_ARGMAX, 4, "packed_rows"},    {TYPE_FLOAT, OP_ARGMAX, 5, "staged_lane_rows"},
        {TYPE_FLOAT, OP_ARGMAX, 32, "group_per_row"}, {TYPE_FLOAT, OP_ARGMAX, 33, "staged_lane_rows"},
        {TYPE_DOUBLE, OP_ARGMIN, 63, "staged_lane_rows"}, {TYPE_DOUBLE, OP_ARGMIN, 65, "group_per_row"},
        {TYPE_FLOAT, OP_ARGMAX, 1024, "group_per_row"}, {TYPE_FLOAT, OP_ARGMAX, 2047, "group_per_row"},
        {TYPE_FLOAT, OP_ARGMAX, 2048, "block_per_row"}, {TYPE_FLOAT, OP_ARGMAX, 2049, "block_per_row"},
        {TYPE_DOUBLE, OP_ARGMIN, 1023, "group_per_row"}, {TYPE_DOUBLE, OP_ARGMIN, 1024, "block_per_row"},
        {TYPE_FLOAT, OP_ARGMAX, 65536, "block_per_row"}, {TYPE_FLOAT, OP_ARGMAX, 65537, "split_rows"},
    };
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; ++i) {
        const char *step = adaptive_step(ROWS[i].type, ROWS[i].op, rows_of(ROWS[i].cols), ROWS[i].cols);
        CHECK(strcmp(step, ROWS[i].step) == 0);
        if (strcmp(step, ROWS[i].step) != 0)
            fprintf(stderr, "  %zu columns: %s, expected %s\n", ROWS[i].cols, step, ROWS[i].step);
    }
}

/* adaptive_rows' segment table, by the mean length: the values' steps and
 * the arg operators' own. */
static void adaptive_rows_should_choose_segments_by_their_mean(void)
{
    const size_t n = (size_t)1 << 24; /* floats; segment means 1, 2, 3, 100, 1024, 1025, 2^17, 2^20 */
    static const struct {
        size_t count;
        const char *value_step, *index_step; /* sum, max and min; argmax and argmin */
    } SEGMENTS[] = {{n - 1, "lane_segments", "merge_path_segments"},
                    {n / 2, "lane_run_segments", "lane_run_segments"},
                    {n / 3, "lane_run_segments", "lane_run_segments"},
                    {n / 100, "lane_run_segments", "lane_run_segments"},
                    {n / 1024, "lane_run_segments", "lane_run_segments"},
                    {n / 1025, "block_per_row", "block_per_row"},
                    {n >> 17, "tiled_rows", "tiled_rows"},
                    {n >> 20, "split_rows", "split_rows"}};
    for (size_t i = 0; i < sizeof SEGMENTS / sizeof SEGMENTS[0]; ++i)
        for (enum reduce_op op = OP_SUM; op < OP_COUNT; ++op) {
            const struct reduce_shape shape = {.kind = SHAPE_SEGMENTS, .count = SEGMENTS[i].count};
            const char *expected = is_arg_op(op) ? SEGMENTS[i].index_step : SEGMENTS[i].value_step;
            CHECK(strcmp(adaptive_step(TYPE_FLOAT, op, shape, n), expected) == 0);
        }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_registry SOURCE_DIR\n");
        return 2;
    }
    source_dir = argv[1];
    RUN_TEST(names_should_be_unique_lowercase_identifiers);
    RUN_TEST(every_method_should_have_one_entry_point_and_its_texts);
    RUN_TEST(declared_pairs_should_be_within_the_enums_and_refusals_explained);
    RUN_TEST(every_name_should_be_its_file_name);
    RUN_TEST(step_numbers_should_be_unique_and_in_story_order);
    RUN_TEST(orders_should_agree_with_the_descriptor);
    RUN_TEST(refusals_should_name_the_reason);
    RUN_TEST(arg_ops_should_be_refused_where_no_index_is_kept);
    RUN_TEST(index_field_widths_should_refuse_one_element_past_them);
    RUN_TEST(int_arg_offsets_should_refuse_one_element_past_int_max);
    RUN_TEST(cub_modes_should_refuse_what_this_cccl_cannot_do);
    RUN_TEST(row_vendors_and_the_cpu_loop_should_declare_their_shapes);
    RUN_TEST(adaptive_rows_should_be_the_only_method_that_chooses);
    RUN_TEST(adaptive_rows_should_choose_rows_by_their_width);
    RUN_TEST(adaptive_rows_should_choose_segments_by_their_mean);
    return test_exit_code();
}
