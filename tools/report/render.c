/* The report as Markdown (report.md, links to the figures beside it) and
 * as one self-contained HTML file (report.html: CSS inline, every figure
 * embedded as a base64 data: URI, the CSVs linked by relative path). */
#define _GNU_SOURCE
#include "report/render.h"

#include "csv.h"
#include "error.h"
#include "report/base64.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared ---- */

static size_t count_status(const rp_run *run, const char *status)
{
    size_t n = 0;
    for (size_t i = 0; i < run->log.nrows; ++i)
        n += strcmp(run->log.rows[i].cells[1].text, status) == 0;
    return n;
}

static double total_seconds(const rp_run *run)
{
    double s = 0;
    for (size_t i = 0; i < run->log.nrows; ++i)
        if (isfinite(run->log.rows[i].cells[3].num))
            s += run->log.rows[i].cells[3].num;
    return s;
}

/* The value of a device-table row of the first device that has it. */
static const char *device_fact(const rp_run *run, const char *label)
{
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_table *t = rp_find_table(&run->devices[i].sections[RP_DEVICE], "device");
        const rp_row *r = t ? rp_find_row(t, label) : NULL;
        if (r && r->cells[0].text[0])
            return r->cells[0].text;
    }
    return "";
}

/* quick or full, as run_all.sh recorded it. */
static const char *run_mode(const rp_run *run)
{
    return run->has_log && run->log.nrows ? run->log.rows[0].cells[4].text : "";
}

static bool worth_a_section(const rp_device *d, int s)
{
    const rp_section *sec = &d->sections[s];
    return s != RP_OTHER || sec->ran || sec->notes.n;
}

static void prefix_of(const rp_device *d, char *out, size_t len)
{
    snprintf(out, len, "%s%s", d->dir, d->dir[0] ? "/" : "");
}

/* ---- Markdown ---- */

static void md_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void md_table(FILE *f, const rp_table *t)
{
    if (t->title[0])
        fprintf(f, "**%s**\n\n", t->title);
    fputs("| ", f);
    md_text(f, t->key_head);
    for (int c = 0; c < t->ncols; ++c) {
        fputs(" | ", f);
        md_text(f, t->cols[c]);
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
        md_text(f, t->rows[i].key);
        for (int c = 0; c < t->ncols; ++c) {
            fputs(" | ", f);
            md_text(f, t->rows[i].cells[c].text[0] ? t->rows[i].cells[c].text : "\xe2\x80\x93");
        }
        fputs(" |\n", f);
    }
    fputc('\n', f);
}

static void md_summary(FILE *f, const rp_run *run)
{
    fprintf(f, "# crossroof characterization: %s\n\n", run->name);
    fprintf(f, "Host **%s** (%s; %s), %s. Measured %s%s%s%s.", device_fact(run, "host"), device_fact(run, "CPU"),
            device_fact(run, "OS"), device_fact(run, "topology"), device_fact(run, "date"),
            run_mode(run)[0] ? ", a " : "", run_mode(run), run_mode(run)[0] ? " run" : "");
    if (run->has_log)
        fprintf(f, " %zu benchmark runs: %zu passed, %zu skipped, %zu failed; %.0f s of benchmarks.",
                run->log.nrows, count_status(run, "passed"), count_status(run, "skipped"),
                count_status(run, "failed"), total_seconds(run));
    fputs("\n\n", f);
    for (size_t i = 0; i < run->ndevices; ++i)
        fprintf(f, "- [%s](#device-%zu)\n", run->devices[i].label, i + 1);
    fputc('\n', f);
    if (run->has_log) {
        fputs("## The run\n\n*How to read this.* Every benchmark run_all.sh ran, on which device, how it ended and "
              "how long it took. Skipped: the benchmark found no device of its kind (the reason says why); failed: "
              "it exited with an error or a failed verification, and its results must not be used.\n\n",
              f);
        md_table(f, &run->log);
        fputs("Data: [run-log.csv](run-log.csv)\n\n", f);
    }
}

