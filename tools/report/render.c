/* Both files of the report, each written whole or not at all. The formats
 * are render_md.c and render_html.c, the document they share render_doc.c. */
#include "report/render.h"

#include "csv.h"

#include <stdio.h>

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
    /* Both appear together or neither does: a new report.md beside an older
     * report.html (or none) would be two reports of two states. The HTML is
     * the one a figure can refuse (embedded, each must be a PNG). */
    char html_path[RP_PATH_LEN + 32], md_path[RP_PATH_LEN + 32], why[512] = "";
    snprintf(html_path, sizeof html_path, "%s/report.html", run->path);
    snprintf(md_path, sizeof md_path, "%s/report.md", run->path);
    html_ctx h = {run, why, sizeof why};
    const cr_file_out files[] = {{html_path, html_writer, &h}, {md_path, md_writer, (void *)run}};
    if (cr_write_together(files, 2, err, errlen) != 0) {
        if (why[0])
            snprintf(err, errlen, "%s", why);
        return -1;
    }
    return 0;
}
