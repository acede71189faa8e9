/* What the GPU's clocks did while a method was timed, and the verdicts drawn
 * from it. Pure host code: the readings come from NVML (gpu_clocks.h) on a GPU
 * machine and from recorded values in the CPU tests.
 *
 * A row is THROTTLED when any reading during its timed samples carried a
 * clock-event reason that lowers clocks under load: a software power cap,
 * thermal slowdown (software or hardware), a hardware slowdown or the power
 * brake. Idle, application-clock and sync-boost reasons describe settings,
 * not a slowdown of this measurement, and are recorded but not flagged (nvbench
 * makes the same split before it discards throttled samples). */
#ifndef CLOCK_CONDITIONS_H
#define CLOCK_CONDITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* NVML's clock-event reason bits (nvmlClocksEventReason*, formerly
 * nvmlClocksThrottleReason*): values fixed by the NVML API. */
#define CLOCK_EVENT_GPU_IDLE 0x1ULL
#define CLOCK_EVENT_APPLICATIONS_CLOCKS 0x2ULL
#define CLOCK_EVENT_SW_POWER_CAP 0x4ULL
#define CLOCK_EVENT_HW_SLOWDOWN 0x8ULL
#define CLOCK_EVENT_SYNC_BOOST 0x10ULL
#define CLOCK_EVENT_SW_THERMAL 0x20ULL
#define CLOCK_EVENT_HW_THERMAL 0x40ULL
#define CLOCK_EVENT_HW_POWER_BRAKE 0x80ULL
#define CLOCK_EVENT_DISPLAY_CLOCKS 0x100ULL
#define CLOCK_EVENTS_THAT_THROTTLE                                                          \
    (CLOCK_EVENT_SW_POWER_CAP | CLOCK_EVENT_HW_SLOWDOWN | CLOCK_EVENT_SW_THERMAL |          \
     CLOCK_EVENT_HW_THERMAL | CLOCK_EVENT_HW_POWER_BRAKE)

/* Two runs whose clocks differ by more than this are flagged by --baseline
 * and --compare (a 2% slower SM or memory clock moves a median by about that). */
#define CLOCK_CHANGE_WARN_PCT 2.0

/* One reading of the device, as NVML reports it. */
struct clock_reading {
    unsigned sm_mhz, mem_mhz;
    unsigned temperature_c;
    double power_w;
    uint64_t event_reasons; /* CLOCK_EVENT_* bits */
};

/* Many readings folded into the figures a row keeps: the lowest clocks, the
 * highest temperature and power, every reason seen. readings == 0: none
 * taken (NVML unavailable, a CPU method, a row read from an older file). */
struct clock_conditions {
    int readings;
    int sm_mhz_min, mem_mhz_min; /* ints, like every count in the result files */
    int temperature_c_max;
    double power_w_max;
    uint64_t event_reasons;
};

void add_clock_reading(struct clock_conditions *c, const struct clock_reading *r);

/* Whether these reasons lowered the clocks under load (see above). */
bool reasons_throttle(uint64_t event_reasons);

/* The reasons as names joined by '+' ("sw-power-cap+hw-thermal"), "none" for
 * no bit; unknown bits as one hexadecimal "0x..." name. */
void clock_event_names(uint64_t event_reasons, char *buf, size_t len);

/* |new - old| / old in percent; 0 when either clock is unknown (0). */
double clock_change_pct(int old_mhz, int new_mhz);

/* Whether two clocks differ by more than CLOCK_CHANGE_WARN_PCT; false when
 * either is unknown. */
bool clocks_differ(int old_mhz, int new_mhz);

#endif