void rp_render_markdown(FILE *f, const rp_run *run)
{
    md_summary(f, run);
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_device *d = &run->devices[i];
        char pre[300];
        prefix_of(d, pre, sizeof pre);
        fprintf(f, "<a id=\"device-%zu\"></a>\n\n## %s\n\n", i + 1, d->label);
        if (d->dir[0])
            fprintf(f, "Results in `%s/`.\n\n", d->dir);
        for (int s = 0; s < RP_NSECTIONS; ++s) {
            const rp_section *sec = &d->sections[s];
            if (!worth_a_section(d, s))
                continue;
            fprintf(f, "### %s\n\n", rp_section_title((rp_section_id)s));
            if (!sec->ran)
                fprintf(f, "%s\n\n", s == RP_DEVICE ? "No benchmark left metadata here." : "Did not run on this device.");
            else
                fprintf(f, "*How to read this.* %s\n\n", rp_how_to_read((rp_section_id)s));
            for (size_t k = 0; k < sec->ntables; ++k)
                md_table(f, &sec->tables[k]);
            for (size_t k = 0; k < sec->notes.n; ++k)
                fprintf(f, "- %s\n%s", sec->notes.v[k], k + 1 == sec->notes.n ? "\n" : "");
            if (sec->sources.n) {
                fputs("Data:", f);
                for (size_t k = 0; k < sec->sources.n; ++k)
                    fprintf(f, "%s [%s](%s%s)", k ? "," : "", sec->sources.v[k], pre, sec->sources.v[k]);
                fputs("\n\n", f);
            }
            for (size_t k = 0; k < sec->figures.n; ++k)
                fprintf(f, "![%s](%s%s)\n\n", sec->figures.v[k], pre, sec->figures.v[k]);
        }
    }
}

/* ---- HTML ---- */

