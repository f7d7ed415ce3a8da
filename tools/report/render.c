/* The report as Markdown (report.md, links to the figures beside it) and
 * as one self-contained HTML file (report.html: CSS inline, every figure
 * embedded as a base64 data: URI, the CSVs linked by relative path). */
#define _GNU_SOURCE
#include "report/render.h"

#include "csv.h"
#include "error.h"
#include "report/backends.h"
#include "report/base64.h"
#include "report/registry.h"

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
        const rp_table *t = rp_find_table(&run->devices[i].sections[RP_DEVICE_SECTION], "device");
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
    /* Sections of tools that may not have run on an older run: only with their results. */
    return !rp_section_only_with_results(s) || sec->ran || sec->notes.n;
}

/* "Host H (CPU; OS), topology. Measured DATE, a MODE run.": the facts
 * through text (the format's escaping), the host's name in bold. */
static void host_sentence(FILE *f, const rp_run *run, void (*text)(FILE *, const char *), const char *bold,
                          const char *unbold)
{
    fprintf(f, "Host %s", bold);
    text(f, device_fact(run, "host"));
    fprintf(f, "%s (", unbold);
    text(f, device_fact(run, "CPU"));
    fputs("; ", f);
    text(f, device_fact(run, "OS"));
    fputs("), ", f);
    text(f, device_fact(run, "topology"));
    fputs(". Measured ", f);
    text(f, device_fact(run, "date"));
    if (run_mode(run)[0]) {
        fputs(", a ", f);
        text(f, run_mode(run));
        fputs(" run", f);
    }
    fputs(".", f);
}

static void prefix_of(const rp_device *d, char *out, size_t len)
{
    snprintf(out, len, "%s%s", d->dir, d->dir[0] ? "/" : "");
}

/* What the Peers section's table says, in both formats. */
static const char peers_how_to_read[] =
    "crossroof beside the suites it means to beat, run by tools/peers.sh on the same device in slices that "
    "alternate which suite goes first: BabelStream's CUDA build beside stream-cuda's fixed sweep (best and mean "
    "times, as GB/s of BabelStream's byte count), nvbandwidth beside bandwidth-cuda's copies at its buffer size "
    "(medians, each copy's bytes counted once, crossroof's duplex figure halved to nvbandwidth's one measured "
    "direction). Ratio = crossroof's GB/s / the peer's: above 1 where crossroof is faster. A ratio far from 1 "
    "says the two suites measure the same work differently; flagged rows say why.";

/* The Peers section's markup in one format: what opens it up to how to
 * read it, what closes that, the link to its data, and how text and the
 * table are written. */
typedef struct {
    const char *open, *how_close, *data;
    void (*text)(FILE *f, const char *s);
    void (*table)(FILE *f, const rp_table *t);
} peers_markup;

static void render_peers(FILE *f, const rp_run *run, const peers_markup *m)
{
    if (!run->has_peers)
        return;
    fputs(m->open, f);
    m->text(f, peers_how_to_read);
    fputs(m->how_close, f);
    m->table(f, &run->peers);
    fputs(m->data, f);
}

/* ---- Markdown ---- */

/* A character and what a format writes for it. */
typedef struct {
    char c;
    const char *as;
} escape;

/* Markdown's own text goes as it is written. */
static void plain_text(FILE *f, const char *s)
{
    fputs(s, f);
}

static void escaped(FILE *f, const char *s, const escape *e, size_t n)
{
    for (; *s; ++s) {
        size_t k = 0;
        while (k < n && e[k].c != *s)
            ++k;
        if (k < n)
            fputs(e[k].as, f);
        else
            fputc(*s, f);
    }
}

/* Text from the results, in Markdown: one line, no cell border, no link
 * (brackets as entities: "x](y" would end a link's text), and no HTML
 * (Markdown passes tags through to the page it becomes). */
static void md_text(FILE *f, const char *s)
{
    static const escape md[] = {{'|', "\\|"},   {'<', "&lt;"},   {'>', "&gt;"}, {'&', "&amp;"},
                                {'[', "&#91;"}, {']', "&#93;"}, {'\n', " "},  {'\r', " "}};
    escaped(f, s, md, sizeof md / sizeof md[0]);
}

/* A link's target, a path relative to the run directory: every byte but
 * letters, digits, "-._~" and '/' percent-encoded (RFC 3986), so that a
 * name with quotes, brackets, blanks or a colon stays one relative link,
 * in an HTML attribute as in Markdown. */
static void url_path(FILE *f, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~/", c))
            fputc(c, f);
        else
            fprintf(f, "%%%c%c", hex[c >> 4], hex[c & 15]);
    }
}

/* The target of a link to a device's file: its directory prefix, then the
 * name. */
