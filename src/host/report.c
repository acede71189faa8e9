#include "report.h"

#include <math.h>
#include <string.h>

#include "element_type.h"
#include "shape.h"

static const struct method_result *find_row(const struct run *run, const char *name)
{
    for (size_t i = 0; i < run->count; ++i)
        if (strcmp(run->rows[i].name, name) == 0)
            return &run->rows[i];
    return NULL;
}

/* A vendor's row under one of the two names it has by shape (cub, else
 * cub_segmented; cublas_rows, else cublas_columns), or NULL. */
static const struct method_result *find_either(const struct run *run, const char *name,
                                               const char *shaped_name)
{
    const struct method_result *r = find_row(run, name);
    return r ? r : find_row(run, shaped_name);
}

void set_ratios_to_cub(struct run *run)
{
    const struct method_result *cub = find_row(run, "cub");
    const double cub_us = cub && cub->status == STATUS_PASS ? cub->time_us.median : 0.0;
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        run->rows[i].ratio_to_cub =
            cub_us > 0.0 && r->status == STATUS_PASS ? r->time_us.median / cub_us : 0.0;
    }
}

static void print_version(FILE *out, const char *what, int v, int major_div, int minor_div)
{
    fprintf(out, "%s %d.%d", what, v / major_div, (v % major_div) / minor_div);
}

void print_run_header(FILE *out, const struct run_context *c)
{
    fprintf(out, "device   %d: %s, %d SMs, L2 %.1f MB, theoretical %.0f GB/s\n", c->device_index,
            c->device_name, c->sm_count, (double)c->l2_bytes / 1e6, c->peak_gbs);
    fprintf(out, "software ");
    print_version(out, "driver", c->driver_version, 1000, 10);
    print_version(out, ", runtime", c->runtime_version, 1000, 10);
    print_version(out, ", CCCL", c->cccl_version, 1000000, 1000);
    fprintf(out, ", cuBLAS %d, suite %s\n", c->cublas_version, c->git_commit);
    const size_t size = element_size(element_type_from_name(c->element_type));
    if (size > 0 && c->n > 0)
        fprintf(out, "input    %s of n = %zu %s (%.1f MiB), %s, seed %llu, offset %zu elements\n",
                c->op, c->n, c->element_type, (double)c->n * (double)size / (1 << 20),
                c->distribution, (unsigned long long)c->seed, c->offset);
    else /* a sweep or a matrix: n (and type, op) per line below */
        fprintf(out, "input    type %s, op %s, n per line below; %s, seed %llu, offset %zu elements\n",
                c->element_type, c->op, c->distribution, (unsigned long long)c->seed, c->offset);
    if (c->shape[0] && strcmp(c->shape, shape_kind_name(SHAPE_WHOLE)) != 0) {
        const bool columns = strcmp(c->shape, shape_kind_name(SHAPE_COLUMNS)) == 0;
        if (c->cols > 0 && columns && c->n > 0)
            fprintf(out, "shape    columns: %zu rows x %zu cols, a result per column", c->n / c->cols,
                    c->cols);
        else if (c->cols > 0 && !columns)
            fprintf(out, "shape    rows: %zu rows x %zu cols", c->result_count, c->cols);
        else if (c->segments[0])
            fprintf(out, "shape    segments: %zu from %s", c->result_count, c->segments);
        else
            fprintf(out, "shape    %s: width per line below", c->shape);
        fprintf(out, "; one result each, every row checked; GB/s counts the input read and\n"
                     "         one accumulator written a result%s\n",
                c->segments[0] ? ", plus the (count + 1) 8-byte offsets read" : "");
    }
    if (c->max_noise_pct > 0.0)
        fprintf(out, "timing   median, sampled until known to %.2f%% (at most %d samples), CUDA "
                     "events; L2 flush: %s; pass kernels: %s\n",
                c->max_noise_pct, c->samples, c->flush_mode, c->strategy);
    else
        fprintf(out, "timing   median of %d samples, CUDA events; L2 flush: %s; pass kernels: %s\n",
                c->samples, c->flush_mode, c->strategy);
    if (c->sm_clock_mhz > 0)
        fprintf(out, "clocks   SM %d MHz (max %d), memory %d MHz, %d C, %.0f W at start (NVML); "
                     "a row read while throttled says THROTTLED\n",
                c->sm_clock_mhz, c->sm_clock_max_mhz, c->mem_clock_mhz, c->temperature_c,
                c->power_w);
    else
        fprintf(out, "clocks   not recorded (%s)\n", c->clocks[0] ? c->clocks : "unknown");
    fprintf(out, "floor    empty kernel %.2f us; read ceiling (streaming sweep of 4x L2) %.0f GB/s "
                 "= %.1f%% of theoretical\n",
            c->launch_floor_us, c->read_ceiling_gbs,
            c->peak_gbs > 0.0 ? 100.0 * c->read_ceiling_gbs / c->peak_gbs : 0.0);
}

