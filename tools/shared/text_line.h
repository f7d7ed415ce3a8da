/* The lines of the small text files the tools read besides their CSVs (a
 * list of names, a program's log), one at a time without their line end. */
#ifndef CR_TEXT_LINE_H
#define CR_TEXT_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The next line of f into line, cut at its first '\r' or '\n'; false at the
 * end of f. A line of len bytes or more comes in pieces, as fgets() reads
 * it. */
bool cr_text_line(FILE *f, char *line, size_t len);

#endif
