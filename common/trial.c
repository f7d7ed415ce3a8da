#define _GNU_SOURCE
#include "trial.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

bool cr_trial_is_child(const char *env_name)
{
    const char *v = getenv(env_name);
    return v != NULL && strcmp(v, "1") == 0;
}

/* The last non-empty line of what the child wrote on stderr, read from fd. */
static void last_line(int fd, char *line, size_t len)
{
    char buf[4096];
    size_t have = 0;
    ssize_t n;
    line[0] = '\0';
    while ((n = read(fd, buf + have, sizeof buf - 1 - have)) > 0) {
        have += (size_t)n;
        buf[have] = '\0';
        /* Keep the tail: a long report's last line is what names the end. */
        if (have == sizeof buf - 1) {
            char *nl = strrchr(buf, '\n');
            size_t keep = nl ? have - (size_t)(nl - buf) : 0;
            memmove(buf, buf + have - keep, keep);
            have = keep;
        }
    }
    buf[have] = '\0';
    while (have > 0 && (buf[have - 1] == '\n' || buf[have - 1] == '\r'))
        buf[--have] = '\0';
    const char *start = strrchr(buf, '\n');
    start = start ? start + 1 : buf;
    size_t n_line = strlen(start) < len ? strlen(start) : len - 1;
    memcpy(line, start, n_line);
    line[n_line] = '\0';
}

/* The child's environment: this one's with env_name=1 added. */
static char **child_environment(const char *env_name, char *setting, size_t len)
{
    size_t n = 0;
    while (environ[n])
        ++n;
    char **env = calloc(n + 2, sizeof *env);
    if (env == NULL)
        return NULL;
    size_t k = 0, name_len = strlen(env_name);
    for (size_t i = 0; i < n; ++i)
        if (!(strncmp(environ[i], env_name, name_len) == 0 && environ[i][name_len] == '='))
            env[k++] = environ[i];
    snprintf(setting, len, "%s=1", env_name);
    env[k] = setting;
    return env;
}

int cr_trial_in_child(int argc, char **argv, bool add_check, const char *env_name, char *why, size_t len)
{
    char setting[128];
    char **args = calloc((size_t)argc + 2, sizeof *args);
    char **env = child_environment(env_name, setting, sizeof setting);
    int fds[2] = {-1, -1};
    int rc = -1;
    if (args == NULL || env == NULL || pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(why, len, "cannot start a trial: %s", strerror(errno ? errno : ENOMEM));
        goto out;
    }
    size_t k = 0;
    args[k++] = argv[0];
    if (add_check)
        args[k++] = "--check-options";
    for (int i = 1; i < argc; ++i)
        args[k++] = argv[i];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    pid_t pid;
    int e = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, args, env);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (e != 0) {
        snprintf(why, len, "cannot start a trial: %s", strerror(e));
        goto out;
    }
    char line[512];
    last_line(fds[0], line, sizeof line);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status))
    {
        const char *name = sigabbrev_np(WTERMSIG(status));
        if (name)
            snprintf(why, len, "died of SIG%s", name);
        else
            snprintf(why, len, "died of signal %d", WTERMSIG(status));
    }
    else if (WEXITSTATUS(status) != 0)
        snprintf(why, len, "ended with status %d%s%s", WEXITSTATUS(status), line[0] ? ": " : "", line);
    else
        rc = 0;
out:
    if (fds[0] >= 0)
        close(fds[0]);
    free(args);
    free(env);
    return rc;
}
