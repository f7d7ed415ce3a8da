#include "regspill/ptxas_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Finds the first occurrence of needle at or after from; NULL if none. */
static const char *find(const char *from, const char *needle) { return from ? strstr(from, needle) : NULL; }

/* The number right before " <unit>" at or after p on the same line; -1 if none. */
static int64_t number_before(const char *line, const char *line_end, const char *unit)
{
    size_t ulen = strlen(unit);
    for (const char *p = line; p + ulen <= line_end; ++p) {
        if (strncmp(p, unit, ulen) != 0)
            continue;
        const char *q = p;
        while (q > line && q[-1] == ' ')
            --q;
        const char *digits = q;
        while (digits > line && digits[-1] >= '0' && digits[-1] <= '9')
            --digits;
        if (digits < q)
            return strtoll(digits, NULL, 10);
    }
    return -1;
}

static const char *line_end(const char *p)
{
    const char *e = strchr(p, '\n');
    return e ? e : p + strlen(p);
}

void ptxas_parse(const char *log, const char *entry, ptxas_report *out)
{
    *out = (ptxas_report){.stack_frame_bytes = -1, .spill_store_bytes = -1, .spill_load_bytes = -1};
    if (!log)
        return;
    /* "adjusting per thread register count of 1 to lower bound of 24" */
    const char *lb = find(log, "to lower bound of ");
    if (lb)
        out->lower_bound = atoi(lb + strlen("to lower bound of "));

    /* The function's section starts at "Function properties for <entry>"
     * (or "Compiling entry function '<entry>'") and ends at its "Used N
     * registers" line. */
    const char *start = log;
    if (entry) {
        char key[300];
        snprintf(key, sizeof key, "Compiling entry function '%s'", entry);
        const char *s = find(log, key);
        if (!s) {
            snprintf(key, sizeof key, "Function properties for %s", entry);
            s = find(log, key);
        }
        if (!s)
            return;
        start = s;
    }
    const char *used = find(start, "Used ");
    while (used && number_before(used, line_end(used), "registers") < 0)
        used = find(used + 1, "Used ");
    if (!used)
        return;
    const char *uend = line_end(used);
    out->found = true;
    out->registers = (int)number_before(used, uend, "registers");
    /* Spill figures sit between the section start and the Used line. */
    for (const char *p = start; p && p < used; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        const char *e = line_end(p);
        int64_t v;
        if ((v = number_before(p, e, "bytes stack frame")) >= 0)
            out->stack_frame_bytes = v;
        if ((v = number_before(p, e, "bytes spill stores")) >= 0)
            out->spill_store_bytes = v;
        if ((v = number_before(p, e, "bytes spill loads")) >= 0)
            out->spill_load_bytes = v;
    }
}
