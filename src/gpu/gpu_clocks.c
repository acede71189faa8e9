#include "gpu_clocks.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>


/* NVML's types and entry points as its API reference documents them. */
typedef int nvml_return;                 /* nvmlReturn_t: 0 = NVML_SUCCESS */
typedef struct nvml_device_st *nvml_device; /* nvmlDevice_t */
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

struct nvml_api {
    nvml_return (*init)(void);
    nvml_return (*shutdown)(void);
    const char *(*error_string)(nvml_return);
    nvml_return (*handle_by_pci_bus_id)(const char *, nvml_device *);
    nvml_return (*clock_info)(nvml_device, int, unsigned *);
    nvml_return (*max_clock_info)(nvml_device, int, unsigned *);
    nvml_return (*temperature)(nvml_device, int, unsigned *);
    nvml_return (*power_usage)(nvml_device, unsigned *);
    nvml_return (*clock_event_reasons)(nvml_device, unsigned long long *);
};

static struct nvml_api api;

static void unavailable(struct clock_monitor *m, const char *fmt, const char *detail)
{
    static const char PREFIX[] = "unavailable: ";
    snprintf(m->why, sizeof m->why, "%s", PREFIX);
    snprintf(m->why + sizeof PREFIX - 1, sizeof m->why - (sizeof PREFIX - 1), fmt, detail);
    m->available = false;
}

/* Every symbol or a reason. The clock-event query was renamed in NVML 12.2
 * (ClocksThrottleReasons -> ClocksEventReasons); either name will do. */
static const char *load_api(void *library)
{
    static const struct { const char *name; size_t offset; } SYMBOLS[] = {
        {"nvmlInit_v2", offsetof(struct nvml_api, init)},
        {"nvmlShutdown", offsetof(struct nvml_api, shutdown)},
        {"nvmlErrorString", offsetof(struct nvml_api, error_string)},
        {"nvmlDeviceGetHandleByPciBusId_v2", offsetof(struct nvml_api, handle_by_pci_bus_id)},
        {"nvmlDeviceGetClockInfo", offsetof(struct nvml_api, clock_info)},
        {"nvmlDeviceGetMaxClockInfo", offsetof(struct nvml_api, max_clock_info)},
        {"nvmlDeviceGetTemperature", offsetof(struct nvml_api, temperature)},
        {"nvmlDeviceGetPowerUsage", offsetof(struct nvml_api, power_usage)},
    };
    for (size_t i = 0; i < sizeof SYMBOLS / sizeof SYMBOLS[0]; ++i) {
        void *symbol = dlsym(library, SYMBOLS[i].name);
        if (!symbol)
            return SYMBOLS[i].name;
        memcpy((char *)&api + SYMBOLS[i].offset, &symbol, sizeof symbol);
    }
    void *reasons = dlsym(library, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons)
        reasons = dlsym(library, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!reasons)
        return "nvmlDeviceGetCurrentClocksEventReasons";
    memcpy(&api.clock_event_reasons, &reasons, sizeof reasons);
    return NULL;
}

void clock_monitor_open(struct clock_monitor *m, int cuda_device)
{
    memset(m, 0, sizeof *m);
    m->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!m->library) {
        unavailable(m, "%s", dlerror());
        return;
    }
    const char *missing = load_api(m->library);
    if (missing) {
        unavailable(m, "libnvidia-ml.so.1 has no %s", missing);
        clock_monitor_close(m);
        return;
    }
    nvml_return status = api.init();
    if (status != 0) {
        unavailable(m, "nvmlInit: %s", api.error_string(status));
        dlclose(m->library);
        m->library = NULL;
        return;
    }
    char bus_id[32];
    const cudaError_t cuda_status = cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device);
    if (cuda_status != cudaSuccess) {
        unavailable(m, "cudaDeviceGetPCIBusId: %s", cudaGetErrorString(cuda_status));
        clock_monitor_close(m);
        return;
    }
    nvml_device device = NULL;
    status = api.handle_by_pci_bus_id(bus_id, &device);
    if (status == 0)
        status = api.max_clock_info(device, NVML_CLOCK_SM, &m->sm_max_mhz);
    if (status != 0) {
        unavailable(m, "NVML device query: %s", api.error_string(status));
        clock_monitor_close(m);
        return;
    }
    m->device = device;
    m->available = true;
    snprintf(m->why, sizeof m->why, "nvml");
}

void clock_monitor_close(struct clock_monitor *m)
{
    if (m->library) {
        if (api.shutdown)
            api.shutdown(); /* its status changes nothing at exit */
        dlclose(m->library);
    }
    m->library = NULL;
    m->device = NULL;
    m->available = false;
}

/* A query's status; a failure is reported once and turns the monitor off. */
static bool nvml_ok(struct clock_monitor *m, nvml_return status, const char *query)
{
    if (status == 0)
        return true;
    fprintf(stderr, "bench_compare: %s failed (%s): clocks are no longer recorded\n", query,
            api.error_string(status));
    unavailable(m, "%s failed", query);
    return false;
}

bool read_clocks(struct clock_monitor *m, struct clock_reading *r)
{
    memset(r, 0, sizeof *r);
    if (!m->available)
        return false;
    nvml_device device = m->device;
    unsigned milliwatts = 0;
    unsigned long long reasons = 0;
    if (!nvml_ok(m, api.clock_info(device, NVML_CLOCK_SM, &r->sm_mhz),
                 "nvmlDeviceGetClockInfo(SM)") ||
        !nvml_ok(m, api.clock_info(device, NVML_CLOCK_MEM, &r->mem_mhz),
                 "nvmlDeviceGetClockInfo(MEM)") ||
        !nvml_ok(m, api.temperature(device, NVML_TEMPERATURE_GPU, &r->temperature_c),
                 "nvmlDeviceGetTemperature") ||
        !nvml_ok(m, api.power_usage(device, &milliwatts), "nvmlDeviceGetPowerUsage") ||
        !nvml_ok(m, api.clock_event_reasons(device, &reasons),
                 "nvmlDeviceGetCurrentClocksEventReasons")) {
        memset(r, 0, sizeof *r);
        return false;
    }
    r->power_w = milliwatts / 1000.0;
    r->event_reasons = reasons;
    return true;
}
