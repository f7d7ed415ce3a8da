/* What the reproduction writes: per device its verdicts (reproduce.csv)
 * and the values beside each other (reproduce-values.csv); per run one
 * page, reproduce.md, that opens with the summary. */
#ifndef CR_REPRODUCE_OUTPUT_H
#define CR_REPRODUCE_OUTPUT_H

#include "reproduce/reproduce.h"

#include <stdio.h>

typedef struct {
    char name[256];           /* the device directory's name in the run */
    rr_outcome *outcomes;     /* rr_target_count() of them */
    const rr_thesis *thesis;  /* what they were held against */
} rr_device_result;

int rr_write_device(const char *dir, const rr_device_result *r, char *err, size_t errlen);
void rr_write_markdown(FILE *f, const char *run_name, const rr_thesis *th, const rr_device_result *devices,
                       size_t ndevices);
/* The verdicts over every device, by verdict. */
void rr_count(const rr_device_result *devices, size_t ndevices, size_t counts[RR_NVERDICTS]);

#endif
