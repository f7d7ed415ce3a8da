#define _POSIX_C_SOURCE 200809L
#include "xgraph/pending.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define XG_MAX_PENDING 8

static char pending[XG_MAX_PENDING][4400];
static volatile sig_atomic_t used[XG_MAX_PENDING];
static volatile pid_t child;

/* kill, waitpid, unlink and raise are async-signal-safe; the default
 * action then ends the tool with the signal's status. */
static void on_stop(int sig)
{
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    for (int i = 0; i < XG_MAX_PENDING; ++i)
        if (used[i])
            unlink(pending[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

void xg_pending_on_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
        sigaction(sigs[i], &sa, NULL);
}

void xg_pending_child(pid_t pid) { child = pid; }

void xg_pending_add(const char *path)
{
    for (int i = 0; i < XG_MAX_PENDING; ++i)
        if (!used[i]) {
            snprintf(pending[i], sizeof pending[i], "%s", path);
            used[i] = 1;
            return;
        }
}

void xg_pending_done(const char *path)
{
    for (int i = 0; i < XG_MAX_PENDING; ++i)
        if (used[i] && (path == NULL || strcmp(pending[i], path) == 0))
            used[i] = 0;
}
