#include "report/flags.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The row's verdicts on its figure: flags on its energy cells alone
 * (energy-idle, energy-below-static) leave the figure as it is, and are
 * energy-levels' to read. */
static void figure_flags(const char *flags, char *out, size_t len)
{
    out[0] = '\0';
    for (const char *tok = flags; *tok;) {
        size_t n = strcspn(tok, ";"), used = strlen(out);
        bool energy = (n == strlen("energy-idle") && strncmp(tok, "energy-idle", n) == 0) ||
                      (n == strlen("energy-below-static") && strncmp(tok, "energy-below-static", n) == 0);
        if (!energy)
            snprintf(out + used, len - used, "%s%.*s", used ? ";" : "", (int)n, tok);
        tok += n + (tok[n] == ';');
    }
}

/* The gate's reasons in a row's note: from its first verdict on the figure on. */
static const char *flag_reasons(const cr_csv_table *t, size_t i, const char *flags)
{
    const char *note = rp_get(t, i, "note");
    char first[40];
    size_t len = strcspn(flags, ";");
    snprintf(first, sizeof first, "%.*s:", (int)(len < sizeof first - 2 ? len : sizeof first - 2), flags);
    const char *at = strstr(note, first);
    return at ? at : note;
}

void rp_mark_flags_of(rp_section *sec, const rp_table *shown, rp_row *r, int col, const cr_csv_table *t, size_t i,
                      const char *what)
{
    char flags[256];
    figure_flags(rp_get(t, i, "flags"), flags, sizeof flags);
    rp_table *f = (rp_table *)rp_find_table(sec, "flagged");
    char key[sizeof r->key];
    if (what)
        snprintf(key, sizeof key, "%.31s: %.60s (%.28s)", shown->id, r->key, what);
    else
        snprintf(key, sizeof key, "%.31s: %.90s", shown->id, r->key);
    if (*flags == '\0') {
        if (f)
            rp_remove_row(f, key);
        return;
    }
    rp_cell *c = &r->cells[col];
    size_t n = strlen(c->text);
    snprintf(c->text + n, sizeof c->text - n, " (flagged: %s)", flags);
    if (f == NULL)
        f = rp_add_table(sec, "flagged", "Flagged figures: shown above with \"flagged\"; not to be taken as facts",
                         "table: figure", "flags", "why", NULL);
    rp_row *fr = rp_row_for(f, "%s", key);
    rp_set_text(fr, 0, "%s", flags);
    rp_set_text(fr, 1, "%s", flag_reasons(t, i, flags));
}

void rp_mark_flags(rp_section *sec, const rp_table *shown, rp_row *r, int col, const cr_csv_table *t, size_t i)
{
    rp_mark_flags_of(sec, shown, r, col, t, i, NULL);
}
