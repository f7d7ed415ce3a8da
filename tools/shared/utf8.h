/* UTF-8 as the tools read it from the results and write it into a report:
 * what a well-formed character is, and how one that may not be shown as it
 * is (a byte of no character, a control character) is shown instead. */
#ifndef CR_SHARED_UTF8_H
#define CR_SHARED_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 sequence at s (avail bytes there), or 0 where
 * there is none: a stray continuation byte, a sequence cut short, an
 * overlong form, a surrogate, a code point past U+10FFFF. */
size_t cr_utf8_length(const unsigned char *s, size_t avail);

/* The character at s (NUL-terminated) as text in a report shows it: the
 * bytes it takes; rep "" where they show as they are (tab and line breaks
 * among them: each format says what it makes of those), else what stands
 * for them, to be written as text: U+FFFD for a byte that begins no UTF-8
 * character, "\xNN" for each byte of a control character (C0, DEL, C1). */
size_t cr_utf8_visible(const char *s, char rep[16]);

#endif
