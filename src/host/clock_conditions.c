#include "clock_conditions.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void add_clock_reading(struct clock_conditions *c, const struct clock_reading *r)
{
    if (c->readings == 0 || (int)r->sm_mhz < c->sm_mhz_min)
        c->sm_mhz_min = (int)r->sm_mhz;
    if (c->readings == 0 || (int)r->mem_mhz < c->mem_mhz_min)
        c->mem_mhz_min = (int)r->mem_mhz;
    if ((int)r->temperature_c > c->temperature_c_max)
        c->temperature_c_max = (int)r->temperature_c;
    if (r->power_w > c->power_w_max)
        c->power_w_max = r->power_w;
    c->event_reasons |= r->event_reasons;
    ++c->readings;
}

bool reasons_throttle(uint64_t event_reasons)
{
    return (event_reasons & CLOCK_EVENTS_THAT_THROTTLE) != 0;
}

void clock_event_names(uint64_t event_reasons, char *buf, size_t len)
{
    static const struct { uint64_t bit; const char *name; } NAMES[] = {
        {CLOCK_EVENT_GPU_IDLE, "gpu-idle"},
        {CLOCK_EVENT_APPLICATIONS_CLOCKS, "applications-clocks"},
        {CLOCK_EVENT_SW_POWER_CAP, "sw-power-cap"},
        {CLOCK_EVENT_HW_SLOWDOWN, "hw-slowdown"},
        {CLOCK_EVENT_SYNC_BOOST, "sync-boost"},
        {CLOCK_EVENT_SW_THERMAL, "sw-thermal"},
        {CLOCK_EVENT_HW_THERMAL, "hw-thermal"},
        {CLOCK_EVENT_HW_POWER_BRAKE, "hw-power-brake"},
        {CLOCK_EVENT_DISPLAY_CLOCKS, "display-clocks"},
    };
    size_t used = 0;
    uint64_t left = event_reasons;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0] && used < len; ++i)
        if (event_reasons & NAMES[i].bit) {
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "",
                                     NAMES[i].name);
            left &= ~NAMES[i].bit;
        }
    if (left && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s0x%" PRIx64, used ? "+" : "", left);
    if (used == 0)
        snprintf(buf, len, "none");
}

double clock_change_pct(int old_mhz, int new_mhz)
{
    if (old_mhz <= 0 || new_mhz <= 0)
        return 0.0;
    return 100.0 * fabs((double)new_mhz - (double)old_mhz) / (double)old_mhz;
}

bool clocks_differ(int old_mhz, int new_mhz)
{
    return clock_change_pct(old_mhz, new_mhz) > CLOCK_CHANGE_WARN_PCT;
}
