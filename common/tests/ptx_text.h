/* Reading PTX as text in a test, for what can be checked of a kernel
 * without a GPU: the module's entries and their bodies, a body's
 * instructions one a line, and its loops. Plain text work, no assertions:
 * each test says itself what a missing entry or loop means to it. */
#ifndef CR_TESTS_PTX_TEXT_H
#define CR_TESTS_PTX_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The text from begin up to, not including, end. */
typedef struct {
    const char *begin, *end;
} ptx_span;

typedef struct {
    char name[128];
    ptx_span body; /* from the entry's opening brace to its closing one, both included */
} ptx_entry;

typedef struct {
    ptx_entry *entries;
    size_t n, cap;
} ptx_module;

static inline ptx_span ptx_span_of(const char *text) { return (ptx_span){text, text + strlen(text)}; }

static inline const char *ptx_find_in(ptx_span s, const char *text)
{
    size_t n = strlen(text);
    for (const char *p = s.begin; p + n <= s.end; ++p)
        if (memcmp(p, text, n) == 0)
            return p;
    return NULL;
}

static inline unsigned ptx_count_in(ptx_span s, const char *text)
{
    unsigned n = 0;
    for (const char *p; (p = ptx_find_in(s, text)) != NULL; s.begin = p + 1)
        ++n;
    return n;
}

/* The line at *at, without its newline, and *at moved to the next one;
 * false past the end of s. Loop with
 *     for (const char *at = s.begin; ptx_next_line(s, &at, &line);) */
static inline bool ptx_next_line(ptx_span s, const char **at, ptx_span *line)
{
    if (*at >= s.end)
        return false;
    const char *nl = memchr(*at, '\n', (size_t)(s.end - *at));
    *line = (ptx_span){*at, nl ? nl : s.end};
    *at = nl ? nl + 1 : s.end;
    return true;
}

/* The instruction on a line: without indentation, guard predicate (@%p1)
 * or the closing ';'. False for labels, directives, braces, comments and
 * blank lines: what has no ';', or starts where no opcode can. */
static inline bool ptx_instruction(ptx_span line, ptx_span *insn)
{
    const char *p = line.begin;
    while (p < line.end && (*p == ' ' || *p == '\t'))
        ++p;
    const char *semi = memchr(p, ';', (size_t)(line.end - p));
    if (semi == NULL || *p == '.' || *p == '{' || *p == '}' || *p == '$' || *p == '/')
        return false;
    if (*p == '@') {
        while (p < semi && *p != ' ' && *p != '\t')
            ++p;
        while (p < semi && (*p == ' ' || *p == '\t'))
            ++p;
    }
    const char *end = semi;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        --end;
    if (end == p)
        return false;
    *insn = (ptx_span){p, end};
    return true;
}

/* The next instruction of s from *at on, *at moved past its line; false
 * when none is left. Loop with
 *     for (const char *at = s.begin; ptx_next_instruction(s, &at, &insn);) */
static inline bool ptx_next_instruction(ptx_span s, const char **at, ptx_span *insn)
{
    for (ptx_span line; ptx_next_line(s, at, &line);)
        if (ptx_instruction(line, insn))
            return true;
    return false;
}

/* The first word of an instruction ("add.f32"), as a string of at most
 * size - 1 characters; false where it is longer. */
static inline bool ptx_opcode(ptx_span insn, char *op, size_t size)
{
    size_t n = 0;
    while (insn.begin + n < insn.end && insn.begin[n] != ' ' && insn.begin[n] != '\t')
        ++n;
    if (n >= size)
        return false;
    memcpy(op, insn.begin, n);
    op[n] = '\0';
    return true;
}

/* The body of the entry at text (after ".entry name"): from the first '{'
 * to the one that matches it, braces in // comments not counted. PTX opens
 * and closes an entry at the start of a line and indents the braces of its
 * inner blocks, so a body whose outer braces are not both at the start of
 * a line is malformed too. False where it is. */
