#define _POSIX_C_SOURCE 200809L
#include "energy_nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVML_SONAME "libnvidia-ml.so.1"

struct cr_nvml_library {
    void *handle;
};

/* ISO C has no cast from an object pointer to a function pointer; POSIX
 * guarantees that dlsym's result can be used as one, copied bit for bit. */
static bool bind_symbol(void *handle, const char *name, void *fn, size_t fn_size)
{
    void *sym = dlsym(handle, name);
    if (sym == NULL)
        return false;
    memcpy(fn, &sym, fn_size);
    return true;
}

cr_status cr_nvml_load(cr_nvml_library **lib, cr_nvml_api *api, char *why, size_t len)
{
    *lib = NULL;
    void *handle = dlopen(NVML_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *e = dlerror();
        snprintf(why, len, NVML_SONAME " not found (%s)", e ? e : "dlopen failed");
        return CR_UNSUPPORTED;
    }
    const struct {
        const char *name;
        void *fn;
        size_t size;
    } symbols[] = {
        {"nvmlInit_v2", &api->init, sizeof api->init},
        {"nvmlShutdown", &api->shutdown, sizeof api->shutdown},
        {"nvmlDeviceGetHandleByPciBusId_v2", &api->device_by_pci_bus_id, sizeof api->device_by_pci_bus_id},
        {"nvmlDeviceGetTotalEnergyConsumption", &api->total_energy_mj, sizeof api->total_energy_mj},
        {"nvmlDeviceGetPowerUsage", &api->power_mw, sizeof api->power_mw},
        {"nvmlErrorString", &api->error_string, sizeof api->error_string},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; ++i)
        if (!bind_symbol(handle, symbols[i].name, symbols[i].fn, symbols[i].size)) {
            snprintf(why, len, NVML_SONAME " has no %s (a driver too old for energy readings)", symbols[i].name);
            dlclose(handle);
            return CR_UNSUPPORTED;
        }
    *lib = malloc(sizeof **lib);
    if (*lib == NULL) {
        dlclose(handle);
        snprintf(why, len, "out of memory loading " NVML_SONAME);
        return CR_ERR;
    }
    (*lib)->handle = handle;
    return CR_OK;
}

void cr_nvml_unload(cr_nvml_library *lib)
{
    if (lib == NULL)
        return;
    dlclose(lib->handle);
    free(lib);
}

const char *cr_nvml_text(const cr_nvml_api *api, int rc, char *buf, size_t len)
{
    const char *s = api->error_string ? api->error_string(rc) : NULL;
    if (s != NULL && s[0] != '\0')
        snprintf(buf, len, "%s", s);
    else
        snprintf(buf, len, "NVML error %d", rc);
    return buf;
}

cr_status cr_nvml_open_device(const cr_nvml_api *api, const char *bus_id, void **dev, bool *has_counter, char *why,
                              size_t len)
{
    char text[2][128];
    int rc = api->init();
    if (rc != CR_NVML_SUCCESS) {
        snprintf(why, len, "nvmlInit failed: %s", cr_nvml_text(api, rc, text[0], sizeof text[0]));
        return CR_UNSUPPORTED;
    }
    rc = api->device_by_pci_bus_id(bus_id, dev);
    if (rc != CR_NVML_SUCCESS) {
        snprintf(why, len, "NVML has no device with PCI bus id %s: %s", bus_id,
                 cr_nvml_text(api, rc, text[0], sizeof text[0]));
        api->shutdown();
        return CR_UNSUPPORTED;
    }
    unsigned long long mj;
    int counter_rc = api->total_energy_mj(*dev, &mj);
    *has_counter = counter_rc == CR_NVML_SUCCESS;
    if (*has_counter)
        return CR_OK;
    unsigned mw;
    int power_rc = api->power_mw(*dev, &mw);
    if (power_rc == CR_NVML_SUCCESS)
        return CR_OK;
    snprintf(why, len, "NVML reads neither the total energy (%s) nor the power (%s) of %s",
             cr_nvml_text(api, counter_rc, text[0], sizeof text[0]),
             cr_nvml_text(api, power_rc, text[1], sizeof text[1]), bus_id);
    api->shutdown();
    return CR_UNSUPPORTED;
}
