/* Reading machine code as cuobjdump -sass prints it, in a test, for what
 * can be checked of a kernel without a GPU: each function with the
 * architecture it was compiled for, its instructions in address order, and
 * its loops (a backward branch and the instructions from its target to
 * it). Plain text work, no assertions: each test says itself what a
 * missing function or loop means to it. */
#ifndef CR_TESTS_SASS_TEXT_H
#define CR_TESTS_SASS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned long addr;
    char text[96]; /* without the ';' and what follows; a longer one is cut, never dropped */
} sass_instr;

typedef struct {
    char name[128];
    char arch[16]; /* "sm_80", from the "code for sm_80" line above it */
    sass_instr *code;
    size_t n, cap;
} sass_function;

typedef struct {
    sass_function *fns;
    size_t n, cap;
} sass_listing;

/* "/ *0050* /   LDG.E.STRONG.SYS R0, [R2.64] ;" (without the spaces inside
 * the comment marks): the address and the instruction, or false. */
static inline bool sass_parse_line(const char *line, sass_instr *out)
{
    const char *open = strstr(line, "/*");
    char *end;
    if (open == NULL)
        return false;
    out->addr = strtoul(open + 2, &end, 16);
    if (end == open + 2 || strncmp(end, "*/", 2) != 0)
        return false;
    const char *text = end + 2;
    text += strspn(text, " \t");
    size_t len = strcspn(text, ";");
    if (len == 0 || text[len] != ';')
        return false;
    if (len >= sizeof out->text)
        len = sizeof out->text - 1;
    memcpy(out->text, text, len);
    out->text[len] = '\0';
    return true;
}

/* items, an array of n of size bytes each, with room for one more: items
 * itself, or grown (and *cap with it); NULL where memory runs out, items
 * being left as it was. */
static inline void *sass_room(void *items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return items;
    size_t grown_cap = *cap ? *cap * 2 : 64;
    void *grown = realloc(items, grown_cap * size);
    if (grown != NULL)
        *cap = grown_cap;
    return grown;
}

static inline void sass_free(sass_listing *l)
{
    for (size_t i = 0; i < l->n; ++i)
        free(l->fns[i].code);
    free(l->fns);
    memset(l, 0, sizeof *l);
}

/* Line by line: "code for sm_XX" sets the architecture, "Function : name"
 * opens a function (kept only where keep, if given, says so), and an
 * instruction line belongs to the function open above it. */
static inline bool sass_read_line(const char *line, sass_listing *l, bool (*keep)(const char *name), char *arch,
                                  sass_function **cur)
{
    const char *p;
    sass_instr in;
    if ((p = strstr(line, "code for ")) != NULL) {
        snprintf(arch, 16, "%.*s", (int)strcspn(p + 9, " \t\r\n"), p + 9);
    } else if ((p = strstr(line, "Function : ")) != NULL) {
        sass_function fn = {.n = 0};
        snprintf(fn.name, sizeof fn.name, "%.*s", (int)strcspn(p + 11, " \t\r\n"), p + 11);
        snprintf(fn.arch, sizeof fn.arch, "%s", arch);
        *cur = NULL;
        if (keep != NULL && !keep(fn.name))
            return true;
        sass_function *fns = sass_room(l->fns, l->n, &l->cap, sizeof *fns);
        if (fns == NULL)
            return false;
        l->fns = fns;
        l->fns[l->n] = fn;
        *cur = &l->fns[l->n++];
    } else if (*cur != NULL && sass_parse_line(line, &in)) {
        sass_instr *code = sass_room((*cur)->code, (*cur)->n, &(*cur)->cap, sizeof *code);
        if (code == NULL)
            return false;
        (*cur)->code = code;
        code[(*cur)->n++] = in;
    }
    return true;
}

/* Every function of a listing (cuobjdump -sass output) that keep accepts
 * (every one where keep is NULL); false where memory runs out. Free l
 * with sass_free either way. */
static inline bool sass_read(FILE *f, sass_listing *l, bool (*keep)(const char *name))
{
    char line[1024], arch[16] = "";
    sass_function *cur = NULL;
    while (fgets(line, sizeof line, f) != NULL)
        if (!sass_read_line(line, l, keep, arch, &cur))
            return false;
    return true;
}

/* The function called name, compiled for arch, or NULL. */
static inline const sass_function *sass_function_named(const sass_listing *l, const char *name, const char *arch)
{
    for (size_t i = 0; i < l->n; ++i)
        if (strcmp(l->fns[i].name, name) == 0 && strcmp(l->fns[i].arch, arch) == 0)
            return &l->fns[i];
    return NULL;
}

/* The opcode of an instruction ("MUFU.RCP"), without its guard predicate
 * (@!P0), as a string of at most size - 1 characters (cut where longer). */
static inline void sass_opcode(const sass_instr *in, char *op, size_t size)
{
    const char *p = in->text;
    if (*p == '@')
        p += strcspn(p, " \t");
    p += strspn(p, " \t");
    snprintf(op, size, "%.*s", (int)strcspn(p, " \t"), p);
}

/* The target of a branch (BRA, BRA.U, ...: its last operand, an address),
 * or false for any other instruction. */
static inline bool sass_branch_target(const sass_instr *in, unsigned long *target)
{
    char op[32];
    sass_opcode(in, op, sizeof op);
    const char *hex = strstr(in->text, "0x");
    if (strncmp(op, "BRA", 3) != 0 || (op[3] != '\0' && op[3] != '.') || hex == NULL)
        return false;
    for (const char *next; (next = strstr(hex + 2, "0x")) != NULL;)
        hex = next;
    *target = strtoul(hex, NULL, 16);
    return true;
}

/* The next loop at or after instruction *at: the instructions from a
 * backward branch's target (*first) to the branch (*last), and *at moved
 * past the branch. False when no backward branch is left. Loop with
 *     for (size_t at = 0, first, last; sass_next_loop(fn, &at, &first, &last);) */
static inline bool sass_next_loop(const sass_function *fn, size_t *at, size_t *first, size_t *last)
{
    for (size_t i = *at; i < fn->n; ++i) {
        unsigned long target;
        if (!sass_branch_target(&fn->code[i], &target) || target >= fn->code[i].addr)
            continue;
        for (size_t j = 0; j < i; ++j)
            if (fn->code[j].addr == target) {
                *first = j;
                *last = i;
                *at = i + 1;
                return true;
            }
    }
    *at = fn->n;
    return false;
}

/* Whether an instruction from first to last, both included, contains what
 * (a substring of its text). */
static inline bool sass_range_has(const sass_function *fn, size_t first, size_t last, const char *what)
{
    for (size_t i = first; i <= last && i < fn->n; ++i)
        if (strstr(fn->code[i].text, what) != NULL)
            return true;
    return false;
}

/* Whether an instruction from first to last has exactly the opcode op
 * ("MUFU.RCP" is not "MUFU.RCP64H"). */
static inline bool sass_range_has_opcode(const sass_function *fn, size_t first, size_t last, const char *op)
{
    char have[32];
    for (size_t i = first; i <= last && i < fn->n; ++i) {
        sass_opcode(&fn->code[i], have, sizeof have);
        if (strcmp(have, op) == 0)
            return true;
    }
    return false;
}

#endif
