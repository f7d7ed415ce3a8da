/* NVML, the NVIDIA driver's management library, at its device boundary:
 * the few functions an energy reading needs, as function pointers, so that
 * the library is found at run time (dlopen) and never linked, and so that
 * tests can stand in for it. A machine without the driver builds and runs
 * every executable; it only has no NVIDIA energy sensor. */
#ifndef CR_ENERGY_NVML_H
#define CR_ENERGY_NVML_H

#include "cr.h"

#include <stdbool.h>
#include <stddef.h>

/* nvmlReturn_t codes the energy code tells apart (nvml.h). */
enum {
    CR_NVML_SUCCESS = 0,
    CR_NVML_ERROR_NOT_SUPPORTED = 3,
    CR_NVML_ERROR_NO_PERMISSION = 4,
    CR_NVML_ERROR_NOT_FOUND = 6,
};

/* The real signatures, handles (nvmlDevice_t) as void *, return values as
 * nvmlReturn_t codes (0 = success). */
typedef struct cr_nvml_api {
    int (*init)(void);                                          /* nvmlInit_v2 */
    int (*shutdown)(void);                                      /* nvmlShutdown */
    int (*device_by_pci_bus_id)(const char *bus_id, void **dev); /* nvmlDeviceGetHandleByPciBusId_v2 */
    int (*total_energy_mj)(void *dev, unsigned long long *mj);  /* nvmlDeviceGetTotalEnergyConsumption */
    int (*power_mw)(void *dev, unsigned *mw);                   /* nvmlDeviceGetPowerUsage */
    const char *(*error_string)(int rc);                        /* nvmlErrorString */
} cr_nvml_api;

/* libnvidia-ml.so.1 loaded with its functions; NULL as a library is none. */
typedef struct cr_nvml_library cr_nvml_library;

/* Loads the library into *lib and its functions into *api. CR_UNSUPPORTED
 * with why ("libnvidia-ml.so.1 not found (...)", a missing function) where
 * it cannot be. */
cr_status cr_nvml_load(cr_nvml_library **lib, cr_nvml_api *api, char *why, size_t len);
void cr_nvml_unload(cr_nvml_library *lib);

/* The text of an NVML return code: the library's own, else its number. */
const char *cr_nvml_text(const cr_nvml_api *api, int rc, char *buf, size_t len);

/* Initialises NVML and finds the device with PCI bus id bus_id; *has_counter
 * says whether its total-energy counter reads (Volta and newer), else its
 * power reading does. CR_UNSUPPORTED with why (NVML shut down again) when
 * NVML does not start, has no such device or can read neither. */
cr_status cr_nvml_open_device(const cr_nvml_api *api, const char *bus_id, void **dev, bool *has_counter, char *why,
                              size_t len);

#endif
