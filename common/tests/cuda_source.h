/* Reading a CUDA backend's source in a test, for what can be checked
 * without a GPU: which functions its contract table names, and what its
 * timed intervals enqueue. Also the one reader of any generated text a test
 * checks (PTX, ptxas logs). Include after cmocka.h: the checks shared by
 * several tests assert with it. */
#ifndef CR_TESTS_CUDA_SOURCE_H
#define CR_TESTS_CUDA_SOURCE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's text, NUL-terminated (free it), or NULL. */
static inline char *cuda_source_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *s = NULL;
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (s = malloc((size_t)len + 1)) != NULL) {
        if (fread(s, 1, (size_t)len, f) == (size_t)len) {
            s[len] = '\0';
        } else {
            free(s);
            s = NULL;
        }
    }
    fclose(f);
    return s;
}

/* A file of the tree the test cannot do without: its text, or the test
 * fails. */
static inline char *cuda_source_must_read(const char *path)
{
    char *s = cuda_source_read(path);
    if (s == NULL)
        fail_msg("cannot read %s", path);
    return s;
}

/* The PTX the build made with nvcc -ptx for a static check: its text, or
 * the test skipped, saying so, where there is none (no nvcc, no PTX). */
static inline char *cuda_built_ptx_read(const char *path)
{
    char *s = cuda_source_read(path);
    if (s == NULL) {
        print_message("skipped: %s not found (it is made by nvcc -ptx; no nvcc, no PTX)\n", path);
        skip();
    }
    return s;
}

/* The text from the first `from` at or after start up to the next `to`
 * after it, as a new string (free it); NULL when either is missing. */
static inline char *cuda_source_span(const char *start, const char *from, const char *to)
{
    const char *a = strstr(start, from);
    const char *b = a ? strstr(a + strlen(from), to) : NULL;
    if (b == NULL)
        return NULL;
    size_t n = (size_t)(b - a);
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, a, n);
        s[n] = '\0';
    }
    return s;
}

/* What a part of a source file, the text from the first `from` up to the
 * next `to` (cuda_source_span), must and must not say. */
typedef struct {
    const char *from, *to;
    const char *const *says, *const *never_says; /* NULL-terminated, or NULL */
} cuda_source_part;

static inline void cuda_source_expect_part(const char *path, const cuda_source_part *part)
{
    char *src = cuda_source_must_read(path);
    char *text = cuda_source_span(src, part->from, part->to);
    if (text == NULL)
        fail_msg("%s: no %s", path, part->from);
    for (const char *const *w = part->says; w && *w; ++w)
        if (strstr(text, *w) == NULL)
            fail_msg("%s: %s... leaves out %s", path, part->from, *w);
    for (const char *const *w = part->never_says; w && *w; ++w)
        if (strstr(text, *w) != NULL)
            fail_msg("%s: %s... has %s", path, part->from, *w);
    free(text);
    free(src);
}

/* A gated timed interval opens with this statement and closes with the
 * stop; the backends spell both so. */
#define CUDA_GATED_START "if (cr_cuda_timer_start("
#define CUDA_TIMER_STOP "cr_cuda_timer_stop("

/* Calls the host may block in: none may sit between a gated timer start
 * and its stop, which would wait for the stream the gate holds. */
static const char *const cuda_blocking_calls[] = {
    "cudaMemcpy(", "cudaMemset(", "Synchronize(", "cudaMalloc", "cudaFree", "cudaHostAlloc", "cudaMemPrefetchAsync",
    "prefetch(",
};

/* The first blocking call in every interval that opens with the statement
 * `if (cr_cuda_timer_start(` and ends at the next cr_cuda_timer_stop(;
 * NULL when there is none (the opening itself where an interval has no
 * stop). *intervals counts them. */
static inline const char *cuda_source_blocking_in_gated(const char *src, int *intervals)
{
    *intervals = 0;
    for (const char *p = strstr(src, CUDA_GATED_START); p; p = strstr(p + 1, CUDA_GATED_START)) {
        const char *end = strstr(p, CUDA_TIMER_STOP);
        if (end == NULL)
            return CUDA_GATED_START;
        ++*intervals;
        for (size_t i = 0; i < sizeof cuda_blocking_calls / sizeof cuda_blocking_calls[0]; ++i) {
            const char *hit = strstr(p, cuda_blocking_calls[i]);
            if (hit && hit < end)
                return cuda_blocking_calls[i];
        }
    }
    return NULL;
}

/* src has exactly want gated intervals, and none blocks. */
static inline void cuda_source_expect_gated_intervals(const char *src, int want)
{
    int intervals;
    const char *blocking = cuda_source_blocking_in_gated(src, &intervals);
    if (blocking)
        fail_msg("a gated timed interval calls %s", blocking);
    assert_int_equal(intervals, want);
}

/* Ways out of a function before its end: a failed start returns, but
 * after the start's own statement none may follow, or the interval would
 * end without the stop that opens the gate holding the stream. */
static const char *const cuda_early_exits[] = {"CR_CUDA_CHECK(", "return CR_", "return cr_cuda_error"};

/* The text (free it) of src's only gated interval, from its start to its
 * stop, checked to block in nothing and to have no way out but the stop. */
static inline char *cuda_source_sole_gated_interval(const char *src)
{
    cuda_source_expect_gated_intervals(src, 1);
    char *timed = cuda_source_span(src, CUDA_GATED_START, CUDA_TIMER_STOP);
    assert_non_null(timed);
    const char *inside = strchr(timed, ';');
    assert_non_null(inside);
    for (size_t i = 0; i < sizeof cuda_early_exits / sizeof cuda_early_exits[0]; ++i)
        if (strstr(inside, cuda_early_exits[i]) != NULL)
            fail_msg("%s in the gated interval, before its stop", cuda_early_exits[i]);
    return timed;
}

#endif
