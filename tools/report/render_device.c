#include "report/render_device.h"

#include "report/registry.h"

#include <string.h>

static bool shown(const rp_device *d, int s)
{
    const rp_section *sec = &d->sections[s];
    return !rp_section_only_with_results(s) || sec->ran || sec->notes.n;
}

static const char *why_empty(int s)
{
    return s == RP_DEVICE_SECTION ? "No benchmark left metadata here." : "Did not run on this device.";
}

/* The section's heading (open: a format of the device's number and the
 * slug), how to read it, its tables, notes and sources. */
static void render_section(FILE *f, const rp_markup *m, size_t i, const rp_device *d, const char *pre, int s,
                           const char *open, const char *close)
{
    const rp_section *sec = &d->sections[s];
    fprintf(f, open, i + 1, rp_section_slug(s));
    rp_wrapped(f, m->own, "", rp_section_title(s), close);
    if (sec->ran)
        rp_wrapped(f, m->own, m->how_open, rp_how_to_read(s), m->how_close);
    else
        rp_wrapped(f, m->own, m->none_open, why_empty(s), m->none_close);
    /* The table of flagged figures after the tables it speaks of. */
    for (int flagged = 0; flagged < 2; ++flagged)
        for (size_t k = 0; k < sec->ntables; ++k)
            if ((strcmp(sec->tables[k].id, "flagged") == 0) == flagged)
                m->table(f, &sec->tables[k]);
    if (sec->notes.n) {
        fputs(m->list_open, f);
        for (size_t k = 0; k < sec->notes.n; ++k)
            rp_wrapped(f, m->text, m->item_open, sec->notes.v[k], m->item_close);
        fputs(m->list_close, f);
    }
    if (sec->sources.n) {
        fputs(m->data_open, f);
        for (size_t k = 0; k < sec->sources.n; ++k) {
            fputs(k ? ", " : " ", f);
            rp_link(f, m, pre, sec->sources.v[k]);
        }
        fputs(m->data_close, f);
    }
}

/* The section's figures; one on the first screen is pointed to. */
static int render_figures(FILE *f, const rp_markup *m, size_t i, const rp_device *d, const char *pre, int s,
                          char *err, size_t errlen)
{
    const rp_strings *figures = &d->sections[s].figures;
    for (size_t k = 0; k < figures->n; ++k) {
        if (rp_strings_has(&d->lead, figures->v[k])) {
            char id[48];
            snprintf(id, sizeof id, "device-%zu", i + 1);
            fputs(m->none_open, f);
            m->text(f, figures->v[k]);
            m->own(f, ": at the ");
            rp_anchor_link(f, m, id, "top of this device");
            m->own(f, ".");
            fputs(m->none_close, f);
        } else if (m->figure(f, d, pre, figures->v[k], err, errlen) != 0) {
            return -1;
        }
    }
    return 0;
}

/* "cpu, 2 compute units at 2499 MHz, 5.1 GiB. Results in DIR/.": what the
 * device table has of these. */
static void facts(FILE *f, const rp_markup *m, const rp_device *d)
{
    static const char *const rows[][3] = {
        {"type", "", ""}, {"compute units", ", ", " compute units"}, {"clock (MHz)", " at ", " MHz"},
        {"global memory", ", ", " of global memory"}};
    const rp_section *dev = &d->sections[RP_DEVICE_SECTION];
    fputs(m->para_open, f);
    bool any = false;
    for (size_t k = 0; k < sizeof rows / sizeof *rows; ++k) {
        const rp_table *t = rp_find_table(dev, "device");
        const rp_row *r = t ? rp_find_row(t, rows[k][0]) : NULL;
        if (r == NULL || r->cells[0].text[0] == '\0')
            continue;
        m->own(f, any ? rows[k][1] : "");
        m->text(f, r->cells[0].text);
        m->own(f, rows[k][2]);
        any = true;
    }
    if (d->dir[0]) {
        m->own(f, any ? ". Results in " : "Results in ");
        m->text(f, d->dir);
        m->own(f, "/");
    }
    m->own(f, ".");
    fputs(m->para_close, f);
}

/* The first screen: the headline figures and the lead figures. */
static int first_screen(FILE *f, const rp_markup *m, size_t i, const rp_device *d, const char *pre, char *err,
                        size_t errlen)
{
    facts(f, m, d);
    if (d->nheadlines == 0 && d->lead.n == 0)
        return 0;
    fputs(m->screen_open, f);
    if (d->nheadlines)
        m->headlines(f, d, i + 1);
    fputs(m->lead_open, f);
    for (size_t k = 0; k < d->lead.n; ++k)
        if (m->figure(f, d, pre, d->lead.v[k], err, errlen) != 0)
            return -1;
    fputs(m->lead_close, f);
    fputs(m->screen_close, f);
    return 0;
}

/* Each section keep() holds of device number i, under open/close headings. */
static int render_sections(FILE *f, const rp_markup *m, size_t i, const rp_device *d, bool (*keep)(const rp_device *, int),
                           const char *open, const char *close, char *err, size_t errlen)
{
    char pre[300];
    rp_prefix_of(d, pre, sizeof pre);
    for (int s = 0; s < rp_nsections(); ++s) {
        if (!keep(d, s))
            continue;
        render_section(f, m, i, d, pre, s, open, close);
        if (render_figures(f, m, i, d, pre, s, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int rp_render_device(FILE *f, const rp_run *run, size_t i, const rp_markup *m, char *err, size_t errlen)
{
    const rp_device *d = &run->devices[i];
    char pre[300];
    rp_prefix_of(d, pre, sizeof pre);
    fprintf(f, m->device_open, i + 1);
    rp_wrapped(f, m->text, "", d->label, m->device_close);
    if (first_screen(f, m, i, d, pre, err, errlen) != 0)
        return -1;
    return render_sections(f, m, i, d, shown, m->section_open, m->section_close, err, errlen);
}

/* A section of a directory without a device that holds something beyond
 * the metadata and the skips. */
static bool offline_section(const rp_device *d, int s)
{
    const rp_section *sec = &d->sections[s];
    return s != RP_DEVICE_SECTION && (sec->ntables || sec->figures.n);
}

bool rp_offline_has_results(const rp_device *d)
{
    for (int s = 0; s < rp_nsections(); ++s)
        if (offline_section(d, s))
            return true;
    return false;
}

int rp_render_offline(FILE *f, const rp_run *run, size_t i, const rp_markup *m, char *err, size_t errlen)
{
    const rp_device *d = &run->devices[i];
    fprintf(f, m->section_open, i + 1, "dir");
    m->text(f, d->dir[0] ? d->dir : run->name);
    m->own(f, "/");
    fputs(m->section_close, f);
    return render_sections(f, m, i, d, offline_section, m->sub_open, m->sub_close, err, errlen);
}