static void format_ratio(char *buf, size_t len, double ratio)
{
    if (ratio > 0.0)
        snprintf(buf, len, "%.2fx", ratio);
    else
        snprintf(buf, len, "-");
}

/* Every digit the accumulator holds: integers whole, float 9, double 17;
 * an argmax's or argmin's index after an @. */
static void format_result(char *buf, size_t len, const struct method_result *r,
                          const struct run_context *c)
{
    const enum element_type t = accumulator_type(element_type_from_name(c->element_type));
    const int used = is_integer_type(t) && isfinite(r->result)
                         ? snprintf(buf, len, "%.0f", r->result)
                         : snprintf(buf, len, "%.*g", t == TYPE_DOUBLE ? 17 : 9, r->result);
    if (is_arg_op(reduce_op_from_name(c->op)) && used >= 0 && (size_t)used < len)
        snprintf(buf + used, len - (size_t)used, "@%lld", r->result_index);
}

void print_results_table(FILE *out, const struct run *run)
{
    fprintf(out, "%-20s %-11s %10s %10s %10s %8s %7s %7s %14s %9s %8s %-7s %-8s %-8s %s\n",
            "method", "family", "median us", "min us", "max us", "GB/s", "% peak", "vs CUB",
            "result", "err ulps", "rel err", "check", "repeat", "grid", "note");
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        char ratio[16];
        format_ratio(ratio, sizeof ratio, r->ratio_to_cub);
        if (r->time_us.count == 0) {
            fprintf(out, "%-20s %-11s %10s %10s %10s %8s %7s %7s %14s %9s %8s %-7s %-8s %-8s %s\n",
                    r->name, r->family, "-", "-", "-", "-", "-", "-", "-", "-", "-",
                    method_status_name(r->status), determinism_name(r->determinism),
                    grid_check_name(r->grid), r->note);
            continue;
        }
        char result[48];
        format_result(result, sizeof result, r, &run->context);
        char check[32];
        snprintf(check, sizeof check, "%s%s", method_status_name(r->status),
                 r->throttled ? " THROTTLED" : "");
        fprintf(out,
                "%-20s %-11s %10.2f %10.2f %10.2f %8.1f %6.1f%% %7s %14s %9.3g %8.1e %-7s %-8s %-8s "
                "%s%s\n",
                r->name, r->family, r->time_us.median, r->time_us.min, r->time_us.max, r->gbps,
                r->pct_peak, ratio, result, r->error_ulps, r->rel_error, check,
                determinism_name(r->determinism), grid_check_name(r->grid),
                r->noisy ? "NOISY " : "", r->note);
    }
}

static bool in_story(const struct method_result *r)
{
    return strcmp(r->family, "progression") == 0 || strcmp(r->family, "modern") == 0;
}

void print_progression(FILE *out, const struct run *run)
{
    fprintf(out, "%-4s %-20s %10s %8s %8s %8s %s\n", "step", "method", "median us", "GB/s",
            "step x", "total x", "check");
    const struct method_result *first = NULL, *previous = NULL;
    int step = 0;
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        if (!in_story(r))
            continue;
        if (r->status != STATUS_PASS || r->time_us.count == 0) {
            fprintf(out, "%-4d %-20s %10s %8s %8s %8s %s\n", step++, r->name, "-", "-", "-", "-",
                    method_status_name(r->status));
            continue;
        }
        if (!first)
            first = r;
        const double step_x = previous ? previous->time_us.median / r->time_us.median : 1.0;
        const double total_x = first->time_us.median / r->time_us.median;
        fprintf(out, "%-4d %-20s %10.2f %8.1f %7.2fx %7.2fx %s\n", step++, r->name,
                r->time_us.median, r->gbps, step_x, total_x, method_status_name(r->status));
        previous = r;
    }
    const struct method_result *cub = find_row(run, "cub");
    if (cub && cub->status == STATUS_PASS && first)
        fprintf(out, "%-4s %-20s %10.2f %8.1f %8s %7.2fx %s\n", "ref", "cub", cub->time_us.median,
                cub->gbps, "", first->time_us.median / cub->time_us.median, "PASS");
}

