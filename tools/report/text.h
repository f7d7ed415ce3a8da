/* The report's sections and their fixed words: titles, anchors, and a short
 * "how to read this" per section saying what the benchmark measures and
 * what its headline numbers mean (the README has the full account). */
#ifndef CR_REPORT_TEXT_H
#define CR_REPORT_TEXT_H

typedef enum {
    RP_DEVICE,
    RP_BANDWIDTH,
    RP_STREAM,
    RP_XMODEL,
    RP_ATOMICS,
    RP_SFU,
    RP_REGSPILL,
    RP_CACHE,
    RP_ENERGY,
    RP_OTHER,
    RP_NSECTIONS
} rp_section_id;

const char *rp_section_title(rp_section_id s);
const char *rp_section_slug(rp_section_id s);
const char *rp_how_to_read(rp_section_id s);
/* The section a file (a CSV or figure name) belongs to, by its prefix. */
rp_section_id rp_section_of_file(const char *name);

#endif
