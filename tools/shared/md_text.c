#include "shared/md_text.h"

void cr_md_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        switch (*s) {
        case '|': fputs("\\|", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '[': fputs("&#91;", f); break;
        case ']': fputs("&#93;", f); break;
        /* emphasis, code, strike-through and an escape of their own */
        case '*': fputs("&#42;", f); break;
        case '`': fputs("&#96;", f); break;
        case '~': fputs("&#126;", f); break;
        case '\\': fputs("&#92;", f); break;
        case '\n':
        case '\r': fputc(' ', f); break;
        default: fputc(*s, f);
        }
    }
}
