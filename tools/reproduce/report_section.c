/* The reproduction's part of the report: each target's verdict beside the
 * thesis's claim, on the first screen the counts of the verdicts. The whole
 * page with the values side by side is the run's reproduce.md. */
#include "report/part.h"

#include <stdio.h>
#include <string.h>

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    /* The values side by side are reproduce.md's and the data links'. */
    if (strcmp(file, "reproduce-values.csv") == 0)
        return;
    if (strcmp(file, "reproduce.csv") != 0) {
        rp_extract_other(sec, file, t);
        return;
    }
    rp_table *e = rp_add_table(sec, "reproduce", "The theses' findings on this device (the values: reproduce.md)",
                               "target", "claim", "this device", "verdict", "why", "flags", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        rp_row *r = rp_row_for(e, "%s", rp_get(t, i, "title"));
        rp_set_text(r, 0, "%s", rp_get(t, i, "claim"));
        rp_set_text(r, 1, "%s", rp_get(t, i, "this_device"));
        rp_set_text(r, 2, "%s", rp_get(t, i, "verdict"));
        rp_set_text(r, 3, "%s", rp_get(t, i, "reason"));
        rp_set_text(r, 4, "%s", rp_get(t, i, "flags"));
    }
}

static rp_headline_fn headline;

const rp_part rp_part_reproduce = {
    .name = "reproduce",
    .title = "The theses reproduced (Li 2016, Lee 2012, Ranasinghe 2014)",
    .how = "Each table or figure of the source theses that this suite measures, held against this device by a "
           "stated rule (build/tools/reproduce): reproduced (within the rule's tolerance of the thesis's values), "
           "holds qualitatively (the same order or shape), differs (and the measured reason), or not measurable "
           "here (and why). The values compared are in the device's reproduce-values.csv and in reproduce.md, "
           "each thesis value cited to its table or figure, page and line of the thesis text, each of this "
           "device's to the line of its CSV.",
    .only_with_results = true,
    .rank = 85,
    .extract = extract,
    .headline = headline,
};

/* How many of the table's rows have the verdict. */
static size_t with_verdict(const rp_table *e, const char *verdict)
{
    size_t n = 0;
    for (size_t i = 0; i < e->nrows; ++i)
        n += strcmp(e->rows[i].cells[2].text, verdict) == 0;
    return n;
}

static void headline(rp_device *d, int s)
{
    const rp_table *e = rp_find_table(&d->sections[s], "reproduce");
    if (e == NULL || e->nrows == 0)
        return;
    static const char *const verdicts[] = {"reproduced", "holds qualitatively", "differs", "not measurable here"};
    char value[200] = "";
    for (size_t v = 0; v < sizeof verdicts / sizeof *verdicts; ++v)
        rp_appendf(value, sizeof value, ", ", "%s %zu", verdicts[v], with_verdict(e, verdicts[v]));
    rp_headline_text(d, s, "The theses' findings, by verdict", value);
}
