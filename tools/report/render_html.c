/* The report as one self-contained HTML file (report.html): CSS inline,
 * every figure embedded as a base64 data: URI, the CSVs linked by relative
 * path. */
#define _GNU_SOURCE
#include "report/render.h"

#include "error.h"
#include "report/base64.h"
#include "report/png.h"
#include "report/registry.h"
#include "report/render_doc.h"
#include "report/render_text.h"
#include "shared/bounded_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1500px;margin:1.5em auto;"
    "padding:0 1.5em;color:#1d1d1d;line-height:1.45}"
    "h1{font-size:1.7em;border-bottom:2px solid #4a7fb5;padding-bottom:.2em;margin-bottom:.3em}"
    "h2{font-size:1.4em;margin-top:2.2em;border-bottom:1px solid #ccc;padding-bottom:.15em}"
    "h1+p+h2,h1+p+p+h2{margin-top:.8em}"
    "h3{font-size:1.15em;margin-top:1.8em;color:#24527a}h4{font-size:1em;margin-top:1.4em;color:#24527a}"
    "table{border-collapse:collapse;margin:.4em 0 1.2em;font-size:.88em}"
    "caption{text-align:left;font-weight:600;padding:.2em 0}"
    "th,td{border:1px solid #d0d0d0;padding:.22em .6em;vertical-align:top}"
    "th{background:#eef3f8;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "tr:nth-child(even) td{background:#fafafa}"
    ".screen{display:flex;gap:1.2em;align-items:flex-start}.heads{flex:0 1 62%}"
    ".lead{flex:1 1 38%;min-width:360px}.lead figure{margin:0 0 .4em}"
    "table.headlines{font-size:.82em;margin:0;line-height:1.3}table.headlines td{padding:.1em .45em}"
    "table.headlines td:first-child{white-space:nowrap}table.headlines td:nth-child(2){min-width:14em}"
    "td.flag{color:#8a6d00}"
    ".how{background:#f5f8fb;border-left:4px solid #4a7fb5;padding:.5em .9em;margin:.6em 0 1em}"
    ".none{color:#777;font-style:italic}.failed{color:#b00020;font-weight:600}.skipped{color:#8a6d00}"
    "figure{margin:1em 0 1.6em}figure img{max-width:100%;border:1px solid #ddd}"
    "figcaption{font-size:.85em;color:#555}.src{font-size:.85em;color:#555}nav ul{columns:2}";

static const char dash[] = "\xe2\x80\x93";

/* A cell: cls its class attribute (with its leading blank) or ""; an
 * empty one as empty says. */
static void html_cell(FILE *f, const char *cls, const char *text, const char *empty)
{
    fprintf(f, "<td%s>", cls);
    rp_html_text(f, text[0] ? text : empty);
    fputs("</td>", f);
}

static const char *cell_class(const rp_cell *cell, bool status)
{
    if (status && (strcmp(cell->text, "failed") == 0 || strcmp(cell->text, "interrupted") == 0))
        return " class=\"failed\"";
    if (status && strcmp(cell->text, "skipped") == 0)
        return " class=\"skipped\"";
    return !isnan(cell->num) ? " class=\"n\"" : "";
}

static void html_table(FILE *f, const rp_table *t)
{
    fputs("<table>", f);
    if (t->title[0]) {
        fputs("<caption>", f);
        rp_html_text(f, t->title);
        fputs("</caption>", f);
    }
    fputs("<tr><th>", f);
    rp_html_text(f, t->key_head);
    fputs("</th>", f);
    for (int c = 0; c < t->ncols; ++c) {
        fputs("<th>", f);
        rp_html_text(f, t->cols[c]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    int status_col = rp_col_index(t, "status");
    for (size_t i = 0; i < t->nrows; ++i) {
        fputs("<tr><td>", f);
        rp_html_text(f, t->rows[i].key);
        fputs("</td>", f);
        for (int c = 0; c < t->ncols; ++c)
            html_cell(f, cell_class(&t->rows[i].cells[c], c == status_col), t->rows[i].cells[c].text, dash);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void html_headlines(FILE *f, const rp_device *d, size_t i)
{
    fputs("<table class=\"headlines\"><tr><th>headline</th><th>value</th><th>peak, limit or reference</th>"
          "<th>flags</th></tr>\n",
          f);
    for (size_t k = 0; k < d->nheadlines; ++k) {
        const rp_headline *h = &d->headlines[k];
        fprintf(f, "<tr><td><a href=\"#device-%zu-%s\">", i, rp_section_slug(h->section));
        rp_html_text(f, h->what);
        fputs("</a></td>", f);
        html_cell(f, "", h->value, dash);
        html_cell(f, "", h->limit, "");
        char flags[2 * sizeof h->flags];
        rp_flags_text(h->flags, flags, sizeof flags);
        html_cell(f, " class=\"flag\"", flags, "");
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* A figure as the report embeds it: a regular file of at most this size
 * that is a whole PNG (report/png.h; an interrupted plot leaves an empty or
 * a cut file: refused, naming it). */
#define RP_PNG_MAX_BYTES ((size_t)64 << 20)

static char *read_png(const char *path, size_t *len, char *err, size_t errlen)
{
    char *bytes = cr_read_bounded(path, RP_PNG_MAX_BYTES, "a figure", len, err, errlen);
    const char *fault = bytes ? rp_png_fault((const unsigned char *)bytes, *len) : NULL;
    if (fault) {
        cr_errf(err, errlen, "%s: not a PNG image (%zu bytes%s%s): draw it again (plot/plot.sh)", path, *len,
                *len ? ", " : "", *len ? fault : "");
        free(bytes);
        return NULL;
    }
    return bytes;
}

/* The vector version beside a figure, where plot.sh drew one: its link. */
static void svg_link(FILE *f, const char *path, const char *pre, const char *png)
{
    char svg[RP_PATH_LEN + 512];
    snprintf(svg, sizeof svg, "%s", path);
    size_t n = strlen(svg);
    if (n <= 4)
        return;
    memcpy(svg + n - 4, ".svg", 4);
    /* Looked at, never opened: a FIFO of that name must not block. */
    struct stat st;
    if (stat(svg, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    fputs(" (<a href=\"", f);
    char name[512];
    snprintf(name, sizeof name, "%s", png);
    memcpy(name + strlen(name) - 4, ".svg", 4);
    rp_link_target(f, pre, name);
    fputs("\">SVG</a>)", f);
}

static int html_figure(FILE *f, const rp_device *d, const char *pre, const char *png, char *err, size_t errlen)
{
    char path[RP_PATH_LEN + 512];
    snprintf(path, sizeof path, "%s/%s", d->path, png);
    size_t len = 0;
    char *bytes = read_png(path, &len, err, errlen);
    if (bytes == NULL)
        return -1;
    char *b64 = malloc(cr_base64_encoded_len(len) + 1);
    if (b64 == NULL) {
        free(bytes);
        return cr_errf(err, errlen, "out of memory");
    }
    cr_base64_encode((const unsigned char *)bytes, len, b64);
    free(bytes);
    fputs("<figure><img alt=\"", f);
    rp_html_text(f, png);
    fputs("\" data-file=\"", f);
    rp_html_text(f, pre);
    rp_html_text(f, png);
    fprintf(f, "\" src=\"data:image/png;base64,%s\"><figcaption>", b64);
    free(b64);
    rp_html_text(f, png);
    svg_link(f, path, pre, png);
    fputs("</figcaption></figure>\n", f);
    return 0;
}

static void html_begin(FILE *f, const rp_run *run)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>crossroof: ", f);
    rp_html_text(f, run->name);
    fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>crossroof characterization: ", css);
    rp_html_text(f, run->name);
    fputs("</h1>\n", f);
}

int rp_render_html(FILE *f, const rp_run *run, char *err, size_t errlen)
{
    static const rp_markup html = {
        .text = rp_html_text,
        .own = rp_html_text,
        .begin = html_begin,
        .end = "</body></html>\n",
        .para_open = "<p>",
        .para_close = "</p>\n",
        .bold_open = "<b>",
        .bold_close = "</b>",
        .failed_open = "<span class=\"failed\">",
        .failed_close = "</span>",
        .part_open = "<h2 id=\"%s\">",
        .part_close = "</h2>\n",
        .device_open = "<h2 id=\"device-%zu\">",
        .device_close = "</h2>\n",
        .section_open = "<h3 id=\"device-%zu-%s\">",
        .section_close = "</h3>\n",
        .sub_open = "<h4 id=\"device-%zu-%s\">",
        .sub_close = "</h4>\n",
        .how_open = "<p class=\"how\"><b>How to read this.</b> ",
        .how_close = "</p>\n",
        .none_open = "<p class=\"none\">",
        .none_close = "</p>\n",
        .list_open = "<ul>\n",
        .item_open = "<li>",
        .item_close = "</li>\n",
        .list_close = "</ul>\n",
        .data_open = "<p class=\"src\">Data:",
        .data_close = "</p>\n",
        .link_open = "<a href=\"",
        .link_mid = "\">",
        .link_close = "</a>",
        .target_first = true,
        .screen_open = "<div class=\"screen\"><div class=\"heads\">\n",
        .lead_open = "</div><div class=\"lead\">\n",
        .lead_close = "</div>",
        .screen_close = "</div>\n",
        .table = html_table,
        .headlines = html_headlines,
        .figure = html_figure,
    };
    return rp_render_document(f, run, &html, err, errlen);
}
