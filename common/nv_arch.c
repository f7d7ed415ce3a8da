#include "nv_arch.h"

#include <stddef.h>
#include <stdio.h>

int cr_nv_fma_lanes(int major, int minor, unsigned lanes[2])
{
    static const struct {
        int major, minor;
        unsigned fp32, fp64;
    } table[] = {
        {6, 0, 64, 32}, {6, 1, 128, 4},  {7, 0, 64, 32}, {7, 5, 64, 2},   {8, 0, 64, 32},
        {8, 6, 128, 2}, {8, 9, 128, 2},  {9, 0, 128, 64}, {10, 0, 128, 64}, {12, 0, 128, 2},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; ++i)
        if (table[i].major == major && table[i].minor == minor) {
            lanes[0] = table[i].fp32;
            lanes[1] = table[i].fp64;
            return 0;
        }
    return -1;
}

unsigned cr_nv_shared_bytes_per_clock(int major, int minor, char *basis, size_t len)
{
    if (major >= 7) {
        snprintf(basis, len, "32 shared-memory banks of 4 bytes per SM, compute capability %d.%d (7.0 and later)",
                 major, minor);
        return 128;
    }
    snprintf(basis, len, "shared-memory bytes per clock of compute capability %d.%d (before 7.0) are not tabulated",
             major, minor);
    return 0;
}
