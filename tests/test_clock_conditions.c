/* The clock and throttle logic on the CPU, from readings in NVML's own units
 * and bit values (a forced throttle is hard to make on a lent GPU): folding
 * readings into a row, which reasons flag THROTTLED, their names, the 2%
 * clock comparison, and what --baseline prints about both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "check.h"
#include "clock_conditions.h"

/* Readings in NVML's units, shaped like an H100's (constructed: a real power cap
 * or thermal slowdown is hard to provoke on a lent GPU). */
static const struct clock_reading STEADY = {.sm_mhz = 1980, .mem_mhz = 2619, .temperature_c = 41,
                                            .power_w = 312.5, .event_reasons = 0};
static const struct clock_reading CAPPED = {.sm_mhz = 1755, .mem_mhz = 2619, .temperature_c = 44,
                                            .power_w = 699.0,
                                            .event_reasons = CLOCK_EVENT_SW_POWER_CAP};
static const struct clock_reading IDLE = {.sm_mhz = 1980, .mem_mhz = 2619, .temperature_c = 39,
                                          .power_w = 95.25, .event_reasons = CLOCK_EVENT_GPU_IDLE};

static void folding_keeps_lowest_clocks_highest_heat_and_every_reason(void)
{
    struct clock_conditions c = {0};
    add_clock_reading(&c, &STEADY);
    CHECK(c.readings == 1 && c.sm_mhz_min == 1980 && c.mem_mhz_min == 2619);
    CHECK(c.temperature_c_max == 41 && c.power_w_max == 312.5 && c.event_reasons == 0);
    add_clock_reading(&c, &CAPPED);
    add_clock_reading(&c, &IDLE);
    CHECK(c.readings == 3);
    CHECK(c.sm_mhz_min == 1755 && c.mem_mhz_min == 2619);
    CHECK(c.temperature_c_max == 44 && c.power_w_max == 699.0);
    CHECK(c.event_reasons == (CLOCK_EVENT_SW_POWER_CAP | CLOCK_EVENT_GPU_IDLE));
}

static void first_reading_sets_the_minimum_even_when_higher_than_zero(void)
{
    struct clock_conditions c = {0};
    const struct clock_reading low = {.sm_mhz = 345, .mem_mhz = 1593};
    add_clock_reading(&c, &low);
    add_clock_reading(&c, &STEADY);
    CHECK(c.sm_mhz_min == 345 && c.mem_mhz_min == 1593);
}

static void only_slowdowns_under_load_throttle(void)
{
    CHECK(!reasons_throttle(0));
    CHECK(!reasons_throttle(CLOCK_EVENT_GPU_IDLE));
    CHECK(!reasons_throttle(CLOCK_EVENT_APPLICATIONS_CLOCKS | CLOCK_EVENT_SYNC_BOOST |
                            CLOCK_EVENT_DISPLAY_CLOCKS));
    const unsigned long long slowdowns[] = {CLOCK_EVENT_SW_POWER_CAP, CLOCK_EVENT_HW_SLOWDOWN,
                                            CLOCK_EVENT_SW_THERMAL, CLOCK_EVENT_HW_THERMAL,
                                            CLOCK_EVENT_HW_POWER_BRAKE};
    for (size_t i = 0; i < sizeof slowdowns / sizeof slowdowns[0]; ++i) {
        CHECK(reasons_throttle(slowdowns[i]));
        CHECK(reasons_throttle(slowdowns[i] | CLOCK_EVENT_GPU_IDLE));
    }
    CHECK(!reasons_throttle(0x200)); /* a bit this build does not know */
}

static void reasons_have_names(void)
{
    char buf[128];
    clock_event_names(0, buf, sizeof buf);
    CHECK(strcmp(buf, "none") == 0);
    clock_event_names(CLOCK_EVENT_SW_POWER_CAP, buf, sizeof buf);
    CHECK(strcmp(buf, "sw-power-cap") == 0);
    clock_event_names(CLOCK_EVENT_GPU_IDLE | CLOCK_EVENT_HW_THERMAL | 0x1000, buf, sizeof buf);
    CHECK(strcmp(buf, "gpu-idle+hw-thermal+0x1000") == 0);
    char tiny[8];
    clock_event_names(CLOCK_EVENT_HW_POWER_BRAKE, tiny, sizeof tiny);
    CHECK(strlen(tiny) == sizeof tiny - 1); /* cut, terminated */
}

static void clocks_differ_past_two_percent(void)
{
    CHECK(!clocks_differ(1980, 1980));
    CHECK(!clocks_differ(1980, 1941)); /* 1.97% */
    CHECK(clocks_differ(1980, 1940));  /* 2.02% */
    CHECK(clocks_differ(1980, 2020));  /* +2.02% */
    CHECK(!clocks_differ(0, 1755));    /* unknown: no claim */
    CHECK(!clocks_differ(1755, 0));
    CHECK(clock_change_pct(2000, 1900) == 5.0);
}

