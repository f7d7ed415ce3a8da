#include "cache/trace_out.h"
#include "cache/patterns_shape.h"
#include "error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cc_replay_make(const cc_pattern_shape *s, uint64_t accesses, cc_replay *out)
{
    *out = (cc_replay){0};
    out->items = malloc((accesses ? accesses : 1) * sizeof *out->items);
    if (out->items == NULL)
        return -1;
    uint64_t base[3] = {cc_buffer_base(s, 0), cc_buffer_base(s, 1), cc_buffer_base(s, 2)};
    cc_cursor c;
    cc_cursor_start(s, &c);
    for (uint64_t k = 0; k < accesses; ++k) {
        cc_access a = cc_cursor_next(s, &c);
        out->items[k] = (cc_trace_access){.address = base[a.buffer] + a.offset * 8, .write = a.write != 0,
                                          .instruction = (unsigned char)a.instruction};
        if (!a.write)
            out->checksum += cc_value(a.buffer, a.offset);
    }
    out->count = accesses;
    return 0;
}

void cc_replay_free(cc_replay *r)
{
    free(r->items);
    *r = (cc_replay){0};
}

void cc_trace_name(char *out, size_t size, const char *pattern, uint64_t footprint)
{
    snprintf(out, size, "%s-%" PRIu64 "B.trace", pattern, footprint);
}

int cc_trace_write(FILE *f, const char *pattern, uint64_t footprint, const cc_replay *r)
{
    fprintf(f, "# crossroof cache pattern %s, footprint %" PRIu64 " B, %" PRIu64 " accesses of one run\n", pattern,
            footprint, r->count);
    fprintf(f, "# ADDRESS R|W WORKGROUP WARP INSTRUCTION\n");
    for (uint64_t k = 0; k < r->count; ++k)
        fprintf(f, "0x%" PRIx64 " %c 0 0 %u\n", r->items[k].address, r->items[k].write ? 'W' : 'R',
                r->items[k].instruction);
    return ferror(f) ? -1 : 0;
}

int cc_trace_save(const char *path, const char *pattern, uint64_t footprint, const cc_replay *r, char *err,
                  size_t errlen)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL)
        return cr_errf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    int bad = cc_trace_write(f, pattern, footprint, r);
    int saved = errno;
    if (fclose(f) != 0 && !bad) {
        bad = -1;
        saved = errno;
    }
    if (bad || rename(tmp, path) != 0) {
        if (!bad)
            saved = errno;
        unlink(tmp);
        return cr_errf(err, errlen, "cannot write %s: %s", path, strerror(saved));
    }
    return 0;
}
