#include "cache/patterns_shape.h"
#include "latency/pieces.h"

#include <math.h>
#include <stdio.h>

const char *const cc_pattern_names[CC_PATTERNS] = {"stream", "chase", "stride", "stencil", "transpose", "matmul"};

static unsigned log2_of(uint64_t pow2)
{
    unsigned b = 0;
    while ((UINT64_C(1) << b) < pow2)
        ++b;
    return b;
}

/* The side of the largest square matrices, count of them, in footprint. */
static uint64_t side_for(uint64_t footprint, unsigned count)
{
    uint64_t n = (uint64_t)sqrt((double)(footprint / (8u * count)));
    while (n * n * 8u * count > footprint)
        --n;
    while ((n + 1) * (n + 1) * 8u * count <= footprint)
        ++n;
    return n;
}

int cc_shape_make(unsigned kind, uint64_t footprint, unsigned line, cc_pattern_shape *s)
{
    uint64_t line_words = line / 8;
    *s = (cc_pattern_shape){.kind = kind, .buffers = 1};
    switch (kind) {
    case CC_STREAM:
        s->buffers = 2;
        s->words = footprint / 16;
        s->pass = 2 * s->words;
        break;
    case CC_CHASE:
        if (footprint < line)
            return -1;
        s->n = lt_pow2_floor(footprint / line);
        s->bits = log2_of(s->n);
        s->step = line_words;
        s->words = s->n * line_words;
        s->pass = s->n;
        break;
    case CC_STRIDE:
        s->step = line_words * CC_STRIDE_LINES;
        s->words = footprint / (s->step * 8) * s->step;
        s->pass = s->step ? s->words / s->step : 0;
        break;
    case CC_STENCIL:
    case CC_TRANSPOSE:
        s->buffers = 2;
        s->n = side_for(footprint, 2);
        if (kind == CC_STENCIL && s->n < 3)
            return -1;
        s->words = s->n * s->n;
        s->pass = kind == CC_STENCIL ? 6 * (s->n - 2) * (s->n - 2) : 2 * s->words;
        break;
    case CC_MATMUL:
        s->buffers = 3;
        s->step = line_words;
        s->n = line_words ? side_for(footprint, 3) / line_words * line_words : 0;
        s->words = s->n * s->n;
        s->pass = s->n ? s->n * s->n * s->n / s->step * (2 * s->step + 2) : 0;
        break;
    default:
        return -1;
    }
    return s->pass > 0 && s->words > 0 ? 0 : -1;
}

uint64_t cc_buffer_base(const cc_pattern_shape *s, unsigned b)
{
    uint64_t page = 4096, bytes = (s->words * 8 + page - 1) / page * page;
    return (uint64_t)b * bytes;
}
