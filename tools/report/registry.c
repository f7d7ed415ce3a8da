/* The sections of the report, from the parts in build/gen/report_parts.c:
 * built once, on first use, and checked then (a part that fills a section
 * no part defines is a fault of the build, said as such). */
#include "report/registry.h"
#include "shared/names.h"

#include "error.h"
#include "shared/descriptors.h"

#include <string.h>

#define MAX_PARTS 64

typedef struct {
    const char *slug, *title, *how;
    bool only_with_results;
} kind;

static const kind device_kind = {
    "device", "Device and host",
    "What the run ran on, from the metadata every benchmark records beside its CSV. The benchmarks table says what "
    "ran on this device, how long it took and how many of its rows failed verification: an invalid row is a "
    "measurement whose kernel output did not check out, and no number of it should be used. A skipped benchmark "
    "found no device of its kind; the note says why.",
    false};
static const kind other_kind = {"other", "Other results",
                                "Results this report has no headline table for: each CSV with its row count and "
                                "how many rows failed verification, and its figures.",
                                true};

static struct {
    kind kinds[RP_MAX_SECTIONS];
    int nkinds;
    const rp_part *parts[MAX_PARTS];
    int section[MAX_PARTS];
    size_t nparts;
} reg;

static const char *slug_of(const rp_part *p)
{
    return p->section ? p->section : p->name;
}

static int find_kind(const char *slug)
{
    for (int s = 0; s < reg.nkinds; ++s)
        if (strcmp(reg.kinds[s].slug, slug) == 0)
            return s;
    return -1;
}

static void add_part(const rp_part *p)
{
    if (reg.nparts == MAX_PARTS)
        cr_die("report", 1, "more than %d report parts", MAX_PARTS);
    size_t j = reg.nparts++;
    for (; j > 0 && reg.parts[j - 1]->rank > p->rank; --j)
        reg.parts[j] = reg.parts[j - 1];
    reg.parts[j] = p;
}

/* A benchmark with no part of its own (no report_section.c) has its files
 * listed in the section its descriptor names; where that is its own
 * section, the descriptor's titles head it. */
static void add_descriptor_parts(void)
{
    static rp_part made[MAX_PARTS];
    size_t n = 0;
    for (size_t d = 0; d < cr_ndescriptors && n < MAX_PARTS; ++d) {
        const cr_descriptor *b = &cr_descriptors[d];
        bool has_part = false;
        for (size_t i = 0; rp_parts[i] && !has_part; ++i)
            has_part = strcmp(rp_parts[i]->name, b->name) == 0;
        if (has_part)
            continue;
        bool own = strcmp(b->report_section, b->name) == 0;
        made[n] = (rp_part){.name = b->name, .section = b->report_section, .rank = 1000 + b->order,
                            .extract = rp_extract_input};
        if (own) {
            made[n].title = b->report_title ? b->report_title : b->title;
            made[n].how = b->title;
            made[n].only_with_results = true;
        }
        add_part(&made[n++]);
    }
}

/* The parts by rank; of one rank, in the table's order. */
static void sort_parts(void)
{
    for (size_t i = 0; rp_parts[i]; ++i)
        add_part(rp_parts[i]);
    add_descriptor_parts();
}

static void add_kind(const kind *k)
{
    if (reg.nkinds == RP_MAX_SECTIONS)
        cr_die("report", 1, "more than %d report sections", RP_MAX_SECTIONS);
    if (find_kind(k->slug) >= 0)
        cr_die("report", 1, "two report parts define the section '%s'", k->slug);
    reg.kinds[reg.nkinds++] = *k;
}

static void build(void)
{
    if (reg.nkinds)
        return;
    sort_parts();
    add_kind(&device_kind);
    for (size_t k = 0; k < reg.nparts; ++k) {
        const rp_part *p = reg.parts[k];
        if (p->title)
            add_kind(&(kind){slug_of(p), p->title, p->how ? p->how : "", p->only_with_results});
    }
    add_kind(&other_kind);
    for (size_t k = 0; k < reg.nparts; ++k) {
        reg.section[k] = find_kind(slug_of(reg.parts[k]));
        if (reg.section[k] < 0)
            cr_die("report", 1, "the report part '%s' fills the section '%s', which no part defines",
                   reg.parts[k]->name, slug_of(reg.parts[k]));
    }
}

int rp_nsections(void)
{
    build();
    return reg.nkinds;
}

const char *rp_section_slug(int s)
{
    build();
    return reg.kinds[s].slug;
}

const char *rp_section_title(int s)
{
    build();
    return reg.kinds[s].title;
}

const char *rp_how_to_read(int s)
{
    build();
    return reg.kinds[s].how;
}

bool rp_section_only_with_results(int s)
{
    build();
    return reg.kinds[s].only_with_results;
}

int rp_section_index(const char *slug)
{
    build();
    return find_kind(slug);
}

int rp_other_section(void)
{
    build();
    return reg.nkinds - 1;
}

size_t rp_nparts(void)
{
    build();
    return reg.nparts;
}

const rp_part *rp_part_at(size_t k)
{
    build();
    return reg.parts[k];
}

int rp_part_section(const rp_part *p)
{
    build();
    for (size_t k = 0; k < reg.nparts; ++k)
        if (reg.parts[k] == p)
            return reg.section[k];
    return rp_other_section();
}

const rp_part *rp_part_of_file(const char *name)
{
    build();
    const rp_part *best = NULL;
    size_t best_len = 0;
    for (size_t k = 0; k < reg.nparts; ++k) {
        const char *p = reg.parts[k]->name;
        size_t n = strlen(p);
        if (n > best_len && strncmp(name, p, n) == 0 && (name[n] == '-' || name[n] == '.' || name[n] == '\0')) {
            best = reg.parts[k];
            best_len = n;
        }
    }
    return best;
}

int rp_section_of_file(const char *name)
{
    const rp_part *p = rp_part_of_file(name);
    return p ? rp_part_section(p) : rp_other_section();
}

void rp_take_file(rp_device *d, const char *file, const cr_csv_table *t)
{
    const rp_part *p = rp_part_of_file(file);
    rp_section *sec = &d->sections[p ? rp_part_section(p) : rp_other_section()];
    sec->ran = true;
    if (!rp_strings_has(&sec->sources, file))
        rp_strings_push(&sec->sources, "%s", file);
    rp_extract_fn *extract = p ? p->extract : rp_extract_other;
    if (extract)
        extract(sec, file, t);
}

/* The part's first lead figure found among its section's figures. */
static void pick_lead(rp_device *d, const rp_part *p, const rp_section *sec)
{
    for (size_t k = 0; k < sizeof p->lead_figures / sizeof *p->lead_figures && p->lead_figures[k]; ++k)
        for (size_t i = 0; i < sec->figures.n; ++i) {
            const char *f = sec->figures.v[i];
            if (rp_part_of_file(f) == p && cr_ends_with(f, p->lead_figures[k])) {
                rp_strings_push(&d->lead, "%s", f);
                return;
            }
        }
}

void rp_summarize(rp_device *d)
{
    for (size_t k = 0; k < rp_nparts(); ++k) {
        const rp_part *p = rp_part_at(k);
        int s = rp_part_section(p);
        if (!d->sections[s].ran)
            continue;
        if (p->headline)
            p->headline(d, s);
        pick_lead(d, p, &d->sections[s]);
    }
}