/* The fastest PASSing row of our own kernels (progression, modern and, for
 * rows, segments and columns, the row and column steps), or NULL. */
static const struct method_result *best_hand_kernel(const struct run *run)
{
    const struct method_result *best = NULL;
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        const bool shaped = strcmp(r->family, "rows") == 0 || strcmp(r->family, "columns") == 0;
        if ((in_story(r) || shaped) && r->status == STATUS_PASS &&
            r->time_us.count > 0 &&
            (!best || r->time_us.median < best->time_us.median))
            best = r;
    }
    return best;
}

static void print_median_cell(FILE *out, const struct method_result *r)
{
    if (r && r->status == STATUS_PASS && r->time_us.count > 0)
        fprintf(out, " %10.2f", r->time_us.median);
    else
        fprintf(out, " %10s", r ? method_status_name(r->status) : "-");
}

/* PASS when every row PASSed or was REFUSED; otherwise the rows that did not,
 * and the rows measured while throttled. */
static void print_matrix_check(FILE *out, const struct run *run)
{
    const char *separator = "";
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        if ((r->status == STATUS_PASS || r->status == STATUS_REFUSED) && !r->throttled)
            continue;
        fprintf(out, "%s%s %s", separator,
                r->throttled ? "THROTTLED" : method_status_name(r->status), r->name);
        separator = ", ";
    }
    fprintf(out, "%s\n", *separator ? "" : "PASS");
}

/* One line per (type, operator): our best kernel against CUB (its segmented
 * reduce for rows and segments), Thrust (reduce_by_key for segments),
 * cuBLAS's gemv with a vector of ones (rows and columns: its |x| sum of a
 * whole array is another reduction) and PyTorch, each "-" where the run did
 * not measure it. */
void print_matrix_table(FILE *out, const struct run *runs, size_t count)
{
    fprintf(out, "%-9s %-6s %10s %-16s %10s %10s %10s %10s %10s %7s  %s\n", "type", "op", "n",
            "best kernel", "best us", "cub us", "thrust us", "cublas us", "torch us", "vs CUB",
            "check");
    for (size_t i = 0; i < count; ++i) {
        const struct run *run = &runs[i];
        const struct method_result *best = best_hand_kernel(run);
        const struct method_result *cub = find_either(run, "cub", "cub_segmented");
        const struct method_result *thrust = find_either(run, "thrust", "thrust_by_key");
        fprintf(out, "%-9s %-6s %10zu %-16s", run->context.element_type, run->context.op,
                run->context.n, best ? best->name : "-");
        print_median_cell(out, best);
        print_median_cell(out, cub);
        print_median_cell(out, thrust);
        print_median_cell(out, find_either(run, "cublas_rows", "cublas_columns"));
        print_median_cell(out, find_row(run, "torch"));
        const bool both = best && cub && cub->status == STATUS_PASS && cub->time_us.count > 0;
        char ratio[16];
        format_ratio(ratio, sizeof ratio, both ? best->time_us.median / cub->time_us.median : 0.0);
        fprintf(out, " %7s  ", ratio);
        print_matrix_check(out, run);
    }
}

void print_batch_table(FILE *out, const struct run *run, int batch)
{
    size_t samples = 0;
    for (size_t i = 0; i < run->count && !samples; ++i)
        samples = run->rows[i].batch_us.count;
    fprintf(out, "batch: %d back-to-back calls per sample, no L2 flush, median of %zu samples; "
                 "per-call time = total / %d (not comparable with the cold table)\n",
            batch, samples, batch);
    fprintf(out, "%-20s %12s %12s %12s %8s\n", "method", "cold us", "batch us", "batch min",
            "cold/batch");
    for (size_t i = 0; i < run->count; ++i) {
        const struct method_result *r = &run->rows[i];
        if (r->batch_us.count == 0) {
            fprintf(out, "%-20s %12s %12s %12s %8s\n", r->name, "-", "-", "-", "-");
            continue;
        }
        fprintf(out, "%-20s %12.2f %12.2f %12.2f %7.2fx\n", r->name, r->time_us.median,
                r->batch_us.median, r->batch_us.min, r->time_us.median / r->batch_us.median);
    }
}
