/* The markdown writer (--markdown): a caption and a table for people; the
 * layout is documented in result_files.c. */
#include <inttypes.h>
#include <stdio.h>

#include "result_files.h"
#include "result_format.h"

static void write_markdown_text(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; ++i) {
        if (s[i] == '|')
            fputc('\\', out); /* a bare '|' would split the cell */
        fputc(is_control(s[i]) ? ' ' : s[i], out);
    }
}

/* driver/runtime: 13000 -> "13.0"; CCCL: 3000000 -> "3.0.0". */
static void write_markdown_caption(FILE *out, const struct run_context *c)
{
    write_markdown_text(out, c->device_name, bounded_length(c->device_name, sizeof c->device_name));
    fprintf(out, " (%d SMs, %.0f GB/s theoretical); driver %d.%d, runtime %d.%d, CCCL %d.%d.%d; "
                 "%s %s (%s, seed %" PRIu64 ", offset %zu); median of %d samples, "
                 "L2 flush %s, pass kernels %s; ",
            c->sm_count, c->peak_gbs, c->driver_version / 1000, c->driver_version % 1000 / 10,
            c->runtime_version / 1000, c->runtime_version % 1000 / 10,
            c->cccl_version / 1000000, c->cccl_version / 1000 % 1000, c->cccl_version % 1000,
            c->element_type, c->op, c->distribution, c->seed, c->offset, c->samples,
            c->flush_mode, c->strategy);
    if (c->sm_clock_mhz > 0)
        fprintf(out, "clocks SM %d MHz (max %d), memory %d MHz, %d C, %.0f W at start; ",
                c->sm_clock_mhz, c->sm_clock_max_mhz, c->mem_clock_mhz, c->temperature_c,
                c->power_w);
    else
        fprintf(out, "clocks not recorded; ");
    fprintf(out, "%s, suite %s\n", c->date, c->git_commit);
}

static void write_markdown_cell(FILE *out, const char *s, size_t max)
{
    write_markdown_text(out, s, bounded_length(s, max));
    fputs(" | ", out);
}

/* with_index: the run is an argmax or argmin, whose result has an index. */
static void write_markdown_row(FILE *out, const struct method_result *r, bool with_index)
{
    fputs("| ", out);
    write_markdown_cell(out, r->name, sizeof r->name);
    write_markdown_cell(out, r->family, sizeof r->family);
    fprintf(out, "%zu | ", r->n);
    if (r->time_us.count > 0)
        fprintf(out, "%.2f | %.1f | %.1f | ", r->time_us.median, r->gbps, r->pct_peak);
    else
        fputs("- | - | - | ", out);
    if (r->ratio_to_cub > 0.0) /* 0: CUB did not run */
        fprintf(out, "%.2fx | ", r->ratio_to_cub);
    else
        fputs("- | ", out);
    if (r->time_us.count > 0 && with_index)
        fprintf(out, "%.9g @%lld | %.3g | ", r->result, r->result_index, r->error_ulps);
    else if (r->time_us.count > 0)
        fprintf(out, "%.9g | %.3g | ", r->result, r->error_ulps);
    else
        fputs("- | - | ", out);
    fputs(method_status_name(r->status), out);
    if (r->noisy)
        fputs(" (noisy)", out);
    if (r->throttled)
        fputs(" THROTTLED", out);
    if (r->status != STATUS_PASS && r->note[0]) {
        fputs(": ", out);
        write_markdown_text(out, r->note, bounded_length(r->note, sizeof r->note));
    }
    fprintf(out, " | %s / %s |\n", determinism_name(r->determinism), grid_check_name(r->grid));
}

static void write_markdown_body(FILE *out, const struct run *run)
{
    write_markdown_caption(out, &run->context);
    fputs("\n| method | family | n | median µs | GB/s | % peak | vs CUB | result | ulps | check | "
          "repeat / grid |\n"
          "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n",
          out);
    const bool with_index = is_arg_op(reduce_op_from_name(run->context.op));
    for (size_t i = 0; i < run->count; ++i)
        write_markdown_row(out, &run->rows[i], with_index);
}

int write_run_markdown(const char *path, const struct run *run, char *err, size_t err_len)
{
    return write_run_file(path, run, write_markdown_body, err, err_len);
}
