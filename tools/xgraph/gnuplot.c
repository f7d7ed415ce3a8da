#define _POSIX_C_SOURCE 200809L
#include "xgraph/gnuplot.h"

#include "error.h"
#include "shared/text_line.h"
#include "pending.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void first_line(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    /* gnuplot echoes the offending line first; its verdict follows. */
    char line[512];
    while (cr_text_line(f, line, sizeof line)) {
        if (strstr(line, "rror") || strstr(line, "arning")) {
            snprintf(buf, len, "%.280s", line);
            break;
        }
        if (buf[0] == '\0')
            snprintf(buf, len, "%.280s", line);
    }
    fclose(f);
}

int xg_gnuplot(const char *dir, const char *vars, const char *script, char *err, size_t errlen)
{
    char gp[4200], log[4200];
    snprintf(gp, sizeof gp, "%s/.xgraph-gp-XXXXXX", dir);
    snprintf(log, sizeof log, "%s/.xgraph-log-XXXXXX", dir);
    int gfd = cr_pending_mkstemp(gp);
    if (gfd < 0)
        return cr_errf(err, errlen, "%s: %s", gp, strerror(errno));
    int lfd = cr_pending_mkstemp(log);
    if (lfd < 0) {
        close(gfd), unlink(gp);
        cr_pending_done(gp);
        return cr_errf(err, errlen, "%s: %s", log, strerror(errno));
    }
    close(lfd);
    FILE *f = fdopen(gfd, "w");
    int rc = 0;
    if (f == NULL || fputs(vars, f) < 0 || fputs(script, f) < 0 || fclose(f) != 0) {
        rc = cr_errf(err, errlen, "%s: cannot write the gnuplot script", gp);
        goto out;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_TRUNC, 0);
    /* gnuplot reads a script named "<..." through a shell: the name as a path. */
    char script_arg[4300];
    snprintf(script_arg, sizeof script_arg, "%s%s", gp[0] == '/' ? "" : "./", gp);
    char *argv[] = {"gnuplot", script_arg, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e == ENOENT) {
        rc = 1;
        goto out;
    }
    if (e != 0) {
        rc = cr_errf(err, errlen, "cannot start gnuplot: %s", strerror(e));
        goto out;
    }
    int st;
    cr_pending_child(pid);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    cr_pending_child(0);
    char why[300];
    first_line(log, why, sizeof why);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        rc = 1; /* the shell-less spawn of a missing program can end here too */
    else if (WIFSIGNALED(st))
        rc = cr_errf(err, errlen, "gnuplot crashed (signal %d)%s%s", WTERMSIG(st), why[0] ? ": " : "", why);
    else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        rc = cr_errf(err, errlen, "gnuplot failed: %s", why[0] ? why : "no message");
    else if (why[0])
        fprintf(stderr, "xgraph: note: gnuplot: %s\n", why);
out:
    unlink(gp);
    unlink(log);
    cr_pending_done(gp);
    cr_pending_done(log);
    return rc;
}

void xg_gp_str(FILE *f, const char *name, const char *value)
{
    /* Single quotes: gnuplot runs what backquotes hold in double-quoted
     * strings. A line break, which single quotes cannot hold, is joined on
     * as the one escape in double quotes: 'a' . "\n" . 'b'; so is a single
     * quote, whose doubling gnuplot misreads at a string's start. */
    fprintf(f, "%s = '", name);
    for (const char *p = value; *p; ++p) {
        if (*p == '\'')
            fputs("' . \"'\" . '", f);
        else if (*p == '\n')
            fputs("' . \"\\n\" . '", f);
        else if (*p == '\r')
            fputs("' . \"\\r\" . '", f);
        else
            fputc(*p, f);
    }
    fputs("'\n", f);
}

void xg_gp_path(FILE *f, const char *name, const char *path)
{
    if (path[0] == '/') {
        xg_gp_str(f, name, path);
        return;
    }
    size_t n = strlen(path) + 3;
    char *dotted = malloc(n);
    if (dotted == NULL) {
        xg_gp_str(f, name, "/dev/null/out-of-memory"); /* a path gnuplot fails on, never a command */
        return;
    }
    snprintf(dotted, n, "./%s", path);
    xg_gp_str(f, name, dotted);
    free(dotted);
}

void xg_gp_num(FILE *f, const char *name, double v)
{
    if (isfinite(v))
        fprintf(f, "%s = %.10g\n", name, v);
    else
        fprintf(f, "%s = NaN\n", name);
}

void xg_gp_fmt(FILE *f, const char *name, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    xg_gp_str(f, name, buf);
}

