#define _GNU_SOURCE
#include "omp_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define SPINCOUNT "30000"

void cr_omp_quiet_waits(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT") || getenv("CROSSROOF_OMP_SET"))
        return;
    setenv("GOMP_SPINCOUNT", SPINCOUNT, 1);
    setenv("CROSSROOF_OMP_SET", "1", 1); /* never loop, even if the runtime ignores the variable */
    execv("/proc/self/exe", argv);
    /* exec failed (no /proc): carry on with the runtime's defaults. */
    unsetenv("GOMP_SPINCOUNT");
}

const char *cr_omp_wait_settings(void)
{
    static char buf[160];
    const char *policy = getenv("OMP_WAIT_POLICY"), *spin = getenv("GOMP_SPINCOUNT");
    snprintf(buf, sizeof buf, "OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s%s", policy ? policy : "(unset)",
             spin ? spin : "(unset)", getenv("CROSSROOF_OMP_SET") && spin ? " (set by crossroof)" : "");
    return buf;
}
