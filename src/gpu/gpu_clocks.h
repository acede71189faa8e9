/* Reading the GPU's clocks, temperature, power and clock-event (throttle)
 * reasons through NVML, the library the driver installs (libnvidia-ml.so.1).
 *
 * NVML is opened at run time (dlopen), not linked: the driver ships the
 * library wherever there is a GPU, while the toolkit's nvml.h and link stub
 * are optional (the developer and CI machines have neither). The few entry
 * points used are declared in gpu_clocks.c with NVML's documented signatures.
 * Where NVML is unavailable the monitor says why once, in `why`, and every
 * later read is a no-op: the bench carries on without clocks. */
#ifndef GPU_CLOCKS_H
#define GPU_CLOCKS_H

#include <stdbool.h>
#include <stddef.h>

#include "clock_conditions.h"

#define CLOCKS_WHY_LEN 160

struct clock_monitor {
    bool available;
    char why[CLOCKS_WHY_LEN]; /* "nvml", or "unavailable: <reason>" */
    void *library;
    void *device;             /* nvmlDevice_t of the CUDA device opened */
    unsigned sm_max_mhz;      /* the SM clock's highest boost */
};

/* Opens NVML for CUDA device `cuda_device` (matched by PCI bus id, since
 * CUDA and NVML may number devices differently). Never fails: an unusable
 * NVML leaves available false and the reason in why. */
void clock_monitor_open(struct clock_monitor *m, int cuda_device);
void clock_monitor_close(struct clock_monitor *m);

/* One reading; false (r zeroed) when the monitor is unavailable or a query
 * failed (the failure is reported once, then the monitor turns itself off). */
bool read_clocks(struct clock_monitor *m, struct clock_reading *r);

#endif
