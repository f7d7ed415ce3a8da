/* Energy from a power reading where a device has no energy counter: a
 * thread samples the power and integrates it. Each sample is held until the
 * next (the sensor's value stands for the time since its last update), and
 * a reading extends the last sample to the moment it is taken, so that
 * readings never go back and do not depend on when the thread last ran. */
#ifndef CR_ENERGY_SAMPLER_H
#define CR_ENERGY_SAMPLER_H

#include "cr.h"

#include <stddef.h>

typedef struct cr_power_sampler cr_power_sampler;

/* The power now, in watts; CR_OK, or CR_ERR with err set. */
typedef cr_status (*cr_power_read_fn)(void *ctx, double *watts, char *err, size_t len);

/* Takes the first sample now and starts the thread, which samples every
 * period_s (sleep_s between samples, now_s for the time of each). NULL with
 * err set when the first sample or the thread fails. */
cr_power_sampler *cr_sampler_start(cr_power_read_fn read, void *ctx, double period_s, double (*now_s)(void),
                                   void (*sleep_s)(double), char *err, size_t len);

/* Joules since the start, up to now; CR_ERR with the thread's first failed
 * sample, which ends the sampling. */
cr_status cr_sampler_joules(cr_power_sampler *s, double *joules, char *err, size_t len);

/* Stops the thread (within one period) and frees the sampler. */
void cr_sampler_stop(cr_power_sampler *s);

#endif
