/* What --check holds a page to beside its links and figures: the markup
 * the report writes and no other. No script or element that loads or runs
 * anything, no attribute the report does not write (an event handler, a
 * style, a refresh among them), links within the run only, and a style
 * sheet that loads nothing: a page that passes shows only what the run
 * holds. */
#ifndef CR_REPORT_CHECK_MARKUP_H
#define CR_REPORT_CHECK_MARKUP_H

/* Each element, attribute and link target of html (and its style sheet)
 * that the report does not write, said through say(ctx, what) in words
 * ("element <script>", "event-handler attribute onerror= of <img>");
 * returns how many. */
int rp_check_markup(const char *html, void (*say)(void *ctx, const char *what), void *ctx);

#endif
