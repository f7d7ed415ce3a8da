#define _POSIX_C_SOURCE 200809L
#include "energy_sampler.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct cr_power_sampler {
    cr_power_read_fn read;
    void *ctx;
    double period_s;
    double (*now_s)(void);
    void (*sleep_s)(double);
    pthread_t thread;
    pthread_mutex_t lock; /* everything below */
    bool stop;
    double joules;  /* up to the last sample */
    double last_t;  /* its time */
    double last_w;  /* its power, held until the next */
    char error[CR_ERRLEN]; /* the first failed sample; empty while none */
};

/* The time and the power are taken under the lock: a reading taken between
 * them would extend the old power past the new sample's time, and the next
 * reading would then be lower. */
static bool sample(cr_power_sampler *s)
{
    pthread_mutex_lock(&s->lock);
    bool go_on = !s->stop && s->error[0] == '\0';
    if (go_on) {
        double t = s->now_s(), w;
        char err[CR_ERRLEN];
        if (s->read(s->ctx, &w, err, sizeof err) != CR_OK) {
            snprintf(s->error, sizeof s->error, "%s", err);
            go_on = false;
        } else if (t > s->last_t) {
            s->joules += s->last_w * (t - s->last_t);
            s->last_t = t;
            s->last_w = w;
        } else
            s->last_w = w;
    }
    pthread_mutex_unlock(&s->lock);
    return go_on;
}

static void *sampling_thread(void *arg)
{
    cr_power_sampler *s = arg;
    do
        s->sleep_s(s->period_s);
    while (sample(s));
    return NULL;
}

cr_power_sampler *cr_sampler_start(cr_power_read_fn read, void *ctx, double period_s, double (*now_s)(void),
                                   void (*sleep_s)(double), char *err, size_t len)
{
    cr_power_sampler *s = calloc(1, sizeof *s);
    if (s == NULL) {
        snprintf(err, len, "out of memory for the power sampler");
        return NULL;
    }
    *s = (cr_power_sampler){.read = read, .ctx = ctx, .period_s = period_s, .now_s = now_s, .sleep_s = sleep_s};
    s->last_t = now_s();
    if (read(ctx, &s->last_w, err, len) != CR_OK) {
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    if (pthread_create(&s->thread, NULL, sampling_thread, s) != 0) {
        snprintf(err, len, "cannot start the power sampling thread");
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    return s;
}

cr_status cr_sampler_joules(cr_power_sampler *s, double *joules, char *err, size_t len)
{
    pthread_mutex_lock(&s->lock);
    cr_status st = CR_OK;
    if (s->error[0] != '\0') {
        snprintf(err, len, "%s", s->error);
        st = CR_ERR;
    } else {
        double t = s->now_s();
        *joules = s->joules + (t > s->last_t ? s->last_w * (t - s->last_t) : 0.0);
    }
    pthread_mutex_unlock(&s->lock);
    return st;
}

void cr_sampler_stop(cr_power_sampler *s)
{
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
