/* How the report writes text in each format: what comes from the results
 * escaped (Markdown, HTML), a link's target percent-encoded, and the
 * report's own words as they are. */
#ifndef CR_REPORT_RENDER_TEXT_H
#define CR_REPORT_RENDER_TEXT_H

#include <stdio.h>

/* The report's own text, as it is written. */
void rp_plain_text(FILE *f, const char *s);
/* Text from the results in Markdown: one line, no cell border, no link,
 * no HTML. */
void rp_md_text(FILE *f, const char *s);
/* Text from the results in HTML: the five characters that mean markup,
 * as entities; a byte of no UTF-8 character as U+FFFD and a control
 * character as "\xNN" (cr_utf8_visible). */
void rp_html_text(FILE *f, const char *s);
/* A link's target: the directory prefix pre (a device's "dir/" or ""),
 * then name, every byte but letters, digits, "-._~" and '/'
 * percent-encoded (RFC 3986). */
void rp_link_target(FILE *f, const char *pre, const char *name);

#endif
