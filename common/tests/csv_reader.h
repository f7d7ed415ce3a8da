/* A small RFC 4180 reader for tests: the files the suite writes are read
 * back independently of the writer. */
#ifndef CR_TEST_CSV_READER_H
#define CR_TEST_CSV_READER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSV_MAX_FIELDS 64
#define CSV_FIELD_LEN 512

typedef char csv_record[CSV_MAX_FIELDS][CSV_FIELD_LEN];

/* Reads one record at *p into fields, advancing *p; returns the field
 * count, 0 at the end of the text, -1 on malformed quoting. */
static inline int csv_next(const char **p, csv_record fields)
{
    const char *s = *p;
    if (*s == '\0')
        return 0;
    int n = 0;
    for (;;) {
        if (n == CSV_MAX_FIELDS)
            return -1;
        char *out = fields[n];
        size_t len = 0;
        if (*s == '"') {
            ++s;
            for (;;) {
                if (*s == '\0')
                    return -1;
                if (*s == '"' && s[1] == '"') {
                    s += 2;
                    if (len < CSV_FIELD_LEN - 1)
                        out[len++] = '"';
                } else if (*s == '"') {
                    ++s;
                    break;
                } else {
                    if (len < CSV_FIELD_LEN - 1)
                        out[len++] = *s;
                    ++s;
                }
            }
        } else {
            while (*s && *s != ',' && *s != '\n') {
                if (*s == '"')
                    return -1;
                if (len < CSV_FIELD_LEN - 1)
                    out[len++] = *s;
                ++s;
            }
        }
        out[len] = '\0';
        ++n;
        if (*s == ',') {
            ++s;
            continue;
        }
        if (*s == '\n')
            ++s;
        else if (*s != '\0')
            return -1;
        break;
    }
    *p = s;
    return n;
}

/* The whole file as a NUL-terminated string (caller frees), or NULL. */
static inline char *csv_slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t got = buf ? fread(buf, 1, (size_t)len, f) : 0;
    fclose(f);
    if (buf)
        buf[got] = '\0';
    return buf;
}

static inline int csv_column(csv_record header, int count, const char *name)
{
    for (int i = 0; i < count; ++i)
        if (strcmp(header[i], name) == 0)
            return i;
    return -1;
}

#endif
