/* What a run ran on, written beside its CSV as key,value rows. */
#ifndef CR_METADATA_H
#define CR_METADATA_H

#include "device.h"
#include "topology.h"

#include <stddef.h>

typedef struct {
    char (*keys)[48];
    char (*values)[512];
    size_t n, cap;
} cr_meta;

void cr_meta_init(cr_meta *m);
void cr_meta_free(cr_meta *m);
/* Adds or replaces key. */
void cr_meta_set(cr_meta *m, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *cr_meta_get(const cr_meta *m, const char *key);

/* The host CPU's model name ("unknown" when the system does not say). */
void cr_cpu_model(char *buf, size_t len);

/* Host, CPU, topology, date, command line, build and version. */
void cr_meta_collect_host(cr_meta *m, cr_topology *topo, int argc, char **argv);
/* Device fields under "device.*". */
void cr_meta_add_device(cr_meta *m, const cr_device_info *d);

int cr_meta_write(const cr_meta *m, const char *path, char *err, size_t errlen);

#endif