static struct method_result row(const char *name, double median_us,
                                const struct clock_reading *reading)
{
    struct method_result m = {.status = STATUS_PASS, .n = 16777216};
    m.time_us = (struct sample_stats){.count = 100, .median = median_us, .min = median_us,
                                      .max = median_us, .q1 = median_us, .q3 = median_us};
    snprintf(m.name, sizeof m.name, "%s", name);
    if (reading) {
        add_clock_reading(&m.clocks, reading);
        m.throttled = reasons_throttle(m.clocks.event_reasons);
    }
    return m;
}

/* What --baseline prints about clocks, in a temporary file. */
static size_t clock_warnings_text(const struct run *old_run, const struct run *new_run,
                                  char *text, size_t len)
{
    struct comparison c;
    text[0] = '\0';
    if (compare_runs(old_run, new_run, &c) != 0)
        return (size_t)-1;
    FILE *f = tmpfile();
    if (!f) {
        free_comparison(&c);
        return (size_t)-1;
    }
    const size_t lines = print_clock_warnings(f, &c);
    rewind(f);
    const size_t got = fread(text, 1, len - 1, f);
    text[got] = '\0';
    fclose(f);
    free_comparison(&c);
    return lines;
}

static void baseline_names_rows_at_other_clocks_and_throttled_rows(void)
{
    struct method_result old_rows[] = {row("cub", 29.2, &STEADY), row("one_pass_ilp", 27.1, &STEADY),
                                       row("thrust", 46.0, &STEADY), row("cpu_loop", 9000.0, NULL)};
    struct method_result new_rows[] = {row("cub", 32.9, &CAPPED), row("one_pass_ilp", 27.0, &STEADY),
                                       row("thrust", 46.1, &IDLE), row("cpu_loop", 9100.0, NULL)};
    const struct run old_run = {.rows = old_rows, .count = 4};
    const struct run new_run = {.rows = new_rows, .count = 4};
    char text[2048];
    const size_t lines = clock_warnings_text(&old_run, &new_run, text, sizeof text);
    CHECK(lines == 2); /* cub: clocks 11.4% apart, and throttled in this run */
    CHECK(strstr(text, "cub ran at different clocks: SM 1980 -> 1755 MHz (11.4%)") != NULL);
    CHECK(strstr(text, "cub was THROTTLED in this run") != NULL);
    CHECK(strstr(text, "one_pass_ilp") == NULL);
    CHECK(strstr(text, "thrust") == NULL);   /* idle is not a slowdown */
    CHECK(strstr(text, "cpu_loop") == NULL); /* no clocks: no claim */
}

static void sweep_rows_are_named_with_their_size(void)
{
    struct method_result old_rows[] = {row("cub", 5.0, &STEADY), row("cub", 29.2, &STEADY)};
    struct method_result new_rows[] = {row("cub", 5.1, &STEADY), row("cub", 29.3, &CAPPED)};
    old_rows[0].n = new_rows[0].n = 4096;
    const struct run old_run = {.rows = old_rows, .count = 2};
    const struct run new_run = {.rows = new_rows, .count = 2};
    char text[2048];
    CHECK(clock_warnings_text(&old_run, &new_run, text, sizeof text) == 2);
    CHECK(strstr(text, "cub at n = 16777216 ran at different clocks") != NULL);
    CHECK(strstr(text, "cub at n = 16777216 was THROTTLED in this run") != NULL);
    CHECK(strstr(text, "n = 4096") == NULL);
}

static void start_clocks_apart_are_a_soft_note(void)
{
    struct run_context a = {.sm_clock_mhz = 1980, .mem_clock_mhz = 2619};
    struct run_context b = a;
    struct context_note notes[CONTEXT_NOTES_MAX];
    CHECK(check_contexts(&a, &b, notes) == 0);
    b.sm_clock_mhz = 1410;
    const size_t count = check_contexts(&a, &b, notes);
    CHECK(count == 1 && !notes[0].loud && strstr(notes[0].text, "different clocks at start"));
    b.sm_clock_mhz = 0; /* not recorded in one run: nothing to say */
    CHECK(check_contexts(&a, &b, notes) == 0);
}

int main(void)
{
    RUN_TEST(folding_keeps_lowest_clocks_highest_heat_and_every_reason);
    RUN_TEST(first_reading_sets_the_minimum_even_when_higher_than_zero);
    RUN_TEST(only_slowdowns_under_load_throttle);
    RUN_TEST(reasons_have_names);
    RUN_TEST(clocks_differ_past_two_percent);
    RUN_TEST(baseline_names_rows_at_other_clocks_and_throttled_rows);
    RUN_TEST(sweep_rows_are_named_with_their_size);
    RUN_TEST(start_clocks_apart_are_a_soft_note);
    return test_exit_code();
}
