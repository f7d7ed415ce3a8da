/* gpu-check run in process on a run directory, its table captured, and
 * what a test asks of that table: the status and summary line, and the
 * line that names a figure, a file or a benchmark. Include after cmocka.h,
 * with _GNU_SOURCE defined (open_memstream, strdup). */
#ifndef CR_GPU_CHECK_TESTS_VERDICTS_H
#define CR_GPU_CHECK_TESTS_VERDICTS_H

#include "gpu_check/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int status;
    char *out, *err;
} result;

/* gpu-check RUN --gpus-visible N, its output captured. */
static inline result check(const char *run, const char *gpus)
{
    result r = {0};
    size_t nout, nerr;
    FILE *out = open_memstream(&r.out, &nout), *err = open_memstream(&r.err, &nerr);
    assert_non_null(out);
    assert_non_null(err);
    char *argv[] = {"gpu-check", (char *)run, "--gpus-visible", (char *)gpus, NULL};
    r.status = gc_main(4, argv, out, err);
    fclose(out);
    fclose(err);
    return r;
}

static inline void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

/* The line of the table that names what (figure, file or benchmark, then
 * two spaces), or NULL; a copy the caller frees. */
static inline char *table_line(const result *r, const char *what)
{
    char key[200];
    snprintf(key, sizeof key, "  %s  ", what);
    for (const char *line = r->out; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len >= strlen(key) && strncmp(line, key, strlen(key)) == 0) {
            char *copy = strndup(line, len);
            assert_non_null(copy);
            return copy;
        }
        line = end ? end + 1 : NULL;
    }
    return NULL;
}

/* The line of the table that names what, holding text. */
static inline void expect_line(const result *r, const char *what, const char *text)
{
    char *line = table_line(r, what);
    if (line == NULL)
        fail_msg("no line for '%s' in:\n%s", what, r->out);
    if (strstr(line, text) == NULL)
        fail_msg("line for '%s' lacks '%s':\n%s", what, text, line);
    free(line);
}

static inline void expect_status(const result *r, int status, const char *summary)
{
    if (r->status != status || strstr(r->out, summary) == NULL)
        fail_msg("status %d (want %d), want '%s' in:\n%s\nstderr: %s", r->status, status, summary, r->out, r->err);
}

#endif
