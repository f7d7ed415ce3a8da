/* The corrupt results of tools/shared/tests/corrupt_inputs.txt, for the
 * end-to-end tests of the tools that read a results directory: each case
 * planted in a fresh copy of the real run in tools/shared/tests/data/run.
 * Include after tests/cli_harness.h (CR_SOURCE_DIR is the source tree). */
#ifndef CR_CORRUPT_INPUTS_H
#define CR_CORRUPT_INPUTS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int line;          /* in the list, for messages */
    char file[256];    /* relative to the run directory */
    char shell[1024];  /* what corrupts it, run there with $F = file */
    char error[512];   /* a part of the one-line error */
} corrupt_case;

/* Every case of the list (caller frees); fails on a line that is not
 * "FILE | SHELL | ERROR", and on a list with no case. SHELL may hold " | "
 * itself: ERROR is after the last. */
static inline corrupt_case *corrupt_cases(size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tools/shared/tests/corrupt_inputs.txt", CR_SOURCE_DIR);
    FILE *list = fopen(path, "r");
    if (list == NULL)
        fail_msg("cannot read %s", path);
    corrupt_case *v = NULL;
    char *line = NULL;
    size_t cap = 0;
    *n = 0;
    for (int line_no = 1; getline(&line, &cap, list) > 0; ++line_no) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        char *shell = strstr(line, " | "), *error = NULL;
        for (char *p = shell ? strstr(shell + 3, " | ") : NULL; p; p = strstr(p + 3, " | "))
            error = p;
        if (error == NULL)
            fail_msg("%s:%d: not 'FILE | SHELL | ERROR'", path, line_no);
        *shell = *error = '\0';
        v = realloc(v, (*n + 1) * sizeof *v);
        assert_non_null(v);
        corrupt_case *c = &v[(*n)++];
        c->line = line_no;
        snprintf(c->file, sizeof c->file, "%s", line);
        snprintf(c->shell, sizeof c->shell, "%s", shell + 3);
        snprintf(c->error, sizeof c->error, "%s", error + 3);
    }
    free(line);
    fclose(list);
    if (*n == 0)
        fail_msg("%s lists no case", path);
    return v;
}

/* DIR becomes a fresh copy of the real run. */
static inline void copy_real_run(const char *dir)
{
    sh("rm -rf '%s' && cp -R '%s/tools/shared/tests/data/run' '%s'", dir, CR_SOURCE_DIR, dir);
}

/* Plants the case in the run directory DIR. */
static inline void corrupt(const char *dir, const corrupt_case *c)
{
    sh("cd '%s' && F='%s' && field() { awk -F, -v OFS=, -v r=\"$1\" -v c=\"$2\" -v v=\"$3\" 'NR == r { $c = v } 1' "
       "\"$F\" > \"$F.t\" && mv \"$F.t\" \"$F\"; } && %s",
       dir, c->file, c->shell);
}

/* BIN ARGS on a run holding case c: exit 1 and one line on stderr,
 * "PROG: error: ...", with the case's error in it; and, where
 * nothing_on_stdout, nothing written on stdout. */
static inline void expect_corrupt_refused(const char *bin, const char *args, const corrupt_case *c,
                                          bool nothing_on_stdout)
{
    const char *prog = strrchr(bin, '/') ? strrchr(bin, '/') + 1 : bin;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s: error: ", prog);
    run_result r = run(NULL, bin, args);
    if (r.status != 1 || count_lines(r.err) != 1 || strncmp(r.err, prefix, strlen(prefix)) != 0 ||
        strstr(r.err, c->error) == NULL || (nothing_on_stdout && r.out[0]))
        fail_msg("corrupt_inputs.txt:%d (%s): %s %s exited %d, stdout '%s', stderr '%s' (want 1 and one line "
                 "'%s...%s')",
                 c->line, c->file, prog, args, r.status, r.out, r.err, prefix, c->error);
    run_free(&r);
}

#endif
