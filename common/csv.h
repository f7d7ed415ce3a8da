/* RFC 4180 CSV fields and atomic file replacement. */
#ifndef CR_CSV_H
#define CR_CSV_H

#include <stdbool.h>
#include <stdio.h>

/* Writes one field, quoted when it contains a comma, quote, CR or LF (or
 * leading/trailing blanks), with embedded quotes doubled. */
void cr_csv_field(FILE *f, const char *text);

/* Writes n fields as one record: each as cr_csv_field writes it, comma
 * separated, the line ended. */
void cr_csv_record(FILE *f, const char *const *fields, size_t n);

/* Writes a double with enough digits to round-trip; NaN as an empty field. */
void cr_csv_double(FILE *f, double v);

/* Replaces path atomically: writer() fills a temporary file in the same
 * directory, which is flushed, fsync'ed and renamed over path. A crash at any
 * point leaves either the old or the new complete file. Returns 0 or -1 with
 * errno-based text in err. */
int cr_write_atomic(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen);

/* The same in two steps, for files that must appear together (a report's
 * Markdown and HTML): each is written whole under its temporary name, then
 * all are renamed at once, SIGTERM, SIGINT and SIGHUP held off between the
 * first rename and the last. */
typedef struct {
    const char *path;
    char *tmp; /* NULL once renamed or removed */
} cr_staged;

/* 0, or -1 with err (nothing left behind). */
int cr_write_staged(cr_staged *s, const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err,
                    size_t errlen);
/* Renames the n staged files over their paths; on a failure the rest are
 * removed. 0, or -1 with err. */
int cr_staged_commit(cr_staged *s, size_t n, char *err, size_t errlen);
/* Removes a staged file that will not be committed. */
void cr_staged_discard(cr_staged *s);

/* One file of a set written together. */
typedef struct {
    const char *path;
    int (*writer)(FILE *f, void *ctx);
    void *ctx;
} cr_file_out;

/* The n files (at most 8) staged in order, then committed together; where
 * one cannot be written, none is. 0, or -1 with err. */
int cr_write_together(const cr_file_out *files, size_t n, char *err, size_t errlen);

/* mkdir -p. Returns 0 or -1 with err set. */
int cr_mkdirs(const char *path, char *err, size_t errlen);
/* Whether cr_mkdirs(path) succeeds, leaving the tree as it was: what it
 * makes is removed again (empty folders only). 0, or -1 with its message. */
int cr_mkdirs_check(const char *path, char *err, size_t errlen);

#endif
