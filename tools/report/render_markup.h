/* What a format writes around each part of the report: the walk over the
 * run (render_doc.c) and over a device (render_device.c) is the same for
 * Markdown and HTML, and so is the order of the parts; only the markup
 * around each and the escaping of text differ. */
#ifndef CR_REPORT_RENDER_MARKUP_H
#define CR_REPORT_RENDER_MARKUP_H

#include "report/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct rp_markup rp_markup;

struct rp_markup {
    void (*text)(FILE *f, const char *s); /* text from outside the report, escaped */
    void (*own)(FILE *f, const char *s);  /* the report's own text */
    void (*begin)(FILE *f, const rp_run *run); /* the document up to and with its title */
    const char *end;
    const char *para_open, *para_close;
    const char *bold_open, *bold_close;
    const char *failed_open, *failed_close; /* around a count of failed runs above 0 */
    const char *part_open;    /* a run-level section; a format: %s its id */
    const char *part_close;
    const char *device_open;  /* a format: %zu the device's number */
    const char *device_close;
    const char *section_open; /* a format: %zu the device's number, %s the section's slug */
    const char *section_close;
    const char *sub_open, *sub_close; /* a section one level down (the appendix), the same format */
    const char *how_open, *how_close;   /* around how to read a section */
    const char *none_open, *none_close; /* around why it is empty */
    const char *list_open, *item_open, *item_close, *list_close;
    const char *data_open, *data_close; /* around the links to the CSVs */
    const char *link_open, *link_mid, *link_close;
    bool target_first;                  /* the link's target between open and mid, else its text */
    /* The first screen: screen_open, the headline table, lead_open, the
     * lead figures, lead_close, screen_close. */
    const char *screen_open, *lead_open, *lead_close, *screen_close;
    void (*table)(FILE *f, const rp_table *t);
    /* The first screen's table of device number i (from 1). */
    void (*headlines)(FILE *f, const rp_device *d, size_t i);
    int (*figure)(FILE *f, const rp_device *d, const char *pre, const char *png, char *err, size_t errlen);
};

/* open, s through text, close. */
void rp_wrapped(FILE *f, void (*text)(FILE *, const char *), const char *open, const char *s, const char *close);
/* A link to a file: pre (a device's "dir/" or "") and name, shown as name. */
void rp_link(FILE *f, const rp_markup *m, const char *pre, const char *name);
/* A link to an id in the document (the report's own: not escaped), shown
 * as text (escaped). */
void rp_anchor_link(FILE *f, const rp_markup *m, const char *id, const char *text);
/* A ';'-list of flags as it reads: "unstable, cache". */
void rp_flags_text(const char *flags, char *out, size_t len);
/* "dir/" for a device of a run, "" for a device directory alone. */
void rp_prefix_of(const rp_device *d, char *out, size_t len);

#endif
