/* The latency benchmark's part of the report: its pointer chase is the
 * X-model's L, so its files are listed among that section's inputs, and
 * its level rows make the table of load latency per level; on the first
 * screen, that latency level by level. */
#include "report/part.h"

#include <stdio.h>
#include <string.h>

static void extract(rp_section *sec, const char *file, const cr_csv_table *t)
{
    rp_extract_input(sec, file, t);
    rp_table *levels = (rp_table *)rp_find_table(sec, "latency-levels");
    if (levels == NULL)
        levels = rp_add_table(sec, "latency-levels",
                              "Load latency per level: the pointer chase at a footprint that level serves", "level",
                              "footprint", "ns", "cycles", NULL);
    for (size_t i = 0; i < t->nrows; ++i) {
        if (!rp_valid(t, i) || !rp_device_row(t, i) || !rp_is(t, i, "sweep", "level"))
            continue;
        rp_row *r = rp_row_for(levels, "%s", rp_get(t, i, "variant"));
        char size[48];
        rp_format_bytes(rp_num(t, i, "size_bytes"), size, sizeof size);
        rp_set_text(r, 0, "%s", size);
        rp_set_num(r, 1, rp_num(t, i, "figure"), 4);
        rp_set_num(r, 2, rp_num(t, i, "cycles"), 4);
        rp_mark_flags(sec, levels, r, 1, t, i);
    }
}

/* Appends the tokens of one ';'-list to another, each once. */
static void merge_flags(char *into, size_t len, const char *flags)
{
    for (const char *tok = flags; *tok;) {
        size_t n = strcspn(tok, ";"), used = strlen(into);
        char one[64];
        snprintf(one, sizeof one, "%.*s", (int)n, tok);
        const char *at = strstr(into, one);
        bool have = at && (at == into || at[-1] == ';') && (at[n] == '\0' || at[n] == ';');
        if (!have && n)
            snprintf(into + used, len - used, "%s%s", used ? ";" : "", one);
        tok += n + (tok[n] == ';');
    }
}

static void headline(rp_device *d, int s)
{
    const rp_table *levels = rp_find_table(&d->sections[s], "latency-levels");
    if (levels == NULL || levels->nrows == 0)
        return;
    rp_headline *h = rp_headline_add(d, s, "Load latency per level");
    char value[sizeof h->value] = "", flags[sizeof h->flags] = "";
    for (size_t i = 0; i < levels->nrows; ++i) {
        rp_headline one = {0};
        rp_headline_value(&one, &levels->rows[i].cells[1], "ns");
        rp_appendf(value, sizeof value, ", ", "%s %s", levels->rows[i].key, one.value);
        merge_flags(flags, sizeof flags, one.flags);
    }
    snprintf(h->value, sizeof h->value, "%s", value);
    snprintf(h->flags, sizeof h->flags, "%s", flags);
}

const rp_part rp_part_latency = {
    .name = "latency",
    .section = "xmodel",
    .rank = 32,
    .extract = extract,
    .headline = headline,
};
