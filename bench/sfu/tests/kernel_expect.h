/* What the SFU benchmark's CUDA kernels are made of, for the tests that
 * read their code without a GPU: the approximate PTX instructions of every
 * function's versions (test_sfu_ptx.c, which says how the precise lists
 * were found) and, from the fast ones, the SFU instructions of its machine
 * code (test_sfu_sass.c). */
#ifndef CR_SFU_TESTS_KERNEL_EXPECT_H
#define CR_SFU_TESTS_KERNEL_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MAX_ILP 8   /* SFU_MAX_ILP of sfu/backend.h */
#define MAX_LIST 4  /* entries of an instruction list, NULL-terminated */

/* One function in one type: which instructions each version must show. */
typedef struct {
    const char *func, *type;
    const char *precise[MAX_LIST];      /* approximate instructions inside CUDA's precise function */
    const char *precise_also[MAX_LIST]; /* other instructions it must contain */
    bool has_intrinsic;
    const char *fast[MAX_LIST];         /* approximate instructions of the intrinsic and ptx versions */
    const char *fast_also[MAX_LIST];
    const char *constant;               /* an operand Li's version must use, or NULL */
} sfu_expect;

static const sfu_expect expects[] = {
    {"div", "f32", {NULL}, {"div.rn.f32"}, true, {"div.approx.ftz.f32"}, {NULL}, NULL},
    {"rcp", "f32", {NULL}, {"rcp.rn.f32"}, false, {"rcp.approx.ftz.f32"}, {NULL}, NULL},
    {"sqrt", "f32", {NULL}, {"sqrt.rn.f32"}, false, {"sqrt.approx.ftz.f32"}, {NULL}, NULL},
    {"rsqrt", "f32", {NULL}, {"sqrt.rn.f32", "rcp.rn.f32"}, true, {"rsqrt.approx.ftz.f32"}, {NULL}, NULL},
    {"pow", "f32", {"rcp.approx.ftz.f32"}, {NULL}, true, {"lg2.approx.ftz.f32", "ex2.approx.ftz.f32"},
     {"mul.ftz.f32"}, NULL},
    /* 0f3FB8AA3B = log2 e, 0f3F317218 = ln 2 (Li's Table 6.1). */
    {"exp", "f32", {"ex2.approx.ftz.f32"}, {NULL}, true, {"ex2.approx.ftz.f32"}, {"mul.ftz.f32"}, "0f3FB8AA3B"},
    {"log", "f32", {NULL}, {NULL}, true, {"lg2.approx.ftz.f32"}, {"mul.ftz.f32"}, "0f3F317218"},
    {"sin", "f32", {NULL}, {NULL}, true, {"sin.approx.ftz.f32"}, {NULL}, NULL},
    {"cos", "f32", {NULL}, {NULL}, true, {"cos.approx.ftz.f32"}, {NULL}, NULL},
    {"exp2", "f32", {"ex2.approx.f32"}, {NULL}, true, {"ex2.approx.ftz.f32"}, {NULL}, NULL},
    {"log2", "f32", {NULL}, {NULL}, true, {"lg2.approx.ftz.f32"}, {NULL}, NULL},
    {"tan", "f32", {"rcp.approx.ftz.f32"}, {NULL}, true,
     {"sin.approx.ftz.f32", "cos.approx.ftz.f32", "div.approx.ftz.f32"}, {NULL}, NULL},
    /* Table 6.2: the SFU has only the reciprocal and its square root in double. */
    {"div", "f64", {NULL}, {"div.rn.f64"}, false, {"rcp.approx.ftz.f64"}, {"mul.rn.f64"}, NULL},
    {"rcp", "f64", {NULL}, {"rcp.rn.f64"}, false, {"rcp.approx.ftz.f64"}, {NULL}, NULL},
    {"sqrt", "f64", {NULL}, {"sqrt.rn.f64"}, false, {"rsqrt.approx.ftz.f64", "rcp.approx.ftz.f64"}, {NULL}, NULL},
    {"rsqrt", "f64", {NULL}, {"sqrt.rn.f64", "rcp.rn.f64"}, false, {"rsqrt.approx.ftz.f64"}, {NULL}, NULL},
};
#define NEXPECTS (sizeof expects / sizeof expects[0])

/* The chain kernel "sfu_chain_<ver>_<func>_<type>_ilp<ilp>". */
static inline void kernel_name(char *buf, size_t len, const char *ver, const sfu_expect *x, int ilp)
{
    snprintf(buf, len, "sfu_chain_%s_%s_%s_ilp%d", ver, x->func, x->type, ilp);
}

#endif
