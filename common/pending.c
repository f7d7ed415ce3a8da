#define _POSIX_C_SOURCE 200809L
#include "pending.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CR_MAX_PENDING 8

/* The handler may run on any thread, mid-way through a claim: a slot is
 * marked used only once its name is whole, and a name mkstemp is still
 * rewriting names no file yet. */
static char names[CR_MAX_PENDING][PATH_MAX + 32];
static atomic_int used[CR_MAX_PENDING];
static atomic_int child;

static const int stop_signals[] = {SIGTERM, SIGINT, SIGHUP};
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])

/* kill, waitpid, unlink and raise are async-signal-safe; the default
 * action then ends the program with the signal's status. */
static void on_stop(int sig)
{
    pid_t pid = atomic_load(&child);
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    for (int i = 0; i < CR_MAX_PENDING; ++i)
        if (atomic_load(&used[i]) == 1)
            unlink(names[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Installed as files become pending, so that every program that writes
 * results gets it without its main asking, over each signal that has its
 * default action then; one the program ignores or handles itself is left
 * as it is. */
static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_STOP_SIGNALS; ++i)
        sigaddset(&sa.sa_mask, stop_signals[i]);
    for (size_t i = 0; i < N_STOP_SIGNALS; ++i) {
        struct sigaction now;
        if (sigaction(stop_signals[i], NULL, &now) == 0 && now.sa_handler == SIG_DFL)
            sigaction(stop_signals[i], &sa, NULL);
    }
}

/* A free slot holding text, marked used; -1 when all are taken or text
 * does not fit (the file is then not covered, as before this existed). */
static int claim(const char *text)
{
    install();
    if (strlen(text) >= sizeof names[0])
        return -1;
    for (int i = 0; i < CR_MAX_PENDING; ++i) {
        int expected = 0;
        /* 2: claimed, name being written; the handler reads only 1. */
        if (atomic_compare_exchange_strong(&used[i], &expected, 2)) {
            strcpy(names[i], text);
            return i;
        }
    }
    return -1;
}

int cr_pending_mkstemp(char *template)
{
    int slot = claim(template);
    if (slot < 0)
        return mkstemp(template);
    atomic_store(&used[slot], 1);
    int fd = mkstemp(names[slot]);
    if (fd < 0)
        atomic_store(&used[slot], 0);
    else
        strcpy(template, names[slot]);
    return fd;
}

void cr_pending_add(const char *path)
{
    int slot = claim(path);
    if (slot >= 0)
        atomic_store(&used[slot], 1);
}

void cr_pending_done(const char *path)
{
    for (int i = 0; i < CR_MAX_PENDING; ++i)
        if (atomic_load(&used[i]) == 1 && (path == NULL || strcmp(names[i], path) == 0))
            atomic_store(&used[i], 0);
}

void cr_pending_child(pid_t pid) { atomic_store(&child, pid); }

void cr_pending_hold_signals(sigset_t *old)
{
    sigset_t hold;
    sigemptyset(&hold);
    for (size_t i = 0; i < N_STOP_SIGNALS; ++i)
        sigaddset(&hold, stop_signals[i]);
    pthread_sigmask(SIG_BLOCK, &hold, old);
}

void cr_pending_release_signals(const sigset_t *old) { pthread_sigmask(SIG_SETMASK, old, NULL); }