static void html_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1500px;margin:1.5em auto;"
    "padding:0 1.5em;color:#1d1d1d;line-height:1.45}"
    "h1{font-size:1.7em;border-bottom:2px solid #4a7fb5;padding-bottom:.2em}"
    "h2{font-size:1.4em;margin-top:2.2em;border-bottom:1px solid #ccc;padding-bottom:.15em}"
    "h3{font-size:1.15em;margin-top:1.8em;color:#24527a}"
    "table{border-collapse:collapse;margin:.4em 0 1.2em;font-size:.88em}"
    "caption{text-align:left;font-weight:600;padding:.2em 0}"
    "th,td{border:1px solid #d0d0d0;padding:.22em .6em;vertical-align:top}"
    "th{background:#eef3f8;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "tr:nth-child(even) td{background:#fafafa}"
    ".how{background:#f5f8fb;border-left:4px solid #4a7fb5;padding:.5em .9em;margin:.6em 0 1em}"
    ".none{color:#777;font-style:italic}.failed{color:#b00020;font-weight:600}.skipped{color:#8a6d00}"
    "figure{margin:1em 0 1.6em}figure img{max-width:100%;border:1px solid #ddd}"
    "figcaption{font-size:.85em;color:#555}.src{font-size:.85em;color:#555}nav ul{columns:2}";

static void html_table(FILE *f, const rp_table *t)
{
    fputs("<table>", f);
    if (t->title[0]) {
        fputs("<caption>", f);
        html_text(f, t->title);
        fputs("</caption>", f);
    }
    fputs("<tr><th>", f);
    html_text(f, t->key_head);
    fputs("</th>", f);
    for (int c = 0; c < t->ncols; ++c) {
        fputs("<th>", f);
        html_text(f, t->cols[c]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    int status_col = rp_col_index(t, "status");
    for (size_t i = 0; i < t->nrows; ++i) {
        fputs("<tr><td>", f);
        html_text(f, t->rows[i].key);
        fputs("</td>", f);
        for (int c = 0; c < t->ncols; ++c) {
            const rp_cell *cell = &t->rows[i].cells[c];
            const char *cls = !isnan(cell->num) ? " class=\"n\"" : "";
            if (c == status_col && strcmp(cell->text, "failed") == 0)
                cls = " class=\"failed\"";
            else if (c == status_col && strcmp(cell->text, "skipped") == 0)
                cls = " class=\"skipped\"";
            fprintf(f, "<td%s>", cls);
            html_text(f, cell->text[0] ? cell->text : "\xe2\x80\x93");
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* Reads a whole file; NULL with errno set on failure. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (cap - n < 65536) {
            cap = cap ? 2 * cap : 262144;
            unsigned char *nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(in);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(in);
    fclose(in);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    *len = n;
    return buf;
}

static int html_figure(FILE *f, const rp_device *d, const char *pre, const char *png, char *err, size_t errlen)
{
    char path[RP_PATH_LEN + 512];
    snprintf(path, sizeof path, "%s/%s", d->path, png);
    size_t len = 0;
    unsigned char *bytes = slurp(path, &len);
    if (bytes == NULL)
        return cr_errf(err, errlen, "%s: %s", path, strerror(errno));
    char *b64 = malloc(cr_base64_encoded_len(len) + 1);
    if (b64 == NULL) {
        free(bytes);
        return cr_errf(err, errlen, "out of memory");
    }
    cr_base64_encode(bytes, len, b64);
    free(bytes);
    fputs("<figure><img alt=\"", f);
    html_text(f, png);
    fputs("\" data-file=\"", f);
    html_text(f, pre);
    html_text(f, png);
    fprintf(f, "\" src=\"data:image/png;base64,%s\"><figcaption>", b64);
    free(b64);
    html_text(f, png);
    /* The vector version beside it, where plot.sh drew one. */
    char svg[RP_PATH_LEN + 512];
    snprintf(svg, sizeof svg, "%s", path);
    size_t n = strlen(svg);
    if (n > 4) {
        memcpy(svg + n - 4, ".svg", 4);
        FILE *probe = fopen(svg, "rb");
        if (probe) {
            fclose(probe);
            fputs(" (<a href=\"", f);
            html_text(f, pre);
            char name[512];
            snprintf(name, sizeof name, "%s", png);
            memcpy(name + strlen(name) - 4, ".svg", 4);
            html_text(f, name);
            fputs("\">SVG</a>)", f);
        }
    }
    fputs("</figcaption></figure>\n", f);
    return 0;
}

int rp_render_html(FILE *f, const rp_run *run, char *err, size_t errlen)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>crossroof: ", f);
    html_text(f, run->name);
    fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>crossroof characterization: ", css);
    html_text(f, run->name);
    fputs("</h1>\n<p>Host <b>", f);
    html_text(f, device_fact(run, "host"));
    fputs("</b> (", f);
    html_text(f, device_fact(run, "CPU"));
    fputs("; ", f);
    html_text(f, device_fact(run, "OS"));
    fputs("), ", f);
    html_text(f, device_fact(run, "topology"));
    fputs(". Measured ", f);
    html_text(f, device_fact(run, "date"));
    if (run_mode(run)[0]) {
        fputs(", a ", f);
        html_text(f, run_mode(run));
        fputs(" run", f);
    }
    fputs(".", f);
    if (run->has_log)
        fprintf(f, " %zu benchmark runs: %zu passed, %zu skipped, <span%s>%zu failed</span>; %.0f s of benchmarks.",
                run->log.nrows, count_status(run, "passed"), count_status(run, "skipped"),
                count_status(run, "failed") ? " class=\"failed\"" : "", count_status(run, "failed"),
                total_seconds(run));
    fputs("</p>\n<nav><ul>\n", f);
    for (size_t i = 0; i < run->ndevices; ++i) {
        fprintf(f, "<li><a href=\"#device-%zu\">", i + 1);
        html_text(f, run->devices[i].label);
        fputs("</a></li>\n", f);
    }
    fputs("</ul></nav>\n", f);
    if (run->has_log) {
        fputs("<h2>The run</h2>\n<p class=\"how\"><b>How to read this.</b> Every benchmark run_all.sh ran, on which "
              "device, how it ended and how long it took. Skipped: the benchmark found no device of its kind (the "
              "reason says why); failed: it exited with an error or a failed verification, and its results must "
              "not be used.</p>\n",
              f);
        html_table(f, &run->log);
        fputs("<p class=\"src\">Data: <a href=\"run-log.csv\">run-log.csv</a></p>\n", f);
    }
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_device *d = &run->devices[i];
        char pre[300];
        prefix_of(d, pre, sizeof pre);
        fprintf(f, "<h2 id=\"device-%zu\">", i + 1);
        html_text(f, d->label);
        fputs("</h2>\n", f);
        if (d->dir[0]) {
            fputs("<p class=\"src\">Results in <code>", f);
            html_text(f, d->dir);
            fputs("/</code></p>\n", f);
        }
        for (int s = 0; s < RP_NSECTIONS; ++s) {
            const rp_section *sec = &d->sections[s];
            if (!worth_a_section(d, s))
                continue;
            fprintf(f, "<h3 id=\"device-%zu-%s\">", i + 1, rp_section_slug((rp_section_id)s));
            html_text(f, rp_section_title((rp_section_id)s));
            fputs("</h3>\n", f);
            if (!sec->ran) {
                fprintf(f, "<p class=\"none\">%s</p>\n",
                        s == RP_DEVICE ? "No benchmark left metadata here." : "Did not run on this device.");
            } else {
                fputs("<p class=\"how\"><b>How to read this.</b> ", f);
                html_text(f, rp_how_to_read((rp_section_id)s));
                fputs("</p>\n", f);
            }
            for (size_t k = 0; k < sec->ntables; ++k)
                html_table(f, &sec->tables[k]);
            if (sec->notes.n) {
                fputs("<ul>\n", f);
                for (size_t k = 0; k < sec->notes.n; ++k) {
                    fputs("<li>", f);
                    html_text(f, sec->notes.v[k]);
                    fputs("</li>\n", f);
                }
                fputs("</ul>\n", f);
            }
            if (sec->sources.n) {
                fputs("<p class=\"src\">Data:", f);
                for (size_t k = 0; k < sec->sources.n; ++k) {
                    fputs(k ? ", <a href=\"" : " <a href=\"", f);
                    html_text(f, pre);
                    html_text(f, sec->sources.v[k]);
                    fputs("\">", f);
                    html_text(f, sec->sources.v[k]);
                    fputs("</a>", f);
                }
                fputs("</p>\n", f);
            }
            for (size_t k = 0; k < sec->figures.n; ++k)
                if (html_figure(f, d, pre, sec->figures.v[k], err, errlen) != 0)
                    return -1;
        }
    }
    fputs("</body></html>\n", f);
    return 0;
}

/* ---- both files ---- */

static int md_writer(FILE *f, void *ctx)
{
    rp_render_markdown(f, ctx);
    return ferror(f) ? -1 : 0;
}

typedef struct {
    const rp_run *run;
    char *err;
    size_t errlen;
} html_ctx;

static int html_writer(FILE *f, void *ctx)
{
    html_ctx *h = ctx;
    if (rp_render_html(f, h->run, h->err, h->errlen) != 0)
        return -1;
    return ferror(f) ? -1 : 0;
}

int rp_write_reports(const rp_run *run, char *err, size_t errlen)
{
    char path[RP_PATH_LEN + 32], why[512] = "";
    snprintf(path, sizeof path, "%s/report.md", run->path);
    if (cr_write_atomic(path, md_writer, (void *)run, err, errlen) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/report.html", run->path);
    html_ctx h = {run, why, sizeof why};
    if (cr_write_atomic(path, html_writer, &h, err, errlen) != 0) {
        if (why[0])
            snprintf(err, errlen, "%s", why);
        return -1;
    }
    return 0;
}