static void link_target(FILE *f, const char *pre, const char *name)
{
    url_path(f, pre);
    url_path(f, name);
}

static void md_table(FILE *f, const rp_table *t)
{
    if (t->title[0]) {
        fputs("**", f);
        md_text(f, t->title);
        fputs("**\n\n", f);
    }
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

/* A GPU measured through CUDA and OpenCL in one run: its headline numbers
 * side by side, after the run log, in either format. */
static void render_backends(FILE *f, const rp_run *run, const char *head, const char *how_open,
                            const char *how_close, void (*table)(FILE *, const rp_table *))
{
    rp_section pairs;
    memset(&pairs, 0, sizeof pairs);
    if (rp_backend_tables(run, &pairs) == 0)
        return;
    fputs(head, f);
    fputs(how_open, f);
    fputs("Each device below was measured through two APIs in this run. Every headline number both hold, with "
          "the second API's value divided by the first's: above 1 the second is larger (faster for bandwidths "
          "and throughputs, slower for latencies). The same hardware, so a ratio far from 1 is what one API's "
          "compiler, runtime or timer costs.",
          f);
    fputs(how_close, f);
    for (size_t k = 0; k < pairs.ntables; ++k) {
        table(f, &pairs.tables[k]);
        rp_table_free(&pairs.tables[k]);
    }
}
static const peers_markup md_peers = {"## Peers\n\n*How to read this.* ", "\n\n",
                                      "Data: [peers/peers.csv](peers/peers.csv)\n\n", plain_text, md_table};

static void md_summary(FILE *f, const rp_run *run)
{
    fputs("# crossroof characterization: ", f);
    md_text(f, run->name);
    fputs("\n\n", f);
    host_sentence(f, run, md_text, "**", "**");
    if (run->has_log)
        fprintf(f, " %zu benchmark runs: %zu passed, %zu skipped, %zu failed; %.0f s of benchmarks.",
                run->log.nrows, count_status(run, "passed"), count_status(run, "skipped"),
                count_status(run, "failed"), total_seconds(run));
    fputs("\n\n", f);
    for (size_t i = 0; i < run->ndevices; ++i) {
        fputs("- [", f);
        md_text(f, run->devices[i].label);
        fprintf(f, "](#device-%zu)\n", i + 1);
    }
    fputc('\n', f);
    if (run->has_log) {
        fputs("## The run\n\n*How to read this.* Every benchmark run_all.sh ran, on which device, how it ended and "
              "how long it took. Skipped: the benchmark found no device of its kind (the reason says why); failed: "
              "it exited with an error or a failed verification, and its results must not be used.\n\n",
              f);
        md_table(f, &run->log);
        fputs("Data: [run-log.csv](run-log.csv)\n\n", f);
    }
    render_backends(f, run, "## One device, two APIs\n\n", "*How to read this.* ", "\n\n", md_table);
    render_peers(f, run, &md_peers);
}

/* ---- the walk over devices and sections, in either format ---- */

/* How each part of a device's sections is marked up: the walk over them
 * (render_devices) is the same for both formats, and so is the order of
 * the parts; only the markup around each and the escaping of text differ. */
typedef struct {
    void (*text)(FILE *f, const char *s); /* text from outside the report, escaped */
    void (*own)(FILE *f, const char *s);  /* the report's own text */
    const char *device_open;  /* a format: %zu the device's number */
    const char *device_close;
    const char *results_open; /* around the device's directory */
    const char *results_close;
    const char *section_open; /* a format: %zu the device's number, %s the section's slug */
    const char *section_close;
    const char *how_open, *how_close;   /* around how to read a section */
    const char *none_open, *none_close; /* around why it is empty */
    const char *list_open, *item_open, *item_close, *list_close;
    const char *data_open, *data_close; /* around the links to the CSVs */
    const char *link_open, *link_mid, *link_close;
    bool target_first; /* the link's target between open and mid, else its text */
    void (*table)(FILE *f, const rp_table *t);
    int (*figure)(FILE *f, const rp_device *d, const char *pre, const char *png, char *err, size_t errlen);
} markup;

static const char *why_empty(int s)
{
    return s == RP_DEVICE_SECTION ? "No benchmark left metadata here." : "Did not run on this device.";
}

static void wrapped(FILE *f, void (*text)(FILE *, const char *), const char *open, const char *s, const char *close)
{
    fputs(open, f);
    text(f, s);
    fputs(close, f);
}

static void link(FILE *f, const markup *m, const char *pre, const char *name)
{
    fputs(m->link_open, f);
    if (m->target_first)
        link_target(f, pre, name);
    else
        m->text(f, name);
    fputs(m->link_mid, f);
    if (m->target_first)
        m->text(f, name);
    else
        link_target(f, pre, name);
    fputs(m->link_close, f);
}

static int render_section(FILE *f, const markup *m, size_t i, const rp_device *d, const char *pre, int s)
{
    const rp_section *sec = &d->sections[s];
    fprintf(f, m->section_open, i + 1, rp_section_slug(s));
    wrapped(f, m->own, "", rp_section_title(s), m->section_close);
    if (sec->ran)
        wrapped(f, m->own, m->how_open, rp_how_to_read(s), m->how_close);
    else
        wrapped(f, m->own, m->none_open, why_empty(s), m->none_close);
    for (size_t k = 0; k < sec->ntables; ++k)
        m->table(f, &sec->tables[k]);
    if (sec->notes.n) {
        fputs(m->list_open, f);
        for (size_t k = 0; k < sec->notes.n; ++k)
            wrapped(f, m->text, m->item_open, sec->notes.v[k], m->item_close);
        fputs(m->list_close, f);
    }
    if (sec->sources.n) {
        fputs(m->data_open, f);
        for (size_t k = 0; k < sec->sources.n; ++k) {
            fputs(k ? ", " : " ", f);
            link(f, m, pre, sec->sources.v[k]);
        }
        fputs(m->data_close, f);
    }
    return 0;
}

static int render_devices(FILE *f, const rp_run *run, const markup *m, char *err, size_t errlen)
{
    for (size_t i = 0; i < run->ndevices; ++i) {
        const rp_device *d = &run->devices[i];
        char pre[300];
        prefix_of(d, pre, sizeof pre);
        fprintf(f, m->device_open, i + 1);
        wrapped(f, m->text, "", d->label, m->device_close);
        if (d->dir[0])
            wrapped(f, m->text, m->results_open, d->dir, m->results_close);
        for (int s = 0; s < rp_nsections(); ++s) {
            if (!worth_a_section(d, s))
                continue;
            render_section(f, m, i, d, pre, s);
            const rp_strings *figures = &d->sections[s].figures;
            for (size_t k = 0; k < figures->n; ++k)
                if (m->figure(f, d, pre, figures->v[k], err, errlen) != 0)
                    return -1;
        }
    }
    return 0;
}

/* ---- Markdown's parts ---- */

static int md_figure(FILE *f, const rp_device *d, const char *pre, const char *png, char *err, size_t errlen)
{
    (void)d, (void)err, (void)errlen;
    fputs("![", f);
    md_text(f, png);
    fputs("](", f);
    link_target(f, pre, png);
    fputs(")\n\n", f);
    return 0;
}

void rp_render_markdown(FILE *f, const rp_run *run)
{
    static const markup md = {
        .text = md_text,
        .own = plain_text,
        .device_open = "<a id=\"device-%zu\"></a>\n\n## ",
        .device_close = "\n\n",
        .results_open = "Results in ",
        .results_close = "/.\n\n",
        .section_open = "### ",
        .section_close = "\n\n",
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
        .table = md_table,
        .figure = md_figure,
    };
    md_summary(f, run);
    render_devices(f, run, &md, NULL, 0); /* nothing in Markdown fails */
}

/* ---- HTML ---- */

static void html_text(FILE *f, const char *s)
{
    static const escape html[] = {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}};
    escaped(f, s, html, sizeof html / sizeof html[0]);
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
            char name[512];
            snprintf(name, sizeof name, "%s", png);
            memcpy(name + strlen(name) - 4, ".svg", 4);
            link_target(f, pre, name);
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
    fputs("</h1>\n<p>", f);
    host_sentence(f, run, html_text, "<b>", "</b>");
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
    render_backends(f, run, "<h2>One device, two APIs</h2>\n", "<p class=\"how\"><b>How to read this.</b> ",
                    "</p>\n", html_table);
    static const peers_markup html_peers = {
        "<h2 id=\"peers\">Peers</h2>\n<p class=\"how\"><b>How to read this.</b> ", "</p>\n",
        "<p class=\"src\">Data: <a href=\"peers/peers.csv\">peers/peers.csv</a></p>\n", html_text, html_table};
    render_peers(f, run, &html_peers);
    static const markup html = {
        .text = html_text,
        .own = html_text,
        .device_open = "<h2 id=\"device-%zu\">",
        .device_close = "</h2>\n",
        .results_open = "<p class=\"src\">Results in <code>",
        .results_close = "/</code></p>\n",
        .section_open = "<h3 id=\"device-%zu-%s\">",
        .section_close = "</h3>\n",
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
        .table = html_table,
        .figure = html_figure,
    };
    if (render_devices(f, run, &html, err, errlen) != 0)
        return -1;
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
