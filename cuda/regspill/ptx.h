/* The regspill kernel's PTX, one entry per live-value count, generated at
 * build time by cuda/embed_ptx.sh from kernels.cu compiled with
 * -DRS_LIVE=N. The struct is repeated in the generated file: keep both equal. */
#ifndef CR_REGSPILL_PTX_H
#define CR_REGSPILL_PTX_H

#ifdef __cplusplus
extern "C" {
#endif

struct regspill_ptx {
    unsigned live;   /* the RS_LIVE the PTX was compiled with */
    const char *ptx; /* NUL-terminated PTX text */
};

extern const struct regspill_ptx regspill_ptx_table[];
extern const unsigned regspill_ptx_count;

#ifdef __cplusplus
}
#endif

#endif
