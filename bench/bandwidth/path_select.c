/* The --paths option: a comma list of path keys, each checked against the
 * backend's table once parsing is done. */
#include "bandwidth/run.h"
#include "error.h"

#include <stdio.h>
#include <string.h>

/* Calls visit(token, length) for every comma-separated token of list,
 * empty ones included, until it returns false. */
static bool each_token(const char *list, bool (*visit)(const char *tok, size_t len, void *ctx), void *ctx)
{
    for (const char *s = list;;) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (!visit(s, n, ctx))
            return false;
        if (end == NULL)
            return true;
        s = end + 1;
    }
}

static bool differs_from(const char *tok, size_t len, void *key)
{
    return !(strlen(key) == len && strncmp(tok, key, len) == 0);
}

bool bw_path_selected(const bw_run *run, const bw_path *p)
{
    return run->cfg.paths == NULL || !each_token(run->cfg.paths, differs_from, (void *)p->key);
}

typedef struct {
    const bw_path *paths;
    size_t count;
    const char *program;
} path_table;

static bool is_known_path(const char *tok, size_t len, void *ctx)
{
    const path_table *t = ctx;
    for (size_t i = 0; i < t->count; ++i)
        if (!differs_from(tok, len, (void *)t->paths[i].key))
            return true;
    cr_say_error(t->program, "--paths: unknown path '%.*s' (see --list-paths)", (int)len, tok);
    return false;
}

int bw_check_paths(const bw_run *run)
{
    path_table t = {run->paths, run->npaths, run->ses.opt.program};
    return run->cfg.paths == NULL || each_token(run->cfg.paths, is_known_path, &t) ? 0 : -1;
}
