/* toy: one point, the fill kernel over 1 Mi words, verified word by word. */
#include "toy/backend.h"

#include "bench_main.h"
#include "error.h"

#include <stdlib.h>

#define TOY_WORDS (UINT64_C(1) << 20)

typedef struct {
    cr_session ses;
    cr_measure_ctx meas;
    const toy_backend *be;
    uint32_t *words;
} toy_state;

static cr_status one_fill(void *ctx, cr_timing *t, char *err, size_t errlen)
{
    const toy_backend *be = ctx;
    return be->fill(t, err, errlen);
}

/* The first word that is not 3i + 1, said in the note; none: valid. */
static void verify(const uint32_t *w, cr_result *r)
{
    for (uint64_t i = 0; i < TOY_WORDS; ++i)
        if (w[i] != (uint32_t)(3 * i + 1)) {
            r->valid = false;
            snprintf(r->note, sizeof r->note, "word %llu is %u, not %u", (unsigned long long)i, w[i],
                     (uint32_t)(3 * i + 1));
            return;
        }
}

static int run(void *state)
{
    toy_state *s = state;
    char err[256] = "";
    cr_measurement m;
    cr_result r;
    cr_result_begin(&r, "toy", s->be->base.name, s->ses.info.name, "fill", "uint32", "fixed", "GB/s");
    r.size_bytes = r.working_set_bytes = TOY_WORDS * 4;
    r.work_items = TOY_WORDS;
    r.bytes_per_rep = TOY_WORDS * 4.0;
    cr_session_measure_init(&s->ses, &s->meas, true);
    s->words = malloc(TOY_WORDS * 4);
    if (s->words == NULL || s->be->prepare(TOY_WORDS, err, sizeof err) != CR_OK ||
        cr_measure(&s->meas, one_fill, (void *)s->be, &m, err, sizeof err) != CR_OK ||
        s->be->download(s->words, err, sizeof err) != CR_OK) {
        cr_result_unmeasured(&r);
        r.valid = false;
        snprintf(r.note, sizeof r.note, "%s", s->words ? err : "out of memory");
    } else {
        cr_measurement_to_row(&m, &r);
        r.figure = r.bytes_per_rep / m.stats.median / 1e9;
        r.figure_best = r.bytes_per_rep / m.stats.min / 1e9;
        verify(s->words, &r);
    }
    return cr_session_record(&s->ses, &r) == 0 ? -1 : CR_EXIT_FAILED;
}

static void release(void *state)
{
    toy_state *s = state;
    free(s->words);
}

static toy_state the_state;
static const cr_design toy_design = {
    .benchmark = "toy",
    .summary = "One kernel filling a buffer, verified.",
    .session = &the_state.ses, .state = &the_state, .run = run, .release = release,
};

int toy_main(int argc, char **argv, const toy_backend *backend)
{
    the_state = (toy_state){.be = backend};
    return cr_bench_main(argc, argv, &toy_design, &backend->base);
}
