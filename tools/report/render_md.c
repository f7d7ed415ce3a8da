/* The report as Markdown (report.md): the figures linked beside it. */
#include "report/render.h"

#include "report/registry.h"
#include "report/render_doc.h"
#include "report/render_text.h"

#include <math.h>
#include <string.h>

static const char dash[] = "\xe2\x80\x93";

/* A cell; an empty one as the dash (or as nothing). */
static void md_cell(FILE *f, const char *s, const char *empty)
{
    fputs(" | ", f);
    rp_md_text(f, s[0] ? s : empty);
}

static void md_table(FILE *f, const rp_table *t)
{
    if (t->title[0]) {
        fputs("**", f);
        rp_md_text(f, t->title);
        fputs("**\n\n", f);
    }
    fputs("| ", f);
    rp_md_text(f, t->key_head);
    for (int c = 0; c < t->ncols; ++c) {
        fputs(" | ", f);
        rp_md_text(f, t->cols[c]);
    }
    fputs(" |\n|---", f);
    for (int c = 0; c < t->ncols; ++c) {
        bool numeric = false;
        for (size_t i = 0; i < t->nrows && !numeric; ++i)
            numeric = !isnan(t->rows[i].cells[c].num);
        fputs(numeric ? "|---:" : "|---", f);
    }
    fputs("|\n", f);
    for (size_t i = 0; i < t->nrows; ++i) {
        fputs("| ", f);
        rp_md_text(f, t->rows[i].key);
        for (int c = 0; c < t->ncols; ++c)
            md_cell(f, t->rows[i].cells[c].text, dash);
        fputs(" |\n", f);
    }
    fputc('\n', f);
}

static void md_headlines(FILE *f, const rp_device *d, size_t i)
{
    fputs("| headline | value | peak, limit or reference | flags |\n|---|---|---|---|\n", f);
    for (size_t k = 0; k < d->nheadlines; ++k) {
        const rp_headline *h = &d->headlines[k];
        fputs("| [", f);
        rp_md_text(f, h->what);
        fprintf(f, "](#device-%zu-%s)", i, rp_section_slug(h->section));
        md_cell(f, h->value, dash);
        md_cell(f, h->limit, "");
        char flags[2 * sizeof h->flags];
        rp_flags_text(h->flags, flags, sizeof flags);
        md_cell(f, flags, "");
        fputs(" |\n", f);
    }
    fputc('\n', f);
}

static int md_figure(FILE *f, const rp_device *d, const char *pre, const char *png, char *err, size_t errlen)
{
    (void)d, (void)err, (void)errlen;
    fputs("![", f);
    rp_md_text(f, png);
    fputs("](", f);
    rp_link_target(f, pre, png);
    fputs(")\n\n", f);
    return 0;
}

static void md_begin(FILE *f, const rp_run *run)
{
    fputs("# crossroof characterization: ", f);
    rp_md_text(f, run->name);
    fputs("\n\n", f);
}

void rp_render_markdown(FILE *f, const rp_run *run)
{
    static const rp_markup md = {
        .text = rp_md_text,
        .own = rp_plain_text,
        .begin = md_begin,
        .end = "",
        .para_open = "",
        .para_close = "\n\n",
        .bold_open = "**",
        .bold_close = "**",
        .failed_open = "",
        .failed_close = "",
        .part_open = "<a id=\"%s\"></a>\n\n## ",
        .part_close = "\n\n",
        .device_open = "<a id=\"device-%zu\"></a>\n\n## ",
        .device_close = "\n\n",
        .section_open = "<a id=\"device-%zu-%s\"></a>\n\n### ",
        .section_close = "\n\n",
        .sub_open = "<a id=\"device-%zu-%s\"></a>\n\n#### ",
        .sub_close = "\n\n",
        .how_open = "*How to read this.* ",
        .how_close = "\n\n",
        .none_open = "",
        .none_close = "\n\n",
        .list_open = "",
        .item_open = "- ",
        .item_close = "\n",
        .list_close = "\n",
        .data_open = "Data:",
        .data_close = "\n\n",
        .link_open = "[",
        .link_mid = "](",
        .link_close = ")",
        .target_first = false,
        .screen_open = "",
        .lead_open = "",
        .lead_close = "",
        .screen_close = "",
        .table = md_table,
        .headlines = md_headlines,
        .figure = md_figure,
    };
    rp_render_document(f, run, &md, NULL, 0); /* nothing in Markdown fails */
}
