/* Whether bytes are a whole PNG image as plot.sh writes one: PNG's
 * signature and header chunk first, its IEND chunk last. An interrupted
 * or cut drawing has the one without the other, and the report neither
 * embeds nor passes it. */
#ifndef CR_REPORT_PNG_H
#define CR_REPORT_PNG_H

#include <stdbool.h>
#include <stddef.h>

/* NULL when whole, else what is wrong ("no PNG signature and header",
 * "cut short: no IEND chunk at its end"). */
const char *rp_png_fault(const unsigned char *bytes, size_t len);

#endif
