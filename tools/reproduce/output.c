#define _GNU_SOURCE
#include "reproduce/output.h"

#include "csv.h"
#include "shared/md_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int write_verdicts(FILE *f, void *p)
{
    const rr_device_result *c = p;
    fputs("target,title,source,page,claim,verdict,rule,this_device,reason,evidence,flags\n", f);
    for (size_t t = 0; t < rr_target_count(); ++t) {
        const rr_claim *cl = rr_claim_of(c->thesis, rr_target_at(t)->id);
        const rr_outcome *o = &c->outcomes[t];
        const char *v[] = {rr_target_at(t)->id, cl ? cl->title : "", cl ? cl->source : "", cl ? cl->page : "",
                           cl ? cl->claim : "", rr_verdict_name(o->verdict), o->rule, o->this_device, o->reason,
                           o->evidence, o->flags};
        cr_csv_record(f, v, sizeof v / sizeof *v);
    }
    return ferror(f) ? -1 : 0;
}

static const char *number(char *buf, size_t len, double v)
{
    buf[0] = '\0';
    if (isfinite(v))
        snprintf(buf, len, "%.6g", v);
    return buf;
}

static int write_values(FILE *f, void *p)
{
    const rr_device_result *c = p;
    fputs("target,quantity,key,thesis,run,unit,basis,thesis_source\n", f);
    for (size_t t = 0; t < rr_target_count(); ++t)
        for (size_t k = 0; k < c->outcomes[t].npairs; ++k) {
            const rr_pair *q = &c->outcomes[t].pairs[k];
            char a[32], b[32];
            const char *v[] = {rr_target_at(t)->id, q->quantity, q->key, number(a, sizeof a, q->thesis),
                               number(b, sizeof b, q->run), q->unit, q->basis, q->source};
            cr_csv_record(f, v, sizeof v / sizeof *v);
        }
    return ferror(f) ? -1 : 0;
}

int rr_write_device(const char *dir, const rr_device_result *r, char *err, size_t errlen)
{
    /* The verdicts and their values appear together. */
    char values[4200], verdicts[4200];
    snprintf(values, sizeof values, "%s/reproduce-values.csv", dir);
    snprintf(verdicts, sizeof verdicts, "%s/reproduce.csv", dir);
    const cr_file_out files[] = {{values, write_values, (void *)r}, {verdicts, write_verdicts, (void *)r}};
    return cr_write_together(files, 2, err, errlen);
}

void rr_count(const rr_device_result *devices, size_t ndevices, size_t counts[RR_NVERDICTS])
{
    memset(counts, 0, RR_NVERDICTS * sizeof *counts);
    for (size_t d = 0; d < ndevices; ++d)
        for (size_t t = 0; t < rr_target_count(); ++t)
            counts[devices[d].outcomes[t].verdict]++;
}

/* An anchor the page can link to: the device's index and the target's. */
static void anchor(char *buf, size_t len, size_t device, size_t target)
{
    snprintf(buf, len, "d%zu-%s", device, rr_target_at(target)->id);
    for (char *p = buf; *p; ++p)
        if (*p == '.')
            *p = '-';
}

static void summary_table(FILE *f, const rr_thesis *th, const rr_device_result *r, size_t index)
{
    fputs("| target | the thesis's claim | this device | verdict |\n|---|---|---|---|\n", f);
    for (size_t t = 0; t < rr_target_count(); ++t) {
        const rr_claim *cl = rr_claim_of(th, rr_target_at(t)->id);
        char a[96];
        anchor(a, sizeof a, index, t);
        fputs("| [", f);
        cr_md_text(f, cl ? cl->title : rr_target_at(t)->id);
        fprintf(f, "](#%s) | ", a);
        cr_md_text(f, cl ? cl->claim : "");
        fputs(" | ", f);
        cr_md_text(f, r->outcomes[t].this_device[0] ? r->outcomes[t].this_device : "-");
        fprintf(f, " | **%s** |\n", rr_verdict_name(r->outcomes[t].verdict));
    }
}

static void values_table(FILE *f, const rr_outcome *o)
{
    if (o->npairs == 0)
        return;
    fputs("\n| quantity | of | thesis | this device | in terms of | thesis source |\n|---|---|---:|---:|---|---|\n", f);
    for (size_t k = 0; k < o->npairs; ++k) {
        const rr_pair *q = &o->pairs[k];
        char a[32], b[32];
        const char *cells[] = {q->quantity, q->key, number(a, sizeof a, q->thesis), number(b, sizeof b, q->run),
                               q->basis, q->source};
        for (size_t c = 0; c < sizeof cells / sizeof *cells; ++c) {
            fputs("| ", f);
            cr_md_text(f, *cells[c] ? cells[c] : "-");
            fputc(' ', f);
        }
        fputs("|\n", f);
    }
}

static void line(FILE *f, const char *label, const char *text)
{
    fprintf(f, "%s: ", label);
    cr_md_text(f, *text ? text : "-");
    fputs("\n\n", f);
}

static void target_section(FILE *f, const rr_thesis *th, const rr_device_result *r, size_t index, size_t t)
{
    const rr_claim *cl = rr_claim_of(th, rr_target_at(t)->id);
    const rr_outcome *o = &r->outcomes[t];
    char a[96];
    anchor(a, sizeof a, index, t);
    fprintf(f, "<a id=\"%s\"></a>\n### ", a);
    cr_md_text(f, cl ? cl->title : rr_target_at(t)->id);
    fprintf(f, "\n\n**%s**. ", rr_verdict_name(o->verdict));
    cr_md_text(f, o->reason);
    fputs("\n\n", f);
    if (cl) {
        char thesis[1200];
        snprintf(thesis, sizeof thesis, "%s (%s, p. %s)", cl->claim, cl->source, cl->page);
        line(f, "The thesis", thesis);
    }
    line(f, "Rule", o->rule);
    line(f, "Evidence (file:line of this device's CSVs)", o->evidence);
    if (*o->flags)
        line(f, "Flags of the rows it rests on", o->flags);
    values_table(f, o);
    fputc('\n', f);
}

void rr_write_markdown(FILE *f, const char *run_name, const rr_thesis *th, const rr_device_result *devices,
                       size_t ndevices)
{
    size_t counts[RR_NVERDICTS];
    rr_count(devices, ndevices, counts);
    fputs("# The theses against ", f);
    cr_md_text(f, run_name);
    fprintf(f, "\n\n%zu target(s) on %zu device(s): ", rr_target_count(), ndevices);
    for (int v = 0; v < RR_NVERDICTS; ++v)
        fprintf(f, "%s%s: %zu", v ? ", " : "", rr_verdict_name((rr_verdict)v), counts[v]);
    fputs(". Each verdict follows its stated rule; each thesis value is cited to its table or figure, page and "
          "line of the thesis text (results/reference/thesis-values.csv), each of this device's numbers to the "
          "line of its CSV.\n\n",
          f);
    if (ndevices == 0)
        fputs("No device directory of this run holds a benchmark's results: nothing was measured to hold "
              "against the theses.\n",
              f);
    for (size_t d = 0; d < ndevices; ++d) {
        fputs("## ", f);
        cr_md_text(f, devices[d].name);
        fputs("\n\n", f);
        summary_table(f, th, &devices[d], d);
        fputc('\n', f);
        for (size_t t = 0; t < rr_target_count(); ++t)
            target_section(f, th, &devices[d], d, t);
    }
}
