#define _POSIX_C_SOURCE 200809L
#include "energy_powercap.h"

#include "regular_file.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const control_types[] = {"intel-rapl", "amd-rapl"};

/* The reason a file cannot be read, with what to do where it is the usual
 * one: energy_uj has been readable by root only since Linux 5.10. */
static cr_status unreadable(const char *path, int err_no, char *err, size_t len)
{
    if (err_no == EACCES || err_no == EPERM)
        snprintf(err, len, "%s: permission denied (root only since Linux 5.10; run as root or add a udev rule)", path);
    else
        snprintf(err, len, "%s: %s", path, strerror(err_no));
    return CR_ERR;
}

/* A descriptor of path, a regular file (sysfs's are; a FIFO would block
 * the reader, a device never end); or -1 with the reason in err. */
static int open_sysfs_file(const char *path, char *err, size_t len)
{
    struct stat st;
    int fd = cr_open_regular_file(path, &st);
    if (fd == -1)
        unreadable(path, errno, err, len);
    else if (fd == CR_NOT_REGULAR && S_ISDIR(st.st_mode))
        unreadable(path, EISDIR, err, len);
    else if (fd == CR_NOT_REGULAR)
        snprintf(err, len, "%s: not a regular file (%s)", path, cr_file_kind(&st));
    return fd < 0 ? -1 : fd;
}

/* The whole file, without its trailing newline. */
static cr_status read_text(const char *path, char *buf, size_t size, char *err, size_t len)
{
    int fd = open_sysfs_file(path, err, len);
    if (fd < 0)
        return CR_ERR;
    size_t used = 0;
    for (;;) {
        ssize_t got = read(fd, buf + used, size - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            close(fd);
            return unreadable(path, e, err, len);
        }
        if (got == 0)
            break;
        used += (size_t)got;
        if (used == size - 1) {
            close(fd);
            snprintf(err, len, "%s: longer than %zu bytes", path, size - 1);
            return CR_ERR;
        }
    }
    close(fd);
    while (used > 0 && (buf[used - 1] == '\n' || buf[used - 1] == ' '))
        --used;
    buf[used] = '\0';
    return CR_OK;
}

static cr_status read_count(const char *path, uint64_t *v, char *err, size_t len)
{
    char text[64];
    if (read_text(path, text, sizeof text, err, len) != CR_OK)
        return CR_ERR;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0) {
        snprintf(err, len, "%s: \"%s\" is not a count", path, text);
        return CR_ERR;
    }
    *v = (uint64_t)x;
    return CR_OK;
}

static cr_status file_in(const char *dir, const char *file, char *path, size_t size, char *err, size_t len)
{
    if ((size_t)snprintf(path, size, "%s/%s", dir, file) >= size) {
        snprintf(err, len, "%s: path too long", dir);
        return CR_ERR;
    }
    return CR_OK;
}

cr_status cr_powercap_read_uj(const cr_powercap_domain *d, uint64_t *uj, char *err, size_t len)
{
    char path[600];
    if (file_in(d->dir, "energy_uj", path, sizeof path, err, len) != CR_OK ||
        read_count(path, uj, err, len) != CR_OK)
        return CR_ERR;
    if (*uj > d->max_uj) {
        snprintf(err, len, "%s: %" PRIu64 " is above max_energy_range_uj %" PRIu64, path, *uj, d->max_uj);
        return CR_ERR;
    }
    return CR_OK;
}

/* "<type>:N" or "<type>:N:M" for a known control type; false for anything
 * else (the control type's own directory, intel-rapl-mmio, other types). */
static bool parse_zone(const char *entry, cr_powercap_domain *d, bool *sub)
{
    for (size_t t = 0; t < sizeof control_types / sizeof control_types[0]; ++t) {
        size_t n = strlen(control_types[t]);
        if (strncmp(entry, control_types[t], n) != 0 || entry[n] != ':')
            continue;
        unsigned package, child;
        int used = 0;
        if (sscanf(entry + n, ":%u:%u%n", &package, &child, &used) == 2 && entry[n + (size_t)used] == '\0')
            *sub = true;
        else if (sscanf(entry + n, ":%u%n", &package, &used) == 1 && entry[n + (size_t)used] == '\0')
            *sub = false;
        else
            return false;
        if (entry[n + 1] < '0' || entry[n + 1] > '9')
            return false;
        snprintf(d->type, sizeof d->type, "%s", control_types[t]);
        d->package = package;
        return true;
    }
    return false;
}

/* Whether the zone entry under root is a domain that is counted; d filled. */
static cr_status consider(const char *root, const char *entry, cr_powercap_domain *d, bool *counted, char *why,
                          size_t len)
{
    bool sub;
    *counted = false;
    if (!parse_zone(entry, d, &sub))
        return CR_OK;
    char path[600];
    if ((size_t)snprintf(d->dir, sizeof d->dir, "%s/%s", root, entry) >= sizeof d->dir) {
        snprintf(why, len, "%s/%s: path too long", root, entry);
        return CR_ERR;
    }
    if (file_in(d->dir, "name", path, sizeof path, why, len) != CR_OK ||
        read_text(path, d->name, sizeof d->name, why, len) != CR_OK)
        return CR_UNSUPPORTED;
    d->is_dram = sub && strcmp(d->name, "dram") == 0;
    if (!(sub ? d->is_dram : strncmp(d->name, "package-", 8) == 0))
        return CR_OK;
    uint64_t now;
    if (file_in(d->dir, "max_energy_range_uj", path, sizeof path, why, len) != CR_OK ||
        read_count(path, &d->max_uj, why, len) != CR_OK || cr_powercap_read_uj(d, &now, why, len) != CR_OK)
        return CR_UNSUPPORTED;
    *counted = true;
    return CR_OK;
}

static int by_package(const void *a, const void *b)
{
    const cr_powercap_domain *x = a, *y = b;
    int c = strcmp(x->type, y->type);
    if (c != 0)
        return c;
    if (x->package != y->package)
        return x->package < y->package ? -1 : 1;
    if (x->is_dram != y->is_dram)
        return x->is_dram ? 1 : -1;
    return strcmp(x->dir, y->dir);
}

cr_status cr_powercap_find(const char *root, cr_powercap_domain *domains, size_t *n, char *why, size_t len)
{
    *n = 0;
    DIR *dir = opendir(root);
    if (dir == NULL) {
        snprintf(why, len, "no powercap domain under %s (%s)", root, strerror(errno));
        return CR_UNSUPPORTED;
    }
    cr_status st = CR_OK;
    for (struct dirent *e; st == CR_OK && (e = readdir(dir)) != NULL;) {
        cr_powercap_domain d;
        bool counted;
        st = consider(root, e->d_name, &d, &counted, why, len);
        if (st != CR_OK || !counted)
            continue;
        if (*n == CR_POWERCAP_MAX_DOMAINS) {
            snprintf(why, len, "more than %d powercap domains under %s", CR_POWERCAP_MAX_DOMAINS, root);
            st = CR_ERR;
        } else
            domains[(*n)++] = d;
    }
    closedir(dir);
    if (st != CR_OK)
        return st;
    if (*n == 0) {
        snprintf(why, len, "no powercap domain under %s (no intel-rapl* or amd-rapl* package domain)", root);
        return CR_UNSUPPORTED;
    }
    qsort(domains, *n, sizeof domains[0], by_package);
    return CR_OK;
}
