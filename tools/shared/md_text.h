/* Text from the results (a device's, a node's or a figure's name, a reason)
 * written into Markdown: one line, no table cell border, no link, no HTML.
 * The report and the cluster report write what they did not make this
 * way. */
#ifndef CR_MD_TEXT_H
#define CR_MD_TEXT_H

#include <stdio.h>

/* s into f, '|' as "\|", brackets and the characters of markup as HTML
 * entities ("x](y" would end a link's text; Markdown passes tags through
 * to the page it becomes; "*x*", "_x_" and "`x`" would be emphasis and
 * code), a line break as a space, and what GitHub would turn into a link
 * ("http://x", "www.x", "a@b.c") broken by an entity, so that it shows as
 * written; a byte of no UTF-8 character as U+FFFD and a control character
 * as "\xNN" (cr_utf8_visible). */
void cr_md_text(FILE *f, const char *s);

#endif