static inline bool ptx_match_body(const char *text, ptx_span *body)
{
    const char *open = strchr(text, '{');
    if (open == NULL || (open > text && open[-1] != '\n'))
        return false;
    int depth = 0;
    for (const char *q = open; *q; ++q) {
        if (q[0] == '/' && q[1] == '/') {
            q = strchr(q, '\n');
            if (q == NULL)
                return false;
        } else if (*q == '{') {
            ++depth;
        } else if (*q == '}' && --depth == 0) {
            *body = (ptx_span){open, q + 1};
            return q[-1] == '\n';
        }
    }
    return false;
}

/* Every ".entry" of a module's text, in order. False where there is none
 * or one is malformed (a name too long, a body that does not close); free
 * m->entries either way. The entries point into text. */
static inline bool ptx_parse(const char *text, ptx_module *m)
{
    static const char head[] = ".entry ";
    for (const char *p = text; (p = strstr(p, head)) != NULL;) {
        p += strlen(head);
        if (m->n == m->cap) {
            size_t cap = m->cap ? m->cap * 2 : 64;
            ptx_entry *grown = realloc(m->entries, cap * sizeof *grown);
            if (grown == NULL)
                return false;
            m->entries = grown;
            m->cap = cap;
        }
        ptx_entry *e = &m->entries[m->n];
        size_t n = strcspn(p, "( \t\r\n");
        if (n == 0 || n >= sizeof e->name || !ptx_match_body(p, &e->body))
            return false;
        memcpy(e->name, p, n);
        e->name[n] = '\0';
        ++m->n;
        p = e->body.end;
    }
    return m->n > 0;
}

/* The entry called name, or NULL. */
static inline const ptx_entry *ptx_entry_named(const ptx_module *m, const char *name)
{
    for (size_t i = 0; i < m->n; ++i)
        if (strcmp(m->entries[i].name, name) == 0)
            return &m->entries[i];
    return NULL;
}

/* The first entry whose name starts with prefix, or NULL: a C++ kernel's
 * mangled name ends in its parameter types, which a test need not spell. */
static inline const ptx_entry *ptx_entry_prefixed(const ptx_module *m, const char *prefix)
{
    for (size_t i = 0; i < m->n; ++i)
        if (strncmp(m->entries[i].name, prefix, strlen(prefix)) == 0)
            return &m->entries[i];
    return NULL;
}

/* Whether an instruction is a branch ("bra", "bra.uni") to label. */
static inline bool ptx_branches_to(ptx_span insn, ptx_span label)
{
    char op[16];
    if (!ptx_opcode(insn, op, sizeof op) || (strcmp(op, "bra") != 0 && strncmp(op, "bra.", 4) != 0))
        return false;
    const char *target = insn.begin + strlen(op);
    while (target < insn.end && (*target == ' ' || *target == '\t'))
        ++target;
    return insn.end - target == label.end - label.begin &&
           memcmp(target, label.begin, (size_t)(label.end - label.begin)) == 0;
}

/* The next loop of body whose label line starts at or after *at, with *at
 * moved past that label: the text from the label's line to the last branch
 * back to it, that branch included. The last, because a loop may branch
 * back from more than one place and all of them are inside it. A label
 * nothing branches back to (a forward target) heads no loop. False when no
 * loop is left. */
static inline bool ptx_next_loop(ptx_span body, const char **at, ptx_span *loop)
{
    for (ptx_span line; ptx_next_line(body, at, &line);) {
        ptx_span label = {line.begin, line.begin};
        while (label.end < line.end && *label.end != ':')
            ++label.end;
        if (line.begin == line.end || *line.begin != '$' || label.end == line.end)
            continue;
        const char *back = NULL;
        ptx_span insn;
        for (const char *p = *at; ptx_next_instruction(body, &p, &insn);)
            if (ptx_branches_to(insn, label))
                back = insn.end;
        if (back != NULL) {
            *loop = (ptx_span){line.begin, back};
            return true;
        }
    }
    return false;
}

#endif
