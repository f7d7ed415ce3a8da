/* The fma benchmark's part of the report: its g(x) is what the X-model's
 * M is fitted from, so its files are listed among that section's inputs. */
#include "report/part.h"

const rp_part rp_part_fma = {
    .name = "fma",
    .section = "xmodel",
    .rank = 31,
    .extract = rp_extract_input,
};
